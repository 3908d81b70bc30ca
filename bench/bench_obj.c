/* glradix-bench --scene FILE.obj: see bench_obj.h. */
#include "bench_obj.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct growing {
  float *data;
  size_t count, capacity; /* in floats */
} growing;

static int push(growing *g, const float *v, size_t n) {
  if (g->count + n > g->capacity) {
    size_t capacity = g->capacity ? g->capacity * 2 : 1024;
    while (capacity < g->count + n) capacity *= 2;
    float *data = realloc(g->data, capacity * sizeof *data);
    if (!data) return -1;
    g->data = data;
    g->capacity = capacity;
  }
  memcpy(g->data + g->count, v, n * sizeof *v);
  g->count += n;
  return 0;
}

/* One face vertex ("i", "i/t", "i//n", "i/t/n"): its 0-based vertex index
 * among `vertices`, or -1 if it is not a number or out of range. */
static long vertex_index(const char *tok, size_t vertices) {
  char *end = NULL;
  errno = 0;
  long i = strtol(tok, &end, 10);
  if (errno || end == tok || (*end && *end != '/') || i == 0) return -1;
  long at = i > 0 ? i - 1 : (long)vertices + i;
  return at >= 0 && (size_t)at < vertices ? at : -1;
}

/* Triangle (a, b, c) of `v` appended to `tris`: 12 floats. */
static int push_triangle(growing *tris, const float *v, long a, long b, long c) {
  float t[12] = {0};
  const long corner[3] = {a, b, c};
  for (int i = 0; i < 3; i++) memcpy(t + 4 * i, v + 3 * corner[i], 3 * sizeof *t);
  return push(tris, t, 12);
}

/* A face line's vertices fanned into triangles; a message on failure. */
static const char *face(char *rest, const growing *verts, growing *tris) {
  long first = -1, prev = -1;
  int corners = 0;
  for (char *tok = strtok(rest, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n"), corners++) {
    const long at = vertex_index(tok, verts->count / 3);
    if (at < 0) return "a face vertex that is not a vertex of the lines above it";
    if (corners >= 2 && push_triangle(tris, verts->data, first, prev, at)) return "out of memory";
    if (corners == 0) first = at;
    prev = at;
  }
  return corners < 3 ? "a face of fewer than three vertices" : NULL;
}

float *bench_obj_triangles(const char *path, uint32_t *count, char *why, size_t why_size) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(why, why_size, "cannot open %s: %s", path, strerror(errno));
    return NULL;
  }
  growing verts = {0}, tris = {0};
  char line[4096];
  const char *bad = NULL;
  unsigned long number = 0;
  while (!bad && fgets(line, sizeof line, f)) {
    number++;
    if (!strchr(line, '\n') && !feof(f)) bad = "a line longer than 4095 characters";
    else if (strncmp(line, "v ", 2) == 0 || strncmp(line, "v\t", 2) == 0) {
      float v[3];
      if (sscanf(line + 2, "%f %f %f", &v[0], &v[1], &v[2]) != 3) bad = "a vertex without x, y and z";
      else if (push(&verts, v, 3)) bad = "out of memory";
    } else if (strncmp(line, "f ", 2) == 0 || strncmp(line, "f\t", 2) == 0) {
      bad = face(line + 2, &verts, &tris);
    }
  }
  if (!bad && ferror(f)) bad = "a read error";
  fclose(f);
  free(verts.data);
  const size_t n = tris.count / 12;
  if (bad) snprintf(why, why_size, "%s:%lu: %s", path, number, bad);
  else if (n == 0) snprintf(why, why_size, "%s has no triangle (no f lines)", path);
  else if (n > UINT32_MAX) snprintf(why, why_size, "%s has over 2^32 triangles", path);
  if (bad || n == 0 || n > UINT32_MAX) {
    free(tris.data);
    return NULL;
  }
  *count = (uint32_t)n;
  return tris.data;
}

float *bench_obj_load(const char *path, uint32_t *count, char *why, size_t why_size) {
  float *t = bench_obj_triangles(path, count, why, why_size);
  float *boxes = t ? calloc((size_t)*count * 8, sizeof *boxes) : NULL;
  if (t && !boxes) snprintf(why, why_size, "%s: out of memory", path);
  for (size_t i = 0; boxes && i < *count; i++)
    for (int k = 0; k < 3; k++) {
      const float x = t[12 * i + k], y = t[12 * i + 4 + k], z = t[12 * i + 8 + k];
      boxes[8 * i + k] = x < y ? (x < z ? x : z) : (y < z ? y : z);
      boxes[8 * i + 4 + k] = x > y ? (x > z ? x : z) : (y > z ? y : z);
    }
  free(t);
  return boxes;
}
