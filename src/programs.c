/* Embedded shader sources + injected #defines -> GL programs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "shaders_gen.h"

typedef struct program_source {
  const char *name;   /* the stage's shader file, for logs */
  const char *source; /* embedded text of shaders/<name>.comp */
  int pairs;          /* HAS_VALUES */
  const char *extra;  /* stage-specific #defines for common.glsl, or NULL */
} program_source;

/* What common.glsl provides: the key order (KEYS), the 4-way split with its
 * uvec2 block scan (SPLIT), the tile's work words (SHUFFLE), the gathering
 * of varying key bits for pass skipping (KEY_BITS, with KEYS), or a plain
 * uint block scan (SCAN_UINT). */
#define SKIP "#define WITH_SKIP 1\n"
#define KEYS SKIP "#define WITH_KEYS 1\n"
#define SPLIT KEYS "#define SCAN_T uvec2\n#define WITH_SPLIT 1\n"
#define SHUFFLE SPLIT "#define WITH_SHUFFLE 1\n"
#define KEY_BITS "#define WITH_KEY_BITS 1\n"
#define SCAN_UINT "#define SCAN_T uint\n"
#define COMPACT "#define WITH_COMPACT 1\n"
#define LBVH "#define WITH_LBVH 1\n"
#define LBVH30 LBVH "#define MORTON_BITS 30\n"
#define LBVH63 LBVH "#define MORTON_BITS 63\n"

static const program_source SOURCES[_GLRADIX_PROG_COUNT] = {
  [_GLRADIX_PROG_LOCAL_SHUFFLE] = {"local_shuffle", _glradix_shader_local_shuffle, 0, SHUFFLE KEY_BITS},
  [_GLRADIX_PROG_LOCAL_SHUFFLE_PAIRS] = {"local_shuffle", _glradix_shader_local_shuffle, 1, SHUFFLE KEY_BITS},
  [_GLRADIX_PROG_SCAN_BLOCKS] = {"scan_blocks", _glradix_shader_scan_blocks, 0, SKIP SCAN_UINT},
  [_GLRADIX_PROG_SCAN_ADD] = {"scan_add", _glradix_shader_scan_add, 0, NULL},
  [_GLRADIX_PROG_GLOBAL_SCATTER] = {"global_scatter", _glradix_shader_global_scatter, 0, KEYS},
  [_GLRADIX_PROG_GLOBAL_SCATTER_PAIRS] = {"global_scatter", _glradix_shader_global_scatter, 1, KEYS},
  [_GLRADIX_PROG_TILE_SORT] = {"tile_sort", _glradix_shader_tile_sort, 0, SPLIT},
  [_GLRADIX_PROG_TILE_SORT_PAIRS] = {"tile_sort", _glradix_shader_tile_sort, 1, SPLIT},
  [_GLRADIX_PROG_TILE_COUNTS] = {"tile_counts", _glradix_shader_tile_counts, 0, KEYS KEY_BITS},
  [_GLRADIX_PROG_TILE_COUNTS_ONE] = {"tile_counts", _glradix_shader_tile_counts, 0,
                                     KEYS KEY_BITS "#define ONE_TILE 1\n"},
  [_GLRADIX_PROG_SHUFFLE_SCATTER] = {"shuffle_scatter", _glradix_shader_shuffle_scatter, 0, SHUFFLE},
  [_GLRADIX_PROG_SHUFFLE_SCATTER_PAIRS] = {"shuffle_scatter", _glradix_shader_shuffle_scatter, 1, SHUFFLE},
  [_GLRADIX_PROG_COPY_BACK] = {"copy_back", _glradix_shader_copy_back, 0, KEYS},
  [_GLRADIX_PROG_COPY_BACK_PAIRS] = {"copy_back", _glradix_shader_copy_back, 1, KEYS},
  [_GLRADIX_PROG_COMPACT_FLAGS] = {"compact_flags", _glradix_shader_compact_flags, 0, COMPACT},
  [_GLRADIX_PROG_COMPACT_SCATTER] = {"compact_scatter", _glradix_shader_compact_scatter, 0, COMPACT},
  [_GLRADIX_PROG_COUNT_PREPARE] = {"count_prepare", _glradix_shader_count_prepare, 0, SKIP},
  [_GLRADIX_PROG_SCENE_BOX] = {"scene_box", _glradix_shader_scene_box, 0, LBVH30},
  [_GLRADIX_PROG_MORTON_30] = {"morton_codes", _glradix_shader_morton_codes, 0, LBVH30},
  [_GLRADIX_PROG_MORTON_63] = {"morton_codes", _glradix_shader_morton_codes, 0, LBVH63},
  [_GLRADIX_PROG_LBVH_NODES_30] = {"lbvh_nodes", _glradix_shader_lbvh_nodes, 0, LBVH30},
  [_GLRADIX_PROG_LBVH_NODES_63] = {"lbvh_nodes", _glradix_shader_lbvh_nodes, 0, LBVH63},
  [_GLRADIX_PROG_LBVH_REFIT] = {"lbvh_refit", _glradix_shader_lbvh_refit, 0, LBVH30},
};

