/* Limits: buffers larger than GL_MAX_SHADER_STORAGE_BLOCK_SIZE, counts near
 * 2^32, a GL_OUT_OF_MEMORY while scratch grows (address space limited
 * with setrlimit in the test's own forked process), and storage-block
 * limits below what programs declare (the library's test hook). */
#include "common.h"
#include "glradix/lbvh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>


/* The caller's buffers may be larger than one shader storage block: only
 * their first count elements are bound. */
/* Buffer `out` (read into got) against the exclusive prefix sum of in[0..n). */
static void expect_exclusive_scan(const uint32_t *in, GLuint out, uint32_t *got, size_t n) {
  buf_read(out, got, n);
  uint32_t run = 0;
  for (size_t i = 0; i < n; i++) {
    EXPECT_MSG(got[i] == run, "scan [%zu]: %u, expected %u", i, got[i], run);
    run += in[i];
  }
}

START_TEST(buffers_above_the_block_size_work) {
  enum { N = 100000 };
  const size_t words = (size_t)(test_max_ssbo_bytes() / 4) + 4096; /* past the limit */
  uint32_t *k = test_alloc_u32(N), *v = test_alloc_u32(N);
  uint32_t *ok = test_alloc_u32(N), *ov = test_alloc_u32(N);
  gen_keys(k, N, DIST_UNIFORM, 77);
  gen_values(v, N, 0);
  GLuint kb = buf_create(k, N, words), vb = buf_create(v, N, words);
  expect_no_gl_error("allocating buffers above the block size");
  glradix_sort_desc sd = {0};
  sd.keys = kb;
  sd.values = vb;
  sd.count = N;
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_OK);
  buf_read(kb, ok, N);
  buf_read(vb, ov, N);
  check_sort_result(k, v, ok, ov, N, 0, 0, "sort in buffers above the block size");
  /* the scan too: a prefix sum of the sorted values against the CPU's */
  glradix_scan_desc scan = {0};
  scan.input = scan.output = vb;
  scan.count = N;
  test_log_reset(&tg_log);
  expect_call_ok(glradix_scan(tg_ctx, &scan), "scan above the block size");
  expect_exclusive_scan(ov, vb, v, N);
  buf_delete(kb);
  buf_delete(vb);
  free(k);
  free(v);
  free(ok);
  free(ov);
}
END_TEST

/* Counts near 2^32: TOO_LARGE from every entry point, with one log line,
 * before any buffer is looked at or touched; no size computation wraps. */
