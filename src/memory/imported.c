/* Buffers on Vulkan device-local memory imported into GL
 * (GL_EXT_memory_object_fd): on NVIDIA's driver GL's own buffers are read
 * and written more slowly once a few hundred MB are touched, while the same
 * shaders on imported memory are not (BENCHMARKS.md, "Imported memory").
 * The list of owned buffers lets glradix_buffer_destroy refuse a name it
 * did not make, and glradix_destroy free what is left. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
static void close_fd(int fd) { if (fd >= 0) close(fd); }
#else
static void close_fd(int fd) { (void)fd; }
#endif

enum {
  /* Memory past the buffer's end: llvmpipe refuses a buffer on imported
   * memory without 48 bytes more than it holds (its vector reads may pass
   * the end). */
  IMPORT_PAD = 256
};

static const char *const VULKAN_LOADER = "libvulkan.so.1";

/* GL's half: the extensions (glad's table) and the device's UUIDs (the
 * first device, where GL reports several). NULL or why not. */
static const char *open_gl(glradix_context *ctx, uint8_t device[16], uint8_t driver[16]) {
  GladGLContext *gl = &ctx->gl;
  if (!gl->EXT_memory_object || !gl->EXT_memory_object_fd) return "no GL_EXT_memory_object_fd";
  if (!gl->GetUnsignedBytevEXT || !gl->GetUnsignedBytei_vEXT || !gl->CreateMemoryObjectsEXT ||
      !gl->DeleteMemoryObjectsEXT || !gl->MemoryObjectParameterivEXT || !gl->ImportMemoryFdEXT ||
      !gl->BufferStorageMemEXT)
    return "GL_EXT_memory_object_fd without its entry points";
  GLint devices = 0;
  gl->GetIntegerv(GL_NUM_DEVICE_UUIDS_EXT, &devices);
  if (devices < 1) return "GL reports no device UUID";
  gl->GetUnsignedBytei_vEXT(GL_DEVICE_UUID_EXT, 0, device);
  gl->GetUnsignedBytevEXT(GL_DRIVER_UUID_EXT, driver);
  return NULL;
}

bool _glradix_import_ready(glradix_context *ctx, const char *fn) {
  _glradix_memory *m = &ctx->memory;
  if (m->state != 0) return m->state > 0;
  m->state = -1;
  if (ctx->desc.memory == GLRADIX_MEMORY_GL) return false; /* asked for: nothing to say */
  char why[160] = "";
  uint8_t device[16] = {0}, driver[16] = {0};
  const char *gl_why = open_gl(ctx, device, driver);
  const char *library = ctx->hooks.vulkan_loader ? ctx->hooks.vulkan_loader : VULKAN_LOADER;
  bool gl_error = false; /* taken here: the one log line below says it */
  for (int i = 0; i < 8 && ctx->gl.GetError() != GL_NO_ERROR; i++) gl_error = true;
  if (gl_why || gl_error || !_glradix_vk_open(&m->vk, library, device, driver, why, sizeof why)) {
    _glradix_log(&ctx->desc, "%s: imported memory unavailable (%s): plain GL buffers", fn,
                 gl_why ? gl_why : gl_error ? "GL errors reading the device UUIDs" : why);
    return false;
  }
  m->state = 1;
  return true;
}

static bool grow_list(_glradix_memory *m) {
  if (m->count < m->capacity) return true;
  unsigned capacity = m->capacity ? m->capacity * 2 : 8;
  _glradix_owned *owned = realloc(m->owned, capacity * sizeof *owned);
  if (!owned) return false;
  m->owned = owned;
  m->capacity = capacity;
  return true;
}

/* The buffer on a new dedicated Vulkan allocation; false (nothing left
 * behind, GL errors taken) where any step fails. */
