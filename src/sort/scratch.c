/* The sort's scratch: its layout for a count (what glradix_scratch_bytes
 * reports, glradix_reserve allocates and every sort grows to), and the
 * sort desc's key words. Below the plan (plan.c) and the sort (sort.c),
 * which it knows nothing of. */
#include <string.h>

#include "internal.h"

GLuint _glradix_key_words(const glradix_sort_desc *d) {
  return d->key_type == GLRADIX_KEY_UINT64 ? 2u : 1u;
}

static bool known_key_type(const glradix_sort_desc *d) {
  return (unsigned)d->key_type <= (unsigned)GLRADIX_KEY_UINT64;
}

glradix_status _glradix_check_key_type(const glradix_context *ctx, const char *fn,
                                       const glradix_sort_desc *d) {
  if (known_key_type(d)) return GLRADIX_OK;
  _glradix_log(&ctx->desc, "%s: key_type %d is not a glradix_key_type", fn, (int)d->key_type);
  return GLRADIX_ERROR_INVALID_ARGUMENT;
}

/* The layout of `count` keys in tiles of `tile` keys. */
static bool layout_in_tiles(const glradix_context *ctx, uint32_t count, bool pairs,
                            GLuint key_words, GLuint tile, _glradix_scratch *s) {
  memset(s, 0, sizeof *s);
  s->set = key_words == 2 ? _GLRADIX_SET_KEY64 : _GLRADIX_SET_BASE;
  s->num_tiles = _glradix_div_up(count, tile);
  s->large_grid = _glradix_large_grid(&ctx->forms, s->num_tiles);
  s->single = count <= _glradix_small_count(ctx, key_words);
  if (s->single) return true;
  GLuint buckets = (1u << ctx->desc.radix_bits) * s->num_tiles;
  /* The counts are level 0 of the scan, its upper levels follow them. */
  _glradix_scan_plan_make(&s->plan, buckets, ctx->forms.scan_tile, buckets);
  GLuint columns = (1u << ctx->desc.radix_bits) * _glradix_count_columns(ctx, s->num_tiles);
  _glradix_scan_plan_make(&s->column_plan, columns, ctx->forms.scan_tile, columns);
  uint64_t tile_bytes = (uint64_t)s->num_tiles * tile * sizeof(GLuint);
  if (tile_bytes * key_words > (uint64_t)ctx->max_ssbo_bytes ||
      !_glradix_scan_fits(ctx, &s->plan) || !_glradix_groups_fit(ctx, s->num_tiles))
    return false;
  s->key_bytes = (GLsizeiptr)(tile_bytes * key_words);
  s->value_bytes = pairs ? (GLsizeiptr)tile_bytes : 0;
  /* After reduce-then-scan's levels, what the forms keep per tile: each
   * tile's digit starts, or the next pass's counts and a second level 1
   * (plan.c alternates between the two level 1s). */
  const _glradix_per_tile per_tile = ctx->forms.per_tile;
  uint64_t count_words = (uint64_t)s->column_plan.total +
                         (per_tile != _GLRADIX_PER_TILE_NONE ? buckets : 0u) +
                         (per_tile == _GLRADIX_PER_TILE_NEXT_COUNTS ? s->column_plan.length[1] : 0u);
  if (count_words < s->plan.total) count_words = s->plan.total;
  /* The single-pass plan (plan.c): every pass's digit counts and their
   * scan, then a status word per digit, tile and pass, then a ticket per
   * pass. */
  const GLuint max_passes = 32u * key_words / ctx->desc.radix_bits;
  const GLuint digits = max_passes << ctx->desc.radix_bits;
  _glradix_scan_plan_make(&s->digit_plan, digits, ctx->forms.scan_tile, digits);
  s->status = s->digit_plan.total;
  const uint64_t onesweep_words = (uint64_t)s->status + (uint64_t)buckets * max_passes + max_passes;
  if (ctx->desc.plan == GLRADIX_PLAN_ONESWEEP && count_words < onesweep_words)
    count_words = onesweep_words;
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
bool _glradix_scratch_layout(const glradix_context *ctx, uint32_t count, bool pairs,
                             GLuint key_words, bool wide, _glradix_scratch *s) {
  if (!layout_in_tiles(ctx, count, pairs, key_words, ctx->forms.tile, s)) return false;
  _glradix_scratch w;
  if (s->single || !ctx->forms.wide_tile || key_words != 1 || count < ctx->forms.wide_from ||
      !layout_in_tiles(ctx, count, pairs, key_words, ctx->forms.wide_tile, &w))
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
glradix_status _glradix_scratch_allocate(glradix_context *ctx, const _glradix_scratch *s) {
  glradix_status st = GLRADIX_OK;
  if (!s->single) {
    const char *what = "allocating scratch";
    st = _glradix_ensure_scratch(ctx, &ctx->tile_keys, s->key_bytes, what);
    if (st == GLRADIX_OK && s->value_bytes)
      st = _glradix_ensure_scratch(ctx, &ctx->tile_values, s->value_bytes, what);
    if (st == GLRADIX_OK) st = _glradix_ensure_scratch(ctx, &ctx->counts, s->counts_bytes, what);
  }
  if (st == GLRADIX_OK && s->set != _GLRADIX_SET_BASE) st = _glradix_build_programs(ctx, s->set);
  return st;
}

/* Whether a sort on ctx may take wide tiles: reduce-then-scan sorts (not
 * inspection, which takes the context's tiles). */
bool _glradix_may_widen(const glradix_context *ctx) {
  return ctx->desc.plan == GLRADIX_PLAN_REDUCE_THEN_SCAN;
}

glradix_status _glradix_too_large(glradix_context *ctx, const char *fn, uint32_t count) {
  _glradix_log(&ctx->desc,
               "%s: count %u exceeds this context's limits (shader storage block %lld bytes, "
               "%u x %u work groups)",
               fn, count, (long long)ctx->max_ssbo_bytes, ctx->group_limit[0],
               ctx->group_limit[1]);
  return GLRADIX_ERROR_TOO_LARGE;
}

glradix_status _glradix_reserve(glradix_context *ctx, const char *fn, uint32_t count, bool pairs,
                                GLuint key_words) {
  _glradix_scratch s;
  if (!_glradix_scratch_layout(ctx, count, pairs, key_words, _glradix_may_widen(ctx), &s))
    return _glradix_too_large(ctx, fn, count);
  return _glradix_scratch_allocate(ctx, &s);
}

size_t glradix_scratch_bytes(const glradix_context *ctx, const glradix_sort_desc *desc) {
  _glradix_scratch s;
  if (!ctx || !desc || !known_key_type(desc) ||
      !_glradix_scratch_layout(ctx, desc->count, desc->values != 0, _glradix_key_words(desc), false, &s))
    return 0;
  return (size_t)(s.key_bytes + s.value_bytes + s.counts_bytes);
}
