/* glradix_scan and glradix_compact: the sort's multi-level Blelloch scan
 * (scan.c) over the caller's buffers, and stream compaction built on it. */
#include "internal.h"

/* Copies a scan's grand total (no plan: 0) to an optional destination. */
static void write_total(glradix_context *ctx, const _glradix_scan_plan *plan, GLuint buffer,
                        size_t offset) {
  GladGLContext *gl = &ctx->gl;
  if (buffer == 0) return;
  gl->MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  if (plan) {
    _glradix_copy(ctx, ctx->counts.name, (GLintptr)plan->offset[plan->levels] * 4, buffer,
                  (GLintptr)offset, 4);
  } else {
    const GLuint zero = 0;
    _glradix_upload(ctx, buffer, (GLintptr)offset, 4, &zero);
  }
}

/* A scan of `count` values whose upper levels start the counts buffer:
 * TOO_LARGE, before any buffer is looked at, if it cannot be planned. */
static glradix_status plan_scan(glradix_context *ctx, const char *fn, GLuint count,
                                _glradix_scan_plan *plan) {
  glradix_status st = _glradix_check_size(ctx, fn, "input", count, (uint64_t)count * 4u);
  if (st != GLRADIX_OK || count == 0) return st;
  _glradix_scan_plan_make(plan, count, ctx->forms.scan_tile, 0);
  if (!_glradix_scan_fits(ctx, plan)) {
    _glradix_log(&ctx->desc, "%s: count %u exceeds this context's limits", fn, count);
    return GLRADIX_ERROR_TOO_LARGE;
  }
  return GLRADIX_OK;
}

static glradix_status allocate_scan(glradix_context *ctx, const _glradix_scan_plan *plan) {
  return _glradix_ensure_scratch(ctx, &ctx->counts,
                                (GLsizeiptr)plan->total * (GLsizeiptr)sizeof(GLuint),
                                "allocating scratch");
}

/* The scan's programs (and compaction's around it), for a count above 0. */
static const _glradix_program SCAN_PROGRAMS[] = {_GLRADIX_PROG_SCAN_BLOCKS, _GLRADIX_PROG_SCAN_ADD,
                                                 _GLRADIX_PROG_COMPACT_FLAGS,
                                                 _GLRADIX_PROG_COMPACT_SCATTER};

static glradix_status scan_checks(glradix_context *ctx, const glradix_scan_desc *d) {
  uint64_t bytes = (uint64_t)d->count * sizeof(GLuint);
  glradix_status st = GLRADIX_OK;
  if (d->count > 0) st = _glradix_check_buffer(ctx, "glradix_scan", d->input, "input", bytes);
  if (st == GLRADIX_OK && d->count > 0)
    st = _glradix_check_buffer(ctx, "glradix_scan", d->output, "output", bytes);
  if (st == GLRADIX_OK)
    st = _glradix_check_word(ctx, "glradix_scan", d->total_buffer, d->total_offset, "total_buffer");
  if (st == GLRADIX_OK && d->count > 0)
    st = _glradix_check_programs(ctx, "glradix_scan", SCAN_PROGRAMS, 2);
  return st;
}

glradix_status glradix_scan(glradix_context *ctx, const glradix_scan_desc *desc) {
  _glradix_gl_state saved;
  glradix_status entered = _glradix_enter(ctx, "glradix_scan", desc, &saved);
  if (entered != GLRADIX_OK) return entered;
  _glradix_scan_plan plan = {0};
  glradix_status st = plan_scan(ctx, "glradix_scan", desc->count, &plan);
  if (st == GLRADIX_OK) st = scan_checks(ctx, desc);
  if (st == GLRADIX_OK && desc->count > 0) st = allocate_scan(ctx, &plan);
  if (st == GLRADIX_OK) {
    if (desc->count > 0) {
      const _glradix_scan_io io = {desc->input, 0, desc->output, 0, false, 0, 0};
      _glradix_scan(ctx, &plan, &io, desc->inclusive != 0, _GLRADIX_SCAN_WHOLE);
    }
    write_total(ctx, desc->count > 0 ? &plan : NULL, desc->total_buffer, desc->total_offset);
  }
  return _glradix_end(ctx, "glradix_scan", st, &saved);
}

static glradix_status compact_checks(glradix_context *ctx, const glradix_compact_desc *d) {
  const char *fn = "glradix_compact";
  uint64_t bytes = (uint64_t)d->count * sizeof(GLuint);
  glradix_status st = GLRADIX_OK;
  if (d->count > 0) {
    st = _glradix_check_buffer(ctx, fn, d->input, "input", bytes);
    if (st == GLRADIX_OK) st = _glradix_check_buffer(ctx, fn, d->output, "output", bytes);
    if (st == GLRADIX_OK && d->flags) st = _glradix_check_buffer(ctx, fn, d->flags, "flags", bytes);
    /* Flags are read again while the output is written. */
    if (st == GLRADIX_OK) st = _glradix_check_distinct(ctx, fn, d->flags, "flags", d->output, "output");
  }
  if (st == GLRADIX_OK)
    st = _glradix_check_word(ctx, fn, d->count_out_buffer, d->count_out_offset, "count_out_buffer");
  if (st == GLRADIX_OK && d->count > 0)
    st = _glradix_check_programs(ctx, fn, SCAN_PROGRAMS, 4);
  return st;
}

glradix_status glradix_compact(glradix_context *ctx, const glradix_compact_desc *desc) {
  const char *fn = "glradix_compact";
  _glradix_gl_state saved;
  glradix_status entered = _glradix_enter(ctx, fn, desc, &saved);
  if (entered != GLRADIX_OK) return entered;
  _glradix_scan_plan plan = {0};
  GLsizeiptr bytes = (GLsizeiptr)desc->count * (GLsizeiptr)sizeof(GLuint);
  glradix_status st = plan_scan(ctx, fn, desc->count, &plan);
  if (st == GLRADIX_OK) st = compact_checks(ctx, desc);
  if (st == GLRADIX_OK && desc->count > 0) {
    st = allocate_scan(ctx, &plan);
    /* The sort's scratch serves: tile_keys for the positions, tile_values
     * for a copy of the input when compacting in place. */
    if (st == GLRADIX_OK) st = _glradix_ensure_scratch(ctx, &ctx->tile_keys, bytes, "allocating scratch");
    if (st == GLRADIX_OK && desc->input == desc->output)
      st = _glradix_ensure_scratch(ctx, &ctx->tile_values, bytes, "allocating scratch");
  }
  if (st == GLRADIX_OK && desc->count > 0) {
    _glradix_compact_io io = {desc->input, desc->flags, desc->output, ctx->tile_keys.name,
                              desc->count};
    if (desc->input == desc->output) {
      _glradix_copy(ctx, desc->input, 0, ctx->tile_values.name, 0, bytes);
      io.input = ctx->tile_values.name;
      if (desc->flags == desc->input) io.flags = io.input;
    }
    _glradix_compact_flags(ctx, &io);
    const _glradix_scan_io positions = {io.index, 0, io.index, 0, false, 0, 0};
    _glradix_scan(ctx, &plan, &positions, false, _GLRADIX_SCAN_WHOLE);
    _glradix_compact_scatter(ctx, &io, plan.offset[plan.levels], desc->zero_fill != 0);
  }
  if (st == GLRADIX_OK)
    write_total(ctx, desc->count > 0 ? &plan : NULL, desc->count_out_buffer,
                desc->count_out_offset);
  return _glradix_end(ctx, fn, st, &saved);
}
