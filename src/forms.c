/* Tile shapes and program forms per context, from the driver's limits: the
 * one place where tuning lives (forms.h lists what each platform gets). */
#include "forms.h"
#include "internal.h"

/* Shared memory a tile shape needs. GPUs: tile_sort's keys and values of a
 * padded tile plus the block scan, the most of any program, so that every
 * program keeps its staged form. CPU rasterizers: shuffle_scatter's and
 * local_shuffle's words of a padded tile, the look-back form's bucket
 * words (_GLRADIX_LOOK_BACK_BYTES) and the block scan; tile_sort and
 * global_scatter stage whole keys only where they fit (STAGED,
 * gl/prelude.c), which lets llvmpipe's 32 KB take 7168-key tiles. */
static GLint64 shared_bytes(bool cpu, GLuint wg_size, GLuint items) {
  GLuint tile = wg_size * items;
  return cpu ? _glradix_padded_tile_bytes(tile, wg_size, 1) + _GLRADIX_LOOK_BACK_BYTES
             : _glradix_padded_tile_bytes(tile, wg_size, 2);
}

/* Tile shapes, best first: invocations per work group, keys per
 * invocation, counts per invocation in a scan block. The last of each list
 * fits OpenGL ES 3.1's minimum limits (16 KB, 128 invocations).
 * GPUs, radix_bits 8: bigger tiles coalesce the scatter's writes of 256
 * buckets better, up to 512x8 keys (larger and other shapes, and scan
 * blocks of 8 or 16 counts an invocation, were slower).
 * GPUs, radix_bits 2 and 4: with 4 or 16 buckets small tiles lose little
 * coalescing and their groups need half the shared memory, so 256x8 beats
 * 512x8 and the other shapes tried.
 * CPU rasterizers: few invocations with many keys each, since every
 * invocation and barrier costs; 16 counts an invocation shorten the scan.
 * (Figures: BENCHMARKS.md, "Measured choices".) The raking scan needs at
 * least 16 invocations; keys per invocation are even (shuffle_scatter
 * reads them two or four at a time). */
typedef struct tile_shape {
  GLuint wg_size, items, scan_items;
} tile_shape;
static const tile_shape GPU_WIDE_SHAPES[] = {{512, 8, 4}, {256, 8, 4}, {256, 4, 4}, {128, 4, 4}};
static const tile_shape GPU_NARROW_SHAPES[] = {{256, 8, 4}, {256, 4, 4}, {128, 4, 4}};
static const tile_shape CPU_SHAPES[] = {{32, 224, 16}, {256, 4, 4}, {128, 4, 4}};

static void choose_tile(_glradix_forms *f, unsigned radix_bits, GLint max_invocations) {
  const bool wide = radix_bits == 8, cpu = f->cpu_rasterizer;
  const tile_shape *shapes = cpu ? CPU_SHAPES : wide ? GPU_WIDE_SHAPES : GPU_NARROW_SHAPES;
  size_t count = cpu    ? sizeof CPU_SHAPES / sizeof CPU_SHAPES[0]
                 : wide ? sizeof GPU_WIDE_SHAPES / sizeof GPU_WIDE_SHAPES[0]
                        : sizeof GPU_NARROW_SHAPES / sizeof GPU_NARROW_SHAPES[0];
  tile_shape pick = shapes[count - 1];
  for (size_t i = 0; i < count - 1; i++)
    if ((GLint)shapes[i].wg_size <= max_invocations &&
        shared_bytes(cpu, shapes[i].wg_size, shapes[i].items) <= f->max_shared) {
      pick = shapes[i];
      break;
    }
  f->wg_size = pick.wg_size;
  f->items = pick.items;
  f->scan_items = pick.scan_items;
  f->tile = pick.wg_size * pick.items;
  f->scan_tile = pick.wg_size * pick.scan_items;
}

/* What the reduce-then-scan plan keeps per tile, and how tile_counts
 * counts.
 * - CPU rasterizers count in a row of 8-bit counters per invocation
 *   (COUNT_ROWS) where the rows of the tiles a group counts, the key-bit
 *   words and the tiles' digit starts fit in shared memory.
 * - radix_bits 4 and 8: tile_counts writes each tile's digit starts for
 *   shuffle_scatter, which then need not search its tile for them (a read
 *   of its words and a barrier). radix_bits 2 needs none: its one split's
 *   totals are the starts.
 * - GPUs, radix_bits 2: after the first pass shuffle_scatter counts the
 *   next pass's digits as it moves the keys, and no tile_counts runs: a
 *   dispatch and a read of the keys fewer a pass (slower at radix_bits 4).
 * - GPUs with tile starts: one count column per tile_counts group, the sum
 *   of its two tiles' counts, so that the scan and the counts' traffic
 *   halve. CPU rasterizers' rows keep a column per tile: their scan is a
 *   small part of llvmpipe's sort.
 * (Figures: BENCHMARKS.md, "Measured choices".) */
