/* glradix-bench: moving keys and values into and out of GL buffers. */
#ifndef GLRADIX_BENCH_BUFFERS_H
#define GLRADIX_BENCH_BUFFERS_H

#include <stdint.h>

struct GladGLContext; /* glad/gl.h: the bench's own GL table */
struct glradix_context;

/* A buffer of `bytes` (from `data` unless NULL): glradix_buffer_create's
 * on `imported` where that is non-NULL (--memory imported), else a plain
 * glBufferData one; 0 on failure. Delete it with bench_buffer_delete and
 * the same `imported`. */
unsigned bench_buffer(struct GladGLContext *gl, struct glradix_context *imported, uint64_t bytes,
                      const void *data);
void bench_buffer_delete(struct GladGLContext *gl, struct glradix_context *imported, unsigned buf);

/* Writes `words` 32-bit words from the host at the start of buffer `buf`
 * (glBufferSubData). */
void bench_upload(struct GladGLContext *gl, unsigned buf, const uint32_t *data, uint32_t words);

/* Copies the first `words` words of buffer `src` to `dst` on the GPU. */
void bench_restore(struct GladGLContext *gl, unsigned dst, unsigned src, uint32_t words);

/* Reads the first `words` words of `buf` back through a staging buffer of
 * its own. */
void bench_download(struct GladGLContext *gl, unsigned buf, uint32_t *data, uint32_t words);

/* A compute program of the bench's own from `defines` and `source` (the
 * GLSL version line comes first: 430, or 310 es on OpenGL ES); 0, with the
 * compiler's or linker's log on stderr naming `what`, if it fails. */
unsigned bench_program(struct GladGLContext *gl, const char *defines, const char *source,
                       const char *what);

#endif
