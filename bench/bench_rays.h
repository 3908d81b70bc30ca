/* glradix-bench --lbvh --rays: closest-hit primary rays through the
 * installed GLSL traversal (glradix/lbvh.glsl) over the tree just built. */
#ifndef GLRADIX_BENCH_RAYS_H
#define GLRADIX_BENCH_RAYS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct GladGLContext; /* glad/gl.h: the bench's own GL table */

enum {
  BENCH_RAYS_SIZE = 1024,   /* --rays-size default: a 1024 x 1024 image, 1M rays */
  BENCH_RAYS_GRID = 16      /* --verify: a 16 x 16 grid of rays checked against a
                               brute-force CPU closest hit */
};

typedef struct bench_rays_result {
  uint32_t size;  /* the image is size x size pixels, one ray each */
  double ms;      /* median GPU time of the dispatch that traces them all */
  double hit;     /* the fraction of the rays that hit a primitive */
  uint32_t checked, bad; /* --verify: rays compared with the CPU, and how many disagreed */
} bench_rays_result;

/* Traces one ray per pixel of a size x size image from a camera outside the
 * scene (above one corner of the n boxes' bounding box, looking at its
 * centre with a 45-degree field of view, close enough that the scene fills
 * most of the image) with glradix_lbvh_closest_hit over the tree in
 * `nodes`, the primitive being its own box in `bounds` (solid: a ray meets
 * it where it enters). b: the same boxes on the host, 8 floats each (vec4
 * min, vec4 max). The dispatch is timed with a GL_TIMESTAMP pair, the
 * median of `repeat` timed runs (bench_time.h's warm-ups first). With
 * verify, the rays
 * of a BENCH_RAYS_GRID x BENCH_RAYS_GRID grid of pixels over the image
 * (every ray of a smaller image) are compared with a brute-force closest
 * hit on the CPU, with the float tolerance of the traversal's own tests.
 * 0, or 1 with a message on stderr when the program does not build, GL
 * fails or a ray disagrees. Works on OpenGL ES 3.1 too. */
int bench_rays_run(struct GladGLContext *gl, unsigned bounds, unsigned nodes, const float *b,
                   uint32_t n, uint32_t size, unsigned repeat, int verify,
                   bench_rays_result *r);

/* "rays: n=... scene=... rays=... ms=... Mrays/s=..." and the rest. */
void bench_rays_print(FILE *f, uint32_t n, const char *scene, const bench_rays_result *r);

/* ",rays,rays_ms,mrays_per_s,rays_hit" for the end of a CSV row. */
void bench_rays_csv(char *buf, size_t len, const bench_rays_result *r);

#endif
