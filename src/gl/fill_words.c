/* Words of the library's scratch set from the CPU (the sort's counts and
 * state, the LBVH's slots, parents and state) by shaders/gl/fill_words.comp,
 * on GL as on ES (which has no buffer clear). Never by glBufferSubData or
 * glClearBufferSubData: on NVIDIA's driver an update of a few words
 * landed while earlier dispatches that read them still ran, barrier or
 * not (an LBVH build in flight took the next call's count), and a large
 * clear is many times slower than this shader (BENCHMARKS.md, "Tried and
 * dropped"). */
#include "internal.h"

_Static_assert((int)_GLRADIX_SKIP_WORDS <= (int)_GLRADIX_FILL_LIST &&
                   (int)_GLRADIX_LBVH_STATE_WORDS <= (int)_GLRADIX_FILL_LIST,
               "the sort's and the LBVH's state fit one write");

static void write_words(glradix_context *ctx, GLuint buffer, GLuint first, GLuint words,
                        GLuint value, const GLuint *list, GLuint listed) {
  GladGLContext *gl = &ctx->gl;
  if (words == 0) return;
  /* earlier dispatches' accesses of these words come first */
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  gl->UseProgram(ctx->programs[_GLRADIX_SET_BASE][_GLRADIX_PROG_FILL_WORDS]);
  _glradix_bind(ctx, _GLRADIX_B_FILL, buffer, 0);
  gl->Uniform1ui(_GLRADIX_LOC_FILL_FIRST, first);
  gl->Uniform1ui(_GLRADIX_LOC_FILL_WORDS, words);
  gl->Uniform1ui(_GLRADIX_LOC_FILL_VALUE, value);
  gl->Uniform1ui(_GLRADIX_LOC_FILL_LISTED, listed);
  if (listed) gl->Uniform1uiv(_GLRADIX_LOC_FILL_LIST, (GLsizei)listed, list);
  _glradix_dispatch(ctx, _glradix_div_up(words, ctx->forms.wg_size));
  /* later dispatches, copies and indirect grids see them */
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT |
                    GL_COMMAND_BARRIER_BIT);
}

void _glradix_fill_words(glradix_context *ctx, GLuint buffer, GLuint first, GLuint words,
                         GLuint value) {
  write_words(ctx, buffer, first, words, value, NULL, 0);
}

void _glradix_write_words(glradix_context *ctx, GLuint buffer, GLuint first, GLuint count,
                          const GLuint *words) {
  write_words(ctx, buffer, first, count, 0, words, count);
}
