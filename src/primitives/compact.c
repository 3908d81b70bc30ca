/* Stream compaction's two stages (shaders/primitives/compact_flags.comp and
 * compact_scatter.comp); the scan between them is scan.c's. */
#include "internal.h"

static void use_compact(glradix_context *ctx, _glradix_program program,
                        const _glradix_compact_io *io) {
  GladGLContext *gl = &ctx->gl;
  gl->UseProgram(ctx->programs[_GLRADIX_SET_BASE][program]);
  const uint64_t bytes = (uint64_t)io->count * 4u;
  _glradix_bind(ctx, _GLRADIX_B_COMPACT_IN, io->input, bytes);
  _glradix_bind(ctx, _GLRADIX_B_COMPACT_FLAGS, io->flags ? io->flags : io->input, bytes);
  _glradix_bind(ctx, _GLRADIX_B_COMPACT_INDEX, io->index, 0);
  gl->Uniform1ui(_GLRADIX_LOC_COUNT, io->count);
  gl->Uniform1ui(_GLRADIX_LOC_USE_FLAGS, io->flags != 0);
}

void _glradix_compact_flags(glradix_context *ctx, const _glradix_compact_io *io) {
  use_compact(ctx, _GLRADIX_PROG_COMPACT_FLAGS, io);
  _glradix_dispatch(ctx, _glradix_div_up(io->count, ctx->forms.scan_tile));
  ctx->gl.MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void _glradix_compact_scatter(glradix_context *ctx, const _glradix_compact_io *io,
                              GLuint total_offset, bool zero_fill) {
  GladGLContext *gl = &ctx->gl;
  use_compact(ctx, _GLRADIX_PROG_COMPACT_SCATTER, io);
  _glradix_bind(ctx, _GLRADIX_B_COMPACT_OUT, io->output, (uint64_t)io->count * 4u);
  _glradix_bind(ctx, _GLRADIX_B_SCAN_SUMS, ctx->counts.name, 0);
  gl->Uniform1ui(_GLRADIX_LOC_TOTAL_OFFSET, total_offset);
  gl->Uniform1ui(_GLRADIX_LOC_ZERO_FILL, zero_fill);
  _glradix_dispatch(ctx, _glradix_div_up(io->count, ctx->forms.scan_tile));
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}
