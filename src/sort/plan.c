/* The pass planner: the steps of a sort from a plain description of it
 * (plan.h), the programs those steps run, and the default plan a
 * context's storage-block limit allows. No GL calls: sort.c runs the
 * steps. */
#include "plan.h"

/* Adds steps up to a capacity; past it, steps go to `spill` and the plan
 * is refused, so that nothing is written past the array. */
typedef struct builder {
  _glradix_step_list *list;
  unsigned capacity;
  bool overflow;
  _glradix_step spill;
} builder;

static _glradix_step *add_step(builder *b, _glradix_step_kind kind, int ends,
                               const _glradix_pass *pass) {
  _glradix_step *s = &b->spill;
  if (b->list->count < b->capacity) s = &b->list->steps[b->list->count++];
  else b->overflow = true;
  *s = (_glradix_step){.kind = kind, .ends = ends, .pass = *pass};
  return s;
}

static void add_fill(builder *b, const _glradix_pass *pass, GLuint first, GLuint words) {
  _glradix_step *s = add_step(b, _GLRADIX_STEP_FILL_COUNTS, _GLRADIX_NO_STAGE, pass);
  s->fill_first = first;
  s->fill_words = words;
}

unsigned _glradix_plan_passes(const _glradix_plan_desc *d) {
  return _glradix_div_up(d->end_bit - d->sort.shift, d->radix_bits);
}

/* The width of the digit from bit `shift`: radix_bits, less in the top pass. */
static GLuint digit_width(const _glradix_plan_desc *d, GLuint shift) {
  return d->end_bit - shift < d->radix_bits ? d->end_bit - shift : d->radix_bits;
}

/* What every pass of a multi-pass plan shares. */
typedef struct shape {
  const _glradix_plan_desc *d;
  unsigned passes;
  bool reduce_then_scan, next_counts, spread, skip;
  _glradix_scan_leave leave; /* what the scan leaves the scatter */
  GLuint level1[2]; /* level 1 of even and odd passes, where the scan spreads */
  const _glradix_scan_plan *levels;
} shape;

/* Reduce-then-scan sorts between the caller's buffers and scratch, every
 * other pass back; scan-then-propagate through scratch in place. */
static void set_buffers(const shape *sh, _glradix_pass *pass, unsigned p) {
  const bool back = sh->reduce_then_scan && p % 2 != 0;
  const GLuint keys = sh->d->sort.keys, values = sh->d->sort.values;
  pass->keys = back ? sh->d->tile_keys : keys;
  pass->values = back ? sh->d->tile_values : values;
  pass->out_keys = back ? keys : sh->d->tile_keys;
  pass->out_values = back ? values : sh->d->tile_values;
}

/* Pass p's scan; `counted`: the last pass's scatter counted this one's
 * digits after the levels, which the scan reads and zeroes. */
static void add_scan(builder *b, const shape *sh, const _glradix_pass *pass, bool counted) {
  const unsigned p = pass->index;
  _glradix_step *s = add_step(b, _GLRADIX_STEP_SCAN, GLRADIX_STAGE_SCAN, pass);
  s->spread = sh->spread;
  s->level1 = sh->level1[p % 2];
  s->leave = sh->leave;
  /* each scan zeroes the next pass's level 1, whose last reader (the
   * scatter two passes back) has finished */
  const bool zero_next = sh->spread && sh->next_counts && p + 1 < sh->passes;
  s->io = (_glradix_scan_io){sh->d->counts, counted ? pass->per_tile : 0, sh->d->counts, 0,
                             counted, sh->level1[(p + 1) % 2],
                             zero_next ? sh->levels->length[1] : 0u};
}

