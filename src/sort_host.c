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

/* OpenGL ES has no glGetBufferSubData: there the staging buffer is mapped
 * for reading (a failed map leaves a GL error, which becomes the status). */
static void download(glradix_context *ctx, const _glradix_buffer *b, uint32_t *data,
                     GLsizeiptr bytes) {
  GladGLContext *gl = &ctx->gl;
  gl->BindBuffer(GL_COPY_READ_BUFFER, b->name);
  if (!ctx->es) {
    gl->GetBufferSubData(GL_COPY_READ_BUFFER, 0, bytes, data);
    return;
  }
  const void *mapped = gl->MapBufferRange(GL_COPY_READ_BUFFER, 0, bytes, GL_MAP_READ_BIT);
  if (!mapped) return;
  memcpy(data, mapped, (size_t)bytes);
  gl->UnmapBuffer(GL_COPY_READ_BUFFER);
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
    download(ctx, &ctx->host_keys, keys, bytes);
    if (values) download(ctx, &ctx->host_values, values, bytes);
  }
  return _glradix_end(ctx, "glradix_sort_host", st, &saved);
}
