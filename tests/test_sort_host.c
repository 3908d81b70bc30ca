/* glradix_sort_host with the default context: a size of each kind x every
 * distribution (fewer from 100003 keys up: runs_in_grid), keys only and pairs, each sorted
 * twice on one context. */
#include "common.h"

#include <stdlib.h>
#include <string.h>

/* none, one key, a tile and a bit, a few tiles, many tiles, and large */
static const size_t sizes[] = {0, 1, 4097, 12345, 100003, 1500007};
#define N_SIZES (sizeof sizes / sizeof sizes[0])

/* case index -> (size, distribution); a forked child runs three sizes */
#define SIZES_PER (3 * DIST_COUNT)
#define N_CASES (N_SIZES * DIST_COUNT)
static size_t case_size(int i) { return sizes[(size_t)i / DIST_COUNT]; }
static test_dist case_dist(int i) { return (test_dist)((size_t)i % DIST_COUNT); }
/* The grid's rule (runs_in_grid): the host path is the same at every tile
 * edge, which test_sort covers. */
static int case_runs(int i) { return runs_in_grid(case_size(i), case_dist(i)); }

START_TEST(host_keys_size_x_dist) {
  FOR_GROUP_CASES(i, SIZES_PER, N_CASES) if (case_runs(i))
    run_host_sort_twice(tg_ctx, case_size(i), case_dist(i), 0, 20000 + (uint64_t)i * 2);
}
END_TEST

START_TEST(host_pairs_size_x_dist) {
  FOR_GROUP_CASES(i, SIZES_PER, N_CASES) if (case_runs(i))
    run_host_sort_twice(tg_ctx, case_size(i), case_dist(i), 1, 30000 + (uint64_t)i * 2);
}
END_TEST

/* Decreasing sizes on one context: the context-owned buffers are reused. */
START_TEST(host_pairs_shrinking_sizes) {
  static const size_t n[] = {100003, 4097, 1025, 1, 12345};
  for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
    run_host_sort_twice(tg_ctx, n[i], DIST_UNIFORM, 1, 40000 + i * 2);
}
END_TEST

/* OpenGL ES reads back through maps: a failed map of the values (the
 * library's test hook) leaves both arrays as they were, with one log line
 * and an error status, and the context sorts again. GL reads back with
 * glGetBufferSubData, with no map to fail. */
START_TEST(host_failed_values_map_writes_nothing) {
  if (!test_es()) return;
  enum { N = 20001 };
  const _glradix_test_hooks none = _GLRADIX_TEST_HOOKS_NONE;
  _glradix_test_hooks h = test_forms() ? *test_forms() : none;
  h.fail_values_map = N;
  glradix_desc d = test_desc(0, 0);
  ck_assert_int_eq(_glradix_create_for_tests(&d, &h, &tg_ctx), GLRADIX_OK);
  uint32_t *k = test_alloc_u32(N), *v = test_alloc_u32(N);
  uint32_t *hk = test_alloc_u32(N), *hv = test_alloc_u32(N);
  gen_keys(k, N, DIST_UNIFORM, 50001);
  gen_values(v, N, 1);
  memcpy(hk, k, sizeof(uint32_t) * N);
  memcpy(hv, v, sizeof(uint32_t) * N);
  test_log_reset(&tg_log);
  glradix_status st = glradix_sort_host(tg_ctx, hk, hv, N);
  ck_assert_msg(st == GLRADIX_ERROR_GL, "sort_host with a failed values map: %s",
                glradix_status_string(st));
  ck_assert_msg(tg_log.count == 1 && strstr(tg_log.first, "glradix_sort_host"), "%d log lines: %s",
                tg_log.count, tg_log.first);
  expect_equal_u32(k, hk, N, "keys, the read-back failed");
  expect_equal_u32(v, hv, N, "values, the read-back failed");
  expect_no_gl_error("the failed read-back");
  /* the keys alone map, and other counts map their values */
  test_log_reset(&tg_log);
  run_host_sort_twice(tg_ctx, N, DIST_UNIFORM, 0, 50002);
  run_host_sort_twice(tg_ctx, N - 1, DIST_UNIFORM, 1, 50004);
  glradix_destroy(tg_ctx);
  tg_ctx = NULL;
  free(k);
  free(v);
  free(hk);
  free(hv);
}
END_TEST

static Suite *sort_host_suite(void) {
  Suite *s = suite_create("sort_host");
  TCase *tc = tcase_create("keys");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_loop_test(tc, host_keys_size_x_dist, 0, CASE_GROUPS(N_CASES, SIZES_PER));
  suite_add_tcase(s, tc);

  tc = tcase_create("pairs");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_loop_test(tc, host_pairs_size_x_dist, 0, CASE_GROUPS(N_CASES, SIZES_PER));
  tcase_add_test(tc, host_pairs_shrinking_sizes);
  suite_add_tcase(s, tc);

  tc = tcase_create("read_back");
  tcase_add_checked_fixture(tc, gl_setup, gl_teardown);
  tcase_add_test(tc, host_failed_values_map_writes_nothing);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(sort_host_suite)