/* How shuffle_scatter moves keys and values (MOVE_SHARED, see there): by
 * their slots from global memory on CPU rasterizers; on GPUs the values
 * through shared memory, and 32-bit keys too with the subgroup block scan,
 * whose registers allow holding them across the splits on the H200. uint64
 * keys, twice the registers, were 0.6-0.8% faster gathered, and form 2
 * moves 32-bit keys only: they never get it, overrides included. */
static int move_shared(const glradix_context *ctx, GLuint key_words) {
  int move = ctx->cpu_rasterizer ? 0 : ctx->subgroup_size ? 2 : 1;
#ifdef GLRADIX_TEST_GPU_FORMS
  const char *env = getenv("GLRADIX_TEST_MOVE_SHARED"); /* the gpu_forms tests */
  if (env) move = atoi(env);
#endif
  if (GLRADIX_TUNE_MOVE_SHARED >= 0) move = GLRADIX_TUNE_MOVE_SHARED;
  return key_words == 2 && move == 2 ? 1 : move;
}

/* When shuffle_scatter loads the values it moves through shared memory
 * (VALUES_AT; see there): on the subgroup path at radix_bits 8 with the
 * keys, before the splits (1; 32-bit keys, which it holds, MOVE_SHARED 2,
 * and uint64 keys, which it gathers, 1); where it holds 32-bit keys at
 * radix_bits 2, after the split, before the keys' move (2); elsewhere
 * after the keys' move (0). Measured on the H200 against 0, two rounds
 * each in one call (session 21's calls 2-4): 30-bit pairs at radix_bits
 * 8 with 1 16M 0.8558 -> 0.8418 ms (-1.6%), 1M -0.7%, 64M 0.0% and -0.9%
 * (two calls), with 2 +1.7% and +2.2%; uint64 pairs with 1 4M -1.3%, 16M
 * -0.6%, with 2 +0.1%, +0.8%; radix_bits 2 16M with 2 -1.3% (1M -1.1%,
 * 64M -0.4%), with 1 +11% (its 2048-key tiles run more groups per SM,
 * which, by our reading, registers held across the splits cost);
 * radix_bits 4 16M with 1 +2.0%, with 2 +0.5%; the portable path 16M with
 * 1 +33%, with 2 +0.6%. */
static int values_at(const glradix_context *ctx, const program_source *src, GLuint key_words) {
  const int move = move_shared(ctx, key_words);
  if (!src->pairs || move == 0) return 0;
  if (GLRADIX_TUNE_VALUES_AT >= 0) return GLRADIX_TUNE_VALUES_AT;
#ifdef GLRADIX_TEST_GPU_FORMS
  /* key64_gpu_forms: the uint64 form below, which llvmpipe's path lacks */
  const char *env = getenv("GLRADIX_TEST_VALUES_AT");
  if (env) return atoi(env);
#endif
  if (ctx->desc.radix_bits == 8 && (move == 2 || (key_words == 2 && ctx->subgroup_size))) return 1;
  return move == 2 && ctx->desc.radix_bits == 2 ? 2 : 0;
}

