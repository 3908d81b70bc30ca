/* glradix-bench --copy: a plain compute-shader copy, the yardstick for the
 * bytes a sort pass moves (BENCHMARKS.md's bandwidth bound). */
#ifndef GLRADIX_BENCH_COPY_H
#define GLRADIX_BENCH_COPY_H

#include <stdint.h>

struct GladGLContext; /* glad/gl.h: the bench's own GL table */

/* Median GPU time (GL_TIMESTAMP pair `q`, bench_time.h's warm-ups) of
 * copying words[b] 32-bit words from buffer src[b] to dst[b], for b <
 * `buffers`, by one compute dispatch each (16-byte loads and stores; a tail
 * of fewer than 4 words is left out). Returns -1.0 if the copy shader does
 * not build or the grid does not fit. */
double bench_copy_ms(struct GladGLContext *gl, const unsigned q[2], const unsigned *src,
                     const unsigned *dst, const uint32_t *words, int buffers, unsigned repeat,
                     double *times);

#endif
