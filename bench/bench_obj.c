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

/* The box of triangle (a, b, c) of `v` appended to `boxes`. */
static int push_box(growing *boxes, const float *v, long a, long b, long c) {
  float box[8] = {0};
  for (int k = 0; k < 3; k++) {
    const float x = v[3 * a + k], y = v[3 * b + k], z = v[3 * c + k];
    box[k] = x < y ? (x < z ? x : z) : (y < z ? y : z);
    box[4 + k] = x > y ? (x > z ? x : z) : (y > z ? y : z);
  }
  return push(boxes, box, 8);
}

/* A face line's vertices fanned into triangles; a message on failure. */
static const char *face(char *rest, const growing *verts, growing *boxes) {
  long first = -1, prev = -1;
  int corners = 0;
  for (char *tok = strtok(rest, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n"), corners++) {
    const long at = vertex_index(tok, verts->count / 3);
    if (at < 0) return "a face vertex that is not a vertex of the lines above it";
    if (corners >= 2 && push_box(boxes, verts->data, first, prev, at)) return "out of memory";
    if (corners == 0) first = at;
    prev = at;
  }
  return corners < 3 ? "a face of fewer than three vertices" : NULL;
}

float *bench_obj_load(const char *path, uint32_t *count, char *why, size_t why_size) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(why, why_size, "cannot open %s: %s", path, strerror(errno));
    return NULL;
  }
  growing verts = {0}, boxes = {0};
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
      bad = face(line + 2, &verts, &boxes);
    }
  }
  if (!bad && ferror(f)) bad = "a read error";
  fclose(f);
  free(verts.data);
  if (bad) snprintf(why, why_size, "%s:%lu: %s", path, number, bad);
  else if (boxes.count == 0) snprintf(why, why_size, "%s has no triangle (no f lines)", path);
  else if (boxes.count / 8 > UINT32_MAX) snprintf(why, why_size, "%s has over 2^32 triangles", path);
  if (bad || boxes.count == 0 || boxes.count / 8 > UINT32_MAX) {
    free(boxes.data);
    return NULL;
  }
  *count = (uint32_t)(boxes.count / 8);
  return boxes.data;
}
