/* The pass planner (src/sort/plan.c), without GL: for every combination of
 * plan, radix_bits, key width, bit range, GPU count, per-tile form, grid,
 * scan shape, pairs and inspection, the steps it lists against a list
 * this file builds from the plans' rules in its own words, and the
 * programs those steps run against the programs each rule names. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "sort/plan.h"

/* Buffer names: any distinct values, so that a swap shows. */
enum { KEYS = 11, VALUES = 12, TILE_KEYS = 21, TILE_VALUES = 22, COUNTS = 31, KEY_MODE = 5 };
enum { SMALL_TILES = 300, LARGE_TILES = 5000 };

typedef enum which { ONE_TILE, REDUCE_THEN_SCAN, SCAN_THEN_PROPAGATE, ONESWEEP, WHICH_COUNT } which;
typedef enum range { FULL, PARTIAL, ONE_PASS, RANGE_COUNT } range;
enum { NO_INSPECT, INSPECT_FIRST, INSPECT_LAST, INSPECT_COUNT };

/* One case. */
typedef struct combo {
  which plan;
  GLuint radix_bits, key_words;
  range bits;
  bool indirect, pairs, small_grid;
  _glradix_per_tile per_tile;
  int inspect;
  int scan_shape; /* bit 0: few totals, bit 1: spreads */
} combo;

static GLuint begin_of(const combo *c) {
  return c->bits == FULL ? 0u : c->bits == PARTIAL ? 3u : 9u;
}

/* Partial: 20 or 52 bits, odd passes at radix_bits 4 and 8, and a
 * narrower top digit at 8. */
static GLuint end_of(const combo *c) {
  const GLuint width = 32u * c->key_words;
  return c->bits == FULL ? width : c->bits == PARTIAL ? width - 9u : 9u + c->radix_bits;
}

static unsigned passes_of(const combo *c) {
  const GLuint bits = end_of(c) - begin_of(c);
  return bits / c->radix_bits + (bits % c->radix_bits != 0);
}

/* Scan levels written out by hand: three levels, or two of 40 block totals. */
static _glradix_scan_plan column_levels(int shape) {
  if (shape == 0) return (_glradix_scan_plan){3, {1200000, 2400, 5, 1}, {0, 1200000, 1202400, 1202405}, 1202406};
  return (_glradix_scan_plan){2, {1200, 40, 1}, {0, 1200, 1240}, 1241};
}

static _glradix_scan_plan tile_levels(int shape) {
  if (shape % 3 == 0) return (_glradix_scan_plan){1, {700, 1}, {0, 700}, 701};
  if (shape % 3 == 1) return (_glradix_scan_plan){2, {70000, 137, 1}, {0, 70000, 70137}, 70138};
  return (_glradix_scan_plan){3, {9000000, 17579, 35, 1}, {0, 9000000, 9017579, 9017614}, 9017615};
}

/* The single-pass plan's scan of every pass's digit counts: one level, or two. */
static _glradix_scan_plan digit_levels(int shape) {
  if (shape % 2 == 0) return (_glradix_scan_plan){1, {2048, 1}, {0, 2048}, 2049};
  return (_glradix_scan_plan){2, {4096, 8, 1}, {0, 4096, 4104}, 4105};
}

static _glradix_plan_desc desc_of(const combo *c) {
  _glradix_plan_desc d = {
      .plan = c->plan == SCAN_THEN_PROPAGATE ? GLRADIX_PLAN_SCAN_THEN_PROPAGATE
              : c->plan == ONESWEEP          ? GLRADIX_PLAN_ONESWEEP
                                             : GLRADIX_PLAN_REDUCE_THEN_SCAN,
      .single = c->plan == ONE_TILE, .stop = c->inspect != NO_INSPECT,
      .stop_pass = c->inspect == INSPECT_LAST ? passes_of(c) - 1 : 0,
      .radix_bits = c->radix_bits, .end_bit = end_of(c), .tile_keys = TILE_KEYS,
      .tile_values = TILE_VALUES, .counts = COUNTS, .per_tile = c->per_tile,
      .tile_scan = tile_levels(c->scan_shape), .column_scan = column_levels(c->scan_shape),
      .few_totals = (c->scan_shape & 1) != 0, .spreads = (c->scan_shape & 2) != 0,
      .digit_scan = digit_levels(c->scan_shape), .status = digit_levels(c->scan_shape).total};
  d.sort = (_glradix_pass){.pairs = c->pairs, .keys = KEYS, .values = c->pairs ? VALUES : 0u,
                           .count = c->small_grid ? 5000u : 900000u,
                           .num_tiles = c->small_grid ? SMALL_TILES : LARGE_TILES,
                           .large_grid = !c->small_grid,
                           .shift = begin_of(c), .digit_bits = end_of(c) - begin_of(c),
                           .key_mode = KEY_MODE, .indirect = c->indirect,
                           .key_words = c->key_words,
                           .set = c->key_words == 2 ? _GLRADIX_SET_KEY64 : _GLRADIX_SET_BASE};
  return d;
}

