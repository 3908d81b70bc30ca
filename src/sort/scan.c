/* Stage 2 (shaders/sort/scan_blocks.comp + scan_add.comp): multi-level Blelloch
 * scan, of the sort's bucket-major tile counts or, through glradix_scan and
 * glradix_compact, of any buffer. Every level is its own dispatch, so no
 * work group ever loops over a length that grows with N (llvmpipe silently
 * cuts loops past 65,535 iterations per invocation). */
#include "internal.h"

void _glradix_scan_plan_make(_glradix_scan_plan *plan, GLuint length, GLuint scan_tile,
                             GLuint sums_base) {
  /* Level 0 is the data itself. Level l > 0 holds the block totals of level
   * l - 1 in the sums buffer at offset[l]; the last level fits one block and
   * its total, the sum of everything, gets one slot at offset[levels]. */
  GLuint offset = sums_base;
  unsigned l = 0;
  plan->offset[0] = 0;
  for (;;) {
    plan->length[l] = length;
    if (l > 0) offset += length;
    l++;
    plan->offset[l] = offset;
    if (length <= scan_tile) break;
    length = _glradix_div_up(length, scan_tile);
  }
  plan->levels = l;
  plan->length[l] = 1;
  plan->total = offset + 1;
}

bool _glradix_scan_fits(const glradix_context *ctx, const _glradix_scan_plan *plan) {
  return plan->levels <= _GLRADIX_MAX_SCAN_LEVELS &&
         (uint64_t)plan->total * sizeof(GLuint) <= (uint64_t)ctx->max_ssbo_bytes &&
         _glradix_groups_fit(ctx, _glradix_div_up(plan->length[0], ctx->forms.scan_tile));
}

/* What scan_blocks does with its block totals (LOC_CHAIN): stores them; also
 * has the last group to finish scan them; or adds each to the later blocks'
 * entries (_GLRADIX_SCAN_LEAVE_SPREAD). */
enum { CHAIN_NONE, CHAIN_LAST, CHAIN_SPREAD };

/* One level: scan_blocks reads `in` and writes `out`; scan_add adds to `out`. */
static void scan_step(glradix_context *ctx, _glradix_program program, const _glradix_scan_plan *plan,
                      unsigned level, const _glradix_scan_io *io, bool inclusive, unsigned chain) {
  GladGLContext *gl = &ctx->gl;
  GLuint in = ctx->counts.name, out = ctx->counts.name;
  GLuint in_offset = plan->offset[level], out_offset = plan->offset[level];
  uint64_t in_bytes = 0, out_bytes = 0; /* scratch: bound whole */
  if (level == 0) {
    in = io->in;
    out = io->out;
    in_offset = io->in_offset;
    out_offset = io->out_offset;
    in_bytes = ((uint64_t)in_offset + plan->length[0]) * 4u;
    out_bytes = ((uint64_t)out_offset + plan->length[0]) * 4u;
  }
  gl->UseProgram(ctx->programs[_GLRADIX_SET_BASE][program]);
  _glradix_bind(ctx, _GLRADIX_B_SCAN_OUT, out, out_bytes);
  _glradix_bind(ctx, _GLRADIX_B_SCAN_SUMS, ctx->counts.name, 0);
  gl->Uniform1ui(_GLRADIX_LOC_COUNT, plan->length[level]);
  gl->Uniform1ui(_GLRADIX_LOC_SUMS_OFFSET, plan->offset[level + 1]);
  gl->Uniform1ui(_GLRADIX_LOC_OUT_OFFSET, out_offset);
  if (program == _GLRADIX_PROG_SCAN_BLOCKS) {
    _glradix_bind(ctx, _GLRADIX_B_SCAN_IN, in, in_bytes);
    gl->Uniform1ui(_GLRADIX_LOC_IN_OFFSET, in_offset);
    gl->Uniform1ui(_GLRADIX_LOC_INCLUSIVE, inclusive && level == 0);
    gl->Uniform1ui(_GLRADIX_LOC_CHAIN, chain);
    gl->Uniform1ui(_GLRADIX_LOC_ZERO_INPUT, level == 0 && io->zero_input);
    gl->Uniform1ui(_GLRADIX_LOC_ZERO_NEXT, io->zero_next);
    gl->Uniform1ui(_GLRADIX_LOC_ZERO_NEXT_LENGTH, level == 0 ? io->zero_next_length : 0u);
    if (chain == CHAIN_LAST) _glradix_bind(ctx, _GLRADIX_B_SKIP, ctx->skip.name, 0);
  }
  _glradix_dispatch(ctx, _glradix_div_up(plan->length[level], ctx->forms.scan_tile));
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void _glradix_scan(glradix_context *ctx, const _glradix_scan_plan *plan,
                   const _glradix_scan_io *io, bool inclusive, _glradix_scan_leave leave) {
  if (leave == _GLRADIX_SCAN_LEAVE_SPREAD) {
    scan_step(ctx, _GLRADIX_PROG_SCAN_BLOCKS, plan, 0, io, inclusive, CHAIN_SPREAD);
    return;
  }
  const unsigned levels = leave == _GLRADIX_SCAN_LEAVE_TOTALS ? 1 : plan->levels;
  for (unsigned l = 0; l < levels; l++) {
    /* the last level is one block: the level below's last group scans it */
    const bool chain = l + 2 == levels;
    scan_step(ctx, _GLRADIX_PROG_SCAN_BLOCKS, plan, l, io, inclusive,
              chain ? CHAIN_LAST : CHAIN_NONE);
    if (chain) break;
  }
  const unsigned last_add = leave != _GLRADIX_SCAN_WHOLE ? 1 : 0;
  for (unsigned l = plan->levels - 1; l-- > last_add;)
    scan_step(ctx, _GLRADIX_PROG_SCAN_ADD, plan, l, io, inclusive, CHAIN_NONE);
}

GLuint _glradix_scan_block_sums(const _glradix_scan_plan *plan) {
  return plan->levels > 1 ? plan->offset[1] : _GLRADIX_NO_BLOCK_SUMS;
}

bool _glradix_scan_few_totals(const _glradix_scan_plan *plan) {
  return plan->levels == 2 && plan->length[1] <= _GLRADIX_FOLD_SUMS;
}

bool _glradix_scan_spreads(const glradix_context *ctx, const _glradix_scan_plan *plan) {
  return plan->levels == 2 && plan->length[1] <= ctx->forms.wg_size;
}