/* Pass p: its fill, tile stage, scan and scatter. */
static void add_pass(builder *b, const shape *sh, _glradix_pass *pass, unsigned p) {
  const _glradix_plan_desc *d = sh->d;
  pass->index = p;
  pass->shift = d->sort.shift + p * d->radix_bits;
  pass->digit_bits = digit_width(d, pass->shift);
  set_buffers(sh, pass, p);
  const bool counted = sh->next_counts && p > 0; /* by the last pass's shuffle_scatter */
  const bool counts_next = sh->next_counts && p + 1 < sh->passes;
  pass->next_shift = counts_next ? pass->shift + d->radix_bits : _GLRADIX_NO_NEXT;
  pass->next_bits = counts_next ? digit_width(d, pass->next_shift) : 0u;
  /* Tiles past a GPU count are not dispatched: their counts must read 0,
   * and the last pass's scan left offsets there. */
  if (pass->indirect && !counted) add_fill(b, pass, 0, sh->levels->length[0]);
  const _glradix_step_kind tiles = !sh->reduce_then_scan ? _GLRADIX_STEP_LOCAL_SHUFFLE
                                   : counted             ? _GLRADIX_STEP_COUNTED
                                                         : _GLRADIX_STEP_TILE_COUNTS;
  _glradix_step *s = add_step(b, tiles, GLRADIX_STAGE_LOCAL_SHUFFLE, pass);
  s->key_bits = p == 0 && sh->skip;
  s->spread = sh->spread;
  s->level1 = sh->level1[p % 2];
  add_scan(b, sh, pass, counted);
  s = add_step(b, sh->reduce_then_scan ? _GLRADIX_STEP_SHUFFLE_SCATTER : _GLRADIX_STEP_GLOBAL_SCATTER,
               GLRADIX_STAGE_GLOBAL_SCATTER, pass);
  s->spread = sh->spread;
  s->level1 = sh->level1[p % 2];
  s->leave = sh->leave;
}

/* The plan's choices from its description: which plan runs, the scan's
 * leave, and where each pass's level 1 is. */
static shape shape_of(const _glradix_plan_desc *d) {
  shape sh = {.d = d, .passes = _glradix_plan_passes(d)};
  /* the single-pass plan's counts past its status words take reduce-then-scan */
  sh.reduce_then_scan = d->plan != GLRADIX_PLAN_SCAN_THEN_PROPAGATE && !d->stop;
  sh.levels = sh.reduce_then_scan ? &d->column_scan : &d->tile_scan;
  sh.skip = !d->stop && sh.passes >= 2;
  /* shuffle_scatter adds the block totals itself (no scan_add over level
   * 0), and on small grids sums them too (forms.h). */
  sh.leave = !sh.reduce_then_scan ? _GLRADIX_SCAN_WHOLE
             : !d->sort.large_grid && d->few_totals
                 ? _GLRADIX_SCAN_LEAVE_TOTALS
                 : _GLRADIX_SCAN_LEAVE_BLOCKS;
  /* With the next counts (forms.h), each pass's shuffle_scatter adds up
   * the next pass's counts after the levels, and only the first pass runs
   * tile_counts. */
  sh.next_counts = d->per_tile == _GLRADIX_PER_TILE_NEXT_COUNTS && sh.reduce_then_scan;
  /* SPREAD needs the scan's level 1 zero. A pass with a count stage has it
   * zero the level; with the next counts, where the last pass's scatter
   * counted instead, level 1 alternates between the levels' and a second
   * one after the next pass's counts. */
  sh.spread = sh.leave != _GLRADIX_SCAN_WHOLE && d->spreads;
  if (sh.spread) sh.leave = _GLRADIX_SCAN_LEAVE_SPREAD;
  sh.level1[0] = sh.levels->offset[1];
  sh.level1[1] = sh.next_counts ? sh.levels->total + sh.levels->length[0] : sh.levels->offset[1];
  return sh;
}

/* One pass per radix_bits-wide digit of the range, lowest first, each a
 * tile stage, the scan and another tile stage; reduce-then-scan copies
 * back after an odd number of passes. Inspection takes
 * scan-then-propagate and skips no pass. */
static void plan_passes(builder *b, const _glradix_plan_desc *d) {
  const shape sh = shape_of(d);
  _glradix_pass pass = d->sort;
  pass.per_tile = sh.levels->total; /* after the scan's levels (scratch.c) */
  b->list->scans = true;
  b->list->levels = *sh.levels;
  b->list->skips = sh.skip;
  if (sh.next_counts) add_fill(b, &pass, pass.per_tile, sh.levels->length[0]);
  for (unsigned p = 0; p < sh.passes; p++) add_pass(b, &sh, &pass, p);
  if (sh.reduce_then_scan && sh.passes % 2 != 0)
    add_step(b, _GLRADIX_STEP_COPY_BACK, _GLRADIX_NO_STAGE, &pass);
}

/* The one-tile plan: tile_sort over the whole range (inspection: up to the
 * pass inspected), which counts as the local shuffle of a pass whose
 * other stages take no time. */
static void plan_tile_sort(builder *b, const _glradix_plan_desc *d) {
  _glradix_pass pass = d->sort;
  if (d->stop) {
    const GLuint pass_end = d->sort.shift + (d->stop_pass + 1) * d->radix_bits;
    pass.digit_bits = (pass_end < d->end_bit ? pass_end : d->end_bit) - d->sort.shift;
  }
  b->list->skips = !d->stop && _glradix_plan_passes(d) >= 2;
  add_step(b, _GLRADIX_STEP_TILE_SORT, GLRADIX_STAGE_LOCAL_SHUFFLE, &pass);
}

