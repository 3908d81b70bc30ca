/* Writes the source of every program a context with the given radix_bits
 * builds (every key width and tile) to DIR instead of compiling it (the
 * library's test hook, src/testing.h); with SHARED_BYTES, shaped as for a
 * GPU with that much shared memory, and with SUBGROUP_SIZE as for its
 * subgroups. Driven by tests/shader_sources.sh. Exits 1 if no context can
 * be made.
 *   dump_shaders RADIX_BITS DIR [SHARED_BYTES [SUBGROUP_SIZE]] */
#include <stdio.h>
#include <stdlib.h>

#include <glradix/glradix.h>
#include <glradix/headless.h>

#include "pin_mesa.h"
#include "testing.h"

static void log_line(void *user, const char *line) {
  (void)user;
  fprintf(stderr, "%s\n", line);
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 5) {
    fprintf(stderr, "usage: dump_shaders RADIX_BITS DIR [SHARED_BYTES [SUBGROUP_SIZE]]\n");
    return 2;
  }
  test_pin_mesa(); /* Mesa's own leaks keep their names for tests/lsan.supp */
  glradix_headless *h = NULL;
  if (glradix_headless_create(&h) != GLRADIX_OK) {
    fprintf(stderr, "dump_shaders: no headless OpenGL 4.3 context\n");
    return 1;
  }
  glradix_desc d = {0};
  d.load = glradix_headless_load;
  d.radix_bits = (unsigned)atoi(argv[1]);
  d.log = log_line;
  glradix_context *ctx = NULL;
  _glradix_test_hooks hooks = _GLRADIX_TEST_HOOKS_NONE;
  hooks.dump_dir = argv[2];
  if (argc > 3) hooks.as_gpu_shared = atoll(argv[3]);
  if (argc > 4) hooks.subgroup_size = (unsigned)atoi(argv[4]);
  glradix_status st = _glradix_create_for_tests(&d, &hooks, &ctx);
  if (st != GLRADIX_OK) fprintf(stderr, "dump_shaders: glradix_create failed (%d)\n", (int)st);
  glradix_destroy(ctx);
  glradix_headless_destroy(h);
  return st == GLRADIX_OK ? 0 : 1;
}
