/* glradix_sort: validate, plan the passes, run stage after stage. */
#include <string.h>

#include "internal.h"


void _glradix_bind_pass(glradix_context *ctx, const _glradix_pass *pass) {
  const uint64_t value_bytes = (uint64_t)pass->count * 4u;
  _glradix_bind(ctx, _GLRADIX_B_KEYS, pass->keys, value_bytes * pass->key_words);
  _glradix_bind(ctx, _GLRADIX_B_TILE_KEYS, pass->out_keys, value_bytes * pass->key_words);
  _glradix_bind(ctx, _GLRADIX_B_COUNTS, ctx->counts.name, 0);
  _glradix_bind(ctx, _GLRADIX_B_SKIP, ctx->skip.name, 0);
  if (pass->pairs) {
    _glradix_bind(ctx, _GLRADIX_B_VALUES, pass->values, value_bytes);
    _glradix_bind(ctx, _GLRADIX_B_TILE_VALUES, pass->out_values, value_bytes);
  }
}

void _glradix_use_pass(glradix_context *ctx, _glradix_program program,
                       const _glradix_pass *pass) {
  GladGLContext *gl = &ctx->gl;
  gl->UseProgram(_glradix_program_name(ctx, program, pass->set));
  _glradix_bind_pass(ctx, pass);
  gl->Uniform1ui(_GLRADIX_LOC_SHIFT, pass->shift);
  gl->Uniform1ui(_GLRADIX_LOC_DIGIT_BITS, pass->digit_bits);
  gl->Uniform1ui(_GLRADIX_LOC_NUM_TILES, pass->num_tiles);
  gl->Uniform1ui(_GLRADIX_LOC_KEY_MODE, pass->key_mode);
}

bool _glradix_groups_fit(const glradix_context *ctx, uint64_t groups) {
  return groups <= (uint64_t)ctx->group_limit[0] * ctx->group_limit[1];
}

void _glradix_dispatch(glradix_context *ctx, GLuint groups) {
  if (groups == 0) return;
  GLuint x = groups < ctx->group_limit[0] ? groups : ctx->group_limit[0];
  ctx->gl.DispatchCompute(x, _glradix_div_up(groups, x), 1);
}

/* 32-bit words per key. */
static GLuint key_words(const glradix_sort_desc *d) {
  return d->key_type == GLRADIX_KEY_UINT64 ? 2u : 1u;
}

/* The _GLRADIX_KEY_* bits common.glsl's sort_key() applies. */
static GLuint key_mode(const glradix_sort_desc *d) {
  GLuint mode = d->descending ? _GLRADIX_KEY_DESCENDING : 0u;
  if (d->key_type == GLRADIX_KEY_INT32) mode |= _GLRADIX_KEY_SIGNED;
  if (d->key_type == GLRADIX_KEY_FLOAT32) mode |= _GLRADIX_KEY_FLOAT;
  return mode;
}

static bool known_key_type(const glradix_sort_desc *d) {
  return (unsigned)d->key_type <= (unsigned)GLRADIX_KEY_UINT64;
}

static glradix_status check_key_type(const glradix_context *ctx, const char *fn,
                                     const glradix_sort_desc *d) {
  if (known_key_type(d)) return GLRADIX_OK;
  _glradix_log(&ctx->desc, "%s: key_type %d is not a glradix_key_type", fn, (int)d->key_type);
  return GLRADIX_ERROR_INVALID_ARGUMENT;
}