static char where[256]; /* the case, for failure messages */

/* ---- the expectation, from the rules ------------------------------------ */

typedef struct expected {
  _glradix_step steps[_GLRADIX_PLAN_STEPS];
  unsigned count;
  bool skips;
  _glradix_scan_plan levels;
  bool scans;
} expected;

static _glradix_step *expect(expected *e, _glradix_step_kind kind, int ends,
                             const _glradix_pass *pass) {
  if (e->count >= _GLRADIX_PLAN_STEPS) ck_abort_msg("%s: expected more steps than fit", where);
  _glradix_step *s = &e->steps[e->count++];
  *s = (_glradix_step){.kind = kind, .ends = ends, .pass = *pass};
  return s;
}

/* One tile: a single tile_sort over the range, in place, up to the end of
 * the pass inspected; it ends the local shuffle. */
static void expect_one_tile(const combo *c, const _glradix_plan_desc *d, expected *e) {
  _glradix_pass pass = d->sort;
  if (c->inspect != NO_INSPECT) {
    GLuint top = begin_of(c) + (d->stop_pass + 1) * c->radix_bits;
    if (top > end_of(c)) top = end_of(c);
    pass.digit_bits = top - begin_of(c);
  }
  expect(e, _GLRADIX_STEP_TILE_SORT, GLRADIX_STAGE_LOCAL_SHUFFLE, &pass);
}

/* The plan's rules, in words:
 * - inspection runs scan-then-propagate whatever the context's plan;
 * - per pass: a tile stage (local_shuffle, or for reduce-then-scan
 *   tile_counts, or nothing where the last scatter counted), the scan,
 *   a scatter (global_scatter, or shuffle_scatter);
 * - scan-then-propagate reads the caller's buffers and writes scratch every
 *   pass; reduce-then-scan does so on even passes and the reverse on odd
 *   ones, and copies back after an odd number of passes;
 * - the per-tile words start after the levels' total;
 * - next counts (reduce-then-scan): a fill of the per-tile counts first;
 *   passes after the first are counted, and their scan reads and zeroes
 *   the per-tile counts; every pass but the last names the next digit;
 * - a GPU count: a fill of level 0 ahead of each pass that counts;
 * - the first tile stage gathers the key bits when the range has two
 *   passes or more and nothing is inspected;
 * - reduce-then-scan's scan leaves the totals on small grids with few
 *   totals, else the blocks, or spreads where the levels allow; spreading,
 *   level 1 sits at the levels' offset, and with next counts on odd passes
 *   at the second level 1 after the per-tile counts, each scan zeroing the
 *   next pass's. */
