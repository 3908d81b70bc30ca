/* Stage 2 (shaders/scan_blocks.comp + scan_add.comp): multi-level Blelloch
 * exclusive scan of the bucket-major tile counts. Every level is its own
 * dispatch, so no work group ever loops over a length that grows with N
 * (llvmpipe silently cuts loops past 65,535 iterations per invocation). */
#include "internal.h"

void _glradix_scan_plan_make(_glradix_scan_plan *plan, GLuint length, GLuint scan_tile) {
  GLuint offset = 0;
  unsigned l = 0;
  /* Level l holds length[l] counts at offset[l]; its block totals form
   * level l + 1. The last level fits one block; its total gets one slot. */
  for (;;) {
    plan->length[l] = length;
    plan->offset[l] = offset;
    offset += length;
    l++;
    if (length <= scan_tile) break;
    length = _glradix_div_up(length, scan_tile);
  }
  plan->levels = l;
  plan->length[l] = 1;
  plan->offset[l] = offset;
  plan->total = offset + 1;
}

static void scan_step(glradix_context *ctx, _glradix_program program,
                      const _glradix_scan_plan *plan, unsigned level) {
  GladGLContext *gl = &ctx->gl;
  gl->UseProgram(ctx->programs[program]);
  gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, _GLRADIX_B_COUNTS, ctx->counts.name);
  gl->Uniform1ui(_GLRADIX_LOC_COUNT, plan->length[level]);
  gl->Uniform1ui(_GLRADIX_LOC_DATA_OFFSET, plan->offset[level]);
  gl->Uniform1ui(_GLRADIX_LOC_SUMS_OFFSET, plan->offset[level + 1]);
  _glradix_dispatch(ctx, _glradix_div_up(plan->length[level], ctx->scan_tile));
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void _glradix_scan(glradix_context *ctx, const _glradix_scan_plan *plan) {
  for (unsigned l = 0; l < plan->levels; l++)
    scan_step(ctx, _GLRADIX_PROG_SCAN_BLOCKS, plan, l);
  for (unsigned l = plan->levels - 1; l-- > 0;)
    scan_step(ctx, _GLRADIX_PROG_SCAN_ADD, plan, l);
}
