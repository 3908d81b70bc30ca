/* glradix-bench --lbvh: Morton codes + sort + LBVH build, timed on the GPU. */
#ifndef GLRADIX_BENCH_LBVH_H
#define GLRADIX_BENCH_LBVH_H

#include <stdint.h>
#include <stdio.h>

#include <glradix/glradix.h>
#include <glradix/lbvh.h>

#include "bench_scene.h"

struct GladGLContext; /* glad/gl.h: the bench's own GL table */

/* Runs one row per size: n random boxes, glradix_lbvh_build timed with a
 * GL_TIMESTAMP pair (median of `repeat` after bench_time.h's warm-ups); with verify, the
 * tree is checked on the CPU (each primitive reached once from the root,
 * leaf boxes equal to the primitives', internal boxes the exact union of
 * their children). Rows as glradix-bench's CSV with impl "glradix-lbvh"
 * (key_bits = morton bits). Returns 0, or 1 if a build or check failed. */
/* n small random boxes in a 100-unit cube, vec4 min and vec4 max each (8
 * floats); the same n gives the same boxes. */
void bench_lbvh_boxes(float *b, uint32_t n);

/* Checks a tree of n boxes read back from glradix_lbvh_build: each
 * primitive reached once from the root, leaf boxes equal to the
 * primitives', internal boxes the exact union of their children. 1 if
 * right, 0 and a reason if not. */
int bench_lbvh_check(const glradix_lbvh_node *nodes, const float *b, uint32_t n, char *why,
                     size_t len);

/* What bench_lbvh runs, besides the sizes. */
typedef struct bench_lbvh_run {
  unsigned morton_bits, repeat;
  int verify, csv;
  int imported;       /* bounds and nodes from glradix_buffer_create */
  int quality;        /* glradix_lbvh_desc.quality: rows say impl glradix-lbvh-quality */
  bench_scene scene;  /* the primitives (bench_scene.h) */
  /* the tree's SAH cost beside a CPU binned build's (bench_sah.h), a line
   * on info and, with csv, three more columns (sah_lbvh, sah_binned,
   * sah_ratio) */
  int sah;
  int stages;         /* (a context with desc.profile) each step's median time,
                         for the build and the refit */
  /* nonzero: closest-hit rays through the built tree, one per pixel of a
   * rays x rays image (bench_rays.h), a line on info and, with csv, four
   * more columns that follow those (rays, rays_ms, mrays_per_s, rays_hit);
   * checked with verify */
  uint32_t rays;
  FILE *info;
} bench_lbvh_run;

/* Also times glradix_lbvh_refit of each tree. */
int bench_lbvh(struct GladGLContext *gl, glradix_context *ctx, const uint32_t *sizes, size_t nsizes,
               const bench_lbvh_run *run);

#endif