/* The single-pass plan: zero the digit counts, the tiles' status words
 * and the tickets; count every pass's digits (gathering the varying key
 * bits); scan the counts; then one dispatch per pass, between the caller's
 * buffers and scratch as reduce-then-scan's, and the copy back after an
 * odd number of passes. Its status words hold counts below 2^30. */
static void plan_onesweep(builder *b, const _glradix_plan_desc *d) {
  const shape sh = {.d = d, .passes = _glradix_plan_passes(d), .reduce_then_scan = true};
  const GLuint words = d->sort.num_tiles << d->radix_bits; /* a pass's status words */
  const GLuint tickets = d->status + sh.passes * words;
  _glradix_pass pass = d->sort;
  b->list->scans = true;
  b->list->levels = d->digit_scan;
  b->list->skips = sh.passes >= 2;
  add_fill(b, &pass, 0, tickets + sh.passes);
  add_step(b, _GLRADIX_STEP_DIGIT_COUNTS, GLRADIX_STAGE_LOCAL_SHUFFLE, &pass)->key_bits =
      b->list->skips;
  _glradix_step *s = add_step(b, _GLRADIX_STEP_SCAN, GLRADIX_STAGE_SCAN, &pass);
  s->leave = _GLRADIX_SCAN_WHOLE;
  s->io = (_glradix_scan_io){d->counts, 0, d->counts, 0, false, 0, 0};
  for (unsigned p = 0; p < sh.passes; p++) {
    pass.index = p;
    pass.shift = d->sort.shift + p * d->radix_bits;
    pass.digit_bits = digit_width(d, pass.shift);
    set_buffers(&sh, &pass, p);
    s = add_step(b, _GLRADIX_STEP_ONESWEEP, GLRADIX_STAGE_GLOBAL_SCATTER, &pass);
    s->status = d->status + p * words;
    s->ticket = tickets + p;
  }
  if (sh.passes % 2 != 0) add_step(b, _GLRADIX_STEP_COPY_BACK, _GLRADIX_NO_STAGE, &pass);
}

bool _glradix_plan_make(const _glradix_plan_desc *d, _glradix_step_list *out) {
  *out = (_glradix_step_list){.count = 0};
  builder b = {.list = out, .capacity = d->max_steps ? d->max_steps : _GLRADIX_PLAN_STEPS};
  if (b.capacity > _GLRADIX_PLAN_STEPS) b.capacity = _GLRADIX_PLAN_STEPS;
  if (d->single) plan_tile_sort(&b, d);
  else if (d->plan == GLRADIX_PLAN_ONESWEEP && !d->stop && d->sort.count < _GLRADIX_ONESWEEP_COUNTS)
    plan_onesweep(&b, d);
  else plan_passes(&b, d);
  return !b.overflow;
}

/* The scan's scan_add dispatches (scan.c): over levels 1 to levels - 2
 * when it leaves level 0 in blocks, 0 to levels - 2 when whole; none when
 * it leaves the totals or spreads them. */
static bool scan_adds(const _glradix_scan_plan *levels, _glradix_scan_leave leave) {
  if (leave == _GLRADIX_SCAN_WHOLE) return levels->levels >= 2;
  return leave == _GLRADIX_SCAN_LEAVE_BLOCKS && levels->levels >= 3;
}

/* The program of each step kind that runs one, keys alone and with
 * values, as the stage's C function picks it. */
static const _glradix_program STEP_PROGRAM[][2] = {
    [_GLRADIX_STEP_FILL_COUNTS] = {_GLRADIX_PROG_FILL_WORDS, _GLRADIX_PROG_FILL_WORDS},
    [_GLRADIX_STEP_TILE_SORT] = {_GLRADIX_PROG_TILE_SORT, _GLRADIX_PROG_TILE_SORT_PAIRS},
    [_GLRADIX_STEP_LOCAL_SHUFFLE] = {_GLRADIX_PROG_LOCAL_SHUFFLE,
                                     _GLRADIX_PROG_LOCAL_SHUFFLE_PAIRS},
    [_GLRADIX_STEP_GLOBAL_SCATTER] = {_GLRADIX_PROG_GLOBAL_SCATTER,
                                      _GLRADIX_PROG_GLOBAL_SCATTER_PAIRS},
    [_GLRADIX_STEP_SHUFFLE_SCATTER] = {_GLRADIX_PROG_SHUFFLE_SCATTER,
                                       _GLRADIX_PROG_SHUFFLE_SCATTER_PAIRS},
    [_GLRADIX_STEP_COPY_BACK] = {_GLRADIX_PROG_COPY_BACK, _GLRADIX_PROG_COPY_BACK_PAIRS},
    [_GLRADIX_STEP_DIGIT_COUNTS] = {_GLRADIX_PROG_DIGIT_COUNTS, _GLRADIX_PROG_DIGIT_COUNTS},
    [_GLRADIX_STEP_ONESWEEP] = {_GLRADIX_PROG_ONESWEEP, _GLRADIX_PROG_ONESWEEP_PAIRS},
};

