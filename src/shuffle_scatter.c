/* Reduce-then-scan stage 3 (shaders/shuffle_scatter.comp): rank each tile
 * in shared memory and move it from the pass's input to its output. One
 * work group per tile. */
#include "internal.h"

void _glradix_shuffle_scatter(glradix_context *ctx, const _glradix_pass *pass, GLuint block_sums) {
  _glradix_use_pass(ctx, pass->pairs ? _GLRADIX_PROG_SHUFFLE_SCATTER_PAIRS
                                     : _GLRADIX_PROG_SHUFFLE_SCATTER, pass);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_PASS, pass->index);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_BLOCK_SUMS, block_sums);
  _glradix_dispatch_tiles(ctx, pass, false);
}