static bool import(glradix_context *ctx, uint64_t bytes, _glradix_owned *o) {
  _glradix_memory *m = &ctx->memory;
  GladGLContext *gl = &ctx->gl;
  int fd = -1;
  if (!_glradix_vk_allocate(&m->vk, bytes + IMPORT_PAD, &o->memory, &fd)) return false;
  const GLint dedicated = GL_TRUE;
  gl->CreateMemoryObjectsEXT(1, &o->object);
  gl->MemoryObjectParameterivEXT(o->object, GL_DEDICATED_MEMORY_OBJECT_EXT, &dedicated);
  gl->ImportMemoryFdEXT(o->object, o->memory.bytes, GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd);
  bool ok = gl->GetError() == GL_NO_ERROR; /* GL owns the descriptor once imported */
  if (!ok) close_fd(fd);
  if (ok) {
    gl->GenBuffers(1, &o->buffer);
    gl->BindBuffer(GL_COPY_WRITE_BUFFER, o->buffer);
    gl->BufferStorageMemEXT(GL_COPY_WRITE_BUFFER, (GLsizeiptr)bytes, o->object, 0);
    ok = gl->GetError() == GL_NO_ERROR;
  }
  if (!ok) _glradix_owned_delete(ctx, o);
  return ok;
}

/* Plain GL storage that behaves as imported storage does: immutable,
 * updated by GL commands and shaders and never mapped, where GL has buffer
 * storage, so that a caller's map fails on every machine alike. */
static glradix_status plain(glradix_context *ctx, uint64_t bytes, _glradix_owned *o) {
  GladGLContext *gl = &ctx->gl;
  PFNGLBUFFERSTORAGEPROC storage = ctx->es ? gl->BufferStorageEXT : gl->BufferStorage;
  gl->GenBuffers(1, &o->buffer);
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, o->buffer);
  if (storage)
    storage(GL_COPY_WRITE_BUFFER, (GLsizeiptr)bytes, NULL, GL_DYNAMIC_STORAGE_BIT);
  else
    gl->BufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)bytes, NULL, GL_DYNAMIC_COPY);
  glradix_status st = _glradix_gl_error(ctx, "allocating a buffer");
  if (st != GLRADIX_OK) _glradix_owned_delete(ctx, o);
  return st;
}

glradix_status _glradix_owned_create(glradix_context *ctx, const char *fn, uint64_t bytes,
                                     bool user, GLuint *buffer) {
  _glradix_memory *m = &ctx->memory;
  if (!grow_list(m)) return GLRADIX_ERROR_OUT_OF_MEMORY;
  _glradix_owned o;
  memset(&o, 0, sizeof o);
  const bool ready = _glradix_import_ready(ctx, fn);
  if (ready && !import(ctx, bytes, &o) && !m->failure_said) {
    _glradix_log(&ctx->desc, "%s: importing %llu bytes of Vulkan memory failed: plain GL buffers",
                 fn, (unsigned long long)bytes);
    m->failure_said = true;
  }
  glradix_status st = o.buffer ? GLRADIX_OK : plain(ctx, bytes, &o);
  if (st != GLRADIX_OK) return st;
  o.user = user;
  m->owned[m->count++] = o;
  *buffer = o.buffer;
  return GLRADIX_OK;
}

_glradix_owned *_glradix_owned_find(const glradix_context *ctx, GLuint buffer) {
  for (unsigned i = 0; buffer != 0 && i < ctx->memory.count; i++)
    if (ctx->memory.owned[i].buffer == buffer) return &ctx->memory.owned[i];
  return NULL;
}

void _glradix_owned_delete(glradix_context *ctx, _glradix_owned *o) {
  _glradix_memory *m = &ctx->memory;
  if (o->buffer) ctx->gl.DeleteBuffers(1, &o->buffer);
  if (o->object) ctx->gl.DeleteMemoryObjectsEXT(1, &o->object);
  if (o->memory.memory || o->memory.buffer) _glradix_vk_free(&m->vk, &o->memory);
  /* An entry of the list leaves it: the last takes its place. */
  if (o >= m->owned && o < m->owned + m->count) *o = m->owned[--m->count];
  else memset(o, 0, sizeof *o);
}

unsigned _glradix_imported_scratch(const glradix_context *ctx) {
  unsigned n = 0;
  for (unsigned i = 0; i < ctx->memory.count; i++)
    n += !ctx->memory.owned[i].user && ctx->memory.owned[i].object != 0;
  return n;
}

void _glradix_memory_close(glradix_context *ctx) {
  _glradix_memory *m = &ctx->memory;
  while (m->count > 0) _glradix_owned_delete(ctx, &m->owned[m->count - 1]);
  free(m->owned);
  if (m->state > 0) _glradix_vk_close(&m->vk);
  memset(m, 0, sizeof *m);
}
