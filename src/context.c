/* glradix_create / glradix_destroy: load GL, read limits, compile programs. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The one place where zero fields of a glradix_desc become defaults. */
static glradix_desc desc_defaults(const glradix_desc *in) {
  glradix_desc d = *in;
  if (d.radix_bits == 0) d.radix_bits = GLRADIX_DEFAULT_RADIX_BITS;
  if (d.plan == GLRADIX_PLAN_DEFAULT) d.plan = GLRADIX_PLAN_REDUCE_THEN_SCAN;
  return d;
}

/* glradix_apiproc and GLADapiproc are the same type, void (*)(void): no cast,
 * so that a change to either fails to compile here. */
static GLADapiproc load_proc(void *user, const char *name) {
  const glradix_context *ctx = user;
  return ctx->desc.load(name);
}

/* Shared memory a tile shape needs. GPUs: tile_sort's keys and values of a
 * padded tile plus the block scan, the most of any program, so that every
 * program keeps its staged form (as measured). CPU rasterizers:
 * shuffle_scatter's and local_shuffle's words of a padded tile, 256 bucket
 * words and the block scan; tile_sort and global_scatter stage whole keys
 * only where they fit (STAGED, programs.c), which lets llvmpipe's 32 KB
 * take 7168-key tiles. */
static GLint64 shared_bytes(bool cpu, GLuint wg_size, GLuint items) {
  GLuint tile = wg_size * items;
  return cpu ? _glradix_padded_tile_bytes(tile, wg_size, 1) + 256 * 4
             : _glradix_padded_tile_bytes(tile, wg_size, 2);
}

/* Tile shapes, best first, measured with bench/gpu_sweep.sh: invocations
 * per work group, keys per invocation, counts per invocation in a scan
 * block. GPUs, radix_bits 8: bigger tiles coalesce the scatter's writes of
 * 256 buckets better (H200: 512x8-key tiles sorted 16M pairs 1.3x faster
 * than 256x4, and 1.27x faster than 256x8; scan blocks of 8 or 16 counts
 * each were slower than 4; 1024x4 and 256x16 slower, 512x6 3% slower).
 * GPUs, radix_bits 2 and 4: with 4 or 16 buckets small tiles lose little
 * coalescing, and their work groups need half the shared memory and wait
 * on half the warps at each barrier; which of the two gains was not
 * isolated (shuffle_scatter is sensitive to shared memory: on the H200 8 KB
 * more per 4096-key tile made radix_bits 8 1.4x slower, 6 KB more changed
 * nothing, a step like one work group fewer per SM). 256x8 sorted 16M
 * pairs 11% (radix_bits 2) and 12% (4) faster than 512x8, 64M 3% and 6%
 * (session 6; 128x8, 256x4, 512x4 and 128x16 were slower at 1M or 64M).
 * CPU rasterizers (llvmpipe): few invocations with many keys each, since
 * every invocation and barrier costs (64x32 sorted 1M pairs 3.5x faster
 * than 512x4 on 2 cores, and 32x64 1.35x faster again: 100-112 against
 * 142-152 ms); 16 counts each
 * took the scan of radix_bits 8 from 5.2 to 2.4-2.7 ms at 1M pairs; 112
 * keys each (3584-key tiles) took radix_bits 8 from 88-90 to 80-82 ms and
 * radix_bits 2 from 212-214 to 202-203 ms (session 5), and 224 (7168 keys,
 * twice that; tile_sort and global_scatter then move whole keys in global
 * memory) from 79.3 to 75.4 ms and from 205.9 to 198.5 ms (medians of five,
 * session 6). Up to 238 would fit shuffle_scatter in 32 KB; not measured.
 * The raking scan needs at least 16 invocations; keys per invocation are
 * even (shuffle_scatter reads them two or four at a time). */
typedef struct tile_shape {
  GLuint wg_size, items, scan_items;
} tile_shape;
static const tile_shape GPU_WIDE_SHAPES[] = {{512, 8, 4}, {256, 8, 4}, {256, 4, 4}};
static const tile_shape GPU_NARROW_SHAPES[] = {{256, 8, 4}, {256, 4, 4}};
static const tile_shape CPU_SHAPES[] = {{32, 224, 16}, {256, 4, 4}};

