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
  [_GLRADIX_PROG_LBVH_LEAVES] = {"lbvh_leaves", _glradix_shader_lbvh_leaves, 0, LBVH30},
  [_GLRADIX_PROG_LBVH_TREE_30] = {"lbvh_tree", _glradix_shader_lbvh_tree, 0, LBVH30},
  [_GLRADIX_PROG_LBVH_TREE_63] = {"lbvh_tree", _glradix_shader_lbvh_tree, 0, LBVH63},
  [_GLRADIX_PROG_LBVH_LINKS] = {"lbvh_links", _glradix_shader_lbvh_links, 0, LBVH30},
  [_GLRADIX_PROG_LBVH_REFIT] = {"lbvh_tree", _glradix_shader_lbvh_tree, 0,
                                LBVH30 "#define LBVH_REFIT 1\n"},
  [_GLRADIX_PROG_FILL_WORDS] = {"fill_words", _glradix_shader_fill_words, 0, NULL},
};

/* Programs with a form that holds more in shared memory get it where it
 * fits the driver's limit: tile_sort and global_scatter a tile's whole keys
 * (and values), STAGED; else (llvmpipe's 7168-key tiles in 32 KB) they move
 * them in global memory. tile_counts on CPU rasterizers a row of 8-bit
 * counters per invocation, COUNT_ROWS; else shared atomics. Writes those
 * #defines to `out` and returns their length. */
static int shared_forms(char *out, size_t size, const glradix_context *ctx,
                        const program_source *src, GLuint key_words, GLuint tile) {
  const GLuint buckets = 1u << ctx->desc.radix_bits;
  const bool tile_starts = ctx->forms.per_tile == _GLRADIX_PER_TILE_STARTS;
  const bool next_counts = ctx->forms.per_tile == _GLRADIX_PER_TILE_NEXT_COUNTS;
  if (src->source == _glradix_shader_tile_sort) {
    bool fits = _glradix_padded_tile_bytes(tile, ctx->forms.wg_size, key_words + (src->pairs ? 1 : 0)) <=
                ctx->forms.max_shared;
    return snprintf(out, size, "#define STAGED %d\n%s%s", fits ? 1 : 0,
                    fits ? "" : "#define WITH_SHUFFLE 1\n",
                    ctx->forms.cpu_rasterizer ? "#define DYNAMIC_ITEMS 1\n" : "");
  }
  if (src->source == _glradix_shader_global_scatter)
    return snprintf(out, size, "#define STAGED %d\n",
                    (GLint64)tile * 4 * key_words + buckets * 4 <= ctx->forms.max_shared ? 1 : 0);
  const _glradix_scatter_form *scatter = &ctx->forms.scatter[key_words - 1][src->pairs];
  if (src->source == _glradix_shader_shuffle_scatter)
    return snprintf(out, size,
                    "#define MOVE_SHARED %d\n#define TILE_STARTS %d\n#define NEXT_COUNTS %d\n"
                    "#define LOC_NEXT_SHIFT %d\n#define LOC_NEXT_BITS %d\n"
                    "#define LOC_NEXT_COUNTS %d\n#define NO_NEXT %uu\n#define KEY_SPLIT %d\n"
                    "#define REVERSE_TILES %d\n#define LOC_REVERSE_FROM %d\n#define VALUES_AT %d\n",
                    scatter->move_shared, tile_starts ? 1 : 0, next_counts ? 1 : 0,
                    _GLRADIX_LOC_NEXT_SHIFT, _GLRADIX_LOC_NEXT_BITS, _GLRADIX_LOC_NEXT_COUNTS,
                    _GLRADIX_NO_NEXT, scatter->key_split ? 1 : 0,
                    ctx->forms.reverse_tiles ? 1 : 0, _GLRADIX_LOC_REVERSE_FROM,
                    scatter->values_at);
  if (src->source == _glradix_shader_fill_words)
    return snprintf(out, size,
                    "#define B_FILL %d\n#define LOC_FILL_FIRST %d\n#define LOC_FILL_WORDS %d\n"
                    "#define LOC_FILL_VALUE %d\n#define LOC_FILL_LISTED %d\n"
                    "#define LOC_FILL_LIST %d\n#define FILL_LIST %uu\n",
                    _GLRADIX_B_FILL, _GLRADIX_LOC_FILL_FIRST, _GLRADIX_LOC_FILL_WORDS,
                    _GLRADIX_LOC_FILL_VALUE, _GLRADIX_LOC_FILL_LISTED, _GLRADIX_LOC_FILL_LIST,
                    (unsigned)_GLRADIX_FILL_LIST);
  if (src->source == _glradix_shader_tile_counts) {
    return snprintf(out, size,
                    "#define COUNT_ROWS %d\n#define TILE_STARTS %d\n#define LOC_ZERO_SUMS %d\n"
                    "#define LOC_ZERO_SUMS_LENGTH %d\n%s",
                    ctx->forms.count_rows ? 1 : 0,
                    tile_starts ? 1 : 0, _GLRADIX_LOC_ZERO_SUMS, _GLRADIX_LOC_ZERO_SUMS_LENGTH,
                    tile_starts ? "#define SCAN_T uint\n#define WITH_TILE_SCAN 1\n" : "");
  }
  return 0;
}

