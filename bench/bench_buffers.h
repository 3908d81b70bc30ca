/* glradix-bench: moving keys and values into and out of GL buffers. */
#ifndef GLRADIX_BENCH_BUFFERS_H
#define GLRADIX_BENCH_BUFFERS_H

#include <stdint.h>

struct GladGLContext; /* glad/gl.h: the bench's own GL table */

/* Writes `words` 32-bit words from the host at the start of buffer `buf`
 * (glBufferSubData). */
void bench_upload(struct GladGLContext *gl, unsigned buf, const uint32_t *data, uint32_t words);

/* Copies the first `words` words of buffer `src` to `dst` on the GPU. */
void bench_restore(struct GladGLContext *gl, unsigned dst, unsigned src, uint32_t words);

/* Reads the first `words` words of `buf` back through a staging buffer of
 * its own. */
void bench_download(struct GladGLContext *gl, unsigned buf, uint32_t *data, uint32_t words);

#endif