static void choose_tile(glradix_context *ctx, bool cpu, GLint64 max_shared,
                        GLint max_invocations) {
  bool wide = ctx->desc.radix_bits == 8;
  const tile_shape *shapes = cpu ? CPU_SHAPES : wide ? GPU_WIDE_SHAPES : GPU_NARROW_SHAPES;
  size_t count = cpu    ? sizeof CPU_SHAPES / sizeof CPU_SHAPES[0]
                 : wide ? sizeof GPU_WIDE_SHAPES / sizeof GPU_WIDE_SHAPES[0]
                        : sizeof GPU_NARROW_SHAPES / sizeof GPU_NARROW_SHAPES[0];
  tile_shape pick = shapes[count - 1]; /* the last fits GL 4.3's minimums */
  for (size_t i = 0; i < count - 1; i++)
    if ((GLint)shapes[i].wg_size <= max_invocations &&
        shared_bytes(cpu, shapes[i].wg_size, shapes[i].items) <= max_shared) {
      pick = shapes[i];
      break;
    }
#ifdef GLRADIX_TUNE_WG_SIZE
#if (GLRADIX_TUNE_WG_SIZE) & ((GLRADIX_TUNE_WG_SIZE) - 1)
#error "GLRADIX_TUNE_WG_SIZE: the Blelloch block scan (scan_blocks) needs a power of two"
#endif
  pick.wg_size = GLRADIX_TUNE_WG_SIZE;
#endif
#ifdef GLRADIX_TUNE_ITEMS
#if GLRADIX_TUNE_ITEMS % 2 != 0
#error "GLRADIX_TUNE_ITEMS: shuffle_scatter reads keys two or four at a time (LOAD_OWNED_KEYS)"
#endif
#if GLRADIX_TUNE_ITEMS > 255
#error "GLRADIX_TUNE_ITEMS: the splits and the CPU count keep 8-bit counters per invocation"
#endif
  pick.items = GLRADIX_TUNE_ITEMS;
#endif
#ifdef GLRADIX_TUNE_SCAN_ITEMS
  pick.scan_items = GLRADIX_TUNE_SCAN_ITEMS;
#endif
  ctx->cpu_rasterizer = cpu;
  ctx->wg_size = pick.wg_size;
  ctx->items = pick.items;
  ctx->scan_items = pick.scan_items;
  ctx->tile = ctx->wg_size * ctx->items;
  ctx->scan_tile = ctx->wg_size * ctx->scan_items;
}

/* Whether the renderer is a CPU rasterizer, which gets shapes and program
 * forms of its own. */
static bool cpu_rasterizer(const char *renderer) {
#ifdef GLRADIX_TEST_GPU_FORMS
  (void)renderer; /* test builds only (the gpu_forms tests): a GPU's forms anywhere */
  return false;
#else
  return renderer && (strstr(renderer, "llvmpipe") || strstr(renderer, "softpipe"));
#endif
}

static glradix_status read_limits(glradix_context *ctx) {
  GladGLContext *gl = &ctx->gl;
  GLint count[2] = {0, 0};
  gl->GetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &count[0]);
  gl->GetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 1, &count[1]);
  gl->GetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &ctx->max_ssbo_bytes);
  GLint max_shared = 0, max_invocations = 0;
  gl->GetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &max_shared);
  gl->GetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &max_invocations);
  const char *renderer = (const char *)gl->GetString(GL_RENDERER);
  bool cpu = cpu_rasterizer(renderer);
#ifdef GLRADIX_TEST_DUMP_SHADERS
  /* Test builds only (tests/shader_sources.sh): shape the programs as a
   * GPU with this much shared memory and 1024 invocations would. */
  const char *as_gpu = getenv("GLRADIX_TEST_AS_GPU");
  if (as_gpu) {
    cpu = false;
    max_shared = atoi(as_gpu);
    max_invocations = 1024;
  }
