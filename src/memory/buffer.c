/* glradix_buffer_create / _destroy / _imported: the caller's large arrays
 * on the context's owned buffers (imported.c). */
#include <stdint.h>

#include "internal.h"

glradix_status glradix_buffer_create(glradix_context *ctx, uint64_t bytes, uint32_t *buffer) {
  static const char fn[] = "glradix_buffer_create";
  if (buffer) *buffer = 0;
  if (!ctx) return GLRADIX_ERROR_INVALID_ARGUMENT; /* nowhere to log */
  if (!buffer) {
    _glradix_log(&ctx->desc, "%s: buffer is NULL", fn);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  _glradix_gl_state saved;
  _glradix_begin(ctx, &saved);
  glradix_status st = GLRADIX_OK;
  if (bytes == 0) {
    _glradix_log(&ctx->desc, "%s: bytes is 0", fn);
    st = GLRADIX_ERROR_INVALID_ARGUMENT;
  } else if (bytes > (uint64_t)PTRDIFF_MAX ||
             (_glradix_import_ready(ctx, fn) && bytes > ctx->memory.vk.heap_bytes)) {
    _glradix_log(&ctx->desc, "%s: %llu bytes is more than %s", fn, (unsigned long long)bytes,
                 bytes > (uint64_t)PTRDIFF_MAX ? "a GL buffer holds" : "the device's memory");
    st = GLRADIX_ERROR_TOO_LARGE;
  } else {
    GLuint name = 0;
    st = _glradix_owned_create(ctx, fn, bytes, true, &name);
    if (st == GLRADIX_OK) *buffer = name;
  }
  return _glradix_end(ctx, fn, st, &saved);
}

glradix_status glradix_buffer_destroy(glradix_context *ctx, uint32_t buffer) {
  static const char fn[] = "glradix_buffer_destroy";
  if (!ctx) return GLRADIX_ERROR_INVALID_ARGUMENT; /* nowhere to log */
  _glradix_gl_state saved;
  _glradix_begin(ctx, &saved);
  glradix_status st = GLRADIX_OK;
  _glradix_owned *o = _glradix_owned_find(ctx, buffer);
  if (o && o->user) {
    _glradix_owned_delete(ctx, o);
    _glradix_forget_buffer(&saved, buffer);
  } else {
    _glradix_log(&ctx->desc, "%s: buffer %u is not a live buffer of glradix_buffer_create", fn,
                 buffer);
    st = GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  return _glradix_end(ctx, fn, st, &saved);
}

int glradix_buffer_imported(const glradix_context *ctx, uint32_t buffer) {
  if (!ctx) return 0;
  const _glradix_owned *o = _glradix_owned_find(ctx, buffer);
  return o && o->user && o->object != 0;
}
