/* The pass planner (plan.c): from a plain description of a sort, the list
 * of steps that run it, and the programs those steps run. No GL calls and
 * no context, so that tests/test_plan.c checks every plan on the CPU;
 * sort.c validates, fills the description and runs the steps. */
#ifndef GLRADIX_PLAN_H
#define GLRADIX_PLAN_H

#include "internal.h"

/* What a step runs: one stage's C function, or a fill of the counts. */
typedef enum _glradix_step_kind {
  _GLRADIX_STEP_FILL_COUNTS,  /* zero counts [fill_first, +fill_words) */
  _GLRADIX_STEP_TILE_SORT,    /* one tile: the whole bit range at once */
  _GLRADIX_STEP_LOCAL_SHUFFLE,
  _GLRADIX_STEP_TILE_COUNTS,
  _GLRADIX_STEP_COUNTED,      /* no dispatch: the last pass's shuffle_scatter counted */
  _GLRADIX_STEP_SCAN,
  _GLRADIX_STEP_GLOBAL_SCATTER,
  _GLRADIX_STEP_SHUFFLE_SCATTER,
  _GLRADIX_STEP_COPY_BACK,
  _GLRADIX_STEP_DIGIT_COUNTS, /* single-pass plan: every pass's digit counts */
  _GLRADIX_STEP_ONESWEEP      /* single-pass plan: a pass in one dispatch */
} _glradix_step_kind;

enum {
  _GLRADIX_NO_STAGE = -1,
  /* per pass a fill and three stages, then a fill ahead of the passes and
   * a copy back: more than any plan takes */
  _GLRADIX_PLAN_STEPS = _GLRADIX_MAX_PASSES * 4 + 2,
  /* the single-pass plan sorts fewer keys: its status words hold 30-bit counts */
  _GLRADIX_ONESWEEP_COUNTS = 1 << 30
};

/* A step: the stage and the pass's buffers and uniforms; `ends` is the
 * public stage whose work it completes (profiling and inspection stop
 * there), or _GLRADIX_NO_STAGE. */
typedef struct _glradix_step {
  _glradix_step_kind kind;
  int ends;
  _glradix_pass pass;
  bool key_bits;              /* first tile stage: also gather the varying key bits */
  bool spread;                /* the scan leaves SPREAD: level 1 at `level1` */
  GLuint level1;
  _glradix_scan_leave leave;  /* SCAN, SHUFFLE_SCATTER */
  _glradix_scan_io io;        /* SCAN */
  GLuint fill_first, fill_words;
  GLuint status, ticket;      /* ONESWEEP: its tiles' status words and ticket */
} _glradix_step;

/* Everything a plan depends on. */
typedef struct _glradix_plan_desc {
  glradix_plan plan;            /* the context's (resolved, not DEFAULT) */
  bool single;                  /* one tile: tile_sort (scratch.c's layout) */
  bool stop;                    /* glradix_sort_inspect: scan-then-propagate, no skipping */
  unsigned stop_pass;           /* with stop: the pass inspected */
  GLuint radix_bits;
  GLuint end_bit;               /* the range is [sort.shift, end_bit) */
  _glradix_pass sort;           /* the whole sort as one pass over the range */
  GLuint tile_keys, tile_values, counts; /* the scratch buffers */
  _glradix_per_tile per_tile;   /* the forms' */
  _glradix_scan_plan tile_scan;   /* scan-then-propagate's levels: a column per tile */
  _glradix_scan_plan column_scan; /* reduce-then-scan's (_glradix_count_columns) */
  bool few_totals;              /* _glradix_scan_few_totals(&column_scan) */
  bool spreads;                 /* _glradix_scan_spreads(ctx, &column_scan) */
  _glradix_scan_plan digit_scan; /* the single-pass plan's scan of every pass's counts */
  GLuint status;                /* where its tiles' status words start (scratch.c) */
  unsigned max_steps;           /* 0: _GLRADIX_PLAN_STEPS; tests ask for fewer */
} _glradix_plan_desc;

/* A plan: its steps in order, and the scan levels every pass shares. */
typedef struct _glradix_step_list {
  bool scans;                   /* levels is set (not the one-tile plan) */
  _glradix_scan_plan levels;
  bool skips;                   /* the first pass gathers which key bits vary */
  unsigned count;
  _glradix_step steps[_GLRADIX_PLAN_STEPS];
} _glradix_step_list;

/* The passes over `d`'s range. */
unsigned _glradix_plan_passes(const _glradix_plan_desc *d);
/* Fills `out` with `d`'s plan. False: more steps than d->max_steps (out
 * holds the first of them; nothing is written past them). */
bool _glradix_plan_make(const _glradix_plan_desc *d, _glradix_step_list *out);
/* The programs `list`'s steps run, each once, in order of first use;
 * returns how many. */
size_t _glradix_plan_programs(const _glradix_step_list *list,
                              _glradix_program out[_GLRADIX_PROG_COUNT]);

/* The programs any sort of `plan` over several tiles may run (those of
 * sorts that together take every step it has); returns how many. */
size_t _glradix_plan_programs_any(glradix_plan plan, bool pairs,
                                  _glradix_program out[_GLRADIX_PROG_COUNT]);

#endif /* GLRADIX_PLAN_H */
