/* Reduce-then-scan stage 3 (shaders/shuffle_scatter.comp): rank each tile
 * in shared memory and move it from the pass's input to its output. One
 * work group per tile. */
#include "internal.h"

void _glradix_shuffle_scatter(glradix_context *ctx, const _glradix_pass *pass,
                              const _glradix_scan_plan *plan, bool totals_raw) {
  _glradix_use_pass(ctx, pass->pairs ? _GLRADIX_PROG_SHUFFLE_SCATTER_PAIRS
                                     : _GLRADIX_PROG_SHUFFLE_SCATTER, pass);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_PASS, pass->index);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_BLOCK_SUMS, _glradix_scan_block_sums(plan));
  ctx->gl.Uniform1ui(_GLRADIX_LOC_SUMS_RAW, totals_raw ? 1u : 0u);
  if (ctx->tile_starts) ctx->gl.Uniform1ui(_GLRADIX_LOC_TILE_STARTS, pass->per_tile);
  if (ctx->next_counts) {
    ctx->gl.Uniform1ui(_GLRADIX_LOC_NEXT_SHIFT, pass->next_shift);
    ctx->gl.Uniform1ui(_GLRADIX_LOC_NEXT_BITS, pass->next_bits);
    ctx->gl.Uniform1ui(_GLRADIX_LOC_NEXT_COUNTS, pass->per_tile);
  }
  _glradix_dispatch_tiles(ctx, pass, false);
}
