/*
 * The demo's GL function table (glad MX, independent of the library's own)
 * and the few helpers every view needs.
 */
#define GLAD_GL_IMPLEMENTATION
#include "demo.h"

#include <stdio.h>

GladGLContext gl;

static GLuint compile(const char *name, GLenum type, GLsizei count, const char *const *src) {
  GLuint sh = gl.CreateShader(type);
  GLint ok = 0;
  gl.ShaderSource(sh, count, src, NULL);
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

/* A program of the `count` shaders (0 if any failed to compile), which it
 * deletes. */
static GLuint link(const char *name, const GLuint *shaders, int count) {
  GLuint p = 0;
  GLint ok = 0;
  int compiled = 1;
  for (int i = 0; i < count; i++) compiled &= shaders[i] != 0;
  if (compiled) {
    p = gl.CreateProgram();
    for (int i = 0; i < count; i++) gl.AttachShader(p, shaders[i]);
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
  for (int i = 0; i < count; i++)
    if (shaders[i]) gl.DeleteShader(shaders[i]);
  return p;
}

GLuint demo_program(const char *name, const char *vs, const char *fs) {
  const GLuint shaders[2] = {compile(name, GL_VERTEX_SHADER, 1, &vs),
                             compile(name, GL_FRAGMENT_SHADER, 1, &fs)};
  return link(name, shaders, 2);
}

GLuint demo_compute_program(const char *name, int count, const char *const *src) {
  const GLuint shader = compile(name, GL_COMPUTE_SHADER, count, src);
  return link(name, &shader, 1);
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
