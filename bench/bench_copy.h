/* glradix-bench --copy: a plain compute-shader copy, the yardstick for the
 * bytes a sort pass moves (BENCHMARKS.md's bandwidth bound). */
#ifndef GLRADIX_BENCH_COPY_H
#define GLRADIX_BENCH_COPY_H

#include <stdint.h>
#include <stdio.h>

struct GladGLContext; /* glad/gl.h: the bench's own GL table */

/* Median GPU time (GL_TIMESTAMP pair `q`, bench_time.h's warm-ups) of
 * copying words[b] 32-bit words from buffer src[b] to dst[b], for b <
 * `buffers`, by one compute dispatch each (16-byte loads and stores; a tail
 * of fewer than 4 words is left out). Returns -1.0 if the copy shader does
 * not build or the grid does not fit. */
double bench_copy_ms(struct GladGLContext *gl, const unsigned q[2], const unsigned *src,
                     const unsigned *dst, const uint32_t *words, int buffers, unsigned repeat,
                     double *times);

/* --copy-table: for 256 MiB to 2 GiB touched, on plain GL buffers and on
 * ctx's glradix_buffer_create buffers, the GB/s (read + written, median of
 * `repeat`) of copying two arrays into two others, and of gathering random
 * 32-byte elements of two arrays into two others; a line each on `out`.
 * Returns nonzero if a buffer or program could not be made. */
struct glradix_context;
int bench_copy_table(struct GladGLContext *gl, struct glradix_context *ctx, const unsigned q[2],
                     unsigned repeat, double *times, FILE *out);

#endif
