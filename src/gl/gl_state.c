/* Save/restore of the GL state the library touches, and scratch buffers. */
#include "internal.h"

#include <stdint.h>

/* GL 4.4 (ARB_buffer_storage); the loader is 4.3, the caller's context may be newer. */
#ifndef GL_MAP_PERSISTENT_BIT
#define GL_MAP_PERSISTENT_BIT 0x0040
#endif

void _glradix_save_state(glradix_context *ctx, _glradix_gl_state *s) {
  GladGLContext *gl = &ctx->gl;
  gl->GetIntegerv(GL_CURRENT_PROGRAM, &s->program);
  gl->GetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &s->ssbo);
  gl->GetIntegerv(GL_COPY_READ_BUFFER_BINDING, &s->copy_read);
  gl->GetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &s->copy_write);
  gl->GetIntegerv(GL_DISPATCH_INDIRECT_BUFFER_BINDING, &s->dispatch_indirect);
  for (GLuint i = 0; i < _GLRADIX_BINDINGS; i++) {
    gl->GetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, i, &s->indexed[i].buffer);
    gl->GetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, i, &s->indexed[i].start);
    gl->GetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, i, &s->indexed[i].size);
  }
}

/* GL unbinds a deleted buffer from the context's bindings: a call that
 * deletes one the caller had bound restores 0 there, not the dead name
 * (binding it would raise GL_INVALID_OPERATION in the caller's context). */
void _glradix_forget_buffer(_glradix_gl_state *s, GLuint buffer) {
  GLint *names[] = {&s->ssbo, &s->copy_read, &s->copy_write, &s->dispatch_indirect};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if ((GLuint)*names[i] == buffer) *names[i] = 0;
  for (size_t i = 0; i < _GLRADIX_BINDINGS; i++)
    if ((GLuint)s->indexed[i].buffer == buffer) s->indexed[i].buffer = 0;
}

void _glradix_restore_state(glradix_context *ctx, const _glradix_gl_state *s) {
  GladGLContext *gl = &ctx->gl;
  for (GLuint i = 0; i < _GLRADIX_BINDINGS; i++) {
    GLuint b = (GLuint)s->indexed[i].buffer;
    /* A size of 0 means the whole buffer was bound with glBindBufferBase. */
    if (b != 0 && s->indexed[i].size > 0)
      gl->BindBufferRange(GL_SHADER_STORAGE_BUFFER, i, b, (GLintptr)s->indexed[i].start,
                          (GLsizeiptr)s->indexed[i].size);
    else
      gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, i, b);
  }
  /* Indexed binds also set the generic binding: restore it afterwards. */
  gl->BindBuffer(GL_SHADER_STORAGE_BUFFER, (GLuint)s->ssbo);
  gl->BindBuffer(GL_COPY_READ_BUFFER, (GLuint)s->copy_read);
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)s->copy_write);
  gl->BindBuffer(GL_DISPATCH_INDIRECT_BUFFER, (GLuint)s->dispatch_indirect);
  gl->UseProgram((GLuint)s->program);
}

