/* Words of a scratch buffer set to one value (the sort's counts, the LBVH's
 * parents and counters): glClearBufferSubData on GL; OpenGL ES 3.x has no
 * buffer clear, so there shaders/fill_words.comp writes them, one word an
 * invocation. */
#include "internal.h"

void _glradix_fill_words(glradix_context *ctx, GLuint buffer, GLuint first, GLuint words,
                         GLuint value) {
  GladGLContext *gl = &ctx->gl;
  if (!ctx->es) {
    gl->BindBuffer(GL_COPY_WRITE_BUFFER, buffer);
    gl->ClearBufferSubData(GL_COPY_WRITE_BUFFER, GL_R32UI, (GLintptr)first * 4,
                           (GLsizeiptr)words * 4, GL_RED_INTEGER, GL_UNSIGNED_INT, &value);
    return;
  }
  /* A clear is a buffer command that GL orders after earlier dispatches
   * and before later ones; the shader's writes get barriers on both sides
   * to keep those orders. */
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  gl->UseProgram(ctx->programs[_GLRADIX_SET_BASE][_GLRADIX_PROG_FILL_WORDS]);
  _glradix_bind(ctx, _GLRADIX_B_FILL, buffer, 0);
  gl->Uniform1ui(_GLRADIX_LOC_FILL_FIRST, first);
  gl->Uniform1ui(_GLRADIX_LOC_FILL_WORDS, words);
  gl->Uniform1ui(_GLRADIX_LOC_FILL_VALUE, value);
  _glradix_dispatch(ctx, _glradix_div_up(words, ctx->forms.wg_size));
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}