/* Whether a skipped pass's shuffle_scatter copies its tile a uvec4 at a
 * time across the work group (COPY_BY_GROUP, see there), rather than each
 * invocation its own slots: where those are no whole uvec4s (GPUs' wide
 * tiles, 10 keys an invocation) and the keys are 32-bit. Off by default.
 * Measured on the H200 against the owned slots as uvec2s, 40 bytes apart
 * (session 22, three rounds, 24-bit keys sorted on 32 bits, one pass of
 * four skipped): pairs 16M 0.8409 -> 0.7864 ms, 32M 1.5898 -> 1.4587, keys
 * alone 16M 0.6525 -> 0.6244. But sorts that skip nothing get slower with
 * it: side by side in session 24, three rounds, 30-bit pairs at radix_bits
 * 8, 16M 0.8276 -> 0.8767 ms (+5.9%), 64M +0.8%, keys alone 16M +2.0%.
 * A form that copied the keys and values the group had loaded cost them
 * more (+6.8%); so did compiling the skip branch out (up to +7%): the
 * scatter program's speed moves with code that does not run.
 * CPU rasterizers keep their copy. */
static int copy_by_group(const glradix_context *ctx, GLuint items, GLuint key_words) {
  const int fits = items % 4 != 0 && !ctx->cpu_rasterizer && key_words == 1;
#ifdef GLRADIX_TEST_GPU_FORMS
  const char *env = getenv("GLRADIX_TEST_COPY_BY_GROUP"); /* gpu_forms_wide_skip_1 */
  if (env) return atoi(env) && fits;
#endif
  /* Preprocessed, not `GLRADIX_TUNE_COPY_BY_GROUP && fits`: with the knob
   * at 0 clang-tidy calls `fits` a dead store and cppcheck the return
   * always false (static_checks), whichever way the constant is spelled. */
#if GLRADIX_TUNE_COPY_BY_GROUP
  return fits;
#else
  (void)fits;
  return 0;
#endif
}

/* Whether shuffle_scatter's splits move the keys themselves (KEY_SPLIT,
 * see there): for 32-bit keys without values, at radix_bits 2 and, where
 * the count stage leaves each tile's digit starts (the moves need them),
 * the wider digits. Measured with 30-bit keys against the (digit, slot)
 * words that pairs keep: on the H200 (the faster of two rounds in one
 * call) radix_bits 8 1M 0.1199 -> 0.1183 ms, 16M 0.7612 -> 0.7540, 64M
 * 2.711 -> 2.668, the portable path 16M 0.949 -> 0.932, 64M 3.421 ->
 * 3.350; radix_bits 4 16M 0.980 -> 0.977, 64M 3.259 -> 3.242 (radix_bits
 * 2, which had it, 16M 1.339 -> 1.323 with the order keys). On llvmpipe,
 * 1M keys (five interleaved runs each, medians): radix_bits 8 158 -> 146
 * ms, 4 196 -> 190, 2 292 -> 290 (radix_bits 2 had it on GPUs only). */
static int key_split(const glradix_context *ctx, const program_source *src, GLuint key_words) {
  return GLRADIX_TUNE_KEY_SPLIT && !src->pairs && key_words == 1 &&
         (ctx->desc.radix_bits == 2 || (GLRADIX_TUNE_KEY_SPLIT == 2 && ctx->tile_starts));
}

/* Programs with a form that holds more in shared memory get it where it
 * fits the driver's limit: tile_sort and global_scatter a tile's whole keys
 * (and values), STAGED; else (llvmpipe's 7168-key tiles in 32 KB) they move
 * them in global memory. tile_counts on CPU rasterizers a row of 8-bit
 * counters per invocation, COUNT_ROWS; else shared atomics. Writes those
 * #defines to `out` and returns their length. */
