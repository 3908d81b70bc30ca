/* Reduce-then-scan stage 1 (shaders/sort/tile_counts.comp): each tile's digit
 * counts, bucket-major, for the scan (on GPUs' large grids at radix_bits 4
 * and 8 one column per group's two tiles: _glradix_count_columns). One work group per
 * _GLRADIX_COUNT_TILES tiles, or per tile on small grids (a program of its
 * own). With key_bits (first pass only) it also gathers which key bits
 * vary, for pass skipping, in the same read of the keys. With
 * the next counts (forms.h; GPUs, radix_bits 2) it runs in the first pass only:
 * shuffle_scatter counts the later passes' digits. */
#include "internal.h"

void _glradix_tile_counts(glradix_context *ctx, const _glradix_pass *pass, bool key_bits,
                          const _glradix_scan_plan *spread) {
  const bool one_tile = !pass->large_grid;
  _glradix_use_pass(ctx, one_tile ? _GLRADIX_PROG_TILE_COUNTS_ONE : _GLRADIX_PROG_TILE_COUNTS, pass);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_GATHER_KEY_BITS, key_bits ? 1u : 0u);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_ZERO_SUMS, spread ? spread->offset[1] : _GLRADIX_NO_BLOCK_SUMS);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_ZERO_SUMS_LENGTH, spread ? spread->length[1] : 0u);
  if (_glradix_tile_starts(&ctx->forms)) ctx->gl.Uniform1ui(_GLRADIX_LOC_TILE_STARTS, pass->per_tile);
  _glradix_dispatch_tiles(ctx, pass, !one_tile);
}