START_TEST(counts_near_2_32_are_too_large) {
  static const uint32_t counts[] = {0xFFFFFFFFu, 0xFFFFF000u, 0x80000001u, 0x40000001u};
  const uint32_t count = counts[_i];
  uint32_t data[64] = {0};
  GLuint a = buf_create(data, 64, 64), b = buf_create(data, 64, 64), c = buf_create(data, 64, 64);
  char what[64];
  snprintf(what, sizeof what, "count 0x%08x", count);
  glradix_sort_desc sd = {0};
  sd.keys = a;
  sd.values = b;
  sd.count = count;
  ck_assert_uint_eq(glradix_scratch_bytes(tg_ctx, &sd), 0);
#define EXPECT_TOO_LARGE(call, name)                                                        \
  do {                                                                                      \
    test_log_reset(&tg_log);                                                                \
    glradix_status st_ = (call);                                                            \
    ck_assert_msg(st_ == GLRADIX_ERROR_TOO_LARGE, "%s, %s: %s", name, what,                 \
                  glradix_status_string(st_));                                              \
    ck_assert_msg(tg_log.count == 1, "%s, %s: %d log lines", name, what, tg_log.count);     \
    ck_assert_msg(strncmp(tg_log.first, name, strcspn(name, " ")) == 0,                    \
                  "%s, %s: the log names another call: %s", name, what, tg_log.first);      \
  } while (0)
  EXPECT_TOO_LARGE(glradix_sort(tg_ctx, &sd), "glradix_sort");
  EXPECT_TOO_LARGE(glradix_reserve(tg_ctx, &sd), "glradix_reserve");
  sd.key_type = GLRADIX_KEY_UINT64;
  EXPECT_TOO_LARGE(glradix_sort(tg_ctx, &sd), "glradix_sort uint64");
  sd.key_type = GLRADIX_KEY_UINT32;
  sd.count_buffer = c; /* a GPU count: count is the capacity */
  EXPECT_TOO_LARGE(glradix_sort(tg_ctx, &sd), "glradix_sort with count_buffer");
  glradix_scan_desc scan = {0};
  scan.input = a;
  scan.output = b;
  scan.count = count;
  EXPECT_TOO_LARGE(glradix_scan(tg_ctx, &scan), "glradix_scan");
  glradix_compact_desc cd = {0};
  cd.input = a;
  cd.output = b;
  cd.count = count;
  EXPECT_TOO_LARGE(glradix_compact(tg_ctx, &cd), "glradix_compact");
  glradix_morton_desc md = {0};
  md.bounds = a;
  md.codes = b;
  md.count = count;
  EXPECT_TOO_LARGE(glradix_morton_codes(tg_ctx, &md), "glradix_morton_codes");
  glradix_lbvh_desc ld = {0};
  ld.bounds = a;
  ld.nodes = b;
  ld.count = count;
  EXPECT_TOO_LARGE(glradix_lbvh_build(tg_ctx, &ld), "glradix_lbvh_build");
  EXPECT_TOO_LARGE(glradix_sort_host(tg_ctx, data, NULL, count), "glradix_sort_host");
#undef EXPECT_TOO_LARGE
  uint32_t after[64];
  buf_read(a, after, 64);
  expect_equal_u32(data, after, 64, "keys after the rejected calls");
  buf_read(b, after, 64);
  expect_equal_u32(data, after, 64, "values after the rejected calls");
  expect_no_gl_error(what);
  buf_delete(a);
  buf_delete(b);
  buf_delete(c);
}
END_TEST

/* Bytes of address space this process has mapped now. */
static size_t mapped_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long pages = 0;
  ck_assert_msg(f && fscanf(f, "%lu", &pages) == 1, "cannot read /proc/self/statm");
  fclose(f);
  return (size_t)pages * 4096u;
}

/* GL_OUT_OF_MEMORY while scratch grows: the status says so, the caller's
 * buffers are untouched, and the context sorts again once memory is back. */
START_TEST(scratch_out_of_memory_leaves_context_usable) {
  enum { N = 4 << 20 }; /* 16 MiB of keys, 16 of values: scratch needs 32 MiB more */
  uint32_t *k = test_alloc_u32(N), *v = test_alloc_u32(N);
  uint32_t *ok = test_alloc_u32(N), *ov = test_alloc_u32(N);
  gen_keys(k, N, DIST_UNIFORM, 5);
  gen_values(v, N, 0);
  GLuint kb = buf_create(k, N, N), vb = buf_create(v, N, N);
  /* a small sort first: every program's code is generated before the limit */
  uint32_t small_k[5000], small_v[5000];
  gen_keys(small_k, 5000, DIST_UNIFORM, 6);
  gen_values(small_v, 5000, 0);
  GLuint sk = buf_create(small_k, 5000, 5000), sv = buf_create(small_v, 5000, 5000);
  glradix_sort_desc sd = {0};
  sd.keys = sk;
  sd.values = sv;
  sd.count = 5000;
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_OK);
  tg_gl.Finish();
  struct rlimit old;
  ck_assert_int_eq(getrlimit(RLIMIT_AS, &old), 0);
  struct rlimit low = old;
  low.rlim_cur = mapped_bytes() + (8u << 20); /* 8 MiB to spare: not 32 */
  ck_assert_int_eq(setrlimit(RLIMIT_AS, &low), 0);
  sd.keys = kb;
  sd.values = vb;
  sd.count = N;
  test_log_reset(&tg_log);
  glradix_status st = glradix_sort(tg_ctx, &sd);
  ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
  ck_assert_msg(st == GLRADIX_ERROR_OUT_OF_MEMORY, "sort under an 8 MiB headroom: %s (log: %s)",
                glradix_status_string(st), tg_log.first);
  ck_assert_msg(tg_log.count >= 1 && strstr(tg_log.first, "GL_OUT_OF_MEMORY"),
                "log: %s", tg_log.first);
  expect_no_gl_error("after the failed growth");
  buf_read(kb, ok, N);
  expect_equal_u32(k, ok, N, "keys after the failed sort (untouched)");
  buf_read(vb, ov, N);
  expect_equal_u32(v, ov, N, "values after the failed sort (untouched)");
  /* memory is back: the same context sorts */
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_OK);
  buf_read(kb, ok, N);
  buf_read(vb, ov, N);
  check_sort_result(k, v, ok, ov, N, 0, 0, "sort after the out-of-memory");
  buf_delete(kb);
  buf_delete(vb);
  buf_delete(sk);
  buf_delete(sv);
  free(k);
  free(v);
  free(ok);
  free(ov);
}
END_TEST