static int shared_forms(char *out, size_t size, const glradix_context *ctx,
                        const program_source *src, GLuint key_words, GLuint tile) {
  const GLuint buckets = 1u << ctx->desc.radix_bits;
  if (src->source == _glradix_shader_tile_sort) {
    bool fits = _glradix_padded_tile_bytes(tile, ctx->wg_size, key_words + (src->pairs ? 1 : 0)) <=
                ctx->max_shared;
    return snprintf(out, size, "#define STAGED %d\n%s%s", fits ? 1 : 0,
                    fits ? "" : "#define WITH_SHUFFLE 1\n",
                    ctx->cpu_rasterizer ? "#define DYNAMIC_ITEMS 1\n" : "");
  }
  if (src->source == _glradix_shader_global_scatter)
    return snprintf(out, size, "#define STAGED %d\n",
                    (GLint64)tile * 4 * key_words + buckets * 4 <= ctx->max_shared ? 1 : 0);
  if (src->source == _glradix_shader_shuffle_scatter)
    return snprintf(out, size,
                    "#define MOVE_SHARED %d\n#define TILE_STARTS %d\n#define NEXT_COUNTS %d\n"
                    "#define LOC_NEXT_SHIFT %d\n#define LOC_NEXT_BITS %d\n"
                    "#define LOC_NEXT_COUNTS %d\n#define NO_NEXT %uu\n#define KEY_SPLIT %d\n"
                    "#define REVERSE_TILES %d\n#define LOC_REVERSE_FROM %d\n#define VALUES_AT %d\n"
                    "#define COPY_BY_GROUP %d\n",
                    move_shared(ctx, key_words), ctx->tile_starts ? 1 : 0,
                    ctx->next_counts ? 1 : 0, _GLRADIX_LOC_NEXT_SHIFT, _GLRADIX_LOC_NEXT_BITS,
                    _GLRADIX_LOC_NEXT_COUNTS, _GLRADIX_NO_NEXT,
                    key_split(ctx, src, key_words), ctx->reverse_tiles ? 1 : 0,
                    _GLRADIX_LOC_REVERSE_FROM, values_at(ctx, src, key_words),
                    copy_by_group(ctx, tile / ctx->wg_size, key_words));
  if (src->source == _glradix_shader_tile_counts) {
    return snprintf(out, size,
                    "#define COUNT_ROWS %d\n#define TILE_STARTS %d\n#define LOC_ZERO_SUMS %d\n"
                    "#define LOC_ZERO_SUMS_LENGTH %d\n%s",
                    ctx->count_rows ? 1 : 0,
                    ctx->tile_starts ? 1 : 0, _GLRADIX_LOC_ZERO_SUMS, _GLRADIX_LOC_ZERO_SUMS_LENGTH,
                    ctx->tile_starts ? "#define SCAN_T uint\n#define WITH_TILE_SCAN 1\n" : "");
  }
  return 0;
}