static void expect_passes(const combo *c, const _glradix_plan_desc *d, expected *e) {
  const bool stp = c->plan == SCAN_THEN_PROPAGATE || c->inspect != NO_INSPECT;
  const _glradix_scan_plan lv = stp ? d->tile_scan : d->column_scan;
  const bool next = !stp && c->per_tile == _GLRADIX_PER_TILE_NEXT_COUNTS;
  const bool spread = !stp && (c->scan_shape & 2);
  const GLuint second_level1 = lv.total + lv.length[0];
  const unsigned n = passes_of(c);
  _glradix_scan_leave leave = _GLRADIX_SCAN_WHOLE;
  if (!stp) leave = c->small_grid && (c->scan_shape & 1) ? _GLRADIX_SCAN_LEAVE_TOTALS
                                                         : _GLRADIX_SCAN_LEAVE_BLOCKS;
  if (spread) leave = _GLRADIX_SCAN_LEAVE_SPREAD;
  e->scans = true;
  e->levels = lv;
  _glradix_pass pass = d->sort;
  pass.per_tile = lv.total;
  if (next) {
    _glradix_step *f = expect(e, _GLRADIX_STEP_FILL_COUNTS, _GLRADIX_NO_STAGE, &pass);
    f->fill_first = lv.total;
    f->fill_words = lv.length[0];
  }
  for (unsigned p = 0; p < n; p++) {
    const bool odd = p % 2 == 1, counted = next && p > 0, last = p + 1 == n;
    pass.index = p;
    pass.shift = begin_of(c) + p * c->radix_bits;
    pass.digit_bits = end_of(c) - pass.shift < c->radix_bits ? end_of(c) - pass.shift : c->radix_bits;
    const bool from_scratch = !stp && odd;
    pass.keys = from_scratch ? TILE_KEYS : KEYS;
    pass.values = from_scratch ? TILE_VALUES : d->sort.values;
    pass.out_keys = from_scratch ? KEYS : TILE_KEYS;
    pass.out_values = from_scratch ? d->sort.values : TILE_VALUES;
    pass.next_shift = next && !last ? pass.shift + c->radix_bits : _GLRADIX_NO_NEXT;
    pass.next_bits = 0;
    if (next && !last)
      pass.next_bits = end_of(c) - pass.next_shift < c->radix_bits ? end_of(c) - pass.next_shift
                                                                   : c->radix_bits;
    if (c->indirect && !counted) {
      _glradix_step *f = expect(e, _GLRADIX_STEP_FILL_COUNTS, _GLRADIX_NO_STAGE, &pass);
      f->fill_first = 0;
      f->fill_words = lv.length[0];
    }
    const GLuint level1 = next && odd ? second_level1 : lv.offset[1];
    const GLuint next_level1 = next && !odd ? second_level1 : lv.offset[1];
    _glradix_step *t = expect(e, stp ? _GLRADIX_STEP_LOCAL_SHUFFLE
                                 : counted ? _GLRADIX_STEP_COUNTED : _GLRADIX_STEP_TILE_COUNTS,
                              GLRADIX_STAGE_LOCAL_SHUFFLE, &pass);
    t->key_bits = p == 0 && n >= 2 && c->inspect == NO_INSPECT;
    t->spread = spread;
    t->level1 = level1;
    _glradix_step *s = expect(e, _GLRADIX_STEP_SCAN, GLRADIX_STAGE_SCAN, &pass);
    s->spread = spread;
    s->level1 = level1;
    s->leave = leave;
    s->io = (_glradix_scan_io){.in = COUNTS, .in_offset = counted ? lv.total : 0, .out = COUNTS,
                               .out_offset = 0, .zero_input = counted, .zero_next = next_level1,
                               .zero_next_length = spread && next && !last ? lv.length[1] : 0};
    _glradix_step *g = expect(e, stp ? _GLRADIX_STEP_GLOBAL_SCATTER : _GLRADIX_STEP_SHUFFLE_SCATTER,
                              GLRADIX_STAGE_GLOBAL_SCATTER, &pass);
    g->spread = spread;
    g->level1 = level1;
    g->leave = leave;
  }
  if (!stp && n % 2 == 1) expect(e, _GLRADIX_STEP_COPY_BACK, _GLRADIX_NO_STAGE, &pass);
}

/* The single-pass plan's rules, in words:
 * - a fill of every pass's digit counts, their scan's levels, the tiles'
 *   status words (radix_bits^2 a tile, per pass, from the scan's total)
 *   and a ticket per pass after them;
 * - digit_counts over the whole range (gathering the key bits where the
 *   range has two passes or more), ending the first pass's tile stage;
 * - the scan of those counts, whole, in place;
 * - per pass a look-back shuffle_scatter, buffers as reduce-then-scan's,
 *   with its pass's status words and ticket; the copy back after an odd
 *   number of passes;
 * - inspection runs scan-then-propagate. */