/* ---- shader storage blocks: OpenGL ES 3.1 lets a driver report 4 a
 * compute shader (GL 4.3 8), fewer than some programs declare ---- */

/* A context on tg_headless whose storage-block limits are `blocks` and
 * `bindings` (0: the driver's), with `plan`. */
static glradix_status create_limited(int blocks, int bindings, glradix_plan plan,
                                     glradix_context **out) {
  const _glradix_test_hooks none = _GLRADIX_TEST_HOOKS_NONE;
  _glradix_test_hooks h = test_forms() ? *test_forms() : none;
  h.max_blocks = blocks;
  h.max_bindings = bindings;
  h.exact_blocks = 1;
  glradix_desc d = test_desc(0, 0);
  d.plan = plan;
  return _glradix_create_for_tests(&d, &h, out);
}

static glradix_context *create_limited_or_fail(int blocks, glradix_plan plan) {
  glradix_context *ctx = NULL;
  test_log_reset(&tg_log);
  glradix_status st = create_limited(blocks, 0, plan, &ctx);
  ck_assert_msg(st == GLRADIX_OK && ctx, "create with %d storage blocks: %s (log: %s)", blocks,
                glradix_status_string(st), tg_log.first);
  ck_assert_msg(tg_log.count == 0, "create with %d storage blocks logged: %s", blocks, tg_log.first);
  return ctx;
}

/* UNSUPPORTED with one log line that names the call, the program (NULL:
 * any) and the limit of `blocks`. */
#define EXPECT_UNSUPPORTED(call, name, program, blocks)                                         \
  do {                                                                                          \
    char limit_[96];                                                                            \
    snprintf(limit_, sizeof limit_, "GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS is %d", (blocks));    \
    test_log_reset(&tg_log);                                                                    \
    glradix_status st_ = (call);                                                                \
    ck_assert_msg(st_ == GLRADIX_ERROR_UNSUPPORTED, "%s, %d blocks: %s (log: %s)", name,        \
                  (blocks), glradix_status_string(st_), tg_log.first);                          \
    ck_assert_msg(tg_log.count == 1, "%s: %d log lines", name, tg_log.count);                   \
    const char *p_ = (program);                                                                 \
    ck_assert_msg(strncmp(tg_log.first, name, strlen(name)) == 0 && strstr(tg_log.first, limit_) && \
                      strstr(tg_log.first, " shader storage blocks") &&                         \
                      (!p_ || strstr(tg_log.first, p_)),                                        \
                  "%s: the log line does not name the call, %s and the limit: %s", name,        \
                  p_ ? p_ : "a program", tg_log.first);                                         \
  } while (0)

