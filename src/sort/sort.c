/* glradix_sort, glradix_sort_inspect and glradix_reserve: validate, have
 * the planner (plan.c) list the steps, check the programs they run, then
 * run the steps in order. Each step is a stage's C function (one shader)
 * with the pass's buffers and uniforms; one loop runs them, and profiling
 * and inspection are hooks on that loop. */
#include "plan.h"

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

/* _glradix_check_programs for the programs a plan's steps run. */
static glradix_status check_programs(glradix_context *ctx, const char *fn,
                                     const _glradix_step_list *list) {
  _glradix_program programs[_GLRADIX_PROG_COUNT];
  const size_t count = _glradix_plan_programs(list, programs);
  return _glradix_check_programs(ctx, fn, programs, count);
}

/* Where the loop stops (glradix_sort_inspect), and whether it profiles. */
typedef struct plan_hooks {
  bool profile;
  bool stop;
  unsigned stop_pass;
  glradix_stage stop_stage;
} plan_hooks;

/* The planner's description of sorting `desc` in layout `scratch`. */
static _glradix_plan_desc plan_desc(const glradix_context *ctx, const glradix_sort_desc *desc,
                                    const _glradix_scratch *scratch, GLuint end_bit,
                                    const plan_hooks *hooks) {
  _glradix_plan_desc d = {
      .plan = ctx->desc.plan, .single = scratch->single, .stop = hooks->stop,
      .stop_pass = hooks->stop_pass, .radix_bits = ctx->desc.radix_bits, .end_bit = end_bit,
      .tile_keys = ctx->tile_keys.name, .tile_values = ctx->tile_values.name,
      .counts = ctx->counts.name, .per_tile = ctx->forms.per_tile,
      .tile_scan = scratch->plan, .column_scan = scratch->column_plan,
      .few_totals = _glradix_scan_few_totals(&scratch->column_plan),
      .spreads = _glradix_scan_spreads(ctx, &scratch->column_plan),
      .digit_scan = scratch->digit_plan, .status = scratch->status};
  d.sort = (_glradix_pass){.pairs = desc->values != 0, .keys = desc->keys, .values = desc->values,
                           .count = desc->count, .num_tiles = scratch->num_tiles,
                           .large_grid = scratch->large_grid,
                           .shift = desc->begin_bit, .digit_bits = end_bit - desc->begin_bit,
                           .key_mode = key_mode(desc), .indirect = desc->count_buffer != 0,
                           .key_words = _glradix_key_words(desc), .set = scratch->set};
  return d;
}

/* The plan of a sort and the check of its programs, ahead of any dispatch. */
static glradix_status make_plan(glradix_context *ctx, const char *fn,
                                const _glradix_plan_desc *d, _glradix_step_list *list) {
  if (!_glradix_plan_make(d, list)) {
    _glradix_log(&ctx->desc, "%s: the sort's plan takes more than %u steps", fn,
                 (unsigned)_GLRADIX_PLAN_STEPS);
    return GLRADIX_ERROR_TOO_LARGE;
  }
  return check_programs(ctx, fn, list);
}

