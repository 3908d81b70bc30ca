/*
 * The built-in scene: points on the surfaces of a few thousand random
 * spheres (clustered, so that the Morton order and the LBVH have structure
 * to show), and their 30-bit Morton codes in the scene box. Deterministic
 * for a given (n, seed): splitmix64, no libc rand. Or an OBJ file's
 * triangles (--obj), their centroids the points.
 */
#include "demo.h"

#include "bench_obj.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng;
static float rand01(void) {
  uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (float)((z ^ (z >> 31)) >> 40) * (1.0f / 16777216.0f);
}

/* Spreads the low 10 bits of v so that two zero bits follow each one. */
static uint32_t expand_bits(uint32_t v) {
  v = (v * 0x00010001u) & 0xFF0000FFu;
  v = (v * 0x00000101u) & 0x0F00F00Fu;
  v = (v * 0x00000011u) & 0xC30C30C3u;
  v = (v * 0x00000005u) & 0x49249249u;
  return v;
}

static uint32_t quant10(float t) {
  float f = t * 1024.0f;
  return f <= 0.0f ? 0u : f >= 1023.0f ? 1023u : (uint32_t)f;
}

/* Each point's code in the scene box. */
static void scene_codes(demo_scene *s) {
  for (uint32_t i = 0; i < s->n; ++i) {
    const float *b = s->bounds + (size_t)i * 8;
    uint32_t q[3];
    for (int a = 0; a < 3; ++a) {
      float ext = s->hi[a] - s->lo[a];
      q[a] = quant10(ext > 0.0f ? (b[a] - s->lo[a]) / ext : 0.0f);
    }
    s->codes[i] = expand_bits(q[0]) << 2 | expand_bits(q[1]) << 1 | expand_bits(q[2]);
  }
}

int scene_make(demo_scene *s, uint32_t n, uint64_t seed) {
  enum { CLUSTERS = 12 };
  float cl[CLUSTERS][4];
  uint32_t spheres = n / 16u;
  rng = seed * 0x2545f4914f6cdd1dull + 1u;
  if (spheres < 1u) spheres = 1u;
  if (spheres > 3000u) spheres = 3000u;
  s->n = n;
  s->bounds = malloc((size_t)n * 8 * sizeof(float));
  s->codes = malloc((size_t)n * sizeof(uint32_t));
  if (!s->bounds || !s->codes) return 0;
  for (int c = 0; c < CLUSTERS; ++c) {
    for (int a = 0; a < 3; ++a) cl[c][a] = rand01() * 1.6f - 0.8f;
    cl[c][3] = 0.1f + 0.25f * rand01(); /* cluster spread */
  }
  for (int a = 0; a < 3; ++a) {
    s->lo[a] = 1e30f;
    s->hi[a] = -1e30f;
  }
  const uint32_t per = (n + spheres - 1u) / spheres; /* points per sphere */
  float centre[3] = {0, 0, 0}, radius = 0.0f;
  for (uint32_t i = 0; i < n; ++i) {
    /* A new sphere every n / spheres points: centre near a cluster. */
    if (i % per == 0u) {
      const float *c = cl[(int)(rand01() * CLUSTERS) % CLUSTERS];
      for (int a = 0; a < 3; ++a) centre[a] = c[a] + c[3] * (rand01() + rand01() - 1.0f);
      radius = 0.01f + 0.05f * rand01() * rand01();
    }
    /* Uniform on the sphere: z uniform in [-1,1], angle uniform. */
    float z = rand01() * 2.0f - 1.0f, phi = rand01() * 6.2831853f, r = sqrtf(1.0f - z * z);
    float p[3] = {centre[0] + radius * r * cosf(phi), centre[1] + radius * r * sinf(phi),
                  centre[2] + radius * z};
    float *b = s->bounds + (size_t)i * 8;
    for (int a = 0; a < 3; ++a) {
      b[a] = b[4 + a] = p[a];
      if (p[a] < s->lo[a]) s->lo[a] = p[a];
      if (p[a] > s->hi[a]) s->hi[a] = p[a];
    }
    b[3] = b[7] = 1.0f;
  }
  scene_codes(s);
  return 1;
}

int scene_load_obj(demo_scene *s, const char *path) {
  char why[512];
  uint32_t n = 0;
  memset(s, 0, sizeof *s);
  s->tris = bench_obj_triangles(path, &n, why, sizeof why);
  if (!s->tris) {
    fprintf(stderr, "glradix-demo: --obj: %s\n", why);
    return 0;
  }
  s->n = n;
  s->bounds = malloc((size_t)n * 8 * sizeof(float));
  s->codes = malloc((size_t)n * sizeof(uint32_t));
  if (!s->bounds || !s->codes) {
    fputs("glradix-demo: out of memory\n", stderr);
    return 0;
  }
  for (int a = 0; a < 3; ++a) {
    s->lo[a] = 1e30f;
    s->hi[a] = -1e30f;
  }
  for (uint32_t i = 0; i < n; ++i) {
    const float *t = s->tris + (size_t)i * 12;
    float *b = s->bounds + (size_t)i * 8;
    for (int a = 0; a < 3; ++a) {
      b[a] = b[4 + a] = (t[a] + t[4 + a] + t[8 + a]) / 3.0f;
      for (int v = 0; v < 3; ++v) {
        if (t[4 * v + a] < s->lo[a]) s->lo[a] = t[4 * v + a];
        if (t[4 * v + a] > s->hi[a]) s->hi[a] = t[4 * v + a];
      }
    }
    b[3] = b[7] = 1.0f;
  }
  scene_codes(s);
  return 1;
}

void scene_free(demo_scene *s) {
  free(s->bounds);
  free(s->codes);
  free(s->tris);
  s->bounds = NULL;
  s->codes = NULL;
  s->tris = NULL;
}
