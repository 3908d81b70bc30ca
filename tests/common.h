/*
 * Shared test helpers: Check fixtures that own the GL context, a capturing
 * logger, data generators, independent CPU references and GL buffer helpers.
 *
 * GL rule: Check forks every test. A GL context made in the parent is unusable
 * in the child (llvmpipe threads do not survive fork), so every GL object is
 * created inside checked fixtures or test bodies, never in main().
 */
#ifndef GLRADIX_TESTS_COMMON_H
#define GLRADIX_TESTS_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <check.h>
#include <glad/gl.h>

#include <glradix/glradix.h>
#include <glradix/headless.h>
#include <glradix/lbvh.h>

#include "forms_env.h"

/* ---- process setup -------------------------------------------------------- */

/** Sets CK_DEFAULT_TIMEOUT to 120 s unless the environment already sets it
 *  (Check reads it when a TCase is created, so call this first). */
void test_init(void);
/** Runs the suite (CK_NORMAL) and returns the process exit status. */
int test_run_suite(Suite *s);

/* ---- log capture ---------------------------------------------------------- */

typedef struct test_log {
  int count;          /* lines received */
  int bad_lines;      /* lines that were NULL, empty or contained '\n' */
  char first[512];
  char last[512];
} test_log;

/** The capturing glradix_logfunc; user must be a test_log. */
void test_log_fn(void *user, const char *message);
void test_log_reset(test_log *log);

/* ---- GL fixture state (valid in the forked child only) -------------------- */

extern glradix_headless *tg_headless;
extern GladGLContext tg_gl;      /* the tests' own GL function table */
extern glradix_context *tg_ctx;  /* set by the ctx fixtures */
extern test_log tg_log;          /* the logger installed on tg_ctx */

/** Checked fixture: headless context + test GL table. Fails (never skips)
 *  when no GL 4.3 context can be made. */
void gl_setup(void);
void gl_teardown(void);
/** Nonzero when the run asks for OpenGL ES contexts (GLRADIX_EGL_API=gles):
 *  tg_gl then holds ES 3.1+'s entry points, and tests of GL-only calls
 *  skip them. */
int test_es(void);

/** A desc for tg_ctx: load = headless loader, log = tg_log. */
glradix_desc test_desc(unsigned radix_bits, uint32_t dispatch_limit);
/** gl_setup() then glradix_create(desc) into tg_ctx; fails the test on error. */
void ctx_setup_with(glradix_desc desc);
void ctx_teardown(void);

/* Ready-made checked fixtures. */
void ctx_setup_default(void); /* radix_bits 0, dispatch_limit 0 */
void ctx_setup_r2(void);
void ctx_setup_r4(void);
void ctx_setup_dl1(void);     /* dispatch_limit 1 */
void ctx_setup_dl3(void);     /* dispatch_limit 3 */
void ctx_setup_dl3_r2(void);  /* dispatch_limit 3, radix_bits 2 */
void ctx_setup_stp_r2(void);  /* GLRADIX_PLAN_SCAN_THEN_PROPAGATE, radix_bits 2 */
void ctx_setup_stp_r8(void);  /* GLRADIX_PLAN_SCAN_THEN_PROPAGATE, radix_bits 8 */

/* ---- data ----------------------------------------------------------------- */

typedef enum test_dist {
  DIST_UNIFORM,    /* random 32-bit */
  DIST_EQUAL,      /* one random value repeated */
  DIST_SORTED,     /* random, sorted ascending */
  DIST_REVERSE,    /* random, sorted descending */
  DIST_FEW_UNIQUE, /* 7 random values */
  DIST_HIGH_BITS,  /* random & 0xF0000000 */
  DIST_LOW_BITS,   /* random & 0x3FF: every pass above bit 10 is skipped */
  DIST_ALL_ONES,   /* 0xFFFFFFFF */
  DIST_MORTON,     /* 30-bit Morton codes of random 3-D points */
  DIST_COUNT
} test_dist;

const char *dist_name(test_dist d);
/** Whether a size x distribution grid (test_sort, sort_host, sort_bits) sorts
 *  n keys of distribution d. A plain run sorts every distribution below
 *  100003 keys (several tiles), random, few unique and pass-skipping keys
 *  (all, some, none skipped) below 1M, and random keys from 1M up: the
 *  others change nothing a larger grid of the same programs runs. A
 *  trimmed run (test_trimmed()) sorts one size of each kind: none or one
 *  key, a tile and a bit, a few tiles, many tiles (100003 keys, random and
 *  few unique only; under the sanitizers not in other forms); not every
 *  tile edge (test_sort's tile_edges keeps those). */
int runs_in_grid(size_t n, test_dist d);
/** Nonzero when GLRADIX_TEST_TRIM is set (every run in other forms, on ES
 *  and under the sanitizers, tests/CMakeLists.txt): such a run repeats the
 *  plain run's host code, so its suites sort fewer and smaller cases. */
