/* glradix-bench: moving keys and values into and out of GL buffers. */
#include <glad/gl.h>

#include "bench_buffers.h"

#include <glradix/glradix.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>

unsigned bench_buffer(GladGLContext *gl, glradix_context *imported, uint64_t bytes,
                      const void *data) {
  GLuint buf = 0;
  if (imported) {
    if (glradix_buffer_create(imported, bytes, &buf) != GLRADIX_OK) return 0;
    gl->BindBuffer(GL_COPY_WRITE_BUFFER, buf);
    if (data) gl->BufferSubData(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)bytes, data);
  } else {
    gl->GenBuffers(1, &buf);
    gl->BindBuffer(GL_COPY_WRITE_BUFFER, buf);
    gl->BufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)bytes, data, GL_DYNAMIC_COPY);
  }
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, 0);
  return buf;
}

void bench_buffer_delete(GladGLContext *gl, glradix_context *imported, unsigned buf) {
  if (!buf) return; /* keys alone have no values buffer */
  if (imported) glradix_buffer_destroy(imported, buf);
  else gl->DeleteBuffers(1, &buf);
}

void bench_upload(GladGLContext *gl, GLuint buf, const uint32_t *data, uint32_t words) {
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, buf);
  gl->BufferSubData(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)words * 4, data);
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, 0);
}

/* The bench restores its sort buffers from a pristine GPU copy, so that no
 * upload shares the timed region. It is not for speed: in the H200 soak,
 * sorts of CPU-uploaded keys at the highest clock ran at 0.68-1.04x of
 * the fresh median, as copied ones did (bench/results/h200/soak.txt). */
void bench_restore(GladGLContext *gl, GLuint dst, GLuint src, uint32_t words) {
  gl->BindBuffer(GL_COPY_READ_BUFFER, src);
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, dst);
  gl->CopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, (GLsizeiptr)words * 4);
  gl->BindBuffer(GL_COPY_READ_BUFFER, 0);
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, 0);
}

/* Through a staging buffer, so that the sorted buffer itself is never
 * mapped; the soak reads back all three ways (staging, glGetBufferSubData,
 * a mapping of the sorted buffer), and its sorts at the highest clock
 * still ran at 0.97-1.04x of fresh. Mapped for reading, which OpenGL ES has too (it has no
 * glGetBufferSubData). */
void bench_download(GladGLContext *gl, GLuint buf, uint32_t *data, uint32_t words) {
  GLuint staging = 0;
  const GLsizeiptr bytes = (GLsizeiptr)words * 4;
  gl->GenBuffers(1, &staging);
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, staging);
  gl->BufferData(GL_COPY_WRITE_BUFFER, bytes, NULL, GL_STREAM_READ);
  gl->BindBuffer(GL_COPY_READ_BUFFER, buf);
  gl->CopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, bytes);
  gl->MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  const void *mapped = gl->MapBufferRange(GL_COPY_WRITE_BUFFER, 0, bytes, GL_MAP_READ_BIT);
  if (mapped) memcpy(data, mapped, (size_t)bytes);
  else memset(data, 0, (size_t)bytes); /* --verify then fails: never silently stale */
  gl->UnmapBuffer(GL_COPY_WRITE_BUFFER);
  gl->BindBuffer(GL_COPY_READ_BUFFER, 0);
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, 0);
  gl->DeleteBuffers(1, &staging);
}

GLuint bench_program(GladGLContext *gl, const char *defines, const char *source,
                     const char *what) {
  /* On OpenGL ES (gladLoadGLES2Context leaves GL-only entry points such as
   * glGetBufferSubData NULL) the programs are GLSL ES 3.10. */
  const char *version = gl->GetBufferSubData
                            ? "#version 430\n"
                            : "#version 310 es\nprecision highp float;\nprecision highp int;\n";
  const char *sources[3] = {version, defines, source};
  GLuint shader = gl->CreateShader(GL_COMPUTE_SHADER), program = 0;
  GLint ok = 0;
  char log[512] = "";
  gl->ShaderSource(shader, 3, sources, NULL);
  gl->CompileShader(shader);
  gl->GetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    gl->GetShaderInfoLog(shader, sizeof log, NULL, log);
    fprintf(stderr, "glradix-bench: %s shader does not compile: %s\n", what, log);
  } else {
    program = gl->CreateProgram();
    gl->AttachShader(program, shader);
    gl->LinkProgram(program);
    gl->GetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
      gl->GetProgramInfoLog(program, sizeof log, NULL, log);
      fprintf(stderr, "glradix-bench: %s program does not link: %s\n", what, log);
      gl->DeleteProgram(program);
      program = 0;
    }
  }
  gl->DeleteShader(shader);
  return program;
}