/* The programs one step runs, as its C function picks them; returns how many. */
static size_t step_programs(const _glradix_step_list *list, const _glradix_step *s,
                            _glradix_program out[2]) {
  switch (s->kind) {
  case _GLRADIX_STEP_TILE_COUNTS: /* small grids: a tile per work group (tile_counts.c) */
    out[0] = s->pass.large_grid ? _GLRADIX_PROG_TILE_COUNTS : _GLRADIX_PROG_TILE_COUNTS_ONE;
    return 1;
  case _GLRADIX_STEP_COUNTED: return 0;
  case _GLRADIX_STEP_SCAN:
    out[0] = _GLRADIX_PROG_SCAN_BLOCKS;
    out[1] = _GLRADIX_PROG_SCAN_ADD;
    return scan_adds(&list->levels, s->leave) ? 2 : 1;
  default:
    out[0] = STEP_PROGRAM[s->kind][s->pass.pairs ? 1 : 0];
    return 1;
  }
}

size_t _glradix_plan_programs(const _glradix_step_list *list,
                              _glradix_program out[_GLRADIX_PROG_COUNT]) {
  bool seen[_GLRADIX_PROG_COUNT] = {false};
  size_t count = 0;
  for (unsigned i = 0; i < list->count; i++) {
    _glradix_program step[2];
    const size_t n = step_programs(list, &list->steps[i], step);
    for (size_t k = 0; k < n; k++) {
      if (seen[step[k]]) continue;
      seen[step[k]] = true;
      out[count++] = step[k];
    }
  }
  return count;
}

/* Adds `list`'s programs that `out` (`count` of them) lacks; returns the new count. */
static size_t merge_programs(const _glradix_step_list *list, _glradix_program *out,
                             size_t count) {
  _glradix_program programs[_GLRADIX_PROG_COUNT];
  const size_t n = _glradix_plan_programs(list, programs);
  for (size_t k = 0; k < n; k++) {
    size_t j = 0;
    while (j < count && out[j] != programs[k]) j++;
    if (j == count) out[count++] = programs[k];
  }
  return count;
}

/* Two sorts take every step a plan has: a GPU count's (fills) odd number
 * of passes (copy back) over scan levels of several blocks (scan_add), on
 * a small grid and on a large one (tile_counts' two programs). */
size_t _glradix_plan_programs_any(glradix_plan plan, bool pairs,
                                  _glradix_program out[_GLRADIX_PROG_COUNT]) {
  _glradix_plan_desc d = {.plan = plan, .radix_bits = 8, .end_bit = 24};
  d.sort = (_glradix_pass){.pairs = pairs, .indirect = true, .key_words = 1};
  d.tile_scan = (_glradix_scan_plan){.levels = 3};
  d.column_scan = d.digit_scan = d.tile_scan;
  _glradix_step_list list;
  size_t count = 0;
  for (int large = 0; large <= 1; large++) {
    d.sort.large_grid = large != 0;
    if (_glradix_plan_make(&d, &list)) count = merge_programs(&list, out, count);
  }
  return count;
}

glradix_plan _glradix_plan_default(const GLint blocks[_GLRADIX_PROG_COUNT], GLint max_blocks,
                                   glradix_plan preferred) {
  const glradix_plan order[3] = {preferred, GLRADIX_PLAN_REDUCE_THEN_SCAN,
                                 GLRADIX_PLAN_SCAN_THEN_PROPAGATE};
  for (int k = 0; k < 3; k++) {
    _glradix_program programs[_GLRADIX_PROG_COUNT];
    const size_t count = _glradix_plan_programs_any(order[k], true, programs);
    size_t fit = 0;
    while (fit < count && blocks[programs[fit]] <= max_blocks) fit++;
    if (fit == count) return order[k];
  }
  return GLRADIX_PLAN_REDUCE_THEN_SCAN; /* neither: its calls say which program */
}
