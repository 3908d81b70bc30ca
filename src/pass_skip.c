/* Pass skipping (shaders/pass_skip_flags.comp): finds on the GPU, with no
 * read-back, the passes whose digit is the same for every key (common for
 * Morton codes of clustered scenes and narrow key ranges): those none of
 * whose digit bits vary. The first pass's tile stage gathers which bits vary
 * (common.glsl WITH_KEY_BITS); later passes' tile stages return at once
 * (shuffle_scatter copies). The bits and flags start zeroed
 * (_glradix_count_prepare). */
#include "internal.h"

/* After the first tile stage: flags the passes of [whole->shift, whole->shift +
 * whole->digit_bits) whose digit bits never vary. */
void _glradix_pass_skip_flags(glradix_context *ctx, const _glradix_pass *whole) {
  ctx->gl.UseProgram(ctx->programs[_GLRADIX_PROG_PASS_SKIP_FLAGS]);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_SHIFT, whole->shift);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_DIGIT_BITS, whole->digit_bits);
  _glradix_dispatch(ctx, 1);
  ctx->gl.MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}