#endif
  ctx->max_shared = max_shared;
  choose_tile(ctx, cpu, max_shared, max_invocations);
  /* radix_bits 4 and 8: tile_counts writes each tile's digit starts
   * for shuffle_scatter (TILE_STARTS). Measured on the H200, 30-bit pairs,
   * two rounds in one call: radix_bits 8 16M 0.923 -> 0.907 ms, 64M 3.467
   * -> 3.459, 1M 0.127 -> 0.125, 32-bit keys alone 16M 0.818 -> 0.795,
   * portable 16M -0.6%; radix_bits 4 16M -1.8% (portable -2.1%), 1M and
   * 64M -0.3 to -0.5%. radix_bits 2 needs none: its one split's totals
   * are the starts (shuffle_scatter). One invocation per bucket, and at
   * most two tiles per group (one scan of 16-bit fields).
   * GLRADIX_TUNE_TILE_STARTS=2 takes every width. CPU rasterizers get them
   * from their count in rows (an invocation per tile adds the counts up):
   * on llvmpipe, 1M pairs, radix_bits 8 74.8 -> 71.3 ms, 4 109.4 -> 102.6
   * ms (medians, interleaved rounds). */
  const GLuint buckets = 1u << ctx->desc.radix_bits;
  /* CPU rasterizers count in a row of 8-bit counters per invocation
   * (COUNT_ROWS) where the rows of the most tiles a group counts, the
   * key-bit words and the tiles' digit starts fit in shared memory. */
  GLint64 rows = (GLint64)_GLRADIX_COUNT_TILES * ((buckets + 3) / 4) * ctx->wg_size * 4 + 512 +
                 (GLint64)_GLRADIX_COUNT_TILES * buckets * 4;
  ctx->count_rows = cpu && rows <= max_shared;
  ctx->tile_starts = GLRADIX_TUNE_TILE_STARTS &&
                     (ctx->desc.radix_bits >= 4 || GLRADIX_TUNE_TILE_STARTS == 2) &&
                     _GLRADIX_COUNT_TILES <= 2 &&
                     (ctx->count_rows || (!cpu && ctx->wg_size >= buckets));
  /* GPUs, radix_bits 2: after the first pass, shuffle_scatter counts the
   * next pass's digits as it moves the keys, and no tile_counts runs
   * (NEXT_COUNTS). Measured on the H200, 30-bit pairs, two rounds in one
   * call against GLRADIX_TUNE_NEXT_COUNTS=0: 16M 2.182 -> 1.876 ms, 1M
   * 0.336 -> 0.276, 64M 9.38 -> 8.03; the portable path (in another call)
   * 2.318 -> 2.056, 0.343 -> 0.278, 9.78 -> 8.42. At
   * radix_bits 4 (GLRADIX_TUNE_NEXT_COUNTS=2, there without the tile
   * starts) 1M was 7% faster but 16M 8% slower, the portable path 14-17%
   * slower (16 buckets: 512 counters a tile; the cause not isolated). */
  ctx->next_counts = !cpu && (GLRADIX_TUNE_NEXT_COUNTS == 2 ? ctx->desc.radix_bits <= 4
                                                            : GLRADIX_TUNE_NEXT_COUNTS == 1 &&
                                                                  ctx->desc.radix_bits == 2);
  if (ctx->next_counts) ctx->tile_starts = false; /* they share a place in scratch (sort.c) */
  /* GPUs, radix_bits 4 and 8, large grids: one count column per
   * tile_counts group, the sum of its tiles' counts, and each tile's starts
   * less the counts of the tiles before it in the column: the scan and
   * the counts' reads and writes halve (COLUMN_SHIFT). Measured on the
   * H200 against a column per tile, 30-bit pairs, three rounds in one
   * call: 4M 0.2880 -> 0.2807 ms, 16M 0.8804 -> 0.8560, 32M 1.700 ->
   * 1.642, 64M 3.404 -> 3.334; keys alone 16M and 64M -2.1%, the portable
   * path 16M -1.4%, radix_bits 4 16M -0.7%. CPU rasterizers' rows keep
   * a column per tile: they add up each tile's starts in one invocation
   * per tile and would need a pairing of their own, for a scan that is 2%
   * of llvmpipe's sort (1M pairs, radix_bits 8: 2.6 of 120 ms) and that
   * only grids above 512 of its 7168-key tiles (3.7M keys) would halve. */
  ctx->column_shift = ctx->tile_starts && !ctx->count_rows && _GLRADIX_COUNT_TILES == 2 ? 1 : 0;
  for (int i = 0; i < 2; i++) {
    GLuint limit = count[i] > 0 ? (GLuint)count[i] : 65535u;
    if (i == 0 && ctx->desc.dispatch_limit != 0 && ctx->desc.dispatch_limit < limit)
      limit = ctx->desc.dispatch_limit;
    ctx->group_limit[i] = limit;
  }
  return _glradix_gl_error(ctx, "reading GL limits");
}

/* Whether shuffle_scatter may take the tiles in reverse (shuffle_scatter.c):
 * on GPUs' subgroup path, where it was measured faster (H200); the portable
 * path was not. */
static bool reverse_tiles(const glradix_context *ctx) {
  bool subgroup_path = ctx->subgroup_size != 0;
#ifdef GLRADIX_TEST_GPU_FORMS
  /* the gpu_forms tests: move form 2 stands for the subgroup path, unless
   * GLRADIX_TEST_REVERSE_TILES says otherwise */
  const char *move = getenv("GLRADIX_TEST_MOVE_SHARED");
  const char *reverse = getenv("GLRADIX_TEST_REVERSE_TILES");
  if (move) subgroup_path = atoi(move) == 2;
  if (reverse) subgroup_path = atoi(reverse) != 0;
#endif
  return GLRADIX_TUNE_REVERSE_TILES && !ctx->cpu_rasterizer && subgroup_path;
}

