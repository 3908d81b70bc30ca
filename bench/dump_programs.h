#ifndef GLRADIX_BENCH_DUMP_PROGRAMS_H
#define GLRADIX_BENCH_DUMP_PROGRAMS_H
#include <stdio.h>

struct GladGLContext; /* glad/gl.h; not included here (glradix_bench.c defines its implementation) */

/* Writes every GL program's binary to dir; returns how many. */
int dump_programs(struct GladGLContext *gl, const char *dir, FILE *info);

#endif