/* The C constants every shader sees, right after #version: GLSL 4.30, or
 * GLSL ES 3.10 on OpenGL ES (the same sources; its precision statements
 * come after the #extension lines, which must precede them). */
static void write_defines(char *out, size_t size, const glradix_context *ctx,
                          const program_source *src, _glradix_set set) {
  const GLuint key_words = set == _GLRADIX_SET_KEY64 ? 2u : 1u;
  /* tile_sort holds whole keys and values in shared memory: with 64-bit
   * keys it sorts half a tile (_glradix_small_count). */
  bool half = key_words == 2 && src->source == _glradix_shader_tile_sort;
  GLuint items = set == _GLRADIX_SET_WIDE ? ctx->forms.wide_items : half ? ctx->forms.items / 2 : ctx->forms.items;
  GLuint tile = ctx->forms.wg_size * items;
  const GLuint wg_size = src->source == _glradix_shader_lbvh_tree ? ctx->forms.lbvh_wg : ctx->forms.wg_size;
  int n = snprintf(out, size,
           "%s"
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
           "#define B_PARENTS %d\n#define B_BOX %d\n#define LBVH_COUNT_SLOT %du\n"
           "#define LOC_BOX_MIN %d\n#define LOC_BOX_MAX %d\n"
           "#define LOC_BOX_FROM_GPU %d\n#define LOC_WRITE_INDICES %d\n"
           "#define LOC_LEAVES_ONLY %d\n#define LOC_PRIM_WINDOW %d\n#define LOC_WINDOW_SIZE %d\n"
           "#define BLOCK_SCAN %d\n#define SUBGROUP_SIZE %uu\n"
           "#define LOC_KEY_MODE %d\n#define KEY_SIGNED %du\n#define KEY_FLOAT %du\n"
           "#define KEY_DESCENDING %du\n#define KEY_WORDS %u\n#define LOC_GATHER_KEY_BITS %d\n"
           "#define COUNT_TILES %du\n#define LOC_BLOCK_SUMS %d\n#define NO_BLOCK_SUMS %uu\n"
           "#define LOC_TILE_STARTS %d\n#define LOC_SUMS_RAW %d\n#define FOLD_SUMS %du\n#define LOC_CHAIN %d\n#define TICKET_SLOT %du\n"
           "#define CPU_RASTERIZER %d\n#define ITEMS_BY_4 %d\n#define LOC_ZERO_INPUT %d\n"
           "#define COLUMN_SHIFT %u\n#define SMALL_GRID %uu\n#define LOC_ZERO_NEXT %d\n"
           "#define LOC_ZERO_NEXT_LENGTH %d\n",
           ctx->es ? "#version 310 es\n" : "#version 430\n", wg_size, items, tile, ctx->forms.scan_items,
           ctx->forms.scan_tile, ctx->desc.radix_bits, 1u << ctx->desc.radix_bits, src->pairs,
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
           _GLRADIX_B_PARENTS, _GLRADIX_B_BOX, _GLRADIX_LBVH_COUNT_SLOT, _GLRADIX_LOC_BOX_MIN,
           _GLRADIX_LOC_BOX_MAX,
           _GLRADIX_LOC_BOX_FROM_GPU, _GLRADIX_LOC_WRITE_INDICES,
           _GLRADIX_LOC_LEAVES_ONLY, _GLRADIX_LOC_PRIM_WINDOW, _GLRADIX_LOC_WINDOW_SIZE,
           ctx->forms.subgroup_size ? 2 : 1, ctx->forms.subgroup_size,
           _GLRADIX_LOC_KEY_MODE, _GLRADIX_KEY_SIGNED, _GLRADIX_KEY_FLOAT, _GLRADIX_KEY_DESCENDING, key_words,
           _GLRADIX_LOC_GATHER_KEY_BITS, _GLRADIX_COUNT_TILES, _GLRADIX_LOC_BLOCK_SUMS,
           _GLRADIX_NO_BLOCK_SUMS, _GLRADIX_LOC_TILE_STARTS, _GLRADIX_LOC_SUMS_RAW, _GLRADIX_FOLD_SUMS,
           _GLRADIX_LOC_CHAIN, _GLRADIX_SKIP_TICKET, ctx->forms.cpu_rasterizer ? 1 : 0,
           items % 4 == 0 ? 1 : 0, _GLRADIX_LOC_ZERO_INPUT, ctx->forms.column_shift,
           (unsigned)_GLRADIX_SMALL_GRID, _GLRADIX_LOC_ZERO_NEXT, _GLRADIX_LOC_ZERO_NEXT_LENGTH);
  if (n > 0 && (size_t)n < size) n += shared_forms(out + n, size - (size_t)n, ctx, src, key_words, tile);
  if (ctx->forms.subgroup_size && n > 0 && (size_t)n < size)
    n += snprintf(out + n, size - (size_t)n,
                  "#extension GL_KHR_shader_subgroup_basic : require\n"
                  "#extension GL_KHR_shader_subgroup_arithmetic : require\n"
                  "#extension GL_KHR_shader_subgroup_ballot : require\n"
                  "#extension GL_KHR_shader_subgroup_shuffle : require\n");
  if (ctx->es && n > 0 && (size_t)n < size)
    n += snprintf(out + n, size - (size_t)n, "precision highp float;\nprecision highp int;\n");
  /* tests/test_shader_failure.c: one stage gets an #error, so that its
   * compile fails with a driver log */
  const char *broken = ctx->hooks.break_shader;
  if (broken && strcmp(src->name, broken) == 0 && n > 0 && (size_t)n < size)
    n += snprintf(out + n, size - (size_t)n, "#error broken_on_purpose\n");
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

/* tests/shader_sources.sh: the program's whole source goes to
 * <dir>/<stage>_<program>_<set>.comp, and nothing is compiled. */
static glradix_status dump_source(const char *dir, const program_source *src, _glradix_set set,
                                  const char *defines) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s_%d_%d.comp", dir, src->name, (int)(src - SOURCES), (int)set);
  FILE *f = fopen(path, "w");
  if (!f) return GLRADIX_ERROR_INVALID_ARGUMENT;
  fprintf(f, "%s#line 1 1\n%s#line 1 2\n%s", defines, _glradix_shader_common, src->source);
  return fclose(f) == 0 ? GLRADIX_OK : GLRADIX_ERROR_INVALID_ARGUMENT;
}

