/* Status names, the per-context logger, and GL error capture. */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

const char *glradix_status_string(glradix_status status) {
  switch (status) {
  case GLRADIX_OK: return "ok";
  case GLRADIX_ERROR_INVALID_ARGUMENT: return "invalid argument";
  case GLRADIX_ERROR_UNSUPPORTED: return "unsupported";
  case GLRADIX_ERROR_SHADER: return "shader compile or link failed";
  case GLRADIX_ERROR_OUT_OF_MEMORY: return "out of memory";
  case GLRADIX_ERROR_TOO_LARGE: return "too large";
  case GLRADIX_ERROR_GL: return "GL error";
  }
  return "unknown status";
}

void glradix_version(int *major, int *minor, int *patch) {
  if (major) *major = GLRADIX_VERSION_MAJOR;
  if (minor) *minor = GLRADIX_VERSION_MINOR;
  if (patch) *patch = GLRADIX_VERSION_PATCH;
}

void _glradix_log(const glradix_desc *desc, const char *fmt, ...) {
  if (!desc || !desc->log) return;
  char line[4096]; /* a driver's compile log can be long */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  desc->log(desc->log_user, line);
}

static const char *gl_error_name(GLenum e) {
  switch (e) {
  case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
  case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
  case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
  case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
  case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
  case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
  case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
  default: return "unknown GL error";
  }
}

/* GL keeps one flag per error kind; a bounded loop drains them all even if a
 * broken driver never reports GL_NO_ERROR. */
enum { MAX_GL_ERRORS = 16 };

/* GL errors pending when a public call starts are the caller's. glGetError
 * is the only way to look at them, and it clears them; so they are taken on
 * entry (one log line each), and on return each is raised again by a call
 * that only sets that error, so that the caller's own glGetError still sees
 * it. The library's statuses come from its own calls alone. */
void _glradix_take_gl_errors(glradix_context *ctx, _glradix_gl_state *s) {
  s->stale_count = 0;
  for (int i = 0; i < MAX_GL_ERRORS; i++) {
    GLenum e = ctx->gl.GetError();
    if (e == GL_NO_ERROR) return;
    _glradix_log(&ctx->desc, "glradix: %s (0x%04x) was pending before the call: not glradix's, "
                 "left for the caller", gl_error_name(e), (unsigned)e);
    if (s->stale_count < _GLRADIX_MAX_STALE_ERRORS) s->stale[s->stale_count++] = e;
  }
}

void _glradix_give_back_gl_errors(glradix_context *ctx, const _glradix_gl_state *s) {
  GladGLContext *gl = &ctx->gl;
  for (unsigned i = 0; i < s->stale_count; i++) {
    GLint64 v64 = 0;
    GLint v = 0;
    GLuint u = 0;
    switch (s->stale[i]) {
    case GL_INVALID_ENUM: gl->GetIntegerv(GL_NONE, &v); break;
    case GL_INVALID_VALUE: gl->GetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, 0xFFFFFFFFu, &v64); break;
    case GL_INVALID_OPERATION: gl->GetQueryObjectuiv(0, GL_QUERY_RESULT_AVAILABLE, &u); break;
    default: /* no call raises only GL_OUT_OF_MEMORY and the like */
      _glradix_log(&ctx->desc, "glradix: %s pending before the call cannot be raised again",
                   gl_error_name(s->stale[i]));
    }
  }
}

glradix_status _glradix_gl_error(glradix_context *ctx, const char *what) {
  glradix_status status = GLRADIX_OK;
  for (int i = 0; i < MAX_GL_ERRORS; i++) {
    GLenum e = ctx->gl.GetError();
    if (e == GL_NO_ERROR) break;
    if (status == GLRADIX_OK) {
      status = e == GL_OUT_OF_MEMORY ? GLRADIX_ERROR_OUT_OF_MEMORY : GLRADIX_ERROR_GL;
      _glradix_log(&ctx->desc, "glradix: %s raised %s (0x%04x)", what, gl_error_name(e),
                   (unsigned)e);
    }
  }
  return status;
}