/* GPUs' subgroup path, radix_bits 8, where the context's tiles are 8 keys
 * an invocation: sorts of many 32-bit keys, alone or with values, take
 * tiles of GLRADIX_TUNE_WIDE_ITEMS keys an invocation (the WIDE programs),
 * from GLRADIX_TUNE_WIDE_FROM keys. Fewer tiles leave fewer counts to scan
 * and, by our reading, coalesce the scatter's writes of 256 buckets
 * better, but each work group holds more (at 64M pairs all three stages
 * took less time). On the H200 (30-bit keys, 5120-key tiles against 4096,
 * rounds in one call): keys alone 4M +4.7%, 8M -0.4%, 12M -2.6%, 16M
 * -4.0%, 24M -3.2%, 64M -5.1% (session 20); pairs, since shuffle_scatter
 * loads their values with the keys (programs.c's values_at), 8M +1.4%,
 * 12M -1.0%, 16M -2.3% and -2.5% (two calls), 20M -1.5% (session 21; the
 * session before, 16M +0.6%, 20M +2.2%, 24M -0.8%, 64M -2.4%). The
 * portable path was 30% slower at 32M and 64M pairs (registers, by our
 * reading) and keeps its tiles; so do 64-bit keys (28-32% slower at 16M
 * and 64M). The gpu_forms tests set GLRADIX_TEST_WIDE_FROM: wide tiles
 * from that count, the portable path included. */
static void choose_wide_tile(glradix_context *ctx) {
#if GLRADIX_TUNE_WIDE_ITEMS > 8
  bool subgroup_path = ctx->subgroup_size != 0;
  GLuint from = GLRADIX_TUNE_WIDE_FROM;
#ifdef GLRADIX_TEST_GPU_FORMS
  const char *env = getenv("GLRADIX_TEST_WIDE_FROM");
  if (env) {
    subgroup_path = true;
    from = (GLuint)atoi(env);
  }
#endif
  const GLuint tile = ctx->wg_size * GLRADIX_TUNE_WIDE_ITEMS;
  /* shuffle_scatter's words of a padded tile, its 256 bucket offsets and
   * the block scan: the most a WIDE program holds (tile_sort has none) */
  const bool fits = _glradix_padded_tile_bytes(tile, ctx->wg_size, 1) + 256 * 4 <= ctx->max_shared &&
                    tile <= 65535;
  if (ctx->cpu_rasterizer || !subgroup_path || ctx->desc.radix_bits != 8 || ctx->items != 8 || !fits)
    return;
  ctx->wide_items = GLRADIX_TUNE_WIDE_ITEMS;
  ctx->wide_tile = tile;
  ctx->wide_from = from;
#else
  (void)ctx;
#endif
}

/* The subgroup fast path needs arithmetic, ballot (subgroupBroadcast) and
 * shuffle subgroup operations in compute shaders (common.glsl's block
 * scan), and work groups made of whole subgroups. */
static GLuint usable_subgroup_size(glradix_context *ctx) {
  GladGLContext *gl = &ctx->gl;
#ifdef GLRADIX_TEST_DUMP_SHADERS
  const char *size_env = getenv("GLRADIX_TEST_SUBGROUP_SIZE"); /* shader_sources.sh */
  if (size_env && !ctx->desc.disable_subgroups) return (GLuint)atoi(size_env);
#endif
  if (ctx->desc.disable_subgroups || !gl->KHR_shader_subgroup) return 0;
  GLint size = 0, stages = 0, features = 0;
  gl->GetIntegerv(GL_SUBGROUP_SIZE_KHR, &size);
  gl->GetIntegerv(GL_SUBGROUP_SUPPORTED_STAGES_KHR, &stages);
  gl->GetIntegerv(GL_SUBGROUP_SUPPORTED_FEATURES_KHR, &features);
  GLint need = GL_SUBGROUP_FEATURE_BASIC_BIT_KHR | GL_SUBGROUP_FEATURE_ARITHMETIC_BIT_KHR |
               GL_SUBGROUP_FEATURE_BALLOT_BIT_KHR | GL_SUBGROUP_FEATURE_SHUFFLE_BIT_KHR;
  if (size <= 0 || ctx->wg_size % (GLuint)size != 0 || !(stages & GL_COMPUTE_SHADER_BIT) ||
      (features & need) != need)
    return 0;
  return (GLuint)size;
}