static void expect_onesweep(const combo *c, const _glradix_plan_desc *d, expected *e) {
  const unsigned n = passes_of(c);
  const GLuint words = d->sort.num_tiles << c->radix_bits, tickets = d->status + n * words;
  e->scans = true;
  e->levels = d->digit_scan;
  _glradix_pass pass = d->sort;
  _glradix_step *f = expect(e, _GLRADIX_STEP_FILL_COUNTS, _GLRADIX_NO_STAGE, &pass);
  f->fill_first = 0;
  f->fill_words = tickets + n;
  expect(e, _GLRADIX_STEP_DIGIT_COUNTS, GLRADIX_STAGE_LOCAL_SHUFFLE, &pass)->key_bits = n >= 2;
  _glradix_step *s = expect(e, _GLRADIX_STEP_SCAN, GLRADIX_STAGE_SCAN, &pass);
  s->leave = _GLRADIX_SCAN_WHOLE;
  s->io = (_glradix_scan_io){.in = COUNTS, .out = COUNTS};
  for (unsigned p = 0; p < n; p++) {
    const bool odd = p % 2 == 1;
    pass.index = p;
    pass.shift = begin_of(c) + p * c->radix_bits;
    pass.digit_bits = end_of(c) - pass.shift < c->radix_bits ? end_of(c) - pass.shift : c->radix_bits;
    pass.keys = odd ? TILE_KEYS : KEYS;
    pass.values = odd ? TILE_VALUES : d->sort.values;
    pass.out_keys = odd ? KEYS : TILE_KEYS;
    pass.out_values = odd ? d->sort.values : TILE_VALUES;
    s = expect(e, _GLRADIX_STEP_ONESWEEP, GLRADIX_STAGE_GLOBAL_SCATTER, &pass);
    s->status = d->status + p * words;
    s->ticket = tickets + p;
  }
  if (n % 2 == 1) expect(e, _GLRADIX_STEP_COPY_BACK, _GLRADIX_NO_STAGE, &pass);
}

static void expect_plan(const combo *c, const _glradix_plan_desc *d, expected *e) {
  *e = (expected){.count = 0};
  e->skips = passes_of(c) >= 2 && c->inspect == NO_INSPECT;
  if (c->plan == ONE_TILE) expect_one_tile(c, d, e);
  else if (c->plan == ONESWEEP && c->inspect == NO_INSPECT) expect_onesweep(c, d, e);
  else expect_passes(c, d, e);
}

/* ---- comparing ----------------------------------------------------------- */

static void describe(const combo *c) {
  static const char *plans[] = {"one tile", "reduce-then-scan", "scan-then-propagate",
                                "single-pass"};
  snprintf(where, sizeof where,
           "%s, radix_bits %u, %u-bit keys, bits [%u, %u), %s, %s, %s grid, per_tile %d, "
           "inspect %d, scan shape %d",
           plans[c->plan], c->radix_bits, 32 * c->key_words, begin_of(c), end_of(c),
           c->indirect ? "GPU count" : "CPU count", c->pairs ? "pairs" : "keys",
           c->small_grid ? "small" : "large", (int)c->per_tile, c->inspect, c->scan_shape);
}

/* Check's ck_assert marks a point through a pipe on every call: too slow
 * for some million comparisons, so only a failure calls Check. */
#define CHECK(cond, ...)                                                                       \
  do {                                                                                         \
    if (!(cond)) ck_abort_msg(__VA_ARGS__);                                                    \
  } while (0)
#define SAME(field)                                                                            \
  CHECK(got->field == want->field, "%s: step %u (kind %d): " #field " %lld, expected %lld",    \
        where, i, (int)want->kind, (long long)got->field, (long long)want->field)

static void compare_pass(const _glradix_step *got, const _glradix_step *want, unsigned i) {
  SAME(pass.pairs); SAME(pass.keys); SAME(pass.values); SAME(pass.out_keys);
  SAME(pass.out_values); SAME(pass.count); SAME(pass.num_tiles); SAME(pass.shift);
  SAME(pass.digit_bits); SAME(pass.key_mode); SAME(pass.indirect); SAME(pass.key_words);
  SAME(pass.set); SAME(pass.per_tile); SAME(pass.next_shift); SAME(pass.next_bits);
}