int test_trimmed(void);
/** Nonzero in a build under AddressSanitizer (the asan preset), whose runs
 *  check the host code: cases that only make the GPU work longer are the
 *  ci preset's. */
int test_sanitized(void);
uint64_t test_rng_next(uint64_t *state);
void gen_keys(uint32_t *keys, size_t n, test_dist d, uint64_t seed);
/** Distinct values: round 0 gives 0..n-1, other rounds an odd-multiplier
 *  permutation pattern (distinct modulo 2^32). */
void gen_values(uint32_t *values, size_t n, unsigned round);
/** 30-bit Morton code of a point with 10-bit integer coordinates. */
uint32_t morton3_10(uint32_t x, uint32_t y, uint32_t z);

/** n random boxes for the LBVH tests (8 floats each: min, .w, max, .w;
 *  .w 99, which the library ignores); a third of them share one spot, so
 *  that codes repeat and boxes are flat. Free with free(). */
float *test_random_boxes(size_t n, uint64_t seed);
/* n boxes of a shape, 0.5 on a side: 0 clustered (8 tight clusters: runs of
 * equal codes), 1 all equal, 2 collinear (centroids on a line, shuffled). */
float *test_shaped_boxes(int shape, size_t n, uint64_t seed);
/* The radix tree of n sorted Morton codes (code_len 32 or 64 bits), each
 * augmented with its sorted index (Karras 2012): the split of range
 * [first, last], the last index sharing more than the range's common
 * prefix with `first`. */
size_t test_radix_split(const uint64_t *codes, int code_len, size_t first, size_t last);

/** malloc that fails the test on NULL (never returns NULL, also for n 0). */
uint32_t *test_alloc_u32(size_t n);

/* ---- CPU references and checks ------------------------------------------- */

/** The CPU reference every stable sort test builds on: `index` receives
 *  0..n-1 ordered by `order` (ascending, or descending when `descending`),
 *  equal orders keeping their original order. */
void ref_stable_order(const uint64_t *order, size_t n, int descending, uint32_t *index);
/** Frees the calling thread's reference arrays, which the references keep
 *  for reuse: a thread the test made must call it before it ends (the asan
 *  preset reports its arrays as leaks otherwise). */
void ref_release(void);
/** Reference for a stable sort by bits [begin_bit, end_bit) of keys
 *  (end_bit 0 = 32): ref_keys/ref_values receive the expected output
 *  (ref_values/values may be NULL). Built on ref_stable_order. */
void ref_stable_sort(const uint32_t *keys, const uint32_t *values, size_t n,
                     unsigned begin_bit, unsigned end_bit, uint32_t *ref_keys,
                     uint32_t *ref_values);
/** Reference for a whole-key keys-only sort: a comparison sort of a copy. */
void ref_sort_keys(const uint32_t *keys, size_t n, uint32_t *ref_keys);

/** Checks a nodes buffer read back whole (`words`, of a tree of n of
 *  `capacity` primitives, n <= capacity) around the tree `tree` (2n - 1
 *  nodes, whose children say the topology): the nodes past the tree as in
 *  `pattern` (the buffer before the call); the parent words kept after
 *  the 2 * capacity - 1 nodes (lbvh.h), each of the tree's nodes' its
 *  parent's index, the right child's with bit 31 set, the root's
 *  0xFFFFFFFF; then the leaves' primitives kept after those, each leaf's
 *  a; and every other word as in `pattern`. */
void expect_lbvh_rest(const glradix_lbvh_node *tree, size_t n, size_t capacity,
                      const uint32_t *words, const uint32_t *pattern, const char *what);
/** The same with the root's word root_word: GLRADIX_LBVH_CLUSTERED_ROOT
 *  for a quality build's tree, whose internal nodes are numbered in no
 *  set order (pass the GPU's own nodes, once known to form a tree). */
void expect_lbvh_rest_root(const glradix_lbvh_node *tree, size_t n, size_t capacity,
                           const uint32_t *words, const uint32_t *pattern, uint32_t root_word,
                           const char *what);

/** Every node of `gpu`, a tree of n primitives refit over boxes b (8
 *  floats each), against a CPU refit of `built`'s links (already known to
 *  form a tree: the walk is explicit, so deep trees do too): the same
 *  links, each leaf its primitive's box, each internal node its children's
 *  union, bit for bit. */
void expect_lbvh_refit(const glradix_lbvh_node *built, const glradix_lbvh_node *gpu, size_t n,
                       const float *b, const char *what);

/** Fails the test with the first mismatch (index, expected, got) and `what`. */
void expect_equal_u32(const uint32_t *expected, const uint32_t *got, size_t n,
                      const char *what);