void _glradix_begin(glradix_context *ctx, _glradix_gl_state *saved) {
  _glradix_take_gl_errors(ctx, saved);
  _glradix_save_state(ctx, saved);
  /* The caller's earlier shaders may have written the inputs: make those
   * writes visible to the library's shaders and copies. */
  ctx->gl.MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

glradix_status _glradix_enter(glradix_context *ctx, const char *fn, const void *desc,
                              _glradix_gl_state *saved) {
  if (!ctx) return GLRADIX_ERROR_INVALID_ARGUMENT; /* nowhere to log */
  if (!desc) {
    _glradix_log(&ctx->desc, "%s: desc is NULL", fn);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  _glradix_begin(ctx, saved);
  return GLRADIX_OK;
}

glradix_status _glradix_end(glradix_context *ctx, const char *fn, glradix_status st,
                            const _glradix_gl_state *saved) {
  if (st == GLRADIX_OK) {
    /* What a caller may do next with the results: draw with them, dispatch
     * on them (also indirectly), or read them back. */
    ctx->gl.MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT |
                          GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_ELEMENT_ARRAY_BARRIER_BIT |
                          GL_COMMAND_BARRIER_BIT);
  }
  /* The library's own GL errors become the status (the first failure
   * wins) and never reach the caller's glGetError. */
  glradix_status gl_st = _glradix_gl_error(ctx, fn);
  if (st == GLRADIX_OK) st = gl_st;
  _glradix_restore_state(ctx, saved);
  _glradix_give_back_gl_errors(ctx, saved);
  return st;
}

/* Grows by half again so that slowly growing counts do not reallocate each
 * call, in whole 16-byte units (clears and binds take whole words). */
static GLsizeiptr grown_size(const glradix_context *ctx, GLsizeiptr size) {
  GLsizeiptr grown = size + size / 2;
  grown += (16 - grown % 16) % 16;
  return grown < size || grown > (GLsizeiptr)ctx->max_ssbo_bytes ? size : grown;
}

void _glradix_delete_scratch(glradix_context *ctx, _glradix_buffer *b) {
  _glradix_owned *o = _glradix_owned_find(ctx, b->name);
  if (o) _glradix_owned_delete(ctx, o);
  else if (b->name) ctx->gl.DeleteBuffers(1, &b->name);
  b->name = 0;
  b->size = 0;
}

glradix_status _glradix_ensure_scratch(glradix_context *ctx, _glradix_buffer *b,
                                       GLsizeiptr size, const char *what) {
  if (b->name != 0 && b->size >= size) return GLRADIX_OK;
  const uint64_t from = ctx->forms.import_from;
  const bool import = from != 0 && (uint64_t)size >= from && _glradix_import_ready(ctx, what);
  /* owned storage is immutable: growing it takes a new buffer either way */
  if (import || _glradix_owned_find(ctx, b->name)) _glradix_delete_scratch(ctx, b);
  if (!import) return _glradix_ensure_buffer(ctx, b, size, what);
  const GLsizeiptr grown = grown_size(ctx, size);
  glradix_status st = _glradix_owned_create(ctx, what, (uint64_t)grown, false, &b->name);
  if (st == GLRADIX_OK) b->size = grown;
  return st;
}

glradix_status _glradix_ensure_buffer(glradix_context *ctx, _glradix_buffer *b,
                                      GLsizeiptr size, const char *what) {
  GladGLContext *gl = &ctx->gl;
  if (b->name != 0 && b->size >= size) return GLRADIX_OK;
  if (b->name == 0) gl->GenBuffers(1, &b->name);
  const GLsizeiptr grown = grown_size(ctx, size);
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, b->name);
  gl->BufferData(GL_COPY_WRITE_BUFFER, grown, NULL, GL_DYNAMIC_COPY);
  glradix_status st = _glradix_gl_error(ctx, what);
  if (st != GLRADIX_OK) {
    gl->DeleteBuffers(1, &b->name);
    b->name = 0;
    b->size = 0;
    return st;
  }
  b->size = grown;
  return GLRADIX_OK;
}

/* Binds the first `bytes` of a buffer to an SSBO binding point (0: the whole
 * buffer, for the library's scratch, which never exceeds one shader storage
 * block). The caller's buffers may be larger than
 * GL_MAX_SHADER_STORAGE_BLOCK_SIZE: only the part in use is bound. */
void _glradix_bind(glradix_context *ctx, GLuint index, GLuint buffer, uint64_t bytes) {
  if (bytes == 0) ctx->gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, index, buffer);
  else ctx->gl.BindBufferRange(GL_SHADER_STORAGE_BUFFER, index, buffer, 0, (GLsizeiptr)bytes);
}

/* GLRADIX_ERROR_TOO_LARGE (one log line) when `bytes`, `count` elements of
 * a buffer, exceed one shader storage block, the most a shader addresses.
 * Checked before any buffer is looked at: a count near 2^32 is too large
 * whatever the buffers. */
