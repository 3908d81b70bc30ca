/* glradix-bench --scene FILE.obj and glradix-demo --obj FILE: the
 * triangles of a Wavefront OBJ file. */
#ifndef GLRADIX_BENCH_OBJ_H
#define GLRADIX_BENCH_OBJ_H

#include <stddef.h>
#include <stdint.h>

/* Reads the `v` and `f` lines of an OBJ file (faces of three or more
 * vertices, fanned into triangles; indices 1-based or negative, as
 * `i`, `i/t`, `i//n` or `i/t/n`; other lines ignored) and returns each
 * triangle's box, vec4 min and vec4 max (8 floats, .w 0), in the file's
 * order, malloc'ed, with their count. NULL, with one line saying why in
 * `why` (the file, and the line where it is malformed), for a file that
 * cannot be read, has no triangle, or is malformed. */
float *bench_obj_load(const char *path, uint32_t *count, char *why, size_t why_size);

/* The same file's triangles themselves: three vertices each, x, y, z and
 * a 0 (12 floats a triangle), in the file's order. */
float *bench_obj_triangles(const char *path, uint32_t *count, char *why, size_t why_size);

#endif