/* The C constants every shader sees, right after #version. */
static void write_defines(char *out, size_t size, const glradix_context *ctx,
                          const program_source *src, _glradix_set set) {
  const GLuint key_words = set == _GLRADIX_SET_KEY64 ? 2u : 1u;
  /* tile_sort holds whole keys and values in shared memory: with 64-bit
   * keys it sorts half a tile (_glradix_small_count). */
  bool half = key_words == 2 && src->source == _glradix_shader_tile_sort;
  GLuint items = set == _GLRADIX_SET_WIDE ? ctx->wide_items : half ? ctx->items / 2 : ctx->items;
  GLuint tile = ctx->wg_size * items;
  int n = snprintf(out, size,
           "#version 430\n"
           "#define WG_SIZE %uu\n#define ITEMS %uu\n#define TILE %uu\n"
           "#define SCAN_ITEMS %uu\n#define SCAN_TILE %uu\n"
           "#define RADIX_BITS %uu\n#define BUCKETS %uu\n#define HAS_VALUES %d\n"
           "#define B_KEYS %d\n#define B_VALUES %d\n#define B_TILE_KEYS %d\n"
           "#define B_TILE_VALUES %d\n#define B_COUNTS %d\n#define B_SKIP %d\n"
           "#define LOC_COUNT %d\n#define LOC_SHIFT %d\n#define LOC_DIGIT_BITS %d\n"
           "#define LOC_NUM_TILES %d\n#define LOC_IN_OFFSET %d\n"
           "#define LOC_SUMS_OFFSET %d\n#define LOC_OUT_OFFSET %d\n#define LOC_INCLUSIVE %d\n"
           "#define B_SCAN_IN %d\n#define B_SCAN_OUT %d\n#define B_SCAN_SUMS %d\n"
           "#define B_COMPACT_IN %d\n#define B_COMPACT_FLAGS %d\n#define B_COMPACT_OUT %d\n"
           "#define B_COMPACT_INDEX %d\n#define LOC_USE_FLAGS %d\n#define LOC_TOTAL_OFFSET %d\n"
           "#define LOC_ZERO_FILL %d\n#define COUNT_SLOT %du\n"
           "#define LOC_CAPACITY %d\n#define LOC_GROUP_LIMIT %d\n"
           "#define B_BOUNDS %d\n#define B_CODES %d\n#define B_INDICES %d\n#define B_NODES %d\n"
           "#define B_PARENTS %d\n#define B_BOX %d\n#define LOC_BOX_MIN %d\n#define LOC_BOX_MAX %d\n"
           "#define LOC_BOX_FROM_GPU %d\n#define LOC_WRITE_INDICES %d\n"
           "#define LOC_FIRST_NODE %d\n#define LOC_PRIM_WINDOW %d\n#define LOC_WINDOW_SIZE %d\n"
           "#define BLOCK_SCAN %d\n#define SUBGROUP_SIZE %uu\n"
           "#define LOC_KEY_MODE %d\n#define KEY_SIGNED %du\n#define KEY_FLOAT %du\n"
           "#define KEY_DESCENDING %du\n#define KEY_WORDS %u\n#define LOC_GATHER_KEY_BITS %d\n"
           "#define COUNT_TILES %du\n#define LOC_BLOCK_SUMS %d\n#define NO_BLOCK_SUMS %uu\n"
           "#define LOC_TILE_STARTS %d\n#define LOC_SUMS_RAW %d\n#define FOLD_SUMS %du\n#define LOC_CHAIN %d\n#define TICKET_SLOT %du\n"
           "#define CPU_RASTERIZER %d\n#define ITEMS_BY_4 %d\n#define LOC_ZERO_INPUT %d\n"
           "#define COLUMN_SHIFT %u\n#define SMALL_GRID %uu\n#define LOC_ZERO_NEXT %d\n"
           "#define LOC_ZERO_NEXT_LENGTH %d\n",
           ctx->wg_size, items, tile, ctx->scan_items,
           ctx->scan_tile, ctx->desc.radix_bits, 1u << ctx->desc.radix_bits, src->pairs,
           _GLRADIX_B_KEYS, _GLRADIX_B_VALUES, _GLRADIX_B_TILE_KEYS, _GLRADIX_B_TILE_VALUES,
           _GLRADIX_B_COUNTS, _GLRADIX_B_SKIP,
           _GLRADIX_LOC_COUNT, _GLRADIX_LOC_SHIFT, _GLRADIX_LOC_DIGIT_BITS,
           _GLRADIX_LOC_NUM_TILES, _GLRADIX_LOC_IN_OFFSET, _GLRADIX_LOC_SUMS_OFFSET,
           _GLRADIX_LOC_OUT_OFFSET, _GLRADIX_LOC_INCLUSIVE, _GLRADIX_B_SCAN_IN, _GLRADIX_B_SCAN_OUT,
           _GLRADIX_B_SCAN_SUMS, _GLRADIX_B_COMPACT_IN, _GLRADIX_B_COMPACT_FLAGS,
           _GLRADIX_B_COMPACT_OUT, _GLRADIX_B_COMPACT_INDEX, _GLRADIX_LOC_USE_FLAGS,
           _GLRADIX_LOC_TOTAL_OFFSET, _GLRADIX_LOC_ZERO_FILL,
           _GLRADIX_SKIP_COUNT_SLOT, _GLRADIX_LOC_CAPACITY, _GLRADIX_LOC_GROUP_LIMIT,
           _GLRADIX_B_BOUNDS, _GLRADIX_B_CODES, _GLRADIX_B_INDICES, _GLRADIX_B_NODES,
           _GLRADIX_B_PARENTS, _GLRADIX_B_BOX, _GLRADIX_LOC_BOX_MIN, _GLRADIX_LOC_BOX_MAX,
           _GLRADIX_LOC_BOX_FROM_GPU, _GLRADIX_LOC_WRITE_INDICES,
           _GLRADIX_LOC_FIRST_NODE, _GLRADIX_LOC_PRIM_WINDOW, _GLRADIX_LOC_WINDOW_SIZE,
           ctx->subgroup_size ? 2 : GLRADIX_TUNE_BLOCK_SCAN, ctx->subgroup_size,
           _GLRADIX_LOC_KEY_MODE, _GLRADIX_KEY_SIGNED, _GLRADIX_KEY_FLOAT, _GLRADIX_KEY_DESCENDING, key_words,
           _GLRADIX_LOC_GATHER_KEY_BITS, _GLRADIX_COUNT_TILES, _GLRADIX_LOC_BLOCK_SUMS,
           _GLRADIX_NO_BLOCK_SUMS, _GLRADIX_LOC_TILE_STARTS, _GLRADIX_LOC_SUMS_RAW, _GLRADIX_FOLD_SUMS,
           _GLRADIX_LOC_CHAIN, _GLRADIX_SKIP_TICKET, ctx->cpu_rasterizer ? 1 : 0,
           items % 4 == 0 ? 1 : 0, _GLRADIX_LOC_ZERO_INPUT, ctx->column_shift,
           (unsigned)_GLRADIX_SMALL_GRID, _GLRADIX_LOC_ZERO_NEXT, _GLRADIX_LOC_ZERO_NEXT_LENGTH);
  if (n > 0 && (size_t)n < size) n += shared_forms(out + n, size - (size_t)n, ctx, src, key_words, tile);
  if (ctx->subgroup_size && n > 0 && (size_t)n < size)
    n += snprintf(out + n, size - (size_t)n,
                  "#extension GL_KHR_shader_subgroup_basic : require\n"
                  "#extension GL_KHR_shader_subgroup_arithmetic : require\n"
                  "#extension GL_KHR_shader_subgroup_ballot : require\n"
                  "#extension GL_KHR_shader_subgroup_shuffle : require\n");
#ifdef GLRADIX_TEST_BREAK_SHADER
  /* Test builds only (tests/test_shader_failure.c): one stage gets a
   * broken define, so that its compile fails with a driver log. */
  if (strcmp(src->name, GLRADIX_TEST_BREAK_SHADER) == 0 && n > 0 && (size_t)n < size)
    n += snprintf(out + n, size - (size_t)n,
                  "#undef SCAN_ITEMS\n#define SCAN_ITEMS broken_on_purpose\n");
#endif
  if (src->extra && n > 0 && (size_t)n < size) snprintf(out + n, size - (size_t)n, "%s", src->extra);
}