/* The fields each kind's run reads (sort.c's run_step and the stages). */
static void compare_step(const _glradix_step *got, const _glradix_step *want, unsigned i) {
  SAME(kind);
  SAME(ends);
  SAME(pass.index); /* profiling marks a pass's start at its first step */
  const _glradix_step_kind k = want->kind;
  if (k == _GLRADIX_STEP_FILL_COUNTS) {
    SAME(fill_first);
    SAME(fill_words);
    return;
  }
  if (k != _GLRADIX_STEP_COUNTED) compare_pass(got, want, i);
  if (k == _GLRADIX_STEP_LOCAL_SHUFFLE || k == _GLRADIX_STEP_TILE_COUNTS ||
      k == _GLRADIX_STEP_DIGIT_COUNTS)
    SAME(key_bits);
  if (k == _GLRADIX_STEP_ONESWEEP) {
    SAME(status);
    SAME(ticket);
  }
  if (k == _GLRADIX_STEP_TILE_COUNTS || k == _GLRADIX_STEP_SCAN ||
      k == _GLRADIX_STEP_SHUFFLE_SCATTER) {
    SAME(spread);
    if (want->spread) SAME(level1);
  }
  if (k == _GLRADIX_STEP_SCAN || k == _GLRADIX_STEP_SHUFFLE_SCATTER) SAME(leave);
  if (k == _GLRADIX_STEP_SCAN) {
    SAME(io.in); SAME(io.in_offset); SAME(io.out); SAME(io.out_offset);
    SAME(io.zero_input); SAME(io.zero_next_length);
    if (want->io.zero_next_length) SAME(io.zero_next);
  }
}

static void compare_plan(const _glradix_step_list *got, const expected *want) {
  CHECK(got->count == want->count, "%s: %u steps, expected %u", where, got->count,
                want->count);
  CHECK(got->skips == want->skips, "%s: skips %d", where, got->skips);
  CHECK(got->scans == want->scans, "%s: scans %d", where, got->scans);
  if (want->scans) {
    CHECK(got->levels.levels == want->levels.levels && got->levels.total == want->levels.total &&
                      got->levels.offset[1] == want->levels.offset[1] &&
                      got->levels.length[0] == want->levels.length[0],
                  "%s: the plan's scan levels are not the plan's", where);
  }
  for (unsigned i = 0; i < want->count; i++) compare_step(&got->steps[i], &want->steps[i], i);
}

/* The programs each rule names, as a set. */
static uint64_t expected_programs(const combo *c) {
  const bool p = c->pairs;
  if (c->plan == ONE_TILE)
    return 1ull << (p ? _GLRADIX_PROG_TILE_SORT_PAIRS : _GLRADIX_PROG_TILE_SORT);
  uint64_t set = 1ull << _GLRADIX_PROG_SCAN_BLOCKS;
  if (c->plan == ONESWEEP && c->inspect == NO_INSPECT) {
    set |= 1ull << _GLRADIX_PROG_FILL_WORDS | 1ull << _GLRADIX_PROG_DIGIT_COUNTS;
    set |= 1ull << (p ? _GLRADIX_PROG_ONESWEEP_PAIRS : _GLRADIX_PROG_ONESWEEP);
    if (digit_levels(c->scan_shape).levels >= 2) set |= 1ull << _GLRADIX_PROG_SCAN_ADD;
    if (passes_of(c) % 2 == 1)
      set |= 1ull << (p ? _GLRADIX_PROG_COPY_BACK_PAIRS : _GLRADIX_PROG_COPY_BACK);
    return set;
  }
  if (c->plan == SCAN_THEN_PROPAGATE || c->inspect != NO_INSPECT) {
    set |= 1ull << (p ? _GLRADIX_PROG_LOCAL_SHUFFLE_PAIRS : _GLRADIX_PROG_LOCAL_SHUFFLE);
    set |= 1ull << (p ? _GLRADIX_PROG_GLOBAL_SCATTER_PAIRS : _GLRADIX_PROG_GLOBAL_SCATTER);
    if (tile_levels(c->scan_shape).levels >= 2) set |= 1ull << _GLRADIX_PROG_SCAN_ADD;
    if (c->indirect) set |= 1ull << _GLRADIX_PROG_FILL_WORDS;
    return set;
  }
  set |= 1ull << (c->small_grid ? _GLRADIX_PROG_TILE_COUNTS_ONE : _GLRADIX_PROG_TILE_COUNTS);
  set |= 1ull << (p ? _GLRADIX_PROG_SHUFFLE_SCATTER_PAIRS : _GLRADIX_PROG_SHUFFLE_SCATTER);
  /* scan_add: levels above level 1 left in blocks (three levels, no spread) */
  if (c->scan_shape == 0) set |= 1ull << _GLRADIX_PROG_SCAN_ADD;
  if (c->indirect || c->per_tile == _GLRADIX_PER_TILE_NEXT_COUNTS)
    set |= 1ull << _GLRADIX_PROG_FILL_WORDS;
  if (passes_of(c) % 2 == 1)
    set |= 1ull << (p ? _GLRADIX_PROG_COPY_BACK_PAIRS : _GLRADIX_PROG_COPY_BACK);
  return set;
}

