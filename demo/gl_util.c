/*
 * The demo's GL function table (glad MX, independent of the library's own)
 * and the few helpers every view needs.
 */
#define GLAD_GL_IMPLEMENTATION
#include "demo.h"

#include <stdio.h>

GladGLContext gl;

static GLuint compile(const char *name, GLenum type, const char *src) {
  GLuint sh = gl.CreateShader(type);
  GLint ok = 0;
  gl.ShaderSource(sh, 1, &src, NULL);
  gl.CompileShader(sh);
  gl.GetShaderiv(sh, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048];
    gl.GetShaderInfoLog(sh, sizeof log, NULL, log);
    fprintf(stderr, "glradix-demo: %s shader: %s\n", name, log);
    gl.DeleteShader(sh);
    return 0;
  }
  return sh;
}

GLuint demo_program(const char *name, const char *vs, const char *fs) {
  GLuint v = compile(name, GL_VERTEX_SHADER, vs), f = compile(name, GL_FRAGMENT_SHADER, fs);
  GLuint p = 0;
  GLint ok = 0;
  if (v && f) {
    p = gl.CreateProgram();
    gl.AttachShader(p, v);
    gl.AttachShader(p, f);
    gl.LinkProgram(p);
    gl.GetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
      char log[2048];
      gl.GetProgramInfoLog(p, sizeof log, NULL, log);
      fprintf(stderr, "glradix-demo: %s link: %s\n", name, log);
      gl.DeleteProgram(p);
      p = 0;
    }
  }
  if (v) gl.DeleteShader(v);
  if (f) gl.DeleteShader(f);
  return p;
}

GLuint demo_buffer(const void *data, size_t bytes) {
  GLuint b = 0;
  gl.GenBuffers(1, &b);
  gl.BindBuffer(GL_COPY_WRITE_BUFFER, b);
  gl.BufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)bytes, data, GL_DYNAMIC_COPY);
  gl.BindBuffer(GL_COPY_WRITE_BUFFER, 0);
  return b;
}

/* Vertex shaders read keys, values and points through texture buffers:
 * core since GL 3.1, unlike vertex-stage SSBOs (GL 4.3 allows 0 of them). */
GLuint demo_texbuf(GLuint buffer, GLenum format) {
  GLuint t = 0;
  gl.GenTextures(1, &t);
  gl.BindTexture(GL_TEXTURE_BUFFER, t);
  gl.TexBuffer(GL_TEXTURE_BUFFER, format, buffer);
  gl.BindTexture(GL_TEXTURE_BUFFER, 0);
  return t;
}

void demo_read(GLuint buffer, void *data, size_t bytes) {
  gl.BindBuffer(GL_COPY_READ_BUFFER, buffer);
  gl.GetBufferSubData(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)bytes, data);
  gl.BindBuffer(GL_COPY_READ_BUFFER, 0);
}

void demo_log(void *user, const char *message) {
  (void)user;
  fprintf(stderr, "glradix: %s\n", message);
}
