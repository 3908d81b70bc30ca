// The public headers must compile as C++ (-Wall -Wextra -Wpedantic -Werror)
// and link: extern "C" on every declaration.
#include <glradix/glradix.h>
#include <glradix/headless.h>
#include <glradix/lbvh.h>

#include <cstdio>

// Declared as glfwGetProcAddress, eglGetProcAddress and glad's loaders are:
// it must assign to glradix_desc.load without a cast.
typedef void (*app_glproc)(void);
static app_glproc app_get_proc_address(const char *) { return nullptr; }

int main() {
  glradix_desc desc = {};
  desc.load = app_get_proc_address;
  if (desc.load("glGetString") != nullptr) return 1;
  desc.load = glradix_headless_load;
  glradix_sort_desc sort = {};
  sort.count = 0;
  int major = 0, minor = 0, patch = 0;
  glradix_version(&major, &minor, &patch);
  glradix_destroy(nullptr);
  static_assert(sizeof(glradix_lbvh_node) == 32, "node layout is 32 bytes");
  if (glradix_lbvh_nodes_bytes(2) != 3 * 32 + 16 + 16) return 1; // 3 nodes, 3 parent words, 2 primitives
  if (glradix_buffer_create(nullptr, 16, nullptr) != GLRADIX_ERROR_INVALID_ARGUMENT ||
      glradix_buffer_destroy(nullptr, 1) != GLRADIX_ERROR_INVALID_ARGUMENT ||
      glradix_buffer_imported(nullptr, 1) != 0)
    return 1;
  if (glradix_lbvh_refit(nullptr, nullptr) != GLRADIX_ERROR_INVALID_ARGUMENT) return 1;
  glradix_desc q = glradix_query_desc(nullptr);
  const char *s = glradix_status_string(GLRADIX_ERROR_TOO_LARGE);
  if (major != GLRADIX_VERSION_MAJOR || minor != GLRADIX_VERSION_MINOR ||
      patch != GLRADIX_VERSION_PATCH || q.radix_bits != 0 || !s ||
      desc.load == nullptr || sort.count != 0 || GLRADIX_DEFAULT_RADIX_BITS == 0)
    return 1;
  std::printf("cxx ok: %s\n", s);
  return 0;
}
