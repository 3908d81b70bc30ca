/* What every stage and the pass plan share to run a dispatch: a pass's
 * buffers and uniforms made current, and work-group counts folded into the
 * grid the driver allows. Below the stages: no stage calls up into sort.c. */
#include "internal.h"

void _glradix_bind_pass(glradix_context *ctx, const _glradix_pass *pass) {
  const uint64_t value_bytes = (uint64_t)pass->count * 4u;
  _glradix_bind(ctx, _GLRADIX_B_KEYS, pass->keys, value_bytes * pass->key_words);
  _glradix_bind(ctx, _GLRADIX_B_TILE_KEYS, pass->out_keys, value_bytes * pass->key_words);
  _glradix_bind(ctx, _GLRADIX_B_COUNTS, ctx->counts.name, 0);
  _glradix_bind(ctx, _GLRADIX_B_SKIP, ctx->skip.name, 0);
  if (pass->pairs) {
    _glradix_bind(ctx, _GLRADIX_B_VALUES, pass->values, value_bytes);
    _glradix_bind(ctx, _GLRADIX_B_TILE_VALUES, pass->out_values, value_bytes);
  }
}

void _glradix_use_pass(glradix_context *ctx, _glradix_program program,
                       const _glradix_pass *pass) {
  GladGLContext *gl = &ctx->gl;
  gl->UseProgram(_glradix_program_name(ctx, program, pass->set));
  _glradix_bind_pass(ctx, pass);
  gl->Uniform1ui(_GLRADIX_LOC_SHIFT, pass->shift);
  gl->Uniform1ui(_GLRADIX_LOC_DIGIT_BITS, pass->digit_bits);
  gl->Uniform1ui(_GLRADIX_LOC_NUM_TILES, pass->num_tiles);
  gl->Uniform1ui(_GLRADIX_LOC_KEY_MODE, pass->key_mode);
}

bool _glradix_groups_fit(const glradix_context *ctx, uint64_t groups) {
  return groups <= (uint64_t)ctx->group_limit[0] * ctx->group_limit[1];
}

void _glradix_dispatch(glradix_context *ctx, GLuint groups) {
  if (groups == 0) return;
  GLuint x = groups < ctx->group_limit[0] ? groups : ctx->group_limit[0];
  ctx->gl.DispatchCompute(x, _glradix_div_up(groups, x), 1);
}

/* One work group per tile, or with count_groups per _GLRADIX_COUNT_TILES
 * tiles (tile_counts); with a GPU count each has its own indirect
 * arguments, which count_prepare wrote. */
void _glradix_dispatch_tiles(glradix_context *ctx, const _glradix_pass *pass, bool count_groups) {
  GladGLContext *gl = &ctx->gl;
  if (!pass->indirect) {
    _glradix_dispatch(ctx, _glradix_div_up(pass->num_tiles, count_groups ? _GLRADIX_COUNT_TILES : 1));
    return;
  }
  GLuint args = _GLRADIX_SKIP_COUNT_SLOT + (count_groups ? 4 : 1);
  gl->BindBuffer(GL_DISPATCH_INDIRECT_BUFFER, ctx->skip.name);
  gl->DispatchComputeIndirect((GLintptr)args * (GLintptr)sizeof(GLuint));
}
