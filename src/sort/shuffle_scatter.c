/* Reduce-then-scan stage 3 (shaders/sort/shuffle_scatter.comp): rank each tile
 * in shared memory and move it from the pass's input to its output. One
 * work group per tile. */
#include "internal.h"

void _glradix_shuffle_scatter(glradix_context *ctx, const _glradix_pass *pass,
                              const _glradix_scan_plan *plan, bool totals_raw) {
  _glradix_use_pass(ctx, pass->pairs ? _GLRADIX_PROG_SHUFFLE_SCATTER_PAIRS
                                     : _GLRADIX_PROG_SHUFFLE_SCATTER, pass);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_BLOCK_SUMS, _glradix_scan_block_sums(plan));
  ctx->gl.Uniform1ui(_GLRADIX_LOC_SUMS_RAW, totals_raw ? 1u : 0u);
  if (_glradix_tile_starts(&ctx->forms)) ctx->gl.Uniform1ui(_GLRADIX_LOC_TILE_STARTS, pass->per_tile);
  if (_glradix_next_counts(&ctx->forms)) {
    ctx->gl.Uniform1ui(_GLRADIX_LOC_NEXT_SHIFT, pass->next_shift);
    ctx->gl.Uniform1ui(_GLRADIX_LOC_NEXT_BITS, pass->next_bits);
    ctx->gl.Uniform1ui(_GLRADIX_LOC_NEXT_COUNTS, pass->per_tile);
  }
  /* GPUs' subgroup path (REVERSE_TILES): the tiles in reverse after a
   * count stage, which read the keys from first to last, so that the first
   * groups load the keys it read last, meant to be still in the GPU's
   * cache (the cache's hits were not measured); with NEXT_COUNTS (no count
   * stage after the first pass) every other pass, so that each pass starts
   * where the previous one wrote last. Against group order it sped the
   * subgroup path's sorts from 16M and slowed the portable path's, which
   * compiles without it (BENCHMARKS.md, "Measured choices"). Taken over the
   * tiles, not over the grid (gl_NumWorkGroups), which kept less of the
   * gain (the cause not isolated); so not with a GPU-driven count, whose
   * grid covers only the tiles it fills. */
  if (ctx->forms.reverse_tiles) {
    bool reverse = !pass->indirect && (!_glradix_next_counts(&ctx->forms) || pass->index % 2 == 0);
    ctx->gl.Uniform1ui(_GLRADIX_LOC_REVERSE_FROM, reverse ? pass->num_tiles : 0u);
  }
  _glradix_dispatch_tiles(ctx, pass, false);
}

/* The single-pass plan's form (LOOK_BACK): each work group takes a tile by
 * its ticket, publishes its digit counts and finds its destinations by
 * looking back at the earlier tiles', counting a late tile itself. */
void _glradix_shuffle_scatter_look_back(glradix_context *ctx, const _glradix_pass *pass,
                                        GLuint status, GLuint ticket) {
  _glradix_use_pass(ctx, pass->pairs ? _GLRADIX_PROG_ONESWEEP_PAIRS : _GLRADIX_PROG_ONESWEEP, pass);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_PASS_INDEX, pass->index);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_STATUS, status);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_TICKET, ticket);
  _glradix_dispatch_tiles(ctx, pass, false);
}
