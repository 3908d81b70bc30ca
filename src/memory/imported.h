/* GL buffers whose storage is Vulkan device-local memory imported through
 * GL_EXT_memory_object_fd (imported.c), and the plain GL buffers that
 * stand in where the import is not available. Below the stages, which
 * reach it through _glradix_ensure_scratch (gl_state.c), and below the
 * public glradix_buffer_* calls (buffer.c). */
#ifndef GLRADIX_MEMORY_IMPORTED_H
#define GLRADIX_MEMORY_IMPORTED_H

#include <stdbool.h>
#include <stdint.h>

#include "gl/gl.h"
#include "memory/vulkan.h"

typedef struct glradix_context glradix_context;

/* A buffer the context owns the storage of: imported (object nonzero) or
 * a plain stand-in; `user`: made by glradix_buffer_create. */
typedef struct _glradix_owned {
  GLuint buffer, object;
  _glradix_vk_memory memory;
  bool user;
} _glradix_owned;

typedef struct _glradix_memory {
  int state; /* 0: not tried yet, 1: Vulkan open, -1: unavailable (said once in the log) */
  bool failure_said; /* an import failed, and the log said so */
  _glradix_vk vk;
  _glradix_owned *owned;
  unsigned count, capacity;
} _glradix_memory;

/* Whether buffers may be imported on this context: on first call opens
 * Vulkan on the GL context's device; where something is missing, says what
 * once in the log (as `fn`) and answers false from then on. */
bool _glradix_import_ready(glradix_context *ctx, const char *fn);
/* A new GL buffer of `bytes` (> 0) on imported memory where the import is
 * ready, else (or where it fails, said once in the log as `fn`) on plain
 * immutable GL storage; kept in the context's list. GLRADIX_ERROR_OUT_OF_MEMORY
 * or _GL when GL has no storage for it either (nothing made then). */
glradix_status _glradix_owned_create(glradix_context *ctx, const char *fn, uint64_t bytes,
                                     bool user, GLuint *buffer);
/* The entry of a buffer in the list, or NULL. */
_glradix_owned *_glradix_owned_find(const glradix_context *ctx, GLuint buffer);
/* Deletes an entry's GL buffer, memory object and Vulkan memory. */
void _glradix_owned_delete(glradix_context *ctx, _glradix_owned *o);
/* Every owned buffer deleted, Vulkan closed (glradix_destroy). */
void _glradix_memory_close(glradix_context *ctx);

#endif /* GLRADIX_MEMORY_IMPORTED_H */
