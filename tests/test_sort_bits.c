/* Partial bit ranges [begin_bit, end_bit), radix_bits 2, 4, 8 and both pass
 * plans (reduce-then-scan by default, scan-then-propagate explicitly). The
 * reference is a stable sort on (key >> begin_bit) & mask; keys keep all
 * their bits. */
#include "common.h"

/* {0, 31} and {2, 13} end in a pass of odd width below bit 32: a last
 * split taking two bits would sort by a bit outside the range. */
static const unsigned ranges[][2] = {{0, 30}, {4, 12}, {31, 32}, {0, 1}, {3, 32},
                                     {0, 0} /* 0 = 32 */, {5, 0}, {16, 32}, {0, 31}, {2, 13}};
#define N_RANGES (sizeof ranges / sizeof ranges[0])
static const size_t range_sizes[] = {1025, 100003};
static const test_dist range_dists[] = {DIST_UNIFORM, DIST_MORTON,
                                        DIST_FEW_UNIQUE};
#define N_RSIZES (sizeof range_sizes / sizeof range_sizes[0])
#define N_RDISTS (sizeof range_dists / sizeof range_dists[0])

static void range_case(int i, int pairs, uint64_t seed) {
  size_t r = (size_t)i % N_RANGES;
  size_t rest = (size_t)i / N_RANGES;
  test_dist d = range_dists[rest % N_RDISTS];
  size_t n = range_sizes[rest / N_RDISTS];
  /* over many tiles, Morton codes; trimmed runs: not in other forms (their
   * programs take the ranges as uniforms, as the full range's do) */
  if (n >= 100003 && d != DIST_MORTON) return;
  if (test_trimmed() && (n < 100003 || test_forms())) return;
  run_gl_sort_twice(tg_ctx, n, d, pairs, ranges[r][0], ranges[r][1], seed);
}

/* Runs under the default, r2, r4 and r8 fixtures; a forked child runs
 * every range and distribution of one size (RANGES_PER). */
#define N_RANGE_CASES (N_RANGES * N_RDISTS * N_RSIZES)
#define RANGES_PER (N_RANGES * N_RDISTS)
START_TEST(range_keys) {
  FOR_GROUP_CASES(i, RANGES_PER, N_RANGE_CASES) range_case(i, 0, 100 + (uint64_t)i * 2);
}
END_TEST
START_TEST(range_pairs) {
  FOR_GROUP_CASES(i, RANGES_PER, N_RANGE_CASES) range_case(i, 1, 300 + (uint64_t)i * 2);
}
END_TEST

static const size_t radix_sizes[] = {1, 2, 1023, 1025, 4097, 100003};
static const test_dist radix_dists[] = {DIST_UNIFORM, DIST_FEW_UNIQUE, DIST_MORTON,
                                        DIST_EQUAL, DIST_REVERSE, DIST_LOW_BITS};
#define N_XSIZES (sizeof radix_sizes / sizeof radix_sizes[0])
#define N_XDISTS (sizeof radix_dists / sizeof radix_dists[0])

/* a forked child runs three sizes */
#define XSIZES_PER (3 * N_XDISTS)
START_TEST(radix_pairs_size_x_dist) {
  FOR_GROUP_CASES(i, XSIZES_PER, N_XSIZES * N_XDISTS) {
    size_t n = radix_sizes[(size_t)i / N_XDISTS];
    test_dist d = radix_dists[(size_t)i % N_XDISTS];
    /* many tiles: random and few unique keys (test_sort has the others) */
    if (!runs_in_grid(n, d) || (n >= 100003 && d != DIST_UNIFORM && d != DIST_FEW_UNIQUE)) continue;
    run_gl_sort_twice(tg_ctx, n, d, 1, 0, 0, 700 + (uint64_t)i * 2);
  }
}
END_TEST

START_TEST(radix_keys_and_host) {
  run_gl_sort_twice(tg_ctx, 12345, DIST_UNIFORM, 0, 0, 0, 900);
  run_host_sort_twice(tg_ctx, 12345, DIST_HIGH_BITS, 1, 902);
  run_host_sort_twice(tg_ctx, 4097, DIST_ALL_ONES, 0, 904);
}
END_TEST

/* Enough keys for several blocks of counts in the scan, where at
 * radix_bits 2 the passes after the first spread their block totals into
 * two level-1 regions in turn (sort.c). radix_bits 2's reduce-then-scan
 * plan only: the wider digits' large grids are the large suite's and the
 * other forms' runs'. */
START_TEST(radix_scan_blocks) {
  run_gl_sort_twice(tg_ctx, (1u << 20) + 3, DIST_UNIFORM, 1, 0, 0, 950);
}
END_TEST

/* The radix tests on `tc`'s context. */
static void add_radix_tests(TCase *tc, int scan_blocks) {
  tcase_add_loop_test(tc, radix_pairs_size_x_dist, 0, CASE_GROUPS(N_XSIZES * N_XDISTS, XSIZES_PER));
  tcase_add_test(tc, radix_keys_and_host);
  /* in the plain run: the other forms' radix_pairs_size_x_dist has large
   * grids (forms_env.c's small_grid), and their scans several blocks at
   * radix_bits 8 */
  if (scan_blocks && !test_trimmed()) tcase_add_test(tc, radix_scan_blocks);
}

static TCase *radix_tcase(const char *name, void (*setup)(void), int scan_blocks) {
  TCase *tc = tcase_create(name);
  tcase_add_checked_fixture(tc, setup, ctx_teardown);
  /* the ranges at the smaller size only (case index < RANGES_PER) */
  tcase_add_loop_test(tc, range_keys, 0, 1);
  tcase_add_loop_test(tc, range_pairs, 0, 1);
  add_radix_tests(tc, scan_blocks);
  return tc;
}

static Suite *sort_bits_suite(void) {
  Suite *s = suite_create("sort_bits");
  TCase *tc = tcase_create("ranges_default_radix");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  int nr = CASE_GROUPS(N_RANGE_CASES, RANGES_PER);
  tcase_add_loop_test(tc, range_keys, 0, nr);
  tcase_add_loop_test(tc, range_pairs, 0, nr);
  add_radix_tests(tc, 0); /* the default radix_bits is 8 */
  suite_add_tcase(s, tc);

  if (test_fallback_run()) return s;
  suite_add_tcase(s, radix_tcase("radix_bits_2", ctx_setup_r2, 1));
  suite_add_tcase(s, radix_tcase("scan_then_propagate_radix_bits_8", ctx_setup_stp_r8, 0));
  /* radix_bits 4 takes the host code of the others; in other forms
   * gpu_forms_* runs its programs, and key_types the second plan's at 2 */
  if (!test_trimmed()) suite_add_tcase(s, radix_tcase("radix_bits_4", ctx_setup_r4, 0));
  return s;
}

TEST_MAIN(sort_bits_suite)