/* Checks that need no GL: pointers, the bit range, the key type. */
static glradix_status check_desc(const glradix_context *ctx, const char *fn,
                                 const glradix_sort_desc *d,
                                 unsigned *end_bit) {
  if (!d) {
    _glradix_log(&ctx->desc, "%s: desc is NULL", fn);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  if (check_key_type(ctx, fn, d) != GLRADIX_OK) return GLRADIX_ERROR_INVALID_ARGUMENT;
  const unsigned width = 32u * key_words(d);
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

/* Scratch for sorting `count` keys (with values if pairs): what
 * glradix_scratch_bytes reports, glradix_reserve allocates and every sort
 * grows to. One tile needs none (tile_sort works in place). */
typedef struct scratch_layout {
  GLuint num_tiles;
  _glradix_set set;        /* the programs: KEY64, WIDE (wide tiles) or BASE */
  bool single;             /* sorted by tile_sort, no scratch */
  GLsizeiptr key_bytes;    /* tile_keys */
  GLsizeiptr value_bytes;  /* tile_values, for pairs */
  GLsizeiptr counts_bytes; /* the scan's levels, then with ctx->tile_starts the tiles' digit
                            starts or with ctx->next_counts the next pass's counts */
  _glradix_scan_plan plan;         /* scan-then-propagate's: a column per tile */
  _glradix_scan_plan column_plan;  /* reduce-then-scan's (_glradix_count_columns) */
} scratch_layout;

/* The layout of `count` keys in tiles of `tile` keys. */
static bool layout_in_tiles(const glradix_context *ctx, uint32_t count, bool pairs,
                            GLuint key_words, GLuint tile, scratch_layout *s) {
  memset(s, 0, sizeof *s);
  s->set = key_words == 2 ? _GLRADIX_SET_KEY64 : _GLRADIX_SET_BASE;
  s->num_tiles = _glradix_div_up(count, tile);
  s->single = count <= _glradix_small_count(ctx, key_words);
  if (s->single) return true;
  GLuint buckets = (1u << ctx->desc.radix_bits) * s->num_tiles;
  /* The counts are level 0 of the scan, its upper levels follow them. */
  _glradix_scan_plan_make(&s->plan, buckets, ctx->scan_tile, buckets);
  GLuint columns = (1u << ctx->desc.radix_bits) * _glradix_count_columns(ctx, s->num_tiles);
  _glradix_scan_plan_make(&s->column_plan, columns, ctx->scan_tile, columns);
  uint64_t tile_bytes = (uint64_t)s->num_tiles * tile * sizeof(GLuint);
  if (tile_bytes * key_words > (uint64_t)ctx->max_ssbo_bytes ||
      !_glradix_scan_fits(ctx, &s->plan) || !_glradix_groups_fit(ctx, s->num_tiles))
    return false;
  s->key_bytes = (GLsizeiptr)(tile_bytes * key_words);
  s->value_bytes = pairs ? (GLsizeiptr)tile_bytes : 0;
  /* After reduce-then-scan's levels: each tile's digit starts
   * (ctx->tile_starts) or the next pass's counts (ctx->next_counts, then a
   * second level 1: run_passes); context.c never picks both. */
  uint64_t count_words = (uint64_t)s->column_plan.total +
                         (ctx->tile_starts || ctx->next_counts ? buckets : 0u) +
                         (ctx->next_counts ? s->column_plan.length[1] : 0u);
  if (count_words < s->plan.total) count_words = s->plan.total;
  if (count_words * sizeof(GLuint) > (uint64_t)ctx->max_ssbo_bytes) return false;
  s->counts_bytes = (GLsizeiptr)(count_words * sizeof(GLuint));
  return true;
}

static GLsizeiptr larger(GLsizeiptr a, GLsizeiptr b) { return a > b ? a : b; }

/* The layout for sorting `count` keys; `wide`: in wide tiles where the
 * context has them for such a sort (reduce-then-scan sorts; inspection
 * takes the context's tiles). The buffers cover both tiles either way, so
 * that scratch for a count covers every smaller count, which may take the
 * other tiles and, in smaller tiles, need more counts. */
static bool scratch_layout_make(const glradix_context *ctx, uint32_t count, bool pairs,
                                GLuint key_words, bool wide, scratch_layout *s) {
  if (!layout_in_tiles(ctx, count, pairs, key_words, ctx->tile, s)) return false;
  scratch_layout w;
  if (s->single || !ctx->wide_tile || key_words != 1 || count < ctx->wide_from ||
      !layout_in_tiles(ctx, count, pairs, key_words, ctx->wide_tile, &w))
    return true;
  w.set = _GLRADIX_SET_WIDE;
  w.key_bytes = s->key_bytes = larger(s->key_bytes, w.key_bytes);
  w.value_bytes = s->value_bytes = larger(s->value_bytes, w.value_bytes);
  w.counts_bytes = s->counts_bytes = larger(s->counts_bytes, w.counts_bytes);
  if (wide) *s = w;
  return true;
}

/* The scratch and the programs a layout needs: the sets other than BASE
 * are built on first use. */
static glradix_status scratch_allocate(glradix_context *ctx, const scratch_layout *s) {
  glradix_status st = GLRADIX_OK;
  if (!s->single) {
    const char *what = "allocating scratch";
    st = _glradix_ensure_buffer(ctx, &ctx->tile_keys, s->key_bytes, what);
    if (st == GLRADIX_OK && s->value_bytes)
      st = _glradix_ensure_buffer(ctx, &ctx->tile_values, s->value_bytes, what);
    if (st == GLRADIX_OK) st = _glradix_ensure_buffer(ctx, &ctx->counts, s->counts_bytes, what);
  }
  if (st == GLRADIX_OK && s->set != _GLRADIX_SET_BASE) st = _glradix_build_programs(ctx, s->set);
  return st;
}

/* Whether a sort on ctx may take wide tiles: reduce-then-scan sorts (not
 * inspection, which takes the context's tiles). */
static bool may_widen(const glradix_context *ctx) {
  return ctx->desc.plan == GLRADIX_PLAN_REDUCE_THEN_SCAN;
}

static glradix_status too_large(glradix_context *ctx, const char *fn, uint32_t count) {
  _glradix_log(&ctx->desc,
               "%s: count %u exceeds this context's limits (shader storage block %lld bytes, "
               "%u x %u work groups)",
               fn, count, (long long)ctx->max_ssbo_bytes, ctx->group_limit[0],
               ctx->group_limit[1]);
  return GLRADIX_ERROR_TOO_LARGE;
}

glradix_status _glradix_reserve(glradix_context *ctx, const char *fn, uint32_t count, bool pairs,
                                GLuint key_words) {
  scratch_layout s;
  if (!scratch_layout_make(ctx, count, pairs, key_words, may_widen(ctx), &s))
    return too_large(ctx, fn, count);
  return scratch_allocate(ctx, &s);
}

size_t glradix_scratch_bytes(const glradix_context *ctx, const glradix_sort_desc *desc) {
  scratch_layout s;
  if (!ctx || !desc || !known_key_type(desc) ||
      !scratch_layout_make(ctx, desc->count, desc->values != 0, key_words(desc), false, &s))
    return 0;
  return (size_t)(s.key_bytes + s.value_bytes + s.counts_bytes);
}

glradix_status glradix_reserve(glradix_context *ctx, const glradix_sort_desc *desc) {
  _glradix_gl_state saved;
  glradix_status entered = _glradix_enter(ctx, "glradix_reserve", desc, &saved);
  if (entered != GLRADIX_OK) return entered;
  glradix_status st = check_key_type(ctx, "glradix_reserve", desc);
  if (st == GLRADIX_OK)
    st = _glradix_reserve(ctx, "glradix_reserve", desc->count, desc->values != 0, key_words(desc));
  return _glradix_end(ctx, "glradix_reserve", st, &saved);
}

/* Everything that needs GL before the first dispatch: buffers, limits, scratch. */
static glradix_status prepare(glradix_context *ctx, const char *fn, const glradix_sort_desc *d,
                              bool wide, scratch_layout *s) {
  /* Too large whatever the buffers: say so first. */
  if (!scratch_layout_make(ctx, d->count, d->values != 0, key_words(d), wide, s))
    return too_large(ctx, fn, d->count);
  uint64_t bytes = (uint64_t)d->count * sizeof(GLuint);
  glradix_status st =
      _glradix_check_buffer(ctx, fn, d->keys, "keys", bytes * key_words(d));
  if (st == GLRADIX_OK && d->values)
    st = _glradix_check_buffer(ctx, fn, d->values, "values", bytes);
  if (st == GLRADIX_OK)
    st = _glradix_check_word(ctx, fn, d->count_buffer, d->count_offset, "count_buffer");
  if (st != GLRADIX_OK) return st;
  return scratch_allocate(ctx, s);
}

/* glradix_sort_inspect: where the passes stop. */
typedef struct stop_point {
  unsigned pass;
  glradix_stage stage;
} stop_point;

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

/* The pass plan: one pass per radix_bits-wide digit of [shift, end_bit),
 * lowest first, each a tile stage, the scan and another tile stage with
 * barriers between. Scan-then-propagate sorts in place through scratch;
 * reduce-then-scan alternates between the caller's buffers and scratch and
 * copies back after an odd number of passes. With a stop point (inspection)
 * the plan is scan-then-propagate, no pass is skipped, and the passes end
 * after the given stage. */
static void run_passes(glradix_context *ctx, _glradix_pass *pass, GLuint end_bit,
                       const scratch_layout *scratch, const stop_point *stop) {
  GladGLContext *gl = &ctx->gl;
  const GLuint keys = pass->keys, values = pass->values;
  const GLuint begin_bit = pass->shift;
  const unsigned passes = _glradix_div_up(end_bit - begin_bit, ctx->desc.radix_bits);
  const bool reduce_then_scan = ctx->desc.plan == GLRADIX_PLAN_REDUCE_THEN_SCAN && !stop;
  const _glradix_scan_plan *plan = reduce_then_scan ? &scratch->column_plan : &scratch->plan;
  const bool skip = skips_passes(ctx, begin_bit, end_bit, stop != NULL);
  /* shuffle_scatter adds the block totals itself (no scan_add over level
   * 0), and on small grids sums them too (_GLRADIX_SMALL_GRID). */
  const _glradix_scan_leave leave =
      !reduce_then_scan ? _GLRADIX_SCAN_WHOLE
      : pass->num_tiles <= _GLRADIX_SMALL_GRID && _glradix_scan_few_totals(plan)
          ? _GLRADIX_SCAN_LEAVE_TOTALS
          : _GLRADIX_SCAN_LEAVE_BLOCKS;
  pass->per_tile = plan->total; /* after the scan's levels (scratch_layout_make) */
  /* With ctx->next_counts, each pass's shuffle_scatter adds up the next
   * pass's counts after those (zero at first, and again once scanned), and
   * only the first pass runs tile_counts. */
  const bool next_counts = ctx->next_counts && reduce_then_scan;
  if (next_counts) _glradix_fill(ctx, ctx->counts.name, pass->per_tile, plan->length[0], 0);
  /* SPREAD needs the scan's level 1 zero. A pass with a count stage has it
   * zero the level; with NEXT_COUNTS, where the last pass's scatter
   * counted instead, level 1 alternates between the plan's and a second
   * one after the next pass's counts, and each scan zeroes the next
   * pass's, whose last reader (the scatter two passes back) has finished. */
  const bool spread = leave != _GLRADIX_SCAN_WHOLE && _glradix_scan_spreads(ctx, plan);
  const GLuint second_sums = pass->per_tile + plan->length[0];
  /* level 1 of even and odd passes (where they spread) */
  const GLuint level1[2] = {plan->offset[1], next_counts ? second_sums : plan->offset[1]};
  for (unsigned p = 0; p < passes; p++) {
    pass->index = p;
    pass->shift = begin_bit + p * ctx->desc.radix_bits;
    pass->digit_bits = digit_width(ctx, pass->shift, end_bit);
    bool odd = p % 2 != 0;
    if (reduce_then_scan) {
      pass->keys = odd ? ctx->tile_keys.name : keys;
      pass->values = odd ? ctx->tile_values.name : values;
      pass->out_keys = odd ? keys : ctx->tile_keys.name;
      pass->out_values = odd ? values : ctx->tile_values.name;
    } else {
      pass->out_keys = ctx->tile_keys.name;
      pass->out_values = ctx->tile_values.name;
    }
    if (!stop) _glradix_profile_mark(ctx, p, 0); /* profiles glradix_sort only */
    const bool counted = next_counts && p > 0; /* by the last pass's shuffle_scatter */
    pass->next_shift = next_counts && p + 1 < passes ? pass->shift + ctx->desc.radix_bits
                                                     : _GLRADIX_NO_NEXT;
    pass->next_bits =
        pass->next_shift == _GLRADIX_NO_NEXT ? 0u : digit_width(ctx, pass->next_shift, end_bit);
    if (pass->indirect && !counted) {
      /* Tiles past the GPU count are not dispatched: their counts must read
       * 0, and the last pass's scan left offsets there. */
      _glradix_fill(ctx, ctx->counts.name, 0, plan->length[0], 0);
    }
    const _glradix_scan_leave pass_leave = spread ? _GLRADIX_SCAN_LEAVE_SPREAD : leave;
    _glradix_scan_plan pass_plan = *plan; /* with this pass's level 1 when it spreads */
    if (spread) pass_plan.offset[1] = level1[p % 2];
    if (!reduce_then_scan) _glradix_local_shuffle(ctx, pass, p == 0 && skip);
    else if (!counted) _glradix_tile_counts(ctx, pass, p == 0 && skip, spread ? &pass_plan : NULL);
    gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    if (!stop) _glradix_profile_mark(ctx, p, 1);
    if (stop && p == stop->pass && stop->stage == GLRADIX_STAGE_LOCAL_SHUFFLE) return;
    const bool zero_next = spread && next_counts && p + 1 < passes;
    const _glradix_scan_io counts = {ctx->counts.name, counted ? pass->per_tile : 0,
                                     ctx->counts.name, 0, counted,
                                     level1[(p + 1) % 2], zero_next ? plan->length[1] : 0u};
    _glradix_scan(ctx, &pass_plan, &counts, false, pass_leave);
    if (!stop) _glradix_profile_mark(ctx, p, 2);
    if (stop && p == stop->pass && stop->stage == GLRADIX_STAGE_SCAN) return;
    if (reduce_then_scan)
      _glradix_shuffle_scatter(ctx, pass, &pass_plan, pass_leave == _GLRADIX_SCAN_LEAVE_TOTALS);
    else _glradix_global_scatter(ctx, pass);
    gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    if (!stop) _glradix_profile_mark(ctx, p, 3);
    if (stop && p == stop->pass) return;
  }
  if (reduce_then_scan && passes % 2 != 0) _glradix_copy_back(ctx, pass);
}

/* The whole sort as one "pass" over [begin_bit, end_bit): what run_passes
 * splits into passes and tile_sort does at once. */
static _glradix_pass whole_sort(const glradix_sort_desc *desc, const scratch_layout *scratch,
                                GLuint end_bit) {
  _glradix_pass pass = {.pairs = desc->values != 0, .keys = desc->keys, .values = desc->values,
                        .count = desc->count, .num_tiles = scratch->num_tiles,
                        .shift = desc->begin_bit, .digit_bits = end_bit - desc->begin_bit,
                        .key_mode = key_mode(desc), .indirect = desc->count_buffer != 0,
                        .key_words = key_words(desc), .set = scratch->set};
  return pass;
}

glradix_status _glradix_sort(glradix_context *ctx, const char *fn, const glradix_sort_desc *desc) {
  unsigned end_bit = 0;
  scratch_layout scratch = {0};
  glradix_status st = check_desc(ctx, fn, desc, &end_bit);
  if (st != GLRADIX_OK || desc->count == 0) return st;
  st = prepare(ctx, fn, desc, may_widen(ctx), &scratch);
  if (st != GLRADIX_OK) return st;
  _glradix_pass pass = whole_sort(desc, &scratch, end_bit);
  ctx->profiled_passes = 0;
  _glradix_count_prepare(ctx, &pass, desc->count_buffer, desc->count_offset,
                         skips_passes(ctx, desc->begin_bit, end_bit, false));
  if (scratch.single) {
    /* Profiled as one pass whose work all counts as local_shuffle. */
    _glradix_profile_mark(ctx, 0, 0);
    _glradix_tile_sort(ctx, &pass);
    for (unsigned point = 1; point <= _GLRADIX_STAGES; point++)
      _glradix_profile_mark(ctx, 0, point);
  } else {
    run_passes(ctx, &pass, end_bit, &scratch, NULL);
  }
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
  scratch_layout scratch = {0};
  st = prepare(ctx, fn, desc, false, &scratch);
  const uint64_t key_bytes = (uint64_t)desc->count * 4u * key_words(desc);
  if (st == GLRADIX_OK) st = _glradix_check_buffer(ctx, fn, out_keys, "out_keys", key_bytes);
  if (st == GLRADIX_OK) {
    _glradix_pass p = whole_sort(desc, &scratch, end_bit);
    _glradix_count_prepare(ctx, &p, 0, 0, false);
    const stop_point stop = {pass, stage};
    GLuint from = desc->keys;
    if (scratch.single) {
      /* one tile: every stage of a pass gives that pass's output */
      GLuint pass_end = desc->begin_bit + (pass + 1) * ctx->desc.radix_bits;
      p.digit_bits = (pass_end < end_bit ? pass_end : end_bit) - desc->begin_bit;
      _glradix_tile_sort(ctx, &p);
    } else {
      run_passes(ctx, &p, end_bit, &scratch, &stop);
      if (stage != GLRADIX_STAGE_GLOBAL_SCATTER) from = ctx->tile_keys.name;
    }
    ctx->gl.MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    _glradix_copy(ctx, from, 0, out_keys, 0, (GLsizeiptr)key_bytes);
  }
  return _glradix_end(ctx, fn, st, &saved);
}
