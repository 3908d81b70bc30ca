/* glradix_sort on GL buffers with the default context: every size x every
 * distribution (fewer from 1.5M keys up, and fewer in trimmed runs:
 * runs_in_grid), keys only and pairs, each sorted twice on the same
 * buffers. */
#include "common.h"

static const size_t sizes[] = {
    0,    1,     2,      1023,   1024,    1025,   2047, 2048, 2049,
    4095, 4096,  4097,   1000,   12345,   100003,
    1500007};
#define N_SIZES (sizeof sizes / sizeof sizes[0])

/* case index -> (size, distribution); a forked child runs three sizes */
#define SIZES_PER (3 * DIST_COUNT)
#define N_CASES (N_SIZES * DIST_COUNT)
static size_t case_size(int i) { return sizes[(size_t)i / DIST_COUNT]; }
static test_dist case_dist(int i) { return (test_dist)((size_t)i % DIST_COUNT); }
static int case_runs(int i) { return runs_in_grid(case_size(i), case_dist(i)); }

START_TEST(keys_size_x_dist) {
  FOR_GROUP_CASES(i, SIZES_PER, N_CASES) if (case_runs(i))
    run_gl_sort_twice(tg_ctx, case_size(i), case_dist(i), 0, 0, 0, 1000 + (uint64_t)i * 2);
}
END_TEST

START_TEST(pairs_size_x_dist) {
  FOR_GROUP_CASES(i, SIZES_PER, N_CASES) if (case_runs(i))
    run_gl_sort_twice(tg_ctx, case_size(i), case_dist(i), 1, 0, 0, 5000 + (uint64_t)i * 2);
}
END_TEST

/* Around the context's own tile size (the one-dispatch path ends there)
 * and around two tiles, whatever shape the driver's limits chose. */
START_TEST(tile_edges) {
  const size_t tile = glradix_tile_size(tg_ctx);
  ck_assert_uint_ge(tile, 256);
  const size_t n[] = {tile - 1, tile, tile + 1, 2 * tile - 1, 2 * tile + 1};
  for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
    for (int pairs = 0; pairs <= 1; pairs++) {
      run_gl_sort_twice(tg_ctx, n[i], DIST_UNIFORM, pairs, 0, 0, 9500 + i * 4 + (size_t)pairs * 2);
      run_gl_sort_twice(tg_ctx, n[i], DIST_FEW_UNIQUE, pairs, 0, 0, 9600 + i * 4 + (size_t)pairs * 2);
    }
}
END_TEST

/* Buffers longer than count: the words past count must stay as they were. */
START_TEST(pairs_buffer_longer_than_count) {
  static const size_t n[] = {1, 1023, 1025, 4097, 100003};
  for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
    run_gl_sort_twice_padded(tg_ctx, n[i], DIST_UNIFORM, 1, 1024 + 3,
                             9000 + i * 2);
}
END_TEST

START_TEST(keys_buffer_longer_than_count) {
  run_gl_sort_twice_padded(tg_ctx, 12345, DIST_MORTON, 0, 77, 9100);
}
END_TEST

/* sort_gpu_forms sorts from its forms' wide_from keys on in wide tiles
 * (tests/CMakeLists.txt), one key fewer in the context's, which makes more
 * tiles and counts: the scratch for the wide count must cover it
 * (glradix_reserve's promise), and pairs on both sides sort after a
 * reserve. */
START_TEST(wide_tile_edge) {
  ck_assert_msg(test_forms() && test_forms()->wide_from, "sort_gpu_forms sets wide_from");
  const uint32_t from = test_forms()->wide_from;
  ck_assert_uint_gt(from, 2u * glradix_tile_size(tg_ctx));
  for (int pairs = 0; pairs <= 1; pairs++) {
    glradix_sort_desc below = {0}, at = {0};
    below.values = at.values = (unsigned)pairs; /* only "nonzero" matters to the query */
    below.count = from - 1;
    at.count = from;
    size_t b = glradix_scratch_bytes(tg_ctx, &below), a = glradix_scratch_bytes(tg_ctx, &at);
    ck_assert_msg(b > 0 && a >= b, "pairs %d: scratch for %u keys %zu bytes, for %u %zu", pairs,
                  from, a, from - 1, b);
  }
  glradix_sort_desc at = {0};
  at.values = 1;
  at.count = from;
  ck_assert_int_eq(glradix_reserve(tg_ctx, &at), GLRADIX_OK);
  run_gl_sort_twice(tg_ctx, from - 1, DIST_UNIFORM, 1, 0, 0, 9700);
  run_gl_sort_twice(tg_ctx, from, DIST_MORTON, 1, 0, 0, 9702);
}
END_TEST

static Suite *sort_suite(void) {
  Suite *s = suite_create("sort");
  TCase *tc = tcase_create("keys");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_loop_test(tc, keys_size_x_dist, 0, CASE_GROUPS(N_CASES, SIZES_PER));
  tcase_add_test(tc, keys_buffer_longer_than_count);
  suite_add_tcase(s, tc);

  tc = tcase_create("pairs");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_loop_test(tc, pairs_size_x_dist, 0, CASE_GROUPS(N_CASES, SIZES_PER));
  tcase_add_test(tc, pairs_buffer_longer_than_count);
  tcase_add_test(tc, tile_edges);
  if (test_forms() && test_forms()->wide_from) tcase_add_test(tc, wide_tile_edge);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(sort_suite)
