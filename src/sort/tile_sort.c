/* Small inputs (shaders/sort/tile_sort.comp): a count that fits one tile is
 * sorted over its whole bit range by a single work group, in place, with
 * no scratch buffers. */
#include "internal.h"

void _glradix_tile_sort(glradix_context *ctx, const _glradix_pass *pass) {
  GladGLContext *gl = &ctx->gl;
  gl->UseProgram(_glradix_program_name(
      ctx, pass->pairs ? _GLRADIX_PROG_TILE_SORT_PAIRS : _GLRADIX_PROG_TILE_SORT, pass->set));
  const uint64_t value_bytes = (uint64_t)pass->count * 4u;
  _glradix_bind(ctx, _GLRADIX_B_KEYS, pass->keys, value_bytes * pass->key_words);
  if (pass->pairs) _glradix_bind(ctx, _GLRADIX_B_VALUES, pass->values, value_bytes);
  _glradix_bind(ctx, _GLRADIX_B_SKIP, ctx->skip.name, 0);
  gl->Uniform1ui(_GLRADIX_LOC_SHIFT, pass->shift);
  gl->Uniform1ui(_GLRADIX_LOC_DIGIT_BITS, pass->digit_bits);
  gl->Uniform1ui(_GLRADIX_LOC_KEY_MODE, pass->key_mode);
  _glradix_dispatch(ctx, 1);
}
