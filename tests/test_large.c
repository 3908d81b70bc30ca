/*
 * llvmpipe's loop budget: it silently ends any loop after 65,535 iterations
 * per invocation (summed over all loops of a shader). A sort whose per-
 * invocation trip counts grow with n (one group looping over all tiles, a
 * single-group scan, ...) goes wrong only at large n. 4,194,321 keys =
 * 586 tiles of llvmpipe's 7168 keys (a large grid: more than
 * the forms' small_grid), a 150,016-count scan at radix_bits 8 (the suite,
 * two rounds with their CPU references, took 4.4 s on 2 llvmpipe cores).
 */
#include "common.h"

#define LARGE_N ((size_t)4194304 + 17)

/* Two rounds on the same buffers with different data, each checked against
 * the stable CPU reference (keys and values). */
START_TEST(pairs_4m_plus_17) {
  run_gl_sort_twice(tg_ctx, LARGE_N, DIST_UNIFORM, 1, 0, 0, 4242);
}
END_TEST

static Suite *large_suite(void) {
  Suite *s = suite_create("large");
  TCase *tc = tcase_create("loop_budget");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_test(tc, pairs_4m_plus_17);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(large_suite)
