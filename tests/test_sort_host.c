/* glradix_sort_host with the default context: every size x every
 * distribution (fewer from 1M keys up), keys only and pairs, each sorted
 * twice on one context. */
#include "common.h"

static const size_t sizes[] = {
    0,    1,     2,      1023,   1024,    1025,
    4095, 4096,  4097,   1000,   12345,   100003,
    1u << 20, 1500007};
#define N_SIZES (sizeof sizes / sizeof sizes[0])

/* case index -> (size, distribution); a forked child runs three sizes */
#define SIZES_PER (3 * DIST_COUNT)
#define N_CASES (N_SIZES * DIST_COUNT)
static size_t case_size(int i) { return sizes[(size_t)i / DIST_COUNT]; }
static test_dist case_dist(int i) { return (test_dist)((size_t)i % DIST_COUNT); }
/* the large sizes with fewer distributions */
static int case_runs(int i) { return runs_in_trimmed_grid(case_size(i), case_dist(i)); }

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
  return s;
}

TEST_MAIN(sort_host_suite)