static void compare_programs(const _glradix_step_list *list, const combo *c) {
  _glradix_program programs[_GLRADIX_PROG_COUNT];
  const size_t count = _glradix_plan_programs(list, programs);
  uint64_t got = 0;
  for (size_t k = 0; k < count; k++) {
    CHECK(!(got & (1ull << programs[k])), "%s: program %d listed twice", where,
                  (int)programs[k]);
    got |= 1ull << programs[k];
  }
  CHECK(got == expected_programs(c), "%s: programs %#llx, expected %#llx", where,
                (unsigned long long)got, (unsigned long long)expected_programs(c));
}

/* ---- the suite ----------------------------------------------------------- */

static const _glradix_per_tile PER_TILE[] = {_GLRADIX_PER_TILE_NONE, _GLRADIX_PER_TILE_STARTS,
                                             _GLRADIX_PER_TILE_NEXT_COUNTS};

/* Calls `f` for every combination; returns how many. */
static unsigned each_combo(void (*f)(const combo *)) {
  unsigned n = 0;
  combo c;
  for (int pl = 0; pl < WHICH_COUNT; pl++)
    for (c.radix_bits = 2; c.radix_bits <= 8; c.radix_bits *= 2)
      for (c.key_words = 1; c.key_words <= 2; c.key_words++)
        for (int r = 0; r < RANGE_COUNT; r++)
          for (int ind = 0; ind < 2; ind++)
            for (int t = 0; t < 3; t++)
              for (c.inspect = 0; c.inspect < INSPECT_COUNT; c.inspect++)
                for (int bits = 0; bits < 4; bits++)
                  for (c.scan_shape = 0; c.scan_shape < 4; c.scan_shape++) {
                    c.plan = (which)pl;
                    c.bits = (range)r;
                    c.indirect = ind != 0;
                    c.per_tile = PER_TILE[t];
                    c.pairs = (bits & 1) != 0;
                    c.small_grid = (bits & 2) != 0;
                    if (c.indirect && c.inspect != NO_INSPECT) continue; /* refused by the API */
                    f(&c);
                    n++;
                  }
  return n;
}

static _glradix_step_list got_list;
static expected want_list;

static void check_combo(const combo *c) {
  describe(c);
  const _glradix_plan_desc d = desc_of(c);
  CHECK(_glradix_plan_make(&d, &got_list), "%s: plan refused", where);
  CHECK(_glradix_plan_passes(&d) == passes_of(c), "%s: passes", where);
  expect_plan(c, &d, &want_list);
  compare_plan(&got_list, &want_list);
  compare_programs(&got_list, c);
}

START_TEST(every_plan_follows_the_rules) {
  const unsigned n = each_combo(check_combo);
  ck_assert_uint_gt(n, 10000);
}
END_TEST

/* The most steps any plan takes: 64-bit keys at radix_bits 2, a GPU count
 * (a fill per pass), reduce-then-scan; it fits, and one step less room is
 * refused with nothing written past it. */
