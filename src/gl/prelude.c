/* A program's prelude: the text the driver compiles ahead of common.glsl
 * and the stage's file. The contract's names (contract.h) and the forms
 * the context chose, as #defines, after the #version line. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* What the prelude takes from the program table. */
typedef struct program_prelude {
  const char *shader; /* the stage's file name, for test_shader_failure's break_shader */
  int has_values;
  bool keys;
  _glradix_uniform_group uniforms;
  const char *parts;
} program_prelude;

#define PRELUDE_ROW(program, shader, values, keys, built, uniforms, blocks, parts)           \
  [_GLRADIX_PROG_##program] = {#shader, values, keys, _GLRADIX_UG_##uniforms, _GLRADIX_GLSL_##parts},
static const program_prelude PROGRAMS[_GLRADIX_PROG_COUNT] = {_GLRADIX_PROGRAMS(PRELUDE_ROW)};
#undef PRELUDE_ROW

/* A #define's name and value. */
typedef struct named {
  const char *name;
  int value;
} named;

#define BINDING_ROW(name, point) {"B_" #name, _GLRADIX_B_##name},
static const named BINDINGS[] = {_GLRADIX_STORAGE_BINDINGS(BINDING_ROW)};
#undef BINDING_ROW

#define BINDING_CHECK(name, point)                                                       \
  _Static_assert((point) >= 0 && (point) < _GLRADIX_BINDINGS, "B_" #name " is not saved");
_GLRADIX_STORAGE_BINDINGS(BINDING_CHECK)
#undef BINDING_CHECK

#define CONSTANT_ROW(name, value) {#name, _GLRADIX_##name},
static const named CONSTANTS[] = {_GLRADIX_CONSTANTS(CONSTANT_ROW)};
#undef CONSTANT_ROW

/* Each uniform group's locations and its parent. */
typedef struct uniform_group {
  const named *locations;
  size_t count;
  _glradix_uniform_group parent;
} uniform_group;

#define LOCATION_ROW(name) {"LOC_" #name, _GLRADIX_LOC_##name},
#define GROUP_LOCATIONS(group, parent)                                                   \
  static const named LOCATIONS_##group[] = {_GLRADIX_UNIFORMS_##group(LOCATION_ROW)};
_GLRADIX_UNIFORM_GROUPS(GROUP_LOCATIONS)
#undef GROUP_LOCATIONS
#undef LOCATION_ROW

#define GROUP_ROW(group, parent)                                                         \
  [_GLRADIX_UG_##group] = {LOCATIONS_##group, sizeof LOCATIONS_##group / sizeof(named),  \
                           _GLRADIX_UG_##parent},
static const uniform_group GROUPS[_GLRADIX_UNIFORM_GROUP_COUNT] = {
    [_GLRADIX_UG_NONE] = {NULL, 0, _GLRADIX_UG_NONE}, _GLRADIX_UNIFORM_GROUPS(GROUP_ROW)};
#undef GROUP_ROW

/* A growing text: appends after a failed allocation do nothing, and the
 * failure shows when the text is taken (prelude_take). */
typedef struct text {
  char *data;
  size_t length, capacity;
  bool failed;
} text;

static void append(text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void append(text *t, const char *fmt, ...) {
  if (t->failed) return;
  va_list args, again;
  va_start(args, fmt);
  va_copy(again, args);
  const int n = vsnprintf(NULL, 0, fmt, args);
  va_end(args);
  const size_t need = n < 0 ? 0 : t->length + (size_t)n + 1;
  if (need > t->capacity) {
    size_t capacity = t->capacity ? t->capacity : 4096;
    while (capacity < need) capacity *= 2;
    char *grown = realloc(t->data, capacity);
    if (grown) {
      t->data = grown;
      t->capacity = capacity;
    }
  }
  if (n < 0 || need > t->capacity) t->failed = true;
  else t->length += (size_t)vsnprintf(t->data + t->length, t->capacity - t->length, fmt, again);
  va_end(again);
}

/* #if takes the int ones; the uint ones are unsigned literals. */
static void define_i(text *t, const char *name, int value) {
  append(t, "#define %s %d\n", name, value);
}
static void define_u(text *t, const char *name, unsigned value) {
  append(t, "#define %s %uu\n", name, value);
}

static void define_locations(text *t, _glradix_uniform_group g) {
  if (g == _GLRADIX_UG_NONE) return;
  define_locations(t, GROUPS[g].parent);
  for (size_t i = 0; i < GROUPS[g].count; i++)
    define_i(t, GROUPS[g].locations[i].name, GROUPS[g].locations[i].value);
}

/* The single-pass plan's shuffle_scatter (contract.h): it finds its tiles'
 * starts itself, and keeps no per-tile form. */
static bool look_back_program(_glradix_program p) {
  return p == _GLRADIX_PROG_ONESWEEP || p == _GLRADIX_PROG_ONESWEEP_PAIRS;
}

/* Programs with a form that holds more in shared memory get it where it
 * fits the driver's limit: tile_sort and global_scatter a tile's whole keys
 * (and values), STAGED; else (llvmpipe's 7168-key tiles in 32 KB) they move
 * them in global memory. tile_counts on CPU rasterizers a row of 8-bit
 * counters per invocation, COUNT_ROWS; else shared atomics; and where the
 * forms keep the tiles' digit starts, their scan. shuffle_scatter's form
 * follows the kind of sort (forms.h). */
static void stage_forms(text *t, const glradix_context *ctx, _glradix_program p, GLuint key_words,
                        GLuint tile) {
  const _glradix_forms *f = &ctx->forms;
  const int pairs = PROGRAMS[p].has_values;
  switch (p) {
  case _GLRADIX_PROG_TILE_SORT:
  case _GLRADIX_PROG_TILE_SORT_PAIRS: {
    const bool fits =
        _glradix_padded_tile_bytes(tile, f->wg_size, key_words + (GLuint)pairs) <= f->max_shared;
    define_i(t, "STAGED", fits);
    if (!fits) define_i(t, "WITH_SHUFFLE", 1);
    if (f->cpu_rasterizer) define_i(t, "DYNAMIC_ITEMS", 1);
    break;
  }
  case _GLRADIX_PROG_GLOBAL_SCATTER:
  case _GLRADIX_PROG_GLOBAL_SCATTER_PAIRS:
    define_i(t, "STAGED",
             (GLint64)tile * 4 * key_words + ((GLint64)4 << ctx->desc.radix_bits) <= f->max_shared);
    break;
  case _GLRADIX_PROG_SHUFFLE_SCATTER:
  case _GLRADIX_PROG_SHUFFLE_SCATTER_PAIRS:
  case _GLRADIX_PROG_ONESWEEP:
  case _GLRADIX_PROG_ONESWEEP_PAIRS: {
    const _glradix_scatter_form *scatter = &f->scatter[key_words - 1][pairs];
    const bool look_back = look_back_program(p);
    define_i(t, "MOVE_SHARED", scatter->move_shared);
    define_i(t, "KEY_SPLIT", scatter->key_split && !look_back);
    define_i(t, "REVERSE_TILES", f->reverse_tiles && !look_back);
    define_i(t, "VALUES_AT", scatter->values_at);
    define_i(t, "LOOK_BACK", look_back);
    if (!look_back) break;
    define_i(t, "EARLY_COUNTS", f->early_counts);
    define_u(t, "SPIN_LIMIT", f->spin_limit);
    define_u(t, "FORCE_FALLBACK", f->force_fallback);
    define_u(t, "DELAY_TILES", f->delay_tiles);
    break;
  }
  case _GLRADIX_PROG_TILE_COUNTS:
  case _GLRADIX_PROG_TILE_COUNTS_ONE:
    define_i(t, "COUNT_ROWS", f->count_rows);
    if (_glradix_tile_starts(f)) append(t, "#define SCAN_T uint\n#define WITH_TILE_SCAN 1\n");
    break;
  default:
    break;
  }
}

char *_glradix_prelude(const glradix_context *ctx, _glradix_program p, _glradix_set set) {
  const _glradix_forms *f = &ctx->forms;
  const program_prelude *prog = &PROGRAMS[p];
  const GLuint key_words = set == _GLRADIX_SET_KEY64 ? 2u : 1u;
  /* tile_sort holds whole keys and values in shared memory: with 64-bit
   * keys it sorts half a tile (_glradix_small_count). */
  const bool half = key_words == 2 && (p == _GLRADIX_PROG_TILE_SORT || p == _GLRADIX_PROG_TILE_SORT_PAIRS);
  const GLuint items = set == _GLRADIX_SET_WIDE ? f->wide_items : half ? f->items / 2 : f->items;
  const GLuint tile = f->wg_size * items;
  const bool tree = p == _GLRADIX_PROG_LBVH_TREE_30 || p == _GLRADIX_PROG_LBVH_TREE_63 ||
                    p == _GLRADIX_PROG_LBVH_REFIT;
  const bool cluster = p == _GLRADIX_PROG_LBVH_CLUSTER_30 || p == _GLRADIX_PROG_LBVH_CLUSTER_63;
  text t = {NULL, 0, 0, false};
  /* GLSL 4.30, or GLSL ES 3.10 on OpenGL ES (the same sources; its
   * precision statements come after the #extension lines, which must
   * precede them). */
  append(&t, ctx->es ? "#version 310 es\n" : "#version 430\n");

  /* the context's forms (forms.h) and this program's tile */
  define_u(&t, "WG_SIZE", cluster ? _GLRADIX_CLUSTER_LANES : tree ? f->lbvh_wg : f->wg_size);
  define_u(&t, "ITEMS", items);
  define_u(&t, "TILE", tile);
  define_i(&t, "ITEMS_BY_4", items % 4 == 0);
  define_u(&t, "SCAN_ITEMS", f->scan_items);
  define_u(&t, "SCAN_TILE", f->scan_tile);
  define_u(&t, "RADIX_BITS", ctx->desc.radix_bits);
  define_u(&t, "BUCKETS", 1u << ctx->desc.radix_bits);
  define_i(&t, "HAS_VALUES", prog->has_values);
  define_i(&t, "KEY_WORDS", (int)key_words);
  define_i(&t, "BLOCK_SCAN", f->subgroup_size ? 2 : 1);
  define_u(&t, "SUBGROUP_SIZE", f->subgroup_size);
  define_i(&t, "CPU_RASTERIZER", f->cpu_rasterizer);
  define_u(&t, "SMALL_GRID", f->small_grid);
  define_i(&t, "COLUMN_SHIFT", (int)f->column_shift);
  define_i(&t, "TILE_STARTS", _glradix_tile_starts(f) && !look_back_program(p));
  define_i(&t, "NEXT_COUNTS", _glradix_next_counts(f) && !look_back_program(p));
  stage_forms(&t, ctx, p, key_words, tile);

  /* the contract */
  for (size_t i = 0; i < sizeof CONSTANTS / sizeof CONSTANTS[0]; i++)
    define_u(&t, CONSTANTS[i].name, (unsigned)CONSTANTS[i].value);
#define SENTINEL(name) define_u(&t, #name, _GLRADIX_##name);
  _GLRADIX_SENTINELS(SENTINEL)
#undef SENTINEL
  for (size_t i = 0; i < sizeof BINDINGS / sizeof BINDINGS[0]; i++)
    define_i(&t, BINDINGS[i].name, BINDINGS[i].value);
  define_locations(&t, prog->uniforms);

  if (f->subgroup_size)
    append(&t, "#extension GL_KHR_shader_subgroup_basic : require\n"
               "#extension GL_KHR_shader_subgroup_arithmetic : require\n"
               "#extension GL_KHR_shader_subgroup_ballot : require\n"
               "#extension GL_KHR_shader_subgroup_shuffle : require\n");
  /* `precise` on OpenGL ES 3.1 (lbvh_cluster.comp's areas) */
  if (ctx->es && cluster) append(&t, "#extension GL_OES_gpu_shader5 : enable\n");
  if (ctx->es) append(&t, "precision highp float;\nprecision highp int;\n");
  /* tests/test_shader_failure.c: one stage gets an #error, so that its
   * compile fails with a driver log */
  const char *broken = ctx->hooks.break_shader;
  if (broken && strcmp(prog->shader, broken) == 0) append(&t, "#error broken_on_purpose\n");
  /* what common.glsl provides it */
  if (prog->keys) append(&t, "%s", _GLRADIX_GLSL_SKIP "#define WITH_KEYS 1\n");
  append(&t, "%s", prog->parts);
  if (t.failed) {
    free(t.data);
    return NULL;
  }
  return t.data;
}