/* Sends the driver's info log to the logger as one line. */
static void log_info_log(glradix_context *ctx, const char *stage, GLuint object, int is_program) {
  GladGLContext *gl = &ctx->gl;
  GLint len = 0;
  if (is_program) gl->GetProgramiv(object, GL_INFO_LOG_LENGTH, &len);
  else gl->GetShaderiv(object, GL_INFO_LOG_LENGTH, &len);
  char *text = len > 0 ? malloc((size_t)len) : NULL;
  if (!text) {
    _glradix_log(&ctx->desc, "glradix: %s: %s failed (no driver log)", stage,
                 is_program ? "link" : "compile");
    return;
  }
  if (is_program) gl->GetProgramInfoLog(object, len, NULL, text);
  else gl->GetShaderInfoLog(object, len, NULL, text);
  /* The logger takes one line per problem: the driver's line breaks become
   * '|', its trailing blanks are dropped. */
  size_t end = 0;
  while (end < (size_t)len && text[end] != '\0') end++;
  while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r' || text[end - 1] == ' '))
    end--;
  text[end] = '\0';
  for (char *c = text; *c; c++)
    if (*c == '\n' || *c == '\r') *c = '|';
  _glradix_log(&ctx->desc, "glradix: %s.comp: %s failed; driver log: %s", stage,
               is_program ? "link" : "compile", text);
  free(text);
}

#ifdef GLRADIX_TEST_DUMP_SHADERS
/* Test builds only (tests/shader_sources.sh): the program's whole source
 * goes to $GLRADIX_TEST_DUMP_DIR/<stage>_<program>_<set>.comp, and
 * nothing is compiled. */
static glradix_status dump_source(const program_source *src, _glradix_set set,
                                  const char *defines) {
  const char *dir = getenv("GLRADIX_TEST_DUMP_DIR");
  char path[1024];
  snprintf(path, sizeof path, "%s/%s_%d_%d.comp", dir ? dir : ".", src->name,
           (int)(src - SOURCES), (int)set);
  FILE *f = fopen(path, "w");
  if (!f) return GLRADIX_ERROR_INVALID_ARGUMENT;
  fprintf(f, "%s#line 1 1\n%s#line 1 2\n%s", defines, _glradix_shader_common, src->source);
  return fclose(f) == 0 ? GLRADIX_OK : GLRADIX_ERROR_INVALID_ARGUMENT;
}
#endif