/**
 * Checks a sort result against the independent references: keys against
 * ref_sort_keys (whole range, keys only) or the stable reference, values
 * (if given) against the stable reference (this checks stability).
 */
void check_sort_result(const uint32_t *in_keys, const uint32_t *in_values,
                       const uint32_t *out_keys, const uint32_t *out_values,
                       size_t n, unsigned begin_bit, unsigned end_bit,
                       const char *what);

/* ---- GL buffer helpers (use tg_gl) --------------------------------------- */

/** A new buffer of alloc_words words, the first n words (n <= alloc_words)
 *  from data (data may be NULL), the rest zeros. */
GLuint buf_create(const uint32_t *data, size_t n, size_t alloc_words);
/** A buffer of n LBVH bounds (8 floats each, as test_random_boxes makes). */
GLuint buf_bounds(const float *b, size_t n);
void buf_upload(GLuint buf, const uint32_t *data, size_t n);
/** glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT) + glMapBufferRange(READ). */
void buf_read(GLuint buf, uint32_t *out, size_t n);
void buf_delete(GLuint buf);
/** GL_MAX_SHADER_STORAGE_BLOCK_SIZE; fails the test if it is unknown. */
GLint64 test_max_ssbo_bytes(void);
/** A linked compute program from GLSL source; fails the test otherwise.
 *  On an ES run (test_es()) a leading "#version 430" becomes "#version 310 es". */
GLuint gl_compute_program(const char *source);
/** Fails the test if glGetError() reports anything. */
void expect_no_gl_error(const char *where);
/** A library call that must succeed without a log line (tg_log reset
 *  before it) or a GL error; `what` names it in the failure. */
void expect_call_ok(glradix_status st, const char *what);

/* ---- one-call sort drivers ------------------------------------------------ */

/**
 * The standard GL-buffer correctness check: on ctx, creates key (and value,
 * if pairs) buffers of n words, then twice (rounds 0 and 1, seeds seed and
 * seed + 1, different data): uploads, glradix_sort(begin_bit, end_bit), reads
 * back, checks against the references. Also checks OK status, no log line and
 * no GL error. Buffers are reused between rounds.
 */
void run_gl_sort_twice(glradix_context *ctx, size_t n, test_dist d, int pairs,
                       unsigned begin_bit, unsigned end_bit, uint64_t seed);

/** The same (whole keys) with buffers of n + guard words: the guard words
 *  past count must come back unchanged. */
void run_gl_sort_twice_padded(glradix_context *ctx, size_t n, test_dist d,
                              int pairs, size_t guard, uint64_t seed);

/** The same with glradix_sort_host (whole keys). */
void run_host_sort_twice(glradix_context *ctx, size_t n, test_dist d, int pairs,
                         uint64_t seed);

/** GPU-count tests: a call without a count buffer (a gpu_count argument
 *  of CPU_COUNT), and the byte offset of the count, word 3 of its buffer. */
#define CPU_COUNT SIZE_MAX
#define COUNT_OFFSET 12
/** Word i of what a buffer holds before a call, to find untouched again. */
#define PATTERN(i) (0xA5A50000u + (uint32_t)((i) & 0xFFFFu))

/** ck_assert_msg for loops over every element: Check's bookkeeping (a
 *  write() per passing assertion) only happens when it fails. */
#define EXPECT_MSG(cond, ...)                                                  \
  do {                                                                         \
    if (!(cond)) ck_abort_msg(__VA_ARGS__);                                    \
  } while (0)

/** Loop tests over many cases run a group of consecutive cases in each
 *  forked child: every child builds its own GL context and programs and
 *  exits, which had been most of a small case's time (measured with the
 *  suites run as the presets run them, two at once: the context and
 *  programs took about 0.12 s a child on llvmpipe and 0.35 s under the
 *  sanitizers, whose fork and exit took about 0.2 s more; larger groups
 *  took the ci preset's tests from 271 to 180-193 s and the asan preset's
 *  from 276 to 151-188 s). Register the test with
 *  tcase_add_loop_test(tc, fn, 0, CASE_GROUPS(total, per)); in its body,
 *  FOR_GROUP_CASES(i, per, total) walks the group's case indices. Each case
 *  is still a function of its own index (its parameters and seed), and each
 *  check's message names the case's parameters; a failed check ends its
 *  child, so the group's later cases do not run. */
#define CASE_GROUPS(total, per) ((int)(((total) + (per) - 1) / (per)))
#define FOR_GROUP_CASES(i, per, total)                                         \
  for (int i = _i * (int)(per); i < (_i + 1) * (int)(per) && i < (int)(total); i++)

/** Defines main() for a test executable from a `Suite *name(void)`. */
#define TEST_MAIN(suite_fn)                                                    \
  int main(void) {                                                             \
    test_init();                                                               \
    return test_run_suite(suite_fn());                                         \
  }

#endif /* GLRADIX_TESTS_COMMON_H */
