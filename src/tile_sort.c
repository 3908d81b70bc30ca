/* Small inputs (shaders/tile_sort.comp): a count that fits one tile is
 * sorted over its whole bit range by a single work group, in place, with
 * no scratch buffers. */
#include "internal.h"

void _glradix_tile_sort(glradix_context *ctx, const _glradix_pass *pass) {
  GladGLContext *gl = &ctx->gl;
  gl->UseProgram(_glradix_program_name(
      ctx, pass->pairs ? _GLRADIX_PROG_TILE_SORT_PAIRS : _GLRADIX_PROG_TILE_SORT, pass->key_words));
  gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, _GLRADIX_B_KEYS, pass->keys);
  if (pass->pairs) gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, _GLRADIX_B_VALUES, pass->values);
  gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, _GLRADIX_B_SKIP, ctx->skip.name);
  gl->Uniform1ui(_GLRADIX_LOC_SHIFT, pass->shift);
  gl->Uniform1ui(_GLRADIX_LOC_DIGIT_BITS, pass->digit_bits);
  gl->Uniform1ui(_GLRADIX_LOC_KEY_MODE, pass->key_mode);
  _glradix_dispatch(ctx, 1);
}
