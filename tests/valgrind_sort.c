/* One small sort (plus a scan and a host sort) for Valgrind memcheck: the
 * library's host code must be clean (ctest valgrind). The Mesa libraries
 * stay loaded, so their allocations are reachable at exit: no suppressions.
 * Checks every result against qsort and a CPU prefix sum, so that a run
 * that computed nothing cannot pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLAD_GL_IMPLEMENTATION
#include <glad/gl.h>

#include <glradix/glradix.h>
#include <glradix/headless.h>

#include "pin_mesa.h"

enum { N = 5000 };

static int cmp_u32(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

int main(void) {
  test_pin_mesa(); /* Mesa's allocations stay reachable: no suppressions needed */
  glradix_headless *h = NULL;
  if (glradix_headless_create(&h) != GLRADIX_OK) {
    fprintf(stderr, "valgrind_sort: no headless OpenGL 4.3 context\n");
    return 1;
  }
  GladGLContext gl;
  if (!gladLoadGLContext(&gl, glradix_headless_load)) return 1;
  glradix_desc d = {0};
  d.load = glradix_headless_load;
  glradix_context *ctx = NULL;
  if (glradix_create(&d, &ctx) != GLRADIX_OK) return 1;
  static uint32_t keys[N], ref[N], out[N], host[N];
  uint32_t x = 12345;
  for (int i = 0; i < N; i++) {
    x = x * 1664525u + 1013904223u;
    keys[i] = ref[i] = host[i] = x >> 2;
  }
  qsort(ref, N, sizeof ref[0], cmp_u32);
  GLuint buf = 0;
  gl.GenBuffers(1, &buf);
  gl.BindBuffer(GL_COPY_WRITE_BUFFER, buf);
  gl.BufferData(GL_COPY_WRITE_BUFFER, sizeof keys, keys, GL_DYNAMIC_COPY);
  glradix_sort_desc sd = {0};
  sd.keys = buf;
  sd.count = N;
  int bad = glradix_sort(ctx, &sd) != GLRADIX_OK;
  gl.MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  gl.BindBuffer(GL_COPY_READ_BUFFER, buf);
  gl.GetBufferSubData(GL_COPY_READ_BUFFER, 0, sizeof out, out);
  bad |= memcmp(out, ref, sizeof out) != 0;
  glradix_scan_desc scan = {0};
  scan.input = scan.output = buf;
  scan.count = N;
  bad |= glradix_scan(ctx, &scan) != GLRADIX_OK;
  gl.MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  gl.GetBufferSubData(GL_COPY_READ_BUFFER, 0, sizeof out, out);
  for (uint32_t i = 0, sum = 0; i < N; sum += ref[i++]) bad |= out[i] != sum; /* exclusive */
  bad |= glradix_sort_host(ctx, host, NULL, N) != GLRADIX_OK;
  bad |= memcmp(host, ref, sizeof host) != 0;
  sd.keys = 0; /* an error path too */
  bad |= glradix_sort(ctx, &sd) != GLRADIX_ERROR_INVALID_ARGUMENT;
  gl.DeleteBuffers(1, &buf);
  glradix_destroy(ctx);
  glradix_headless_destroy(h);
  printf("valgrind_sort: %s\n", bad ? "WRONG RESULTS" : "ok");
  return bad;
}
