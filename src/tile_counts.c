/* Reduce-then-scan stage 1 (shaders/tile_counts.comp): each tile's digit
 * counts, bucket-major, for the scan. One work group per tile. */
#include "internal.h"

void _glradix_tile_counts(glradix_context *ctx, const _glradix_pass *pass) {
  _glradix_use_pass(ctx, _GLRADIX_PROG_TILE_COUNTS, pass);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_PASS, pass->index);
  _glradix_dispatch_tiles(ctx, pass);
}