static void choose_counting(_glradix_forms *f, unsigned radix_bits) {
  const GLuint buckets = 1u << radix_bits;
  GLint64 rows = (GLint64)_GLRADIX_COUNT_TILES * ((buckets + 3) / 4) * f->wg_size * 4 + 512 +
                 (GLint64)_GLRADIX_COUNT_TILES * buckets * 4;
  f->count_rows = f->cpu_rasterizer && rows <= f->max_shared;
  const bool starts = radix_bits >= 4 && (f->count_rows || (!f->cpu_rasterizer && f->wg_size >= buckets));
  if (!f->cpu_rasterizer && radix_bits == 2) f->per_tile = _GLRADIX_PER_TILE_NEXT_COUNTS;
  else if (starts) f->per_tile = _GLRADIX_PER_TILE_STARTS;
  else f->per_tile = _GLRADIX_PER_TILE_NONE;
  f->column_shift = f->per_tile == _GLRADIX_PER_TILE_STARTS && !f->count_rows ? 1 : 0;
}

/* shuffle_scatter's forms.
 * MOVE_SHARED: CPU rasterizers gather keys and values by slot from global
 * memory (through shared memory was slower on llvmpipe); GPUs move the
 * values through shared memory, and with the subgroup block scan, whose
 * registers allow it, the 32-bit keys too (holding the keys slowed the
 * portable path). uint64 keys, twice the registers, were faster gathered:
 * they never hold theirs.
 * VALUES_AT: on the subgroup path at radix_bits 8 the values load with the
 * keys, before the splits, so that their loads wait with the keys'; where
 * it holds 32-bit keys at radix_bits 2, after the split; elsewhere after
 * the keys' move (loaded with the keys, they were slower there).
 * KEY_SPLIT: 32-bit keys alone, where the moves have each tile's digit
 * starts (radix_bits 2's split gives them): the splits move the keys
 * themselves, not (digit, slot) words, which are then neither read back
 * nor used to move the keys.
 * (Figures: BENCHMARKS.md, "Measured choices", "Tried and dropped".) */
static void choose_scatter(_glradix_forms *f, unsigned radix_bits, const _glradix_test_hooks *h) {
  for (int wide_keys = 0; wide_keys < 2; wide_keys++)
    for (int pairs = 0; pairs < 2; pairs++) {
      _glradix_scatter_form *s = &f->scatter[wide_keys][pairs];
      int move = h->move_shared >= 0     ? h->move_shared
                 : f->cpu_rasterizer     ? 0
                 : f->subgroup_size != 0 ? 2
                                         : 1;
      if (wide_keys && move == 2) move = 1;
      s->move_shared = move;
      s->values_at = 0;
      if (pairs && move != 0) {
        if (h->values_at >= 0) s->values_at = h->values_at;
        else if (radix_bits == 8 && (move == 2 || (wide_keys && f->subgroup_size))) s->values_at = 1;
        else if (move == 2 && radix_bits == 2) s->values_at = 2;
      }
      s->key_split = !pairs && !wide_keys &&
                     (radix_bits == 2 || f->per_tile == _GLRADIX_PER_TILE_STARTS);
    }
}

/* GPUs' subgroup path, radix_bits 8, where the context's tiles are 8 keys
 * an invocation: sorts of at least 12M 32-bit keys, alone or with values,
 * take tiles of 10 keys an invocation. Fewer tiles leave fewer counts to
 * scan and coalesce the scatter's writes better, but each work group holds
 * more, which costs below about 12M keys. The portable path and 64-bit keys
 * were slower with them at every size tried: both keep their tiles
 * (BENCHMARKS.md, "Measured choices", "Tried and dropped"). */