static glradix_status build_one(glradix_context *ctx, const program_source *src,
                                _glradix_set set, GLuint *out) {
  GladGLContext *gl = &ctx->gl;
  char defines[4096];
  write_defines(defines, sizeof defines, ctx, src, set);
#ifdef GLRADIX_TEST_DUMP_SHADERS
  (void)gl;
  *out = 0;
  return dump_source(src, set, defines);
#endif
  /* #line keeps driver messages pointing at lines of the original files:
   * source string 1 is common.glsl, 2 the stage's own file. */
  const GLchar *parts[] = {defines, "#line 1 1\n", _glradix_shader_common, "#line 1 2\n",
                           src->source};
  GLuint shader = gl->CreateShader(GL_COMPUTE_SHADER);
  gl->ShaderSource(shader, (GLsizei)(sizeof parts / sizeof parts[0]), parts, NULL);
  gl->CompileShader(shader);
  GLint ok = 0;
  gl->GetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    log_info_log(ctx, src->name, shader, 0);
    gl->DeleteShader(shader);
    return GLRADIX_ERROR_SHADER;
  }
  GLuint program = gl->CreateProgram();
  gl->AttachShader(program, shader);
  gl->LinkProgram(program);
  gl->DeleteShader(shader); /* flagged; freed with the program */
  gl->GetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    log_info_log(ctx, src->name, program, 1);
    gl->DeleteProgram(program);
    return GLRADIX_ERROR_SHADER;
  }
  *out = program;
  return GLRADIX_OK;
}

/* Whether a set has program `i`: BASE every one; KEY64 the ones that
 * read keys; WIDE the ones whose tile a reduce-then-scan sort's grid
 * follows (TILE), the scan's being tile-free. */
static bool in_set(_glradix_set set, int i) {
  switch (set) {
  case _GLRADIX_SET_KEY64:
    return SOURCES[i].extra && strstr(SOURCES[i].extra, "WITH_KEYS") != NULL;
  case _GLRADIX_SET_WIDE:
    return i == _GLRADIX_PROG_TILE_COUNTS || i == _GLRADIX_PROG_TILE_COUNTS_ONE ||
           i == _GLRADIX_PROG_SHUFFLE_SCATTER || i == _GLRADIX_PROG_SHUFFLE_SCATTER_PAIRS ||
           i == _GLRADIX_PROG_COPY_BACK || i == _GLRADIX_PROG_COPY_BACK_PAIRS ||
           i == _GLRADIX_PROG_COUNT_PREPARE;
  default:
    return true;
  }
}

glradix_status _glradix_build_programs(glradix_context *ctx, _glradix_set set) {
#ifdef GLRADIX_TEST_DUMP_SHADERS
  if (set == _GLRADIX_SET_BASE) /* the other sets too */
    for (int other = _GLRADIX_SET_KEY64; other < _GLRADIX_SETS; other++) {
      if (other == _GLRADIX_SET_WIDE && !ctx->wide_tile) continue;
      glradix_status st = _glradix_build_programs(ctx, (_glradix_set)other);
      if (st != GLRADIX_OK) return st;
    }
#endif
  GLuint *programs = ctx->programs[set];
  for (int i = 0; i < _GLRADIX_PROG_COUNT; i++) {
    if (programs[i] || !in_set(set, i)) continue;
    glradix_status st = build_one(ctx, &SOURCES[i], set, &programs[i]);
    if (st == GLRADIX_OK) st = _glradix_gl_error(ctx, "building programs");
    if (st != GLRADIX_OK) {
      if (set == _GLRADIX_SET_BASE) _glradix_delete_programs(ctx);
      return st;
    }
  }
  return GLRADIX_OK;
}

GLuint _glradix_program_name(const glradix_context *ctx, _glradix_program program, _glradix_set set) {
  return ctx->programs[set][program] ? ctx->programs[set][program]
                                     : ctx->programs[_GLRADIX_SET_BASE][program];
}

void _glradix_delete_programs(glradix_context *ctx) {
  for (int set = 0; set < _GLRADIX_SETS; set++)
    for (int i = 0; i < _GLRADIX_PROG_COUNT; i++) {
      if (ctx->programs[set][i]) ctx->gl.DeleteProgram(ctx->programs[set][i]);
      ctx->programs[set][i] = 0;
    }
}