static void run_step(glradix_context *ctx, const _glradix_step_list *pl, const _glradix_step *s) {
  _glradix_scan_plan levels = {0};
  if (pl->scans) {
    levels = pl->levels; /* with this pass's level 1 where it spreads */
    if (s->spread) levels.offset[1] = s->level1;
  }
  switch (s->kind) {
  case _GLRADIX_STEP_FILL_COUNTS:
    _glradix_fill_words(ctx, ctx->counts.name, s->fill_first, s->fill_words, 0);
    return;
  case _GLRADIX_STEP_TILE_SORT:
    _glradix_tile_sort(ctx, &s->pass);
    return;
  case _GLRADIX_STEP_LOCAL_SHUFFLE:
    _glradix_local_shuffle(ctx, &s->pass, s->key_bits);
    break;
  case _GLRADIX_STEP_TILE_COUNTS:
    _glradix_tile_counts(ctx, &s->pass, s->key_bits, s->spread ? &levels : NULL);
    break;
  case _GLRADIX_STEP_COUNTED:
    break;
  case _GLRADIX_STEP_SCAN:
    _glradix_scan(ctx, &levels, &s->io, false, s->leave);
    return;
  case _GLRADIX_STEP_GLOBAL_SCATTER:
    _glradix_global_scatter(ctx, &s->pass);
    break;
  case _GLRADIX_STEP_SHUFFLE_SCATTER:
    _glradix_shuffle_scatter(ctx, &s->pass, &levels, s->leave == _GLRADIX_SCAN_LEAVE_TOTALS);
    break;
  case _GLRADIX_STEP_COPY_BACK:
    _glradix_copy_back(ctx, &s->pass);
    return;
  case _GLRADIX_STEP_DIGIT_COUNTS:
    _glradix_digit_counts(ctx, &s->pass, s->key_bits);
    break;
  case _GLRADIX_STEP_ONESWEEP:
    _glradix_shuffle_scatter_look_back(ctx, &s->pass, s->status, s->ticket);
    break;
  }
  /* the tile stages' output is the next stage's input */
  ctx->gl.MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

/* Marks a pass's profile points up to `point` that are not yet marked
 * (`next` is the first such): a stage a pass lacks takes no time. */
static void mark_to(glradix_context *ctx, unsigned pass, unsigned *next, unsigned point) {
  for (; *next <= point; (*next)++) _glradix_profile_mark(ctx, pass, *next);
}

/* Runs the plan's steps in order. Profiling marks a timestamp before each
 * pass's first step and after each step that ends a stage (a one-tile
 * sort's step ends all three; a single-pass plan's later passes have only
 * the last); inspection stops after its stage. */
static void run_plan(glradix_context *ctx, const _glradix_step_list *pl, const plan_hooks *hooks) {
  unsigned pass = 0, next = 0; /* the pass being marked and its next point */
  for (unsigned i = 0; i < pl->count; i++) {
    const _glradix_step *s = &pl->steps[i];
    const unsigned p = s->pass.index;
    if (hooks->profile) {
      if (p != pass) {
        pass = p;
        next = 0;
      }
      mark_to(ctx, p, &next, s->ends == _GLRADIX_NO_STAGE ? 0u : (unsigned)s->ends);
    }
    run_step(ctx, pl, s);
    if (s->ends == _GLRADIX_NO_STAGE) continue;
    if (hooks->profile)
      mark_to(ctx, p, &next, s->kind == _GLRADIX_STEP_TILE_SORT ? _GLRADIX_STAGES : (unsigned)s->ends + 1);
    if (hooks->stop && p == hooks->stop_pass && s->ends == (int)hooks->stop_stage) return;
  }
}

glradix_status _glradix_sort(glradix_context *ctx, const char *fn, const glradix_sort_desc *desc) {
  unsigned end_bit = 0;
  _glradix_scratch scratch = {0};
  glradix_status st = check_desc(ctx, fn, desc, &end_bit);
  if (st != GLRADIX_OK || desc->count == 0) return st;
  st = prepare(ctx, fn, desc, _glradix_may_widen(ctx), &scratch);
  if (st != GLRADIX_OK) return st;
  const plan_hooks hooks = {.profile = ctx->desc.profile};
  const _glradix_plan_desc d = plan_desc(ctx, desc, &scratch, end_bit, &hooks);
  _glradix_step_list pl;
  st = make_plan(ctx, fn, &d, &pl);
  if (st != GLRADIX_OK) return st;
  ctx->profiled_passes = 0;
  _glradix_count_prepare(ctx, &d.sort, desc->count_buffer, desc->count_offset, pl.skips, false);
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

/* glradix_sort_inspect's checks that need no GL. */
static glradix_status check_inspect(const glradix_context *ctx, const char *fn,
                                    const glradix_sort_desc *desc, unsigned pass,
                                    glradix_stage stage, unsigned out_keys, unsigned *end_bit) {
  glradix_status st = check_desc(ctx, fn, desc, end_bit);
  if (st != GLRADIX_OK) return st;
  unsigned passes = _glradix_div_up(*end_bit - desc->begin_bit, ctx->desc.radix_bits);
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
  return st;
}

glradix_status glradix_sort_inspect(glradix_context *ctx, const glradix_sort_desc *desc,
                                    unsigned pass, glradix_stage stage, unsigned out_keys) {
  const char *fn = "glradix_sort_inspect";
  if (!ctx) return GLRADIX_ERROR_INVALID_ARGUMENT; /* nowhere to log */
  unsigned end_bit = 0;
  glradix_status st = check_inspect(ctx, fn, desc, pass, stage, out_keys, &end_bit);
  if (st != GLRADIX_OK) return st;
  _glradix_gl_state saved;
  _glradix_begin(ctx, &saved);
  _glradix_scratch scratch = {0};
  st = prepare(ctx, fn, desc, false, &scratch);
  const uint64_t key_bytes = (uint64_t)desc->count * 4u * _glradix_key_words(desc);
  if (st == GLRADIX_OK) st = _glradix_check_buffer(ctx, fn, out_keys, "out_keys", key_bytes);
  const plan_hooks hooks = {.stop = true, .stop_pass = pass, .stop_stage = stage};
  const _glradix_plan_desc d = plan_desc(ctx, desc, &scratch, end_bit, &hooks);
  _glradix_step_list pl;
  if (st == GLRADIX_OK) st = make_plan(ctx, fn, &d, &pl);
  if (st == GLRADIX_OK) {
    _glradix_count_prepare(ctx, &d.sort, 0, 0, pl.skips, true);
    run_plan(ctx, &pl, &hooks);
    /* one tile: every stage of a pass gives that pass's output, in place */
    const GLuint from =
        scratch.single || stage == GLRADIX_STAGE_GLOBAL_SCATTER ? desc->keys : ctx->tile_keys.name;
    ctx->gl.MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    _glradix_copy(ctx, from, 0, out_keys, 0, (GLsizeiptr)key_bytes);
  }
  return _glradix_end(ctx, fn, st, &saved);
}

glradix_status glradix_reserve(glradix_context *ctx, const glradix_sort_desc *desc) {
  const char *fn = "glradix_reserve";
  _glradix_gl_state saved;
  glradix_status entered = _glradix_enter(ctx, fn, desc, &saved);
  if (entered != GLRADIX_OK) return entered;
  glradix_status st = _glradix_check_key_type(ctx, fn, desc);
  const bool pairs = desc->values != 0;
  if (st == GLRADIX_OK) st = _glradix_reserve(ctx, fn, desc->count, pairs, _glradix_key_words(desc));
  /* the sorts reserved for: refused now if they would be then */
  _glradix_scratch s;
  if (st == GLRADIX_OK && _glradix_scratch_layout(ctx, desc->count, pairs, _glradix_key_words(desc),
                                                  _glradix_may_widen(ctx), &s)) {
    _glradix_program programs[_GLRADIX_PROG_COUNT];
    size_t count = 1;
    programs[0] = pairs ? _GLRADIX_PROG_TILE_SORT_PAIRS : _GLRADIX_PROG_TILE_SORT;
    if (!s.single) count = _glradix_plan_programs_any(ctx->desc.plan, pairs, programs);
    st = _glradix_check_programs(ctx, fn, programs, count);
  }
  return _glradix_end(ctx, fn, st, &saved);
}
