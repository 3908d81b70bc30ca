/* Pass skipping (shaders/pass_skip_count.comp + pass_skip_flags.comp): finds
 * on the GPU, with no read-back, the passes whose digit is the same for
 * every key (common for Morton codes of clustered scenes and narrow key
 * ranges); local_shuffle and global_scatter of such a pass return at once. */
#include "internal.h"

void _glradix_pass_skip(glradix_context *ctx, const _glradix_pass *whole, unsigned passes) {
  GladGLContext *gl = &ctx->gl;
  GLuint zero = 0;
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, ctx->skip.name);
  gl->ClearBufferData(GL_COPY_WRITE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
  /* One pass is the whole sort: counting would cost a fifth of it. */
  if (passes < 2) return;
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  _glradix_use_pass(ctx, _GLRADIX_PROG_PASS_SKIP_COUNT, whole);
  _glradix_dispatch(ctx, whole->num_tiles);
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  gl->UseProgram(ctx->programs[_GLRADIX_PROG_PASS_SKIP_FLAGS]);
  gl->Uniform1ui(_GLRADIX_LOC_COUNT, whole->count);
  _glradix_dispatch(ctx, 1);
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}