START_TEST(capacity_is_checked) {
  combo c = {.plan = REDUCE_THEN_SCAN, .radix_bits = 2, .key_words = 2, .bits = FULL,
             .indirect = true, .per_tile = _GLRADIX_PER_TILE_STARTS};
  describe(&c);
  _glradix_plan_desc d = desc_of(&c);
  ck_assert(_glradix_plan_make(&d, &got_list));
  ck_assert_uint_eq(got_list.count, 4 * _GLRADIX_MAX_PASSES);
  ck_assert_uint_le(got_list.count, _GLRADIX_PLAN_STEPS);
  d.max_steps = got_list.count - 1;
  ck_assert(!_glradix_plan_make(&d, &got_list));
  ck_assert_uint_eq(got_list.count, d.max_steps);
  const _glradix_step none = {0};
  ck_assert_int_eq(got_list.steps[d.max_steps].kind, none.kind);
  ck_assert_uint_eq(got_list.steps[d.max_steps].pass.keys, 0);
  d.max_steps = 3;
  ck_assert(!_glradix_plan_make(&d, &got_list));
  ck_assert_uint_eq(got_list.count, 3);
  d.max_steps = _GLRADIX_PLAN_STEPS + 100; /* more than the array: the array's */
  ck_assert(_glradix_plan_make(&d, &got_list));
}
END_TEST

/* glradix_create's default plan from the programs' storage blocks. */
START_TEST(default_plan_from_blocks) {
  GLint blocks[_GLRADIX_PROG_COUNT];
  for (int k = 0; k < _GLRADIX_PROG_COUNT; k++) blocks[k] = 4;
  ck_assert_int_eq(_glradix_plan_default(blocks, 8, GLRADIX_PLAN_REDUCE_THEN_SCAN), GLRADIX_PLAN_REDUCE_THEN_SCAN);
  blocks[_GLRADIX_PROG_SHUFFLE_SCATTER_PAIRS] = 11;
  ck_assert_int_eq(_glradix_plan_default(blocks, 8, GLRADIX_PLAN_REDUCE_THEN_SCAN), GLRADIX_PLAN_SCAN_THEN_PROPAGATE);
  blocks[_GLRADIX_PROG_SHUFFLE_SCATTER_PAIRS] = 4;
  blocks[_GLRADIX_PROG_COPY_BACK_PAIRS] = 9; /* copy back runs after odd passes */
  ck_assert_int_eq(_glradix_plan_default(blocks, 8, GLRADIX_PLAN_REDUCE_THEN_SCAN), GLRADIX_PLAN_SCAN_THEN_PROPAGATE);
  blocks[_GLRADIX_PROG_COPY_BACK_PAIRS] = 4;
  blocks[_GLRADIX_PROG_TILE_COUNTS] = 9; /* large grids' */
  ck_assert_int_eq(_glradix_plan_default(blocks, 8, GLRADIX_PLAN_REDUCE_THEN_SCAN), GLRADIX_PLAN_SCAN_THEN_PROPAGATE);
  blocks[_GLRADIX_PROG_TILE_COUNTS] = 4;
  blocks[_GLRADIX_PROG_SHUFFLE_SCATTER] = 9; /* keys alone: not the choice's */
  ck_assert_int_eq(_glradix_plan_default(blocks, 8, GLRADIX_PLAN_REDUCE_THEN_SCAN), GLRADIX_PLAN_REDUCE_THEN_SCAN);
  /* neither fits: reduce-then-scan, whose calls then say which program */
  blocks[_GLRADIX_PROG_SHUFFLE_SCATTER_PAIRS] = 11;
  blocks[_GLRADIX_PROG_GLOBAL_SCATTER_PAIRS] = 11;
  ck_assert_int_eq(_glradix_plan_default(blocks, 8, GLRADIX_PLAN_REDUCE_THEN_SCAN), GLRADIX_PLAN_REDUCE_THEN_SCAN);
}
END_TEST

/* The single-pass plan where its pair programs fit (its copy back's too),
 * else the design's plans in their order. */
