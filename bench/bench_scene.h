/* glradix-bench --lbvh --scene: the primitives the LBVH is built over. */
#ifndef GLRADIX_BENCH_SCENE_H
#define GLRADIX_BENCH_SCENE_H

#include <stddef.h>
#include <stdint.h>

typedef enum bench_scene {
  BENCH_SCENE_BOXES, /* bench_lbvh_boxes: small random boxes in a 100-unit cube, in no order */
  BENCH_SCENE_MESH,  /* the triangles' boxes of a terrain heightfield, in mesh order */
  BENCH_SCENE_FILE,  /* the triangles' boxes of an OBJ file (bench_scene_load), in its order */
  BENCH_SCENE_COUNT
} bench_scene;

/* "boxes", "mesh" (as --scene spells them) or "obj". */
const char *bench_scene_name(bench_scene s);

/* Parses one --scene name; 0, or -1 for an unknown one. */
int bench_scene_parse(const char *s, bench_scene *out);

/* Reads the OBJ file that BENCH_SCENE_FILE stands for from then on (its
 * triangle count in *count); nonzero, with why, if it cannot
 * (bench_obj.h). */
int bench_scene_load(const char *path, uint32_t *count, char *why, size_t why_size);

/* n primitives of scene s, vec4 min and vec4 max each (8 floats, .w 0);
 * the same s and n give the same boxes.
 *
 * mesh: a heightfield over the 100 x 100 square of the random boxes' cube
 * (x and z; heights y between about 2 and 21), a grid of W = ceil(sqrt(n/2))
 * square cells a row, each cell two triangles. Triangles are stored in mesh
 * order, row by row and cell by cell, the two of a cell side by side, as a
 * mesh's index buffer keeps neighbours near each other in memory; the last
 * row is cut off after the n-th triangle, so the count is exactly n.
 * file: the first n of the loaded file's boxes (n at most its count). */
void bench_scene_make(bench_scene s, float *b, uint32_t n);

#endif
