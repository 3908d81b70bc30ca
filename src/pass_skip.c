/* Pass skipping (shaders/pass_skip_count.comp + pass_skip_flags.comp): finds
 * on the GPU, with no read-back, the passes whose digit is the same for
 * every key (common for Morton codes of clustered scenes and narrow key
 * ranges); their tile stages return at once (shuffle_scatter copies). The
 * counts and flags start zeroed (_glradix_count_prepare). */
#include "internal.h"

/* Counts every pass's digits in one read of the keys, then flags. The
 * reduce-then-scan plan counts in its first tile_counts instead. */
void _glradix_pass_skip_count(glradix_context *ctx, const _glradix_pass *whole) {
  _glradix_use_pass(ctx, _GLRADIX_PROG_PASS_SKIP_COUNT, whole);
  _glradix_dispatch_tiles(ctx, whole);
  ctx->gl.MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  _glradix_pass_skip_flags(ctx);
}

/* After the counts: flags the passes whose digit is the same for every key. */
void _glradix_pass_skip_flags(glradix_context *ctx) {
  ctx->gl.UseProgram(ctx->programs[_GLRADIX_PROG_PASS_SKIP_FLAGS]);
  _glradix_dispatch(ctx, 1);
  ctx->gl.MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}
