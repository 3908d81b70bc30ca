/* Writes the source of every program a context with the given radix_bits
 * builds (both key widths) to $GLRADIX_TEST_DUMP_DIR: linked against the
 * test-only glradix_shader_dump build, which writes instead of compiling
 * (and, with GLRADIX_TEST_AS_GPU, shapes them for a GPU's limits). Driven
 * by tests/shader_sources.sh. Exits 1 if no context can be made.
 *   dump_shaders RADIX_BITS */
#include <stdio.h>
#include <stdlib.h>

#include <glradix/glradix.h>
#include <glradix/headless.h>

#include "pin_mesa.h"

static void log_line(void *user, const char *line) {
  (void)user;
  fprintf(stderr, "%s\n", line);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: dump_shaders RADIX_BITS\n");
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
  glradix_status st = glradix_create(&d, &ctx);
  if (st != GLRADIX_OK) fprintf(stderr, "dump_shaders: glradix_create failed (%d)\n", (int)st);
  glradix_destroy(ctx);
  glradix_headless_destroy(h);
  return st == GLRADIX_OK ? 0 : 1;
}
