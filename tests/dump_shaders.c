/* Writes the source of every program a context builds (every key width
 * and tile) to WORK/<config>/r<radix_bits>/ instead of compiling it (the
 * library's test hook, src/testing.h), for every radix width and four
 * configurations: cpu (the driver's own limits, llvmpipe in CI) and, as a
 * GPU's limits would shape them, gpu48 (48 KB of shared memory), gpu48_
 * subgroup32 (and 32-wide subgroups), gpu32 (32 KB) and gpu16_128 (16 KB
 * and 128 invocations, OpenGL ES 3.1's least). One context at a
 * time on one headless display, of the API GLRADIX_EGL_API asks for (gles:
 * the sources as OpenGL ES gets them). Driven by tests/shader_sources.sh. Exits 1
 * if a context cannot be made or a folder written.
 *   dump_shaders WORK */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <glradix/glradix.h>
#include <glradix/headless.h>

#include "pin_mesa.h"
#include "testing.h"

static void log_line(void *user, const char *line) {
  (void)user;
  fprintf(stderr, "%s\n", line);
}

typedef struct config {
  const char *name;
  int64_t shared; /* 0: the driver's limits */
  unsigned subgroup_size;
  int invocations;
} config;

static const config CONFIGS[] = {{"cpu", 0, 0, 0},
                                 {"gpu48", 49152, 0, 1024},
                                 {"gpu48_subgroup32", 49152, 32, 1024},
                                 {"gpu32", 32768, 0, 1024},
                                 {"gpu16_128", 16384, 0, 128}};

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: dump_shaders WORK\n");
    return 2;
  }
  test_pin_mesa(); /* Mesa's own leaks keep their names for tests/lsan.supp */
  glradix_headless *h = NULL;
  if (glradix_headless_create(&h) != GLRADIX_OK) {
    fprintf(stderr, "dump_shaders: no headless context (GLRADIX_EGL_API)\n");
    return 1;
  }
  int failed = 0;
  for (size_t c = 0; c < sizeof CONFIGS / sizeof CONFIGS[0]; c++)
    for (unsigned bits = 2; bits <= 8; bits *= 2) {
      char dir[1024];
      snprintf(dir, sizeof dir, "%s/%s", argv[1], CONFIGS[c].name);
      mkdir(dir, 0755);
      snprintf(dir, sizeof dir, "%s/%s/r%u", argv[1], CONFIGS[c].name, bits);
      mkdir(dir, 0755);
      glradix_desc d = {0};
      d.load = glradix_headless_load;
      d.radix_bits = bits;
      d.log = log_line;
      _glradix_test_hooks hooks = _GLRADIX_TEST_HOOKS_NONE;
      hooks.dump_dir = dir;
      hooks.gpu_forms = CONFIGS[c].shared != 0;
      hooks.max_shared = CONFIGS[c].shared;
      hooks.subgroup_size = CONFIGS[c].subgroup_size;
      hooks.max_invocations = CONFIGS[c].invocations;
      glradix_context *ctx = NULL;
      glradix_status st = _glradix_create_for_tests(&d, &hooks, &ctx);
      if (st != GLRADIX_OK) {
        fprintf(stderr, "dump_shaders: %s radix_bits %u: create failed (%d)\n", CONFIGS[c].name,
                bits, (int)st);
        failed = 1;
      }
      glradix_destroy(ctx);
    }
  glradix_headless_destroy(h);
  return failed;
}