/* ES's least limit, 4: what fits runs (one-tile sorts, the scan, Morton
 * codes, the scan-then-propagate plan's keys alone: glradix_sort_inspect);
 * every call that needs a program of more blocks is refused with nothing
 * written (reduce-then-scan sorts, pairs through more than a tile,
 * compaction, the LBVH build), and the context goes on working. */
START_TEST(storage_blocks_below_a_program_are_unsupported) {
  enum { BLOCKS = 4, BOXES = 1000 };
  glradix_context *ctx = create_limited_or_fail(BLOCKS, GLRADIX_PLAN_DEFAULT);
  const size_t n = 3 * (size_t)glradix_tile_size(ctx) + 5;
  run_gl_sort_twice(ctx, glradix_tile_size(ctx), DIST_UNIFORM, 1, 0, 0, 91); /* one tile */
  /* v also fills the nodes buffer, which may be the longer (tiles of 4096) */
  const size_t node_words = glradix_lbvh_nodes_bytes(BOXES) / 4;
  const size_t words = n > node_words ? n : node_words;
  uint32_t *k = test_alloc_u32(n), *v = test_alloc_u32(words), *hk = test_alloc_u32(n),
           *hv = test_alloc_u32(n), *got = test_alloc_u32(words);
  gen_keys(k, n, DIST_UNIFORM, 92);
  gen_values(v, words, 0);
  GLuint kb = buf_create(k, n, n), vb = buf_create(v, n, n), ob = buf_create(v, n, n);
  const uint32_t count_word = 77;
  GLuint cb = buf_create(&count_word, 1, 1);
  /* the scan fits (scan_blocks: 4), and works */
  glradix_scan_desc scan = {0};
  scan.input = vb;
  scan.output = ob;
  scan.count = (uint32_t)n;
  test_log_reset(&tg_log);
  expect_call_ok(glradix_scan(ctx, &scan), "scan on 4 blocks");
  expect_exclusive_scan(v, ob, got, n);
  buf_upload(ob, v, n);
  glradix_sort_desc sd = {0};
  sd.keys = kb;
  sd.count = (uint32_t)n;
  EXPECT_UNSUPPORTED(glradix_sort(ctx, &sd), "glradix_sort", "shuffle_scatter.comp", BLOCKS);
  EXPECT_UNSUPPORTED(glradix_reserve(ctx, &sd), "glradix_reserve", "shuffle_scatter.comp", BLOCKS);
  /* scan-then-propagate's programs of keys alone fit: inspection runs */
  test_log_reset(&tg_log);
  expect_call_ok(glradix_sort_inspect(ctx, &sd, 0, GLRADIX_STAGE_GLOBAL_SCATTER, ob),
                 "inspection on 4 blocks");
  buf_upload(kb, k, n);
  buf_upload(ob, v, n);
  sd.values = vb;
  EXPECT_UNSUPPORTED(glradix_sort(ctx, &sd), "glradix_sort", "shuffle_scatter.comp", BLOCKS);
  EXPECT_UNSUPPORTED(glradix_sort_inspect(ctx, &sd, 0, GLRADIX_STAGE_SCAN, ob),
                     "glradix_sort_inspect", "local_shuffle.comp", BLOCKS);
  sd.key_type = GLRADIX_KEY_UINT64;
  sd.count = (uint32_t)(n / 2);
  EXPECT_UNSUPPORTED(glradix_sort(ctx, &sd), "glradix_sort", "shuffle_scatter.comp", BLOCKS);
  memcpy(hk, k, n * 4);
  memcpy(hv, v, n * 4);
  EXPECT_UNSUPPORTED(glradix_sort_host(ctx, hk, hv, n), "glradix_sort_host",
                     "shuffle_scatter.comp", BLOCKS);
  expect_equal_u32(k, hk, n, "host keys, the sort refused");
  expect_equal_u32(v, hv, n, "host values, the sort refused");
  glradix_compact_desc cd = {0};
  cd.input = vb;
  cd.output = ob;
  cd.count = (uint32_t)n;
  cd.count_out_buffer = cb;
  EXPECT_UNSUPPORTED(glradix_compact(ctx, &cd), "glradix_compact", "compact_scatter.comp",
                     BLOCKS);
  /* Morton codes fit (morton_codes: 4); the build's tree or sort does not */
  float *boxes = test_random_boxes(BOXES, 93);
  GLuint bb = buf_create((const uint32_t *)boxes, BOXES * 8, BOXES * 8);
  GLuint nb = buf_create(v, node_words, node_words);
  glradix_morton_desc md = {0};
  md.bounds = bb;
  md.codes = ob;
  md.count = BOXES;
  test_log_reset(&tg_log);
  expect_call_ok(glradix_morton_codes(ctx, &md), "Morton codes on 4 blocks");
  buf_upload(ob, v, n);
  glradix_lbvh_desc ld = {0};
  ld.bounds = bb;
  ld.nodes = nb;
  ld.count = BOXES;
  EXPECT_UNSUPPORTED(glradix_lbvh_build(ctx, &ld), "glradix_lbvh_build", NULL, BLOCKS);
  /* nothing of the caller's was written */
  buf_read(kb, got, n);
  expect_equal_u32(k, got, n, "keys, the calls refused");
  buf_read(vb, got, n);
  expect_equal_u32(v, got, n, "values, the calls refused");
  buf_read(ob, got, n);
  expect_equal_u32(v, got, n, "compaction's output, the call refused");
  buf_read(cb, got, 1);
  ck_assert_uint_eq(got[0], count_word);
  buf_read(nb, got, node_words);
  expect_equal_u32(v, got, node_words, "nodes, the build refused");
  expect_no_gl_error("the refused calls");
  /* the context still sorts what fits */
  run_gl_sort_twice(ctx, 1000, DIST_MORTON, 1, 0, 0, 94);
  glradix_destroy(ctx);
  buf_delete(kb);
  buf_delete(vb);
  buf_delete(ob);
  buf_delete(cb);
  buf_delete(bb);
  buf_delete(nb);
  free(boxes);
  free(k);
  free(v);
  free(hk);
  free(hv);
  free(got);
}
END_TEST