/* A linked program's active storage blocks against the count from its
 * source: more means blocks.c missed some, and the limit check with them
 * (a glradix bug, SHADER); with the tests' exact_blocks, any difference,
 * or a count blocks.c could not make, fails too. */
static glradix_status check_active_blocks(glradix_context *ctx, const program_source *src,
                                          GLuint program, GLint counted) {
  GLint active = 0;
  ctx->gl.GetProgramInterfaceiv(program, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &active);
  if (counted >= 0 ? active <= counted && (!ctx->hooks.exact_blocks || active == counted)
                   : !ctx->hooks.exact_blocks)
    return GLRADIX_OK;
  _glradix_log(&ctx->desc, "glradix: %s.comp: %d shader storage blocks active, %d counted from "
               "its source (src/gl/blocks.c; -1: not countable)", src->name, (int)active, (int)counted);
  return GLRADIX_ERROR_SHADER;
}

/* Builds one program into *out, its storage blocks counted into *blocks
 * first: one above the context's limit is left unbuilt (*out 0), for
 * _glradix_check_programs to refuse the calls that need it, since its link
 * would fail. */
static glradix_status build_one(glradix_context *ctx, const program_source *src,
                                _glradix_set set, GLuint *out, GLint *blocks) {
  GladGLContext *gl = &ctx->gl;
  char defines[4096];
  write_defines(defines, sizeof defines, ctx, src, set);
  /* #line keeps driver messages pointing at lines of the original files:
   * source string 1 is common.glsl, 2 the stage's own file. */
  const GLchar *parts[] = {defines, "#line 1 1\n", _glradix_shader_common, "#line 1 2\n",
                           src->source};
  *blocks = _glradix_storage_blocks(parts, sizeof parts / sizeof parts[0]);
  *out = 0;
  if (ctx->hooks.dump_dir) return dump_source(ctx->hooks.dump_dir, src, set, defines);
  if (*blocks > ctx->max_blocks) return GLRADIX_OK;
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
  glradix_status st = check_active_blocks(ctx, src, program, *blocks);
  if (st != GLRADIX_OK) {
    gl->DeleteProgram(program);
    return st;
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

/* The LBVH's programs (Morton codes and the tree), which BASE builds only
 * once an LBVH call asks for them: sorts never run them, and a context
 * that never builds a tree compiles 8 programs fewer. */
static bool lbvh_program(int i) {
  return i >= _GLRADIX_PROG_SCENE_BOX && i <= _GLRADIX_PROG_LBVH_REFIT;
}

glradix_status _glradix_build_programs(glradix_context *ctx, _glradix_set set) {
  if (ctx->hooks.dump_dir && set == _GLRADIX_SET_BASE) /* the other sets too */
    for (int other = _GLRADIX_SET_KEY64; other < _GLRADIX_SETS; other++) {
      if (other == _GLRADIX_SET_WIDE && !ctx->forms.wide_tile) continue;
      glradix_status st = _glradix_build_programs(ctx, (_glradix_set)other);
      if (st != GLRADIX_OK) return st;
    }
  GLuint *programs = ctx->programs[set];
  for (int i = 0; i < _GLRADIX_PROG_COUNT; i++) {
    if (programs[i] || !in_set(set, i)) continue;
    if (lbvh_program(i) && !ctx->lbvh_programs && !ctx->hooks.dump_dir) continue;
    if (ctx->program_blocks[set][i] > ctx->max_blocks) continue; /* counted and left out already */
    glradix_status st = build_one(ctx, &SOURCES[i], set, &programs[i], &ctx->program_blocks[set][i]);
    if (st == GLRADIX_OK) st = _glradix_gl_error(ctx, "building programs");
    if (st != GLRADIX_OK) {
      /* glradix_create fails and leaves nothing; a failed LBVH program
       * leaves the context's others working */
      if (set == _GLRADIX_SET_BASE && !ctx->lbvh_programs) _glradix_delete_programs(ctx);
      return st;
    }
  }
  return GLRADIX_OK;
}

glradix_status _glradix_build_lbvh_programs(glradix_context *ctx) {
  ctx->lbvh_programs = true;
  return _glradix_build_programs(ctx, _GLRADIX_SET_BASE);
}

glradix_status _glradix_check_programs(glradix_context *ctx, const char *fn, _glradix_set set,
                                       const _glradix_program *programs, size_t count) {
  for (size_t k = 0; k < count; k++) {
    const _glradix_program p = programs[k];
    /* a set without the program runs BASE's (_glradix_program_name) */
    const GLint need = ctx->program_blocks[in_set(set, (int)p) ? set : _GLRADIX_SET_BASE][p];
    if (need <= ctx->max_blocks) continue;
    _glradix_log(&ctx->desc, "%s: %s.comp declares %d shader storage blocks; this context's %s "
                 "is %d", fn, SOURCES[p].name, (int)need, ctx->max_blocks_name,
                 (int)ctx->max_blocks);
    return GLRADIX_ERROR_UNSUPPORTED;
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
