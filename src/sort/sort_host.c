/* glradix_sort_host: upload, sort on the GPU, read back. */
#include <string.h>

#include "internal.h"

static glradix_status upload(glradix_context *ctx, _glradix_buffer *b, const uint32_t *data,
                             GLsizeiptr bytes) {
  glradix_status st = _glradix_ensure_buffer(ctx, b, bytes, "allocating host staging");
  if (st != GLRADIX_OK) return st;
  _glradix_upload(ctx, b->name, 0, bytes, data);
  return _glradix_gl_error(ctx, "glradix_sort_host upload");
}

/* The sorted staging buffers into the caller's arrays, both or neither.
 * GL: glGetBufferSubData of the library's own buffers, never mapped and
 * as large as the read, which fails on nothing the library leaves to
 * chance (only GL_OUT_OF_MEMORY, which leaves GL's state undefined).
 * OpenGL ES has no glGetBufferSubData: both buffers are mapped for reading
 * first, and the arrays are written only where both maps hold, so that a
 * failed map (a GL error, which becomes the status) leaves keys and values
 * as they were. */
static glradix_status download(glradix_context *ctx, uint32_t *keys, uint32_t *values,
                               GLsizeiptr bytes) {
  GladGLContext *gl = &ctx->gl;
  gl->BindBuffer(GL_COPY_READ_BUFFER, ctx->host_keys.name);
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, ctx->host_values.name);
  if (!ctx->es) {
    gl->GetBufferSubData(GL_COPY_READ_BUFFER, 0, bytes, keys);
    if (values) gl->GetBufferSubData(GL_COPY_WRITE_BUFFER, 0, bytes, values);
    return GLRADIX_OK;
  }
  const void *mapped_keys = gl->MapBufferRange(GL_COPY_READ_BUFFER, 0, bytes, GL_MAP_READ_BIT);
  const void *mapped_values = NULL;
  /* tests/test_sort_host.c: a values map that fails, as a driver's may */
  const bool fail = ctx->hooks.fail_values_map != 0 &&
                    (GLsizeiptr)ctx->hooks.fail_values_map * 4 == bytes;
  if (values && mapped_keys && !fail)
    mapped_values = gl->MapBufferRange(GL_COPY_WRITE_BUFFER, 0, bytes, GL_MAP_READ_BIT);
  const bool all = mapped_keys && (!values || mapped_values);
  if (all) {
    memcpy(keys, mapped_keys, (size_t)bytes);
    if (values) memcpy(values, mapped_values, (size_t)bytes);
  }
  if (mapped_keys) gl->UnmapBuffer(GL_COPY_READ_BUFFER);
  if (mapped_values) gl->UnmapBuffer(GL_COPY_WRITE_BUFFER);
  if (all) return GLRADIX_OK;
  glradix_status st = _glradix_gl_error(ctx, "glradix_sort_host: mapping the sorted data");
  if (st != GLRADIX_OK) return st;
  _glradix_log(&ctx->desc, "glradix_sort_host: mapping the sorted %s for reading failed "
               "without a GL error", mapped_keys ? "values" : "keys");
  return GLRADIX_ERROR_GL;
}

glradix_status glradix_sort_host(glradix_context *ctx, uint32_t *keys, uint32_t *values,
                                 size_t count) {
  if (!ctx) return GLRADIX_ERROR_INVALID_ARGUMENT;
  if (count == 0) return GLRADIX_OK;
  if (!keys) {
    _glradix_log(&ctx->desc, "glradix_sort_host: keys is NULL with count %zu", count);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  if (count > UINT32_MAX || (uint64_t)count * 4u > (uint64_t)ctx->max_ssbo_bytes) {
    _glradix_log(&ctx->desc, "glradix_sort_host: count %zu exceeds this context's limit of "
                 "%lld bytes per buffer", count, (long long)ctx->max_ssbo_bytes);
    return GLRADIX_ERROR_TOO_LARGE;
  }
  _glradix_gl_state saved;
  _glradix_begin(ctx, &saved);
  GLsizeiptr bytes = (GLsizeiptr)(count * sizeof(uint32_t));
  glradix_status st = upload(ctx, &ctx->host_keys, keys, bytes);
  if (st == GLRADIX_OK && values) st = upload(ctx, &ctx->host_values, values, bytes);
  if (st == GLRADIX_OK) {
    glradix_sort_desc d = {.keys = ctx->host_keys.name,
                           .values = values ? ctx->host_values.name : 0,
                           .count = (uint32_t)count};
    st = _glradix_sort(ctx, "glradix_sort_host", &d);
  }
  if (st == GLRADIX_OK) {
    ctx->gl.MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT); /* before the read-back */
    st = download(ctx, keys, values, bytes);
  }
  return _glradix_end(ctx, "glradix_sort_host", st, &saved);
}