/* Sorts whose programs fit run in full: keys alone by scan-then-propagate
 * within ES's 4 blocks; within GL 4.3's 8, reduce-then-scan's keys alone
 * and scan-then-propagate's pairs, while reduce-then-scan's pairs (10 or
 * 11 blocks: shuffle_scatter reads and writes its buffers through vector
 * views too) are refused when asked for; the default plan is then
 * scan-then-propagate, and sorts pairs. */
/* A context of `blocks` asking for plan `asked` takes `taken`, with no
 * log line, and sorts 100003 keys (with values if `pairs`). */
static void expect_plan_sorts(int blocks, glradix_plan asked, glradix_plan taken, int pairs,
                              uint64_t seed) {
  glradix_context *ctx = create_limited_or_fail(blocks, asked);
  ck_assert_int_eq(glradix_query_desc(ctx).plan, taken);
  run_gl_sort_twice(ctx, 100003, DIST_UNIFORM, pairs, 0, 0, seed);
  glradix_destroy(ctx);
}

START_TEST(storage_blocks_that_fit_sort) {
  const size_t n = 100003;
  const glradix_plan stp = GLRADIX_PLAN_SCAN_THEN_PROPAGATE;
  expect_plan_sorts(4, stp, stp, 0, 95);
  expect_plan_sorts(8, stp, stp, 1, 96);
  expect_plan_sorts(8, GLRADIX_PLAN_DEFAULT, stp, 1, 98);
  glradix_context *ctx = create_limited_or_fail(8, GLRADIX_PLAN_REDUCE_THEN_SCAN);
  run_gl_sort_twice(ctx, n, DIST_UNIFORM, 0, 0, 0, 97);
  GLuint kb = buf_create(NULL, n, n), vb = buf_create(NULL, n, n);
  glradix_sort_desc sd = {0};
  sd.keys = kb;
  sd.values = vb;
  sd.count = (uint32_t)n;
  EXPECT_UNSUPPORTED(glradix_sort(ctx, &sd), "glradix_sort", "shuffle_scatter.comp", 8);
  buf_delete(kb);
  buf_delete(vb);
  glradix_destroy(ctx);
}
END_TEST