START_TEST(single_pass_plan_from_blocks) {
  const glradix_plan one = GLRADIX_PLAN_ONESWEEP;
  GLint blocks[_GLRADIX_PROG_COUNT];
  for (int k = 0; k < _GLRADIX_PROG_COUNT; k++) blocks[k] = 4;
  ck_assert_int_eq(_glradix_plan_default(blocks, 8, one), one);
  blocks[_GLRADIX_PROG_ONESWEEP] = 9; /* keys alone: not the choice's */
  ck_assert_int_eq(_glradix_plan_default(blocks, 8, one), one);
  blocks[_GLRADIX_PROG_ONESWEEP_PAIRS] = 10;
  ck_assert_int_eq(_glradix_plan_default(blocks, 8, one), GLRADIX_PLAN_REDUCE_THEN_SCAN);
  ck_assert_int_eq(_glradix_plan_default(blocks, 10, one), one);
  blocks[_GLRADIX_PROG_ONESWEEP_PAIRS] = 4;
  blocks[_GLRADIX_PROG_DIGIT_COUNTS] = 9;
  ck_assert_int_eq(_glradix_plan_default(blocks, 8, one), GLRADIX_PLAN_REDUCE_THEN_SCAN);
  blocks[_GLRADIX_PROG_SHUFFLE_SCATTER_PAIRS] = 11;
  ck_assert_int_eq(_glradix_plan_default(blocks, 8, one), GLRADIX_PLAN_SCAN_THEN_PROPAGATE);
}
END_TEST

/* Its status words hold counts below 2^30: a sort of 2^30 keys takes
 * reduce-then-scan's steps, one key fewer its own. */
START_TEST(single_pass_plan_below_2_30_keys) {
  combo c = {.plan = ONESWEEP, .radix_bits = 8, .key_words = 1, .bits = FULL,
             .per_tile = _GLRADIX_PER_TILE_STARTS};
  describe(&c);
  _glradix_plan_desc d = desc_of(&c);
  d.sort.count = (1u << 30) - 1u;
  ck_assert(_glradix_plan_make(&d, &got_list));
  ck_assert_int_eq(got_list.steps[1].kind, _GLRADIX_STEP_DIGIT_COUNTS);
  d.sort.count = 1u << 30;
  ck_assert(_glradix_plan_make(&d, &got_list));
  c.plan = REDUCE_THEN_SCAN;
  expect_plan(&c, &d, &want_list);
  compare_plan(&got_list, &want_list);
}
END_TEST

/* What glradix_reserve checks: every program a sort of the plan may run. */
START_TEST(programs_any_sort_may_run) {
  _glradix_program programs[_GLRADIX_PROG_COUNT];
  uint64_t set = 0;
  size_t count = _glradix_plan_programs_any(GLRADIX_PLAN_REDUCE_THEN_SCAN, true, programs);
  for (size_t k = 0; k < count; k++) set |= 1ull << programs[k];
  ck_assert_uint_eq(set, (1ull << _GLRADIX_PROG_TILE_COUNTS) | (1ull << _GLRADIX_PROG_TILE_COUNTS_ONE) |
                             (1ull << _GLRADIX_PROG_SCAN_BLOCKS) | (1ull << _GLRADIX_PROG_SCAN_ADD) |
                             (1ull << _GLRADIX_PROG_SHUFFLE_SCATTER_PAIRS) |
                             (1ull << _GLRADIX_PROG_COPY_BACK_PAIRS) |
                             (1ull << _GLRADIX_PROG_FILL_WORDS));
  set = 0;
  count = _glradix_plan_programs_any(GLRADIX_PLAN_SCAN_THEN_PROPAGATE, false, programs);
  for (size_t k = 0; k < count; k++) set |= 1ull << programs[k];
  ck_assert_uint_eq(set, (1ull << _GLRADIX_PROG_LOCAL_SHUFFLE) | (1ull << _GLRADIX_PROG_SCAN_BLOCKS) |
                             (1ull << _GLRADIX_PROG_SCAN_ADD) |
                             (1ull << _GLRADIX_PROG_GLOBAL_SCATTER) |
                             (1ull << _GLRADIX_PROG_FILL_WORDS));
}
END_TEST

int main(void) {
  Suite *s = suite_create("plan");
  TCase *tc = tcase_create("plan");
  tcase_add_test(tc, every_plan_follows_the_rules);
  tcase_add_test(tc, capacity_is_checked);
  tcase_add_test(tc, default_plan_from_blocks);
  tcase_add_test(tc, single_pass_plan_from_blocks);
  tcase_add_test(tc, single_pass_plan_below_2_30_keys);
  tcase_add_test(tc, programs_any_sort_may_run);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  const int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