glradix_status _glradix_check_size(glradix_context *ctx, const char *fn, const char *what,
                                   uint64_t count, uint64_t bytes) {
  if (bytes <= (uint64_t)ctx->max_ssbo_bytes) return GLRADIX_OK;
  _glradix_log(&ctx->desc,
               "%s: count %llu needs %llu bytes of %s, above GL_MAX_SHADER_STORAGE_BLOCK_SIZE "
               "(%lld)", fn, (unsigned long long)count, (unsigned long long)bytes, what,
               (long long)ctx->max_ssbo_bytes);
  return GLRADIX_ERROR_TOO_LARGE;
}

/* Two buffers a call needs apart (an output and what its shaders read
 * while writing it): INVALID_ARGUMENT if they are the same one. 0 (none)
 * is never the same as anything. No GL call. */
glradix_status _glradix_check_distinct(const glradix_context *ctx, const char *fn, GLuint a,
                                       const char *a_what, GLuint b, const char *b_what) {
  if (a == 0 || a != b) return GLRADIX_OK;
  _glradix_log(&ctx->desc, "%s: %s and %s are the same buffer (%u)", fn, a_what, b_what, a);
  return GLRADIX_ERROR_INVALID_ARGUMENT;
}

/* An optional uint32 destination or source at a byte offset: 0 (none), or
 * a buffer holding offset + 4 bytes with offset a multiple of 4. The
 * offset + 4 must not wrap, and the offset must fit a GLintptr, as the
 * copies that read or write the word take it. */
glradix_status _glradix_check_word(glradix_context *ctx, const char *fn, GLuint buffer,
                                   size_t offset, const char *what) {
  if (buffer == 0) return GLRADIX_OK;
  if (offset % 4 != 0) {
    _glradix_log(&ctx->desc, "%s: %s offset %zu is not a multiple of 4", fn, what, offset);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  if ((uint64_t)offset > (uint64_t)PTRDIFF_MAX - 4u) {
    _glradix_log(&ctx->desc, "%s: %s offset %zu is past any buffer", fn, what, offset);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  return _glradix_check_buffer(ctx, fn, buffer, what, (uint64_t)offset + 4u);
}

/* Copies bytes between buffers (or within one) on the GPU. */
void _glradix_copy(glradix_context *ctx, GLuint from, GLintptr from_offset, GLuint to,
                   GLintptr to_offset, GLsizeiptr bytes) {
  GladGLContext *gl = &ctx->gl;
  gl->BindBuffer(GL_COPY_READ_BUFFER, from);
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, to);
  gl->CopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, from_offset, to_offset, bytes);
}

void _glradix_upload(glradix_context *ctx, GLuint buffer, GLintptr offset, GLsizeiptr bytes,
                     const void *data) {
  ctx->gl.BindBuffer(GL_COPY_WRITE_BUFFER, buffer);
  ctx->gl.BufferSubData(GL_COPY_WRITE_BUFFER, offset, bytes, data);
}

/* Checks that `name` is a buffer of at least `bytes` that shaders may use. */
glradix_status _glradix_check_buffer(glradix_context *ctx, const char *fn, GLuint name,
                                     const char *what, uint64_t bytes) {
  GladGLContext *gl = &ctx->gl;
  if (!gl->IsBuffer(name)) {
    _glradix_log(&ctx->desc, "%s: %s %u is not a GL buffer", fn, what, name);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  GLint64 size = 0;
  GLint mapped = 0, access = 0;
  gl->BindBuffer(GL_COPY_READ_BUFFER, name);
  gl->GetBufferParameteri64v(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
  gl->GetBufferParameteriv(GL_COPY_READ_BUFFER, GL_BUFFER_MAPPED, &mapped);
  gl->GetBufferParameteriv(GL_COPY_READ_BUFFER, GL_BUFFER_ACCESS_FLAGS, &access);
  if ((uint64_t)size < bytes) {
    _glradix_log(&ctx->desc, "%s: %s buffer %u holds %lld bytes, needs %llu",
                 fn, what, name, (long long)size, (unsigned long long)bytes);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  /* Shaders may only use a mapped buffer if it was mapped persistently. */
  if (mapped && !(access & GL_MAP_PERSISTENT_BIT)) {
    _glradix_log(&ctx->desc, "%s: %s buffer %u is mapped", fn, what, name);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  return GLRADIX_OK;
}
