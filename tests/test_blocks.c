/* src/gl/blocks.c on the CPU, without GL: the storage blocks a source declares
 * where the preprocessor keeps them, and -1 wherever the count depends on
 * what the reader cannot follow. (The GL suites check its counts of every
 * program they build against the driver's: tests/forms_env.c.) */
#include "common.h"
#include "internal.h" /* src/: _glradix_storage_blocks */

static int blocks(const char *source) {
  const char *parts[] = {source};
  return _glradix_storage_blocks(parts, 1);
}

typedef struct block_case {
  const char *what, *source;
  int blocks;
} block_case;

static const block_case CASES[] = {
    {"one block", "layout(std430, binding = 0) buffer A { uint a[]; };\n", 1},
    {"readonly, writeonly, coherent, two a line",
     "layout(std430) readonly buffer A { uint a[]; }; layout(std430) coherent buffer B { uint b[]; };\n"
     "layout(std430) writeonly buffer C\n{ uint c[]; };\n", 3},
    {"comments and a default layout",
     "// buffer X { uint x[]; };\n/* buffer Y {\n uint y[]; }; */ layout(std430) buffer;\n"
     "shared uint buffered[4];\n", 0},
    {"#if 0 and #else", "#if 0\nbuffer A { uint a[]; };\n#else\nbuffer B { uint b[]; };\n#endif\n", 1},
    {"#ifdef, #ifndef",
     "#define HAS 1\n#ifdef HAS\nbuffer A { uint a[]; };\n#endif\n#ifndef HAS\nbuffer B { uint b[]; };\n"
     "#endif\n#ifdef NOT_DEFINED\nbuffer C { uint c[]; };\n#endif\n", 1},
    {"#elif chain, first true branch only",
     "#define MODE 2\n#if MODE == 1\nbuffer A { uint a[]; };\n#elif MODE == 2\nbuffer B { uint b[]; };\n"
     "buffer C { uint c[]; };\n#elif MODE >= 2\nbuffer D { uint d[]; };\n#else\nbuffer E { uint e[]; };\n"
     "#endif\n", 2},
    {"arithmetic on defines with u suffixes, nested macros",
     "#define WG 256u\n#define ITEMS 8u\n#define TILE (WG * ITEMS)\n#if TILE / 4 == 512 && (ITEMS % 4) == 0 && "
     "-1 < 0 && !0 && (1 << 3) == 8\nbuffer A { uint a[]; };\n#endif\n", 1},
    {"textual expansion: A * 3 is 1 + 2 * 3",
     "#define A 1 + 2\n#if A * 3 == 7\nbuffer A1 { uint a[]; };\n#endif\n", 1},
    {"defined() and defined NAME",
     "#define X\n#if defined(X) && !defined Y\nbuffer A { uint a[]; };\n#endif\n", 1},
    {"#undef", "#define X 1\n#undef X\n#ifdef X\nbuffer A { uint a[]; };\n#endif\n", 0},
    {"an inner #else of a region left out stays out",
     "#if 0\n#if 0\n#else\nbuffer A { uint a[]; };\n#endif\n#endif\n", 0},
    {"a directive's continued lines are the directive's",
     "#define M(x) x \\\n  buffer B { uint b[]; };\nbuffer A { uint a[]; };\n", 1},
    {"short circuits past an unknown name",
     "#if 0 && UNKNOWN_NAME\nbuffer A { uint a[]; };\n#endif\n#if 1 || UNKNOWN_NAME\n"
     "buffer B { uint b[]; };\n#endif\n", 1},
    {"a condition on an unknown name around a block", "#if UNKNOWN_NAME\nbuffer A { uint a[]; };\n#endif\n",
     -1},
    {"an unknown condition around no block",
     "#if UNKNOWN_NAME\nuint x;\n#endif\nbuffer A { uint a[]; };\n", 1},
    {"a define where the way is unknown",
     "#if UNKNOWN_NAME\n#define X 1\n#endif\n#ifdef X\nbuffer A { uint a[]; };\n#endif\n", -1},
    {"the #else of an unknown #if", "#if UNKNOWN\n#else\nbuffer A { uint a[]; };\n#endif\n", -1},
    {"an #elif of a level whose branch was taken, on a name only that branch defines",
     "#if 1\n#elif UNDEFINED_THERE\nbuffer A { uint a[]; };\n#endif\nbuffer B { uint b[]; };\n", 1},
    {"the GL's own macros are the compiler's", "#ifdef GL_ES\nbuffer A { uint a[]; };\n#endif\n", -1},
    {"a function-like macro's value", "#define F(x) (x)\n#if F(1)\nbuffer A { uint a[]; };\n#endif\n", -1},
    {"?: is not read", "#if 1 ? 1 : 0\nbuffer A { uint a[]; };\n#endif\n", -1},
    {"division by zero", "#if 1 / 0\nbuffer A { uint a[]; };\n#endif\n", -1},
    {"an #endif too many", "buffer A { uint a[]; };\n#endif\n", -1},
    {"an #if left open", "#if 1\nbuffer A { uint a[]; };\n", -1},
};

START_TEST(counts_where_the_preprocessor_keeps_blocks) {
  const block_case *c = &CASES[_i];
  const int got = blocks(c->source);
  ck_assert_msg(got == c->blocks, "%s: %d blocks, expected %d", c->what, got, c->blocks);
}
END_TEST

/* The parts are read as one text, as glShaderSource joins them: a define
 * in one part decides a condition in the next. */
START_TEST(parts_are_one_text) {
  const char *parts[] = {"#version 310 es\n#define HAS_VALUES 1\n", "#line 1 1\n",
                         "#if HAS_VALUES\nlayout(std430) buffer V { uint v[]; };\n#endif\n",
                         "#line 1 2\n", "layout(std430) buffer K { uint k[]; };"};
  ck_assert_int_eq(_glradix_storage_blocks(parts, 5), 2);
  ck_assert_int_eq(_glradix_storage_blocks(parts + 2, 3), -1); /* HAS_VALUES undefined */
}
END_TEST

static Suite *blocks_suite(void) {
  Suite *s = suite_create("blocks");
  TCase *tc = tcase_create("blocks");
  tcase_add_loop_test(tc, counts_where_the_preprocessor_keeps_blocks, 0,
                      (int)(sizeof CASES / sizeof CASES[0]));
  tcase_add_test(tc, parts_are_one_text);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(blocks_suite)