enum { WIDE_ITEMS = 10, WIDE_FROM = 12u << 20 };
static const uint64_t IMPORT_FROM = 128u << 20;
static void choose_wide_tile(_glradix_forms *f, unsigned radix_bits, bool any_gpu_path,
                             GLuint from) {
  const GLuint tile = f->wg_size * WIDE_ITEMS;
  /* shuffle_scatter's words of a padded tile, its 256 bucket offsets and
   * the block scan: the most a wide program holds */
  const bool fits = _glradix_padded_tile_bytes(tile, f->wg_size, 1) + 256 * 4 <= f->max_shared &&
                    tile <= 65535;
  if (f->cpu_rasterizer || !(f->subgroup_size || any_gpu_path) || radix_bits != 8 ||
      f->items != 8 || !fits)
    return;
  f->wide_items = WIDE_ITEMS;
  f->wide_tile = tile;
  f->wide_from = from;
}

void _glradix_forms_choose(_glradix_forms *f, unsigned radix_bits, const _glradix_limits *limits,
                           const _glradix_test_hooks *hooks) {
  static const _glradix_test_hooks none = _GLRADIX_TEST_HOOKS_NONE;
  const _glradix_test_hooks *h = hooks ? hooks : &none;
  *f = (_glradix_forms){0};
  f->cpu_rasterizer = limits->cpu_rasterizer && !h->gpu_forms;
  f->subgroup_size = h->subgroup_size && h->dump_dir ? h->subgroup_size : limits->subgroup_size;
  f->max_shared = h->max_shared ? h->max_shared : limits->max_shared;
  choose_tile(f, radix_bits, h->max_invocations ? h->max_invocations : limits->max_invocations);
  /* the subgroup path needs work groups of whole subgroups */
  if (f->subgroup_size && f->wg_size % f->subgroup_size != 0) f->subgroup_size = 0;
  choose_counting(f, radix_bits);
  choose_scatter(f, radix_bits, h);
  /* shuffle_scatter.c says why the subgroup path takes tiles in reverse */
  f->reverse_tiles = !f->cpu_rasterizer &&
                     (h->reverse_tiles >= 0 ? h->reverse_tiles != 0
                      : h->move_shared >= 0 ? h->move_shared == 2
                                            : f->subgroup_size != 0);
  choose_wide_tile(f, radix_bits, h->wide_from != 0, h->wide_from ? h->wide_from : WIDE_FROM);
  /* A small grid is about one wave of work groups on a big GPU: there,
   * tile_counts counts one tile per work group, where fewer groups would
   * not fill the GPU; and shuffle_scatter adds up the few block totals
   * itself, which each group would repeat wave after wave on a large grid
   * (BENCHMARKS.md). */
  f->small_grid = h->small_grid ? h->small_grid : 512u;
  /* lbvh_leaves.comp says why the leaves' gather goes in windows of 4M */
  f->lbvh_window = h->lbvh_window ? h->lbvh_window : 1u << 22;
  /* The tree pass in the sort's groups, the largest (its shared memory is
   * 8-12 bytes an invocation): its climbs are latency-bound, and larger
   * groups ran faster (BENCHMARKS.md, "LBVH"). */
  f->lbvh_wg = h->lbvh_wg && h->lbvh_wg < f->wg_size ? h->lbvh_wg : f->wg_size;
  /* Reduce-then-scan on every driver measured: on the GPU the single-pass
   * plan's look-back cost more than the count stage and scan it saves, and
   * llvmpipe ran both alike (BENCHMARKS.md, "The single-pass plan"). */
  f->plan = h->plan ? (glradix_plan)h->plan : GLRADIX_PLAN_REDUCE_THEN_SCAN;
  /* reads of a late tile's word before a look-back counts the tile itself:
   * few on CPU rasterizers, whose loops llvmpipe cuts short past 65,535
   * iterations an invocation, and whose other core ranks a tile for far
   * longer than any such spin */
  f->spin_limit = f->cpu_rasterizer ? 16u : 64u;
  /* GPUs count each tile's digits before ranking it, so that later tiles'
   * look-backs find them sooner; llvmpipe, whose shared atomics cost, takes
   * them from the ranks */
  f->early_counts = !f->cpu_rasterizer;
  /* GPUs' scratch buffers of 128 MiB and more (sorts of 32M keys and
   * more) move to imported memory: on NVIDIA's driver GL's own buffers
   * slow down from about 512 MiB touched, what a 32M-pair sort touches
   * (BENCHMARKS.md, "What bounds the remaining gap"); a CPU rasterizer's
   * memory is the same either way. */
  f->import_from = h->import_from ? h->import_from : f->cpu_rasterizer ? 0 : IMPORT_FROM;
  f->force_fallback = h->force_fallback;
  f->delay_tiles = h->delay_tiles;
}
