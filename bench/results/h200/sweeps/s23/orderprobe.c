/* Session 23 probe (untracked): does glBufferSubData after glClearBufferSubData
   land first on NVIDIA? Counts words that read back other than uploaded. */
#define GLAD_GL_IMPLEMENTATION
#include <glad/gl.h>
#include <glradix/headless.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static GladGLContext gl;
static GLADapiproc load(const char *name) {
  union { void *p; GLADapiproc f; } u;
  u.p = glradix_headless_load(name);
  return u.f;
}
static size_t check(GLuint b, const unsigned *want, size_t n) {
  unsigned *got = malloc(n * 4);
  gl.MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  gl.BindBuffer(GL_COPY_READ_BUFFER, b);
  gl.GetBufferSubData(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)(n * 4), got);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += got[i] != want[i];
  free(got);
  return bad;
}
int main(void) {
  glradix_headless *h = NULL;
  if (glradix_headless_create(&h) != GLRADIX_OK || !gladLoadGLContext(&gl, load)) return 1;
  printf("renderer %s\n", glradix_headless_renderer(h));
  size_t sizes[] = {64, 4096, 1 << 20, 16 << 20};
  for (int s = 0; s < 4; s++) {
    size_t n = sizes[s];
    unsigned *pat = malloc(n * 4), zero = 0;
    for (size_t i = 0; i < n; i++) pat[i] = (unsigned)i * 2654435761u + 1u;
    for (int mode = 0; mode < 4; mode++) {
      GLuint b;
      gl.GenBuffers(1, &b);
      gl.BindBuffer(GL_COPY_WRITE_BUFFER, b);
      gl.BufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)(n * 4), NULL, GL_DYNAMIC_DRAW);
      if (mode == 3) { /* give the store GPU history first */
        gl.ClearBufferSubData(GL_COPY_WRITE_BUFFER, GL_R32UI, 0, (GLsizeiptr)(n * 4), GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
        gl.Finish();
      }
      gl.ClearBufferSubData(GL_COPY_WRITE_BUFFER, GL_R32UI, 0, (GLsizeiptr)(n * 4), GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
      if (mode == 1) gl.Finish();
      if (mode == 2) gl.Flush();
      gl.BindBuffer(GL_COPY_WRITE_BUFFER, 0);
      gl.BindBuffer(GL_COPY_WRITE_BUFFER, b); /* rebind as the tests' upload does */
      gl.BufferSubData(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)(n * 4), pat);
      gl.BindBuffer(GL_COPY_WRITE_BUFFER, 0);
      static const char *names[] = {"clear, upload", "clear, glFinish, upload", "clear, glFlush, upload", "used store: clear, upload"};
      printf("%8zu words  %-28s: %zu words differ (GL error 0x%x)\n", n, names[mode], check(b, pat, n), gl.GetError());
      gl.DeleteBuffers(1, &b);
    }
    free(pat);
  }
  glradix_headless_destroy(h);
  return 0;
}
