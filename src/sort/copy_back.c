/* Reduce-then-scan, after an odd number of passes (shaders/sort/copy_back.comp):
 * the sorted keys and values from scratch to the caller's buffers. One work
 * group per tile, over the GPU count when there is one. */
#include "internal.h"

void _glradix_copy_back(glradix_context *ctx, const _glradix_pass *last) {
  /* The last pass wrote to its output: that is this stage's input. */
  _glradix_pass back = *last;
  back.keys = last->out_keys;
  back.values = last->out_values;
  back.out_keys = last->keys;
  back.out_values = last->values;
  ctx->gl.UseProgram(_glradix_program_name(
      ctx, back.pairs ? _GLRADIX_PROG_COPY_BACK_PAIRS : _GLRADIX_PROG_COPY_BACK, back.set));
  _glradix_bind_pass(ctx, &back);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_NUM_TILES, back.num_tiles);
  _glradix_dispatch_tiles(ctx, &back, false);
  ctx->gl.MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}