/* The single-pass plan asked for: where its pair programs (10 blocks)
 * exceed the limit, the context takes the design's plan that fits, said
 * in one log line at create; where they fit, it sorts. */
START_TEST(storage_blocks_below_the_single_pass_plan) {
  const size_t n = 30011; /* several tiles on every driver */
  glradix_context *ctx = NULL;
  test_log_reset(&tg_log);
  ck_assert_int_eq(create_limited(8, 0, GLRADIX_PLAN_ONESWEEP, &ctx), GLRADIX_OK);
  ck_assert_int_eq(glradix_query_desc(ctx).plan, GLRADIX_PLAN_SCAN_THEN_PROPAGATE);
  ck_assert_msg(tg_log.count == 1 && strstr(tg_log.first, "glradix_create") &&
                    strstr(tg_log.first, "single-pass") &&
                    strstr(tg_log.first, "GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS 8"),
                "%d log lines: %s", tg_log.count, tg_log.first);
  run_gl_sort_twice(ctx, n, DIST_UNIFORM, 1, 0, 0, 99);
  glradix_destroy(ctx);
  expect_plan_sorts(10, GLRADIX_PLAN_ONESWEEP, GLRADIX_PLAN_ONESWEEP, 1, 100);
}
END_TEST

/* Too few for any sort (tile_sort's 2 blocks), or fewer than the 6
 * binding points the library uses: glradix_create refuses, one log line. */
START_TEST(storage_limits_below_every_sort_fail_create) {
  glradix_context *ctx = (glradix_context *)&ctx;
  EXPECT_UNSUPPORTED(create_limited(1, 0, GLRADIX_PLAN_DEFAULT, &ctx), "glradix_create",
                     "tile_sort.comp", 1);
  ck_assert_ptr_null(ctx);
  ctx = (glradix_context *)&ctx;
  test_log_reset(&tg_log);
  ck_assert_int_eq(create_limited(0, 4, GLRADIX_PLAN_DEFAULT, &ctx), GLRADIX_ERROR_UNSUPPORTED);
  ck_assert_ptr_null(ctx);
  ck_assert_msg(tg_log.count == 1 && strstr(tg_log.first, "glradix_create") &&
                    strstr(tg_log.first, "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS is 4"),
                "%d log lines: %s", tg_log.count, tg_log.first);
  expect_no_gl_error("the refused creates");
}
END_TEST

static Suite *limits_suite(void) {
  Suite *s = suite_create("limits");
  TCase *tc = tcase_create("limits");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, buffers_above_the_block_size_work);
  tcase_add_loop_test(tc, counts_near_2_32_are_too_large, 0, 4);
  tcase_add_test(tc, scratch_out_of_memory_leaves_context_usable);
  suite_add_tcase(s, tc);
  tc = tcase_create("storage_blocks");
  tcase_add_checked_fixture(tc, gl_setup, gl_teardown);
  tcase_add_test(tc, storage_blocks_below_a_program_are_unsupported);
  tcase_add_test(tc, storage_blocks_that_fit_sort);
  /* the same host code on ES; sort_es_fallback sorts by the plan there */
  if (!test_es()) tcase_add_test(tc, storage_blocks_below_the_single_pass_plan);
  tcase_add_test(tc, storage_limits_below_every_sort_fail_create);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(limits_suite)
