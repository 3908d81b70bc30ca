/* Limits: buffers larger than GL_MAX_SHADER_STORAGE_BLOCK_SIZE, counts near
 * 2^32, and a GL_OUT_OF_MEMORY while scratch grows (address space limited
 * with setrlimit in the test's own forked process). */
#include "common.h"
#include "glradix/lbvh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>


/* The caller's buffers may be larger than one shader storage block: only
 * their first count elements are bound. */
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
  ck_assert_int_eq(glradix_scan(tg_ctx, &scan), GLRADIX_OK);
  buf_read(vb, v, N);
  uint32_t run = 0;
  for (size_t i = 0; i < N; i++) {
    EXPECT_MSG(v[i] == run, "scan [%zu]: %u, expected %u", i, v[i], run);
    run += ov[i];
  }
  ck_assert_int_eq(tg_log.count, 0);
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

static Suite *limits_suite(void) {
  Suite *s = suite_create("limits");
  TCase *tc = tcase_create("limits");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, buffers_above_the_block_size_work);
  tcase_add_loop_test(tc, counts_near_2_32_are_too_large, 0, 4);
  tcase_add_test(tc, scratch_out_of_memory_leaves_context_usable);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(limits_suite)
