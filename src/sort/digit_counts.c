/* Single-pass plan, first step (shaders/sort/digit_counts.comp): every
 * pass's digit counts from one read of the keys, added up in the counts
 * buffer, where the scan turns them into the passes' digit offsets. One
 * work group per _GLRADIX_DIGIT_TILES tiles. With key_bits it also
 * gathers which key bits vary, for pass skipping. */
#include "internal.h"

void _glradix_digit_counts(glradix_context *ctx, const _glradix_pass *sort, bool key_bits) {
  _glradix_use_pass(ctx, _GLRADIX_PROG_DIGIT_COUNTS, sort);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_GATHER_KEY_BITS, key_bits ? 1u : 0u);
  /* with a GPU count the grid covers the capacity: groups past the count
   * count nothing */
  _glradix_dispatch(ctx, _glradix_div_up(sort->num_tiles, _GLRADIX_DIGIT_TILES));
}
