/* glradix_sort: validate, plan the passes, run the plan step after step.
 * The plan is a list of steps, each a stage's C function (one shader) with
 * the pass's buffers and uniforms; one loop runs it, and profiling and
 * inspection are hooks on that loop. */
#include <string.h>

#include "internal.h"

/* The _GLRADIX_KEY_* bits common.glsl's sort_key() applies. */
static GLuint key_mode(const glradix_sort_desc *d) {
  GLuint mode = d->descending ? _GLRADIX_KEY_DESCENDING : 0u;
  if (d->key_type == GLRADIX_KEY_INT32) mode |= _GLRADIX_KEY_SIGNED;
  if (d->key_type == GLRADIX_KEY_FLOAT32) mode |= _GLRADIX_KEY_FLOAT;
  return mode;
}

/* Checks that need no GL: pointers, the bit range, the key type. */
static glradix_status check_desc(const glradix_context *ctx, const char *fn,
                                 const glradix_sort_desc *d,
                                 unsigned *end_bit) {
  if (!d) {
    _glradix_log(&ctx->desc, "%s: desc is NULL", fn);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  if (_glradix_check_key_type(ctx, fn, d) != GLRADIX_OK) return GLRADIX_ERROR_INVALID_ARGUMENT;
  const unsigned width = 32u * _glradix_key_words(d);
  *end_bit = d->end_bit == 0 ? width : d->end_bit;
  if (*end_bit > width || d->begin_bit >= *end_bit) {
    _glradix_log(&ctx->desc, "%s: bit range [%u, %u) is not within [0, %u) or empty", fn,
                 d->begin_bit, *end_bit, width);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  /* checked here too (no GL), so that a count-0 sort rejects it as well */
  if (d->count_buffer != 0 && d->count_offset % 4 != 0) {
    _glradix_log(&ctx->desc, "%s: count_buffer offset %zu is not a multiple of 4", fn,
                 d->count_offset);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  if (d->keys == 0) {
    _glradix_log(&ctx->desc, "%s: keys is 0 (no buffer)", fn);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  return _glradix_check_distinct(ctx, fn, d->keys, "keys", d->values, "values");
}

/* Everything that needs GL before the first dispatch: buffers, limits, scratch. */
static glradix_status prepare(glradix_context *ctx, const char *fn, const glradix_sort_desc *d,
                              bool wide, _glradix_scratch *s) {
  /* Too large whatever the buffers: say so first. */
  if (!_glradix_scratch_layout(ctx, d->count, d->values != 0, _glradix_key_words(d), wide, s))
    return _glradix_too_large(ctx, fn, d->count);
  uint64_t bytes = (uint64_t)d->count * sizeof(GLuint);
  glradix_status st =
      _glradix_check_buffer(ctx, fn, d->keys, "keys", bytes * _glradix_key_words(d));
  if (st == GLRADIX_OK && d->values)
    st = _glradix_check_buffer(ctx, fn, d->values, "values", bytes);
  if (st == GLRADIX_OK)
    st = _glradix_check_word(ctx, fn, d->count_buffer, d->count_offset, "count_buffer");
  if (st != GLRADIX_OK) return st;
  return _glradix_scratch_allocate(ctx, s);
}

/* Every program any pass of plan_passes' plans may run, with or without
 * values; returns how many. */
static size_t plan_programs(bool reduce_then_scan, bool pairs, _glradix_program out[6]) {
  const _glradix_program rts[] = {
      _GLRADIX_PROG_TILE_COUNTS, _GLRADIX_PROG_TILE_COUNTS_ONE, _GLRADIX_PROG_SCAN_BLOCKS,
      _GLRADIX_PROG_SCAN_ADD,
      pairs ? _GLRADIX_PROG_SHUFFLE_SCATTER_PAIRS : _GLRADIX_PROG_SHUFFLE_SCATTER,
      pairs ? _GLRADIX_PROG_COPY_BACK_PAIRS : _GLRADIX_PROG_COPY_BACK};
  const _glradix_program stp[] = {
      pairs ? _GLRADIX_PROG_LOCAL_SHUFFLE_PAIRS : _GLRADIX_PROG_LOCAL_SHUFFLE,
      _GLRADIX_PROG_SCAN_BLOCKS, _GLRADIX_PROG_SCAN_ADD,
      pairs ? _GLRADIX_PROG_GLOBAL_SCATTER_PAIRS : _GLRADIX_PROG_GLOBAL_SCATTER};
  if (reduce_then_scan) {
    memcpy(out, rts, sizeof rts);
    return sizeof rts / sizeof rts[0];
  }
  memcpy(out, stp, sizeof stp);
  return sizeof stp / sizeof stp[0];
}

glradix_status _glradix_check_sort_programs(glradix_context *ctx, const char *fn,
                                            const _glradix_scratch *s, bool pairs, bool inspect) {
  if (s->single) {
    const _glradix_program one_tile[] = {pairs ? _GLRADIX_PROG_TILE_SORT_PAIRS
                                               : _GLRADIX_PROG_TILE_SORT};
    return _glradix_check_programs(ctx, fn, s->set, one_tile, 1);
  }
  _glradix_program programs[6];
  const size_t count =
      plan_programs(ctx->desc.plan == GLRADIX_PLAN_REDUCE_THEN_SCAN && !inspect, pairs, programs);
  return _glradix_check_programs(ctx, fn, s->set, programs, count);
}

bool _glradix_plan_fits(const glradix_context *ctx, glradix_plan plan) {
  _glradix_program programs[6];
  const size_t count = plan_programs(plan == GLRADIX_PLAN_REDUCE_THEN_SCAN, true, programs);
  for (size_t k = 0; k < count; k++)
    if (ctx->program_blocks[_GLRADIX_SET_BASE][programs[k]] > ctx->max_blocks) return false;
  return true;
}

/* The width of the digit from bit `shift`: radix_bits, less in the top pass. */
static GLuint digit_width(const glradix_context *ctx, GLuint shift, GLuint end_bit) {
  return end_bit - shift < ctx->desc.radix_bits ? end_bit - shift : ctx->desc.radix_bits;
}

/* Whether the passes over [begin_bit, end_bit) skip those whose digit never
 * varies: not with a stop point (inspection), nor when one pass is the
 * whole sort (gathering the bits would cost a fifth of it). */
static bool skips_passes(const glradix_context *ctx, GLuint begin_bit, GLuint end_bit, bool stop) {
  return !stop && _glradix_div_up(end_bit - begin_bit, ctx->desc.radix_bits) >= 2;
}

/* The whole sort as one "pass" over [begin_bit, end_bit): what plan_passes
 * splits into passes and tile_sort does at once. */
static _glradix_pass whole_sort(const glradix_sort_desc *desc, const _glradix_scratch *scratch,
                                GLuint end_bit) {
  _glradix_pass pass = {.pairs = desc->values != 0, .keys = desc->keys, .values = desc->values,
                        .count = desc->count, .num_tiles = scratch->num_tiles,
                        .shift = desc->begin_bit, .digit_bits = end_bit - desc->begin_bit,
                        .key_mode = key_mode(desc), .indirect = desc->count_buffer != 0,
                        .key_words = _glradix_key_words(desc), .set = scratch->set};
  return pass;
}

/* What a step runs: one stage's C function, or a fill of the counts. */
typedef enum step_kind {
  STEP_FILL_COUNTS,     /* zero counts [fill_first, +fill_words) */
  STEP_TILE_SORT,       /* one tile: the whole bit range at once */
  STEP_LOCAL_SHUFFLE,
  STEP_TILE_COUNTS,
  STEP_COUNTED,         /* no dispatch: the last pass's shuffle_scatter counted */
  STEP_SCAN,
  STEP_GLOBAL_SCATTER,
  STEP_SHUFFLE_SCATTER,
  STEP_COPY_BACK
} step_kind;

/* A step: the stage and the pass's buffers and uniforms; `ends` is the
 * public stage whose work it completes (profiling and inspection stop
 * there), or NO_STAGE. */
enum { NO_STAGE = -1 };
typedef struct step {
  step_kind kind;
  int ends;
  _glradix_pass pass;
  bool key_bits;              /* first tile stage: also gather the varying key bits */
  bool spread;                /* the scan leaves SPREAD: level 1 at `level1` */
  GLuint level1;
  _glradix_scan_leave leave;  /* SCAN, SHUFFLE_SCATTER */
  _glradix_scan_io io;        /* SCAN */
  GLuint fill_first, fill_words;
} step;

typedef struct plan {
  const _glradix_scan_plan *levels; /* the scan's levels, shared by every pass */
  unsigned count;
  step steps[_GLRADIX_MAX_PASSES * 4 + 2];
} plan;

/* Where the loop stops (glradix_sort_inspect), and whether it profiles. */
typedef struct plan_hooks {
  bool profile;
  bool stop;
  unsigned stop_pass;
  glradix_stage stop_stage;
} plan_hooks;

static step *add_step(plan *pl, step_kind kind, int ends, const _glradix_pass *pass) {
  step *s = &pl->steps[pl->count++];
  *s = (step){.kind = kind, .ends = ends, .pass = *pass};
  return s;
}

static void add_fill(plan *pl, const _glradix_pass *pass, GLuint first, GLuint words) {
  step *s = add_step(pl, STEP_FILL_COUNTS, NO_STAGE, pass);
  s->fill_first = first;
  s->fill_words = words;
}

/* The pass plan: one pass per radix_bits-wide digit of [shift, end_bit),
 * lowest first, each a tile stage, the scan and another tile stage.
 * Scan-then-propagate sorts in place through scratch; reduce-then-scan
 * alternates between the caller's buffers and scratch and copies back
 * after an odd number of passes. Inspection takes scan-then-propagate and
 * skips no pass. */
static void plan_passes(const glradix_context *ctx, plan *pl, _glradix_pass pass, GLuint end_bit,
                        const _glradix_scratch *scratch, bool inspect) {
  const GLuint keys = pass.keys, values = pass.values;
  const GLuint begin_bit = pass.shift, radix_bits = ctx->desc.radix_bits;
  const unsigned passes = _glradix_div_up(end_bit - begin_bit, radix_bits);
  const bool reduce_then_scan = ctx->desc.plan == GLRADIX_PLAN_REDUCE_THEN_SCAN && !inspect;
  const _glradix_scan_plan *levels = reduce_then_scan ? &scratch->column_plan : &scratch->plan;
  const bool skip = skips_passes(ctx, begin_bit, end_bit, inspect);
  pl->levels = levels;
  pl->count = 0;
  /* shuffle_scatter adds the block totals itself (no scan_add over level
   * 0), and on small grids sums them too (_GLRADIX_SMALL_GRID). */
  const _glradix_scan_leave leave =
      !reduce_then_scan ? _GLRADIX_SCAN_WHOLE
      : pass.num_tiles <= _GLRADIX_SMALL_GRID && _glradix_scan_few_totals(levels)
          ? _GLRADIX_SCAN_LEAVE_TOTALS
          : _GLRADIX_SCAN_LEAVE_BLOCKS;
  pass.per_tile = levels->total; /* after the scan's levels (scratch.c) */
  /* With the next counts (forms.h), each pass's shuffle_scatter adds up
   * the next pass's counts after those (zero at first, and again once
   * scanned), and only the first pass runs tile_counts. */
  const bool next_counts =
      ctx->forms.per_tile == _GLRADIX_PER_TILE_NEXT_COUNTS && reduce_then_scan;
  if (next_counts) add_fill(pl, &pass, pass.per_tile, levels->length[0]);
  /* SPREAD needs the scan's level 1 zero. A pass with a count stage has it
   * zero the level; with the next counts, where the last pass's scatter
   * counted instead, level 1 alternates between the plan's and a second
   * one after the next pass's counts, and each scan zeroes the next
   * pass's, whose last reader (the scatter two passes back) has finished. */
  const bool spread = leave != _GLRADIX_SCAN_WHOLE && _glradix_scan_spreads(ctx, levels);
  const GLuint level1[2] = {levels->offset[1],
                            next_counts ? pass.per_tile + levels->length[0] : levels->offset[1]};
  for (unsigned p = 0; p < passes; p++) {
    const bool odd = p % 2 != 0;
    pass.index = p;
    pass.shift = begin_bit + p * radix_bits;
    pass.digit_bits = digit_width(ctx, pass.shift, end_bit);
    pass.keys = reduce_then_scan && odd ? ctx->tile_keys.name : keys;
    pass.values = reduce_then_scan && odd ? ctx->tile_values.name : values;
    pass.out_keys = reduce_then_scan && odd ? keys : ctx->tile_keys.name;
    pass.out_values = reduce_then_scan && odd ? values : ctx->tile_values.name;
    const bool counted = next_counts && p > 0; /* by the last pass's shuffle_scatter */
    pass.next_shift = next_counts && p + 1 < passes ? pass.shift + radix_bits : _GLRADIX_NO_NEXT;
    pass.next_bits =
        pass.next_shift == _GLRADIX_NO_NEXT ? 0u : digit_width(ctx, pass.next_shift, end_bit);
    /* Tiles past a GPU count are not dispatched: their counts must read 0,
     * and the last pass's scan left offsets there. */
    if (pass.indirect && !counted) add_fill(pl, &pass, 0, levels->length[0]);
    const step_kind tiles = !reduce_then_scan ? STEP_LOCAL_SHUFFLE
                            : counted         ? STEP_COUNTED
                                              : STEP_TILE_COUNTS;
    step *s = add_step(pl, tiles, GLRADIX_STAGE_LOCAL_SHUFFLE, &pass);
    s->key_bits = p == 0 && skip;
    s->spread = spread;
    s->level1 = level1[p % 2];
    s = add_step(pl, STEP_SCAN, GLRADIX_STAGE_SCAN, &pass);
    s->spread = spread;
    s->level1 = level1[p % 2];
    s->leave = spread ? _GLRADIX_SCAN_LEAVE_SPREAD : leave;
    const bool zero_next = spread && next_counts && p + 1 < passes;
    s->io = (_glradix_scan_io){ctx->counts.name, counted ? pass.per_tile : 0, ctx->counts.name, 0,
                               counted, level1[(p + 1) % 2],
                               zero_next ? levels->length[1] : 0u};
    s = add_step(pl, reduce_then_scan ? STEP_SHUFFLE_SCATTER : STEP_GLOBAL_SCATTER,
                 GLRADIX_STAGE_GLOBAL_SCATTER, &pass);
    s->spread = spread;
    s->level1 = level1[p % 2];
    s->leave = spread ? _GLRADIX_SCAN_LEAVE_SPREAD : leave;
  }
  if (reduce_then_scan && passes % 2 != 0) add_step(pl, STEP_COPY_BACK, NO_STAGE, &pass);
}

/* The one-tile plan: tile_sort over the whole range, which counts as the
 * local shuffle of a pass whose other stages take no time. */
static void plan_tile_sort(plan *pl, const _glradix_pass *pass) {
  pl->levels = NULL;
  pl->count = 0;
  add_step(pl, STEP_TILE_SORT, GLRADIX_STAGE_LOCAL_SHUFFLE, pass);
}

static void run_step(glradix_context *ctx, const plan *pl, const step *s) {
  _glradix_scan_plan levels = {0};
  if (pl->levels) {
    levels = *pl->levels; /* with this pass's level 1 where it spreads */
    if (s->spread) levels.offset[1] = s->level1;
  }
  switch (s->kind) {
  case STEP_FILL_COUNTS:
    _glradix_fill_words(ctx, ctx->counts.name, s->fill_first, s->fill_words, 0);
    return;
  case STEP_TILE_SORT:
    _glradix_tile_sort(ctx, &s->pass);
    return;
  case STEP_LOCAL_SHUFFLE:
    _glradix_local_shuffle(ctx, &s->pass, s->key_bits);
    break;
  case STEP_TILE_COUNTS:
    _glradix_tile_counts(ctx, &s->pass, s->key_bits, s->spread ? &levels : NULL);
    break;
  case STEP_COUNTED:
    break;
  case STEP_SCAN:
    _glradix_scan(ctx, &levels, &s->io, false, s->leave);
    return;
  case STEP_GLOBAL_SCATTER:
    _glradix_global_scatter(ctx, &s->pass);
    break;
  case STEP_SHUFFLE_SCATTER:
    _glradix_shuffle_scatter(ctx, &s->pass, &levels, s->leave == _GLRADIX_SCAN_LEAVE_TOTALS);
    break;
  case STEP_COPY_BACK:
    _glradix_copy_back(ctx, &s->pass);
    return;
  }
  /* the tile stages' output is the next stage's input */
  ctx->gl.MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

/* Runs the plan's steps in order. Profiling marks a timestamp before each
 * pass's first step and after each step that ends a stage (a one-tile
 * sort's step ends all three); inspection stops after its stage. */
static void run_plan(glradix_context *ctx, const plan *pl, const plan_hooks *hooks) {
  unsigned started = 0; /* passes whose start is marked */
  for (unsigned i = 0; i < pl->count; i++) {
    const step *s = &pl->steps[i];
    const unsigned p = s->pass.index;
    if (hooks->profile && p + 1 > started) {
      _glradix_profile_mark(ctx, p, 0);
      started = p + 1;
    }
    run_step(ctx, pl, s);
    if (s->ends == NO_STAGE) continue;
    if (hooks->profile) {
      const unsigned last = s->kind == STEP_TILE_SORT ? _GLRADIX_STAGES : (unsigned)s->ends + 1;
      for (unsigned point = (unsigned)s->ends + 1; point <= last; point++)
        _glradix_profile_mark(ctx, p, point);
    }
    if (hooks->stop && p == hooks->stop_pass && s->ends == (int)hooks->stop_stage) return;
  }
}

glradix_status _glradix_sort(glradix_context *ctx, const char *fn, const glradix_sort_desc *desc) {
  unsigned end_bit = 0;
  _glradix_scratch scratch = {0};
  glradix_status st = check_desc(ctx, fn, desc, &end_bit);
  if (st != GLRADIX_OK || desc->count == 0) return st;
  st = prepare(ctx, fn, desc, _glradix_may_widen(ctx), &scratch);
  if (st == GLRADIX_OK) st = _glradix_check_sort_programs(ctx, fn, &scratch, desc->values != 0, false);
  if (st != GLRADIX_OK) return st;
  _glradix_pass pass = whole_sort(desc, &scratch, end_bit);
  ctx->profiled_passes = 0;
  _glradix_count_prepare(ctx, &pass, desc->count_buffer, desc->count_offset,
                         skips_passes(ctx, desc->begin_bit, end_bit, false));
  plan pl;
  if (scratch.single) plan_tile_sort(&pl, &pass);
  else plan_passes(ctx, &pl, pass, end_bit, &scratch, false);
  const plan_hooks hooks = {.profile = ctx->desc.profile};
  run_plan(ctx, &pl, &hooks);
  return GLRADIX_OK;
}

glradix_status glradix_sort(glradix_context *ctx, const glradix_sort_desc *desc) {
  if (!ctx) return GLRADIX_ERROR_INVALID_ARGUMENT; /* nowhere to log */
  /* A bad desc or nothing to sort: return before touching GL. */
  unsigned end_bit = 0;
  glradix_status st = check_desc(ctx, "glradix_sort", desc, &end_bit);
  if (st != GLRADIX_OK || desc->count == 0) return st;
  _glradix_gl_state saved;
  _glradix_begin(ctx, &saved);
  st = _glradix_sort(ctx, "glradix_sort", desc);
  return _glradix_end(ctx, "glradix_sort", st, &saved);
}

glradix_status glradix_sort_inspect(glradix_context *ctx, const glradix_sort_desc *desc,
                                    unsigned pass, glradix_stage stage, unsigned out_keys) {
  const char *fn = "glradix_sort_inspect";
  if (!ctx) return GLRADIX_ERROR_INVALID_ARGUMENT; /* nowhere to log */
  unsigned end_bit = 0;
  glradix_status st = check_desc(ctx, fn, desc, &end_bit);
  if (st != GLRADIX_OK) return st;
  unsigned passes = _glradix_div_up(end_bit - desc->begin_bit, ctx->desc.radix_bits);
  if (pass >= passes || (unsigned)stage > (unsigned)GLRADIX_STAGE_GLOBAL_SCATTER ||
      desc->count_buffer != 0 || desc->count == 0) {
    _glradix_log(&ctx->desc, "%s: pass %u of %u, stage %d, count %u%s: nothing to inspect", fn,
                 pass, passes, (int)stage, desc->count,
                 desc->count_buffer ? " (with a count_buffer)" : "");
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  /* the passes would change out_keys before the copy (or copy it onto itself) */
  st = _glradix_check_distinct(ctx, fn, out_keys, "out_keys", desc->keys, "keys");
  if (st == GLRADIX_OK) st = _glradix_check_distinct(ctx, fn, out_keys, "out_keys", desc->values, "values");
  if (st != GLRADIX_OK) return st;
  _glradix_gl_state saved;
  _glradix_begin(ctx, &saved);
  _glradix_scratch scratch = {0};
  st = prepare(ctx, fn, desc, false, &scratch);
  const uint64_t key_bytes = (uint64_t)desc->count * 4u * _glradix_key_words(desc);
  if (st == GLRADIX_OK) st = _glradix_check_buffer(ctx, fn, out_keys, "out_keys", key_bytes);
  if (st == GLRADIX_OK) st = _glradix_check_sort_programs(ctx, fn, &scratch, desc->values != 0, true);
  if (st == GLRADIX_OK) {
    _glradix_pass p = whole_sort(desc, &scratch, end_bit);
    _glradix_count_prepare(ctx, &p, 0, 0, false);
    GLuint from = desc->keys;
    plan pl;
    if (scratch.single) {
      /* one tile: every stage of a pass gives that pass's output */
      GLuint pass_end = desc->begin_bit + (pass + 1) * ctx->desc.radix_bits;
      p.digit_bits = (pass_end < end_bit ? pass_end : end_bit) - desc->begin_bit;
      plan_tile_sort(&pl, &p);
    } else {
      plan_passes(ctx, &pl, p, end_bit, &scratch, true);
      if (stage != GLRADIX_STAGE_GLOBAL_SCATTER) from = ctx->tile_keys.name;
    }
    const plan_hooks hooks = {.stop = true, .stop_pass = pass, .stop_stage = stage};
    run_plan(ctx, &pl, &hooks);
    ctx->gl.MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    _glradix_copy(ctx, from, 0, out_keys, 0, (GLsizeiptr)key_bytes);
  }
  return _glradix_end(ctx, fn, st, &saved);
}
