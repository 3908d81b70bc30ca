/* Pass skipping (shaders/pass_skip_count.comp + pass_skip_flags.comp): finds
 * on the GPU, with no read-back, the passes whose digit is the same for
 * every key (common for Morton codes of clustered scenes and narrow key
 * ranges); local_shuffle and global_scatter of such a pass return at once. */
#include "internal.h"

void _glradix_pass_skip(glradix_context *ctx, const _glradix_pass *whole, unsigned passes) {
  GladGLContext *gl = &ctx->gl;
  /* One pass is the whole sort: counting would cost a fifth of it. The
   * counts and flags start zeroed (_glradix_count_prepare). */
  if (passes < 2) return;
  _glradix_use_pass(ctx, _GLRADIX_PROG_PASS_SKIP_COUNT, whole);
  _glradix_dispatch_tiles(ctx, whole);
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  gl->UseProgram(ctx->programs[_GLRADIX_PROG_PASS_SKIP_FLAGS]);
  _glradix_dispatch(ctx, 1);
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}
