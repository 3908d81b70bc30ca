/* glradix-bench --lbvh --scene: the primitives the LBVH is built over. */
#include "bench_scene.h"

#include "bench_lbvh.h"
#include "bench_obj.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[BENCH_SCENE_COUNT] = {"boxes", "mesh", "obj"};

/* the file BENCH_SCENE_FILE stands for, read once */
static float *file_boxes;
static uint32_t file_count;

int bench_scene_load(const char *path, uint32_t *count, char *why, size_t why_size) {
  free(file_boxes);
  file_boxes = bench_obj_load(path, &file_count, why, why_size);
  *count = file_boxes ? file_count : 0;
  return file_boxes == NULL;
}

const char *bench_scene_name(bench_scene s) { return s < BENCH_SCENE_COUNT ? names[s] : "?"; }

int bench_scene_parse(const char *s, bench_scene *out) {
  for (int i = 0; s && i < BENCH_SCENE_FILE; ++i)
    if (strcmp(s, names[i]) == 0) {
      *out = (bench_scene)i;
      return 0;
    }
  return -1;
}

/* Rolling terrain: a few octaves of sines at unrelated frequencies, so no
 * octave lines up with the grid or with the Morton cells, heights 12 +- 11. */
static float height(double x, double z) {
  return (float)(12.0 + 5.0 * sin(0.061 * x + 0.5) * cos(0.047 * z) +
                 3.0 * sin(0.13 * x + 0.11 * z) + 1.6 * sin(0.29 * z - 0.21 * x + 1.0) +
                 0.8 * sin(0.67 * x) * sin(0.59 * z) + 0.4 * sin(1.37 * x + 1.21 * z));
}

static void mesh(float *b, uint32_t n) {
  /* the smallest W with 2 W^2 >= n: a square grid when n allows one */
  uint32_t w = (uint32_t)sqrt((double)n / 2.0);
  while (2.0 * w * w < (double)n) ++w;
  const double cell = 100.0 / w;
  for (uint32_t t = 0; t < n; ++t) {
    const uint32_t i = (t / 2) % w, j = t / 2 / w;
    /* a cell's diagonal from (i, j) to (i+1, j+1); triangle 0 below it, 1 above */
    const uint32_t vi[3] = {i, i + 1, t & 1 ? i : i + 1};
    const uint32_t vj[3] = {j, j + 1, t & 1 ? j + 1 : j};
    float lo[3], hi[3];
    for (int v = 0; v < 3; ++v) {
      /* the same (i, j) gives the same vertex in every triangle that shares it */
      const float p[3] = {(float)(vi[v] * cell), height(vi[v] * cell, vj[v] * cell),
                          (float)(vj[v] * cell)};
      for (int c = 0; c < 3; ++c) {
        lo[c] = v == 0 || p[c] < lo[c] ? p[c] : lo[c];
        hi[c] = v == 0 || p[c] > hi[c] ? p[c] : hi[c];
      }
    }
    float *o = &b[8 * (size_t)t];
    for (int c = 0; c < 3; ++c) {
      o[c] = lo[c];
      o[4 + c] = hi[c];
    }
    o[3] = o[7] = 0.0f;
  }
}

void bench_scene_make(bench_scene s, float *b, uint32_t n) {
  if (s == BENCH_SCENE_MESH)
    mesh(b, n);
  else if (s == BENCH_SCENE_FILE)
    memcpy(b, file_boxes, (size_t)(n < file_count ? n : file_count) * 8 * sizeof *b);
  else
    bench_lbvh_boxes(b, n);
}
