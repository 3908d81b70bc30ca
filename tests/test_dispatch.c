/*
 * The 2-D dispatch path. A grid wider than 65,535 work groups in x cannot
 * be reached on llvmpipe (SSBOs stop at 128 MiB, far below 65,535 tiles of
 * 3584 keys), so these tests shrink the limit instead: desc.dispatch_limit
 * = 3 (or 1) caps the grid's x dimension, and any stage needing more groups
 * must spill into y. Sizes are chosen so that every stage exceeds the cap
 * (the smallest is 4 tiles plus one key, whatever the context's tile).
 */
#include "common.h"

static size_t sizes[] = {0 /* 4 tiles + 1, set per test */, 100003};
static const test_dist dists[] = {DIST_UNIFORM, DIST_MORTON, DIST_FEW_UNIQUE};
#define N_SIZES (sizeof sizes / sizeof sizes[0])
#define N_DISTS (sizeof dists / sizeof dists[0])


/* Trimmed runs: the taller grid with random keys only (the same grid
 * whatever the keys). */
static int case_runs(int i) {
  return !test_trimmed() || (size_t)i < N_DISTS || dists[(size_t)i % N_DISTS] == DIST_UNIFORM;
}

static void expect_limit(uint32_t want) {
  glradix_desc q = glradix_query_desc(tg_ctx);
  ck_assert_msg(q.dispatch_limit == want, "dispatch_limit %u, created with %u",
                (unsigned)q.dispatch_limit, (unsigned)want);
}

START_TEST(dispatch_limit_3_splits_grid_into_y_pairs) { /* a forked child runs one size */
  expect_limit(3);
  sizes[0] = 4 * (size_t)glradix_tile_size(tg_ctx) + 1;
  FOR_GROUP_CASES(i, N_DISTS, N_SIZES * N_DISTS) if (case_runs(i))
    run_gl_sort_twice(tg_ctx, sizes[(size_t)i / N_DISTS], dists[(size_t)i % N_DISTS], 1, 0, 0,
                      50 + (uint64_t)i * 2);
}
END_TEST

START_TEST(dispatch_limit_3_splits_grid_into_y_keys) { /* a forked child runs one size */
  expect_limit(3);
  sizes[0] = 4 * (size_t)glradix_tile_size(tg_ctx) + 1;
  FOR_GROUP_CASES(i, N_DISTS, N_SIZES * N_DISTS) if (case_runs(i))
    run_gl_sort_twice(tg_ctx, sizes[(size_t)i / N_DISTS], dists[(size_t)i % N_DISTS], 0, 0, 0,
                      80 + (uint64_t)i * 2);
}
END_TEST

START_TEST(dispatch_limit_3_host_and_ranges) {
  expect_limit(3);
  run_host_sort_twice(tg_ctx, 100003, DIST_UNIFORM, 1, 120);
  run_gl_sort_twice(tg_ctx, 100003, DIST_UNIFORM, 1, 3, 32, 122);
  run_gl_sort_twice(tg_ctx, 100003, DIST_MORTON, 0, 4, 12, 124);
}
END_TEST

START_TEST(dispatch_limit_1_splits_grid_into_y_pairs) {
  expect_limit(1);
  run_gl_sort_twice(tg_ctx, 100003, DIST_UNIFORM, 1, 0, 0, 140);
  run_gl_sort_twice(tg_ctx, 4097, DIST_FEW_UNIQUE, 0, 0, 0, 144);
  run_host_sort_twice(tg_ctx, 100003, DIST_REVERSE, 1, 146);
}
END_TEST

START_TEST(dispatch_limit_3_radix_2_splits_grid_into_y) {
  expect_limit(3);
  run_gl_sort_twice(tg_ctx, 100003, DIST_UNIFORM, 1, 0, 0, 160);
  run_gl_sort_twice(tg_ctx, 12345, DIST_MORTON, 0, 0, 30, 162);
}
END_TEST

static Suite *dispatch_suite(void) {
  Suite *s = suite_create("dispatch");
  TCase *tc = tcase_create("dispatch_limit_3");
  tcase_add_checked_fixture(tc, ctx_setup_dl3, ctx_teardown);
  tcase_add_loop_test(tc, dispatch_limit_3_splits_grid_into_y_pairs, 0, (int)N_SIZES);
  tcase_add_loop_test(tc, dispatch_limit_3_splits_grid_into_y_keys, 0, (int)N_SIZES);
  tcase_add_test(tc, dispatch_limit_3_host_and_ranges);
  suite_add_tcase(s, tc);

  tc = tcase_create("dispatch_limit_1");
  tcase_add_checked_fixture(tc, ctx_setup_dl1, ctx_teardown);
  tcase_add_test(tc, dispatch_limit_1_splits_grid_into_y_pairs);
  suite_add_tcase(s, tc);

  tc = tcase_create("dispatch_limit_3_radix_2");
  tcase_add_checked_fixture(tc, ctx_setup_dl3_r2, ctx_teardown);
  tcase_add_test(tc, dispatch_limit_3_radix_2_splits_grid_into_y);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(dispatch_suite)
