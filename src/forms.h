/* What glradix_create decides once per context from the driver's limits:
 * the tile shapes and the program forms (forms.c). The program builder
 * (gl/prelude.c) turns them into #defines and the pass planner
 * (sort/plan.c) reads the same fields; nothing else decides a form.
 *
 * The forms, and where each is taken by default:
 *
 *   field            CPU rasterizer     GPU, portable        GPU, subgroups
 *   tile (8-bit)     32 x 224 keys      512 x 8              512 x 8
 *   tile (2/4-bit)   32 x 224           256 x 8              256 x 8
 *   wide_tile        none               none                 512 x 10, from 12M keys
 *   count_rows       yes (rows fit)     no                   no
 *   per_tile (2-bit) none               next counts          next counts
 *   per_tile (4/8)   tile starts        tile starts          tile starts
 *   column_shift     0                  1 (4/8-bit)          1 (4/8-bit)
 *   move_shared      0                  1                    2 (64-bit keys: 1)
 *   values_at        0                  0                    1 (8-bit), 2 (2-bit)
 *   reverse_tiles    no                 no                   yes
 *   key_split        keys alone, 32-bit, where per_tile gives the starts or at 2 bits
 *   lbvh_wg          32                 512                  512
 *   lbvh_window      4M primitives      4M                   4M
 *   plan             reduce-then-scan   reduce-then-scan     reduce-then-scan
 *   early_counts     no                 yes                  yes
 *   spin_limit       16                 64                   64
 *   import_from      never              128 MiB              128 MiB
 *
 * Smaller limits take fallback shapes, down to 128 x 4 keys, which fit
 * OpenGL ES 3.1's minimums (16 KB of shared memory, 128 invocations): the
 * *_min_limits tests run the suites so shaped on llvmpipe.
 * No build-time knob changes a form: tests/ reach other combinations
 * through _glradix_create_for_tests (testing.h). */
#ifndef GLRADIX_FORMS_H
#define GLRADIX_FORMS_H

#include <stdbool.h>
#include <stdint.h>

#include "gl/gl.h"
#include "glradix/glradix.h"
#include "testing.h"

/* What the driver says (context.c reads it). */
typedef struct _glradix_limits {
  GLint64 max_shared;       /* GL_MAX_COMPUTE_SHARED_MEMORY_SIZE */
  GLint max_invocations;    /* GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS */
  bool cpu_rasterizer;      /* llvmpipe or softpipe */
  GLuint subgroup_size;     /* 0, or GL_KHR_shader_subgroup's size where the
                               features the block scan needs are there */
} _glradix_limits;

/* Where the reduce-then-scan plan keeps something per tile after the
 * scan's levels: nothing, each tile's digit starts (tile_counts writes
 * them for shuffle_scatter) or the next pass's counts (shuffle_scatter adds
 * them up as it moves the keys, and only the first pass counts). */
typedef enum _glradix_per_tile {
  _GLRADIX_PER_TILE_NONE,
  _GLRADIX_PER_TILE_STARTS,
  _GLRADIX_PER_TILE_NEXT_COUNTS
} _glradix_per_tile;

/* shuffle_scatter's form for one kind of sort: keys [1 = 64-bit], pairs. */
typedef struct _glradix_scatter_form {
  int move_shared; /* MOVE_SHARED: 0 gathered by slot, 1 values through shared memory, 2 keys too */
  int values_at;   /* VALUES_AT: 0 after the keys' move, 1 with the keys, 2 after the split */
  bool key_split;  /* KEY_SPLIT: the splits move the keys themselves */
} _glradix_scatter_form;

typedef struct _glradix_forms {
  bool cpu_rasterizer;  /* CPU rasterizers get shapes and forms of their own */
  GLuint subgroup_size; /* 0: the portable block scan */
  GLint64 max_shared;
  /* The context's tile: a tile holds at most 65535 keys (local_shuffle
   * packs slots and counters in 16 bits). */
  GLuint wg_size;       /* invocations per work group, all stages */
  GLuint items;         /* keys per invocation in a tile */
  GLuint tile;          /* wg_size * items keys */
  GLuint scan_items;    /* counts per invocation in a scan block */
  GLuint scan_tile;     /* wg_size * scan_items counts */
  /* Wide tiles: sorts of at least wide_from 32-bit keys take tiles of
   * wide_tile keys (wide_items an invocation) in the reduce-then-scan
   * plan; wide_tile 0: none. */
  GLuint wide_items, wide_tile, wide_from;
  bool count_rows;          /* tile_counts counts in rows of 8-bit counters (COUNT_ROWS) */
  _glradix_per_tile per_tile;
  /* A small grid: at most small_grid tiles (forms.c). More make a large
   * grid: tile_counts counts COUNT_TILES tiles a work group, the counts
   * go in columns of 2^column_shift tiles, and shuffle_scatter leaves the
   * block totals to the scan. */
  GLuint small_grid;
  GLuint column_shift;      /* log2 of the tiles per count column on large grids */
  bool reverse_tiles;       /* shuffle_scatter may take the tiles in reverse */
  _glradix_scatter_form scatter[2][2]; /* [64-bit keys][pairs] */
  GLuint lbvh_window;       /* primitives per window of the LBVH leaves' gather */
  GLuint lbvh_wg;           /* invocations per work group of the LBVH tree pass */
  glradix_plan plan;        /* the plan a context asking for the default takes, where it fits */
  /* The single-pass plan's look-back (shuffle_scatter.comp): reads of a tile's
   * word before falling back; the test hooks' forced fallbacks and
   * delayed tiles (0: none). */
  GLuint spin_limit, force_fallback, delay_tiles;
  bool early_counts; /* it counts a tile's digits before ranking it (else from the ranks) */
  /* Scratch buffers of at least this many bytes on imported Vulkan memory
   * where the context has it (memory/imported.c); 0: none. */
  uint64_t import_from;
} _glradix_forms;

/* What the per-tile form means to a program: the tiles' digit starts
 * (GLSL TILE_STARTS), or the next pass's counts added up by shuffle_scatter
 * (NEXT_COUNTS). Every C stage and the prelude (gl/prelude.c) ask these. */
static inline bool _glradix_tile_starts(const _glradix_forms *f) {
  return f->per_tile == _GLRADIX_PER_TILE_STARTS;
}
static inline bool _glradix_next_counts(const _glradix_forms *f) {
  return f->per_tile == _GLRADIX_PER_TILE_NEXT_COUNTS;
}

/* Whether `num_tiles` make a large grid (common.glsl's column_shift, which
 * must agree). */
static inline bool _glradix_large_grid(const _glradix_forms *f, GLuint num_tiles) {
  return num_tiles > f->small_grid;
}

/* Fills `f` for a context of `radix_bits` (2, 4 or 8) on a driver with
 * `limits`; hooks may be NULL. */
void _glradix_forms_choose(_glradix_forms *f, unsigned radix_bits, const _glradix_limits *limits,
                           const _glradix_test_hooks *hooks);

#endif /* GLRADIX_FORMS_H */