glradix_status glradix_create(const glradix_desc *desc, glradix_context **out) {
  if (out) *out = NULL;
  if (!desc || !out) {
    if (desc) _glradix_log(desc, "glradix_create: out is NULL");
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  if (!desc->load) {
    _glradix_log(desc, "glradix_create: desc->load is NULL (pass e.g. glfwGetProcAddress)");
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  if ((unsigned)desc->plan > (unsigned)GLRADIX_PLAN_SCAN_THEN_PROPAGATE) {
    _glradix_log(desc, "glradix_create: plan %d is not a glradix_plan", (int)desc->plan);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  if (desc->radix_bits != 0 && desc->radix_bits != 2 && desc->radix_bits != 4 &&
      desc->radix_bits != 8) {
    _glradix_log(desc, "glradix_create: radix_bits %u is not 0, 2, 4 or 8", desc->radix_bits);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  glradix_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx) {
    _glradix_log(desc, "glradix_create: out of host memory");
    return GLRADIX_ERROR_OUT_OF_MEMORY;
  }
  ctx->desc = desc_defaults(desc);
  /* glad reads GL_VERSION first: 0 means no current context (or no GL at all). */
  int version = gladLoadGLContextUserPtr(&ctx->gl, load_proc, ctx);
  if (version == 0) {
    _glradix_log(desc, "glradix_create: no current GL context (GL_VERSION unreadable)");
    free(ctx);
    return GLRADIX_ERROR_UNSUPPORTED;
  }
  if (!ctx->gl.VERSION_4_3) {
    _glradix_log(desc, "glradix_create: OpenGL %d.%d is current; 4.3 (compute shaders) needed",
                 GLAD_VERSION_MAJOR(version), GLAD_VERSION_MINOR(version));
    free(ctx);
    return GLRADIX_ERROR_UNSUPPORTED;
  }
  _glradix_gl_state saved;
  _glradix_begin(ctx, &saved);
  glradix_status st = read_limits(ctx);
  if (st == GLRADIX_OK) {
    ctx->subgroup_size = usable_subgroup_size(ctx);
    ctx->reverse_tiles = reverse_tiles(ctx);
    choose_wide_tile(ctx);
    st = _glradix_build_programs(ctx, _GLRADIX_SET_BASE);
  }
  if (st == GLRADIX_OK) /* the sort's small state buffer, for every count */
    st = _glradix_ensure_buffer(ctx, &ctx->skip,
                                (GLsizeiptr)_GLRADIX_SKIP_WORDS * 4,
                                "allocating the sort state");
  if (st == GLRADIX_OK) {
    /* The scan's ticket (skip[TICKET_SLOT]) starts at zero. Written by an
     * upload, as each sort's update is, not by a clear: on the H200 an
     * upload of 4 MB right after a clear of its buffer was
     * overwritten by the clear (BENCHMARKS.md, session 23). */
    static const GLuint zeros[_GLRADIX_SKIP_WORDS] = {0};
    _glradix_upload(ctx, ctx->skip.name, 0, (GLsizeiptr)sizeof zeros, zeros);
  }
  if (st == GLRADIX_OK && desc->max_count > 0)
    st = _glradix_reserve(ctx, "glradix_create", desc->max_count, true, 1);
  st = _glradix_end(ctx, "glradix_create", st, &saved);
  if (st != GLRADIX_OK) {
    glradix_destroy(ctx);
    return st;
  }
  *out = ctx;
  return GLRADIX_OK;
}

void glradix_destroy(glradix_context *ctx) {
  if (!ctx) return;
  _glradix_delete_programs(ctx);
  _glradix_profile_delete(ctx);
  _glradix_buffer *buffers[] = {&ctx->tile_keys, &ctx->tile_values, &ctx->counts, &ctx->skip,
                                &ctx->lbvh_codes, &ctx->lbvh_indices, &ctx->lbvh_parents,
                                &ctx->scene_box,
                                &ctx->host_keys, &ctx->host_values};
  for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; i++)
    if (buffers[i]->name) ctx->gl.DeleteBuffers(1, &buffers[i]->name);
  free(ctx);
}

unsigned glradix_tile_size(const glradix_context *ctx) { return ctx ? ctx->tile : 0u; }

unsigned glradix_subgroup_size(const glradix_context *ctx) {
  return ctx ? ctx->subgroup_size : 0u;
}

glradix_desc glradix_query_desc(const glradix_context *ctx) {
  glradix_desc none = {0};
  return ctx ? ctx->desc : none;
}
