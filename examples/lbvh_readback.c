/* An LBVH over primitive boxes built on the GPU (headless here), then the
 * nodes read back: the root box, the tree depth and a leaf count.
 *   cc lbvh_readback.c $(pkg-config --cflags --libs glradix)  */
#include <stdio.h>
#include <stdlib.h>

#define GLAD_GL_IMPLEMENTATION
#include <glad/gl.h>
#include <glradix/glradix.h>
#include <glradix/headless.h>
#include <glradix/lbvh.h>

static unsigned depth(const glradix_lbvh_node *nodes, uint32_t i, unsigned *leaves) {
  if (nodes[i].b == GLRADIX_LBVH_LEAF) { ++*leaves; return 1; }
  unsigned l = depth(nodes, nodes[i].a, leaves), r = depth(nodes, nodes[i].b, leaves);
  return 1 + (l > r ? l : r);
}

int main(void) {
  glradix_headless *h;
  if (glradix_headless_create(&h) != GLRADIX_OK) return 1;
  GladGLContext gl;
  gladLoadGLContext(&gl, glradix_headless_load);
  glradix_desc desc = {0};
  desc.load = glradix_headless_load;
  glradix_context *ctx;
  if (glradix_create(&desc, &ctx) != GLRADIX_OK) return 1;

  enum { N = 10000 };
  static float boxes[N][8]; /* vec4 min, vec4 max */
  for (int i = 0; i < N; i++)
    for (int c = 0; c < 3; c++) {
      float lo = (float)((i * 7919 + c * 104729) % 10007) / 100.0f;
      boxes[i][c] = lo;
      boxes[i][4 + c] = lo + 0.5f;
    }
  GLuint buf[2];
  gl.GenBuffers(2, buf);
  gl.BindBuffer(GL_COPY_WRITE_BUFFER, buf[0]);
  gl.BufferData(GL_COPY_WRITE_BUFFER, sizeof boxes, boxes, GL_STATIC_DRAW);
  gl.BindBuffer(GL_COPY_WRITE_BUFFER, buf[1]);
  gl.BufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)glradix_lbvh_nodes_bytes(N), NULL, GL_DYNAMIC_COPY);

  glradix_lbvh_desc lbvh = {0};
  lbvh.bounds = buf[0];
  lbvh.count = N;
  lbvh.nodes = buf[1]; /* scene box computed on the GPU; 30-bit codes */
  glradix_status st = glradix_lbvh_build(ctx, &lbvh);

  glradix_lbvh_node *nodes = malloc(glradix_lbvh_nodes_bytes(N));
  gl.BindBuffer(GL_COPY_READ_BUFFER, buf[1]);
  gl.GetBufferSubData(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)glradix_lbvh_nodes_bytes(N), nodes);
  unsigned leaves = 0, d = depth(nodes, 0, &leaves);
  printf("lbvh_readback: %s; root box (%.2f %.2f %.2f)-(%.2f %.2f %.2f), depth %u, %u leaves\n",
         glradix_status_string(st), nodes[0].min[0], nodes[0].min[1], nodes[0].min[2],
         nodes[0].max[0], nodes[0].max[1], nodes[0].max[2], d, leaves);
  int ok = st == GLRADIX_OK && leaves == N;
  free(nodes);
  gl.DeleteBuffers(2, buf);
  glradix_destroy(ctx);
  glradix_headless_destroy(h);
  return ok ? 0 : 1;
}
