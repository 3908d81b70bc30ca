/* desc.profile, glradix_query_stage_times and glradix_query_lbvh_times. */
#include "common.h"

#include <glradix/lbvh.h>

#include <stdlib.h>
#include <string.h>

static void profile_setup(void) {
  glradix_desc d = test_desc(0, 0);
  d.profile = 1;
  ctx_setup_with(d);
}

static void profile_r2_setup(void) {
  glradix_desc d = test_desc(2, 0);
  d.profile = 1;
  ctx_setup_with(d);
}

static glradix_stage_times query_ok(const char *after) {
  glradix_stage_times t;
  test_log_reset(&tg_log);
  expect_call_ok(glradix_query_stage_times(tg_ctx, &t), after);
  return t;
}

static void expect_plausible(const glradix_stage_times *t, unsigned passes,
                             const char *after) {
  ck_assert_msg(t->passes == passes, "after %s: %u passes, expected %u", after,
                t->passes, passes);
  ck_assert_msg(t->tiles_ms >= 0 && t->scan_ms >= 0 &&
                    t->scatter_ms >= 0 && t->total_ms > 0,
                "after %s: times %g %g %g total %g", after, t->tiles_ms,
                t->scan_ms, t->scatter_ms, t->total_ms);
  double sum = t->tiles_ms + t->scan_ms + t->scatter_ms;
  ck_assert_msg(sum <= t->total_ms * 1.05 + 0.05,
                "after %s: stages sum to %g ms, more than the total %g ms",
                after, sum, t->total_ms);
}

START_TEST(nothing_sorted_yet) {
  glradix_stage_times t = query_ok("create");
  ck_assert_uint_eq(t.passes, 0);
}
END_TEST

START_TEST(times_of_last_sort) {
  run_gl_sort_twice(tg_ctx, 100003, DIST_UNIFORM, 1, 0, 0, 61);
  glradix_stage_times t = query_ok("a 32-bit sort");
  expect_plausible(&t, 32 / GLRADIX_DEFAULT_RADIX_BITS, "a 32-bit sort");
  run_gl_sort_twice(tg_ctx, 4097, DIST_UNIFORM, 0, 4, 12, 63);
  t = query_ok("a [4,12) sort");
  expect_plausible(&t, (8 + GLRADIX_DEFAULT_RADIX_BITS - 1) /
                           GLRADIX_DEFAULT_RADIX_BITS, "a [4,12) sort");
  /* a count-0 sort runs nothing; the API does not say whether it resets
   * the times, so only the status is checked */
  glradix_sort_desc sd = {0};
  sd.keys = 1;
  sd.count = 0;
  (void)glradix_sort(tg_ctx, &sd);
  (void)query_ok("a count-0 sort");
}
END_TEST

/* The single-pass plan's fallbacks: none in a sort of another plan; with
 * every look-back forced to fall back (the test hook), at least one per
 * tile after the first, per pass. */
START_TEST(fallbacks_of_last_sort) {
  const size_t n = 3 * (size_t)glradix_tile_size(tg_ctx) + 5;
  run_gl_sort_twice(tg_ctx, n, DIST_UNIFORM, 1, 0, 0, 67);
  glradix_stage_times t = query_ok("a sort");
  ck_assert_uint_eq(t.fallbacks, 0);
  glradix_destroy(tg_ctx);
  _glradix_test_hooks h = _GLRADIX_TEST_HOOKS_NONE;
  h.plan = GLRADIX_PLAN_ONESWEEP;
  h.force_fallback = 1;
  glradix_desc d = test_desc(0, 0);
  d.profile = 1;
  tg_ctx = NULL;
  ck_assert_int_eq(_glradix_create_for_tests(&d, &h, &tg_ctx), GLRADIX_OK);
  run_gl_sort_twice(tg_ctx, n, DIST_UNIFORM, 1, 0, 0, 68);
  t = query_ok("a forced single-pass sort");
  const unsigned tiles = (unsigned)((n + glradix_tile_size(tg_ctx) - 1) / glradix_tile_size(tg_ctx));
  ck_assert_msg(t.fallbacks >= (tiles - 1) * t.passes, "%u fallbacks, %u tiles, %u passes",
                t.fallbacks, tiles, t.passes);
}
END_TEST

/* Inspection is not profiled: the last sort's times stay readable. */
START_TEST(inspect_leaves_the_last_sort_times) {
  run_gl_sort_twice(tg_ctx, 100003, DIST_UNIFORM, 0, 0, 0, 69);
  glradix_stage_times before = query_ok("a sort");
  uint32_t *k = test_alloc_u32(100003);
  gen_keys(k, 100003, DIST_UNIFORM, 71);
  GLuint kb = buf_create(k, 100003, 100003), out = buf_create(NULL, 0, 100003);
  glradix_sort_desc sd = {0};
  sd.keys = kb;
  sd.count = 100003;
  ck_assert_int_eq(glradix_sort_inspect(tg_ctx, &sd, 1, GLRADIX_STAGE_SCAN, out), GLRADIX_OK);
  glradix_stage_times after = query_ok("an inspection");
  ck_assert_msg(after.passes == before.passes && after.total_ms == before.total_ms &&
                    after.scan_ms == before.scan_ms && after.fallbacks == before.fallbacks,
                "the inspection changed the times: %u passes %g ms, were %u passes %g ms",
                after.passes, after.total_ms, before.passes, before.total_ms);
  buf_delete(kb);
  buf_delete(out);
  free(k);
}
END_TEST

/* A GL error the application left pending is neither reported as the
 * query's nor swallowed: one log line, and the caller's glGetError still
 * sees it. */
START_TEST(query_leaves_pending_gl_errors) {
  run_gl_sort_twice(tg_ctx, 100003, DIST_UNIFORM, 0, 0, 0, 65);
  tg_gl.Enable(0x7FFF); /* GL_INVALID_ENUM, the application's */
  glradix_stage_times t;
  test_log_reset(&tg_log);
  glradix_status st = glradix_query_stage_times(tg_ctx, &t);
  ck_assert_msg(st == GLRADIX_OK, "%s (log: %s)", glradix_status_string(st), tg_log.first);
  ck_assert_msg(tg_log.count == 1 && strstr(tg_log.first, "pending before the call"),
                "%d log lines: %s", tg_log.count, tg_log.first);
  ck_assert_uint_eq(tg_gl.GetError(), GL_INVALID_ENUM);
  expect_no_gl_error("after the caller took its error back");
  expect_plausible(&t, 32 / GLRADIX_DEFAULT_RADIX_BITS, "a sort and a pending error");
}
END_TEST

START_TEST(radix_2_counts_passes) {
  run_gl_sort_twice(tg_ctx, 12345, DIST_MORTON, 1, 0, 30, 65);
  glradix_stage_times t = query_ok("[0,30) radix 2");
  expect_plausible(&t, 15, "[0,30) radix 2");
  run_host_sort_twice(tg_ctx, 12345, DIST_UNIFORM, 1, 67);
  t = query_ok("sort_host radix 2");
  expect_plausible(&t, 16, "sort_host radix 2");
}
END_TEST

START_TEST(query_rejects_bad_arguments) {
  glradix_stage_times t;
  ck_assert_int_eq(glradix_query_stage_times(NULL, &t),
                   GLRADIX_ERROR_INVALID_ARGUMENT);
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_query_stage_times(tg_ctx, NULL),
                   GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(tg_log.count, 1);
}
END_TEST

START_TEST(query_without_profile_is_invalid) {
  glradix_stage_times t;
  test_log_reset(&tg_log);
  run_gl_sort_twice(tg_ctx, 1025, DIST_UNIFORM, 1, 0, 0, 69);
  ck_assert_int_eq(glradix_query_stage_times(tg_ctx, &t),
                   GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(tg_log.count, 1);
  glradix_lbvh_times lt;
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_query_lbvh_times(tg_ctx, &lt), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(tg_log.count, 1);
  expect_no_gl_error("query without profile");
}
END_TEST


static glradix_lbvh_times lbvh_times_ok(const char *after) {
  glradix_lbvh_times t;
  test_log_reset(&tg_log);
  expect_call_ok(glradix_query_lbvh_times(tg_ctx, &t), after);
  double sum = t.codes_ms + t.sort_ms + t.leaves_ms + t.tree_ms;
  ck_assert_msg(t.codes_ms >= 0 && t.sort_ms >= 0 && t.leaves_ms >= 0 && t.tree_ms >= 0 &&
                    sum <= t.total_ms * 1.001 + 0.001,
                "after %s: steps %g %g %g %g ms, total %g ms", after, t.codes_ms, t.sort_ms,
                t.leaves_ms, t.tree_ms, t.total_ms);
  return t;
}

/* Every step of a build timed, none of them left out of the total; a
 * refit has no codes or sort. */
START_TEST(lbvh_times_of_last_build_and_refit) {
  glradix_lbvh_times t = lbvh_times_ok("create");
  ck_assert_msg(t.total_ms == 0, "times before any build: total %g ms", t.total_ms);
  const uint32_t n = 100003;
  float *b = test_random_boxes(n, 73);
  GLuint bounds = buf_create((const uint32_t *)b, (size_t)n * 8, (size_t)n * 8);
  GLuint nodes = buf_create(NULL, 0, glradix_lbvh_nodes_bytes(n) / 4);
  glradix_lbvh_desc d = {0};
  d.bounds = bounds;
  d.count = n;
  d.nodes = nodes;
  ck_assert_int_eq(glradix_lbvh_build(tg_ctx, &d), GLRADIX_OK);
  t = lbvh_times_ok("a build");
  ck_assert_msg(t.codes_ms > 0 && t.sort_ms > 0 && t.leaves_ms > 0 && t.tree_ms > 0,
                "a build's steps: %g %g %g %g ms", t.codes_ms, t.sort_ms, t.leaves_ms, t.tree_ms);
  ck_assert_msg(t.codes_ms + t.sort_ms + t.leaves_ms + t.tree_ms >= t.total_ms * 0.999 - 0.001,
                "a build's steps leave part of the total %g ms out", t.total_ms);
  ck_assert_int_eq(glradix_lbvh_refit(tg_ctx, &d), GLRADIX_OK);
  glradix_lbvh_times r = lbvh_times_ok("a refit");
  ck_assert_msg(r.leaves_ms > 0 && r.tree_ms > 0 && r.codes_ms + r.sort_ms < 0.05 * r.total_ms,
                "a refit's steps: %g %g %g %g ms", r.codes_ms, r.sort_ms, r.leaves_ms, r.tree_ms);
  glradix_lbvh_times bad;
  ck_assert_int_eq(glradix_query_lbvh_times(NULL, &bad), GLRADIX_ERROR_INVALID_ARGUMENT);
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_query_lbvh_times(tg_ctx, NULL), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(tg_log.count, 1);
  buf_delete(bounds);
  buf_delete(nodes);
  free(b);
}
END_TEST

static Suite *profile_suite(void) {
  Suite *s = suite_create("profile");
  TCase *tc = tcase_create("profile_on");
  tcase_add_checked_fixture(tc, profile_setup, ctx_teardown);
  tcase_add_test(tc, nothing_sorted_yet);
  tcase_add_test(tc, times_of_last_sort);
  /* ES reads the count by a map, as glradix_sort_host its keys */
  if (!test_es()) tcase_add_test(tc, fallbacks_of_last_sort);
  tcase_add_test(tc, inspect_leaves_the_last_sort_times);
  tcase_add_test(tc, query_rejects_bad_arguments);
  tcase_add_test(tc, query_leaves_pending_gl_errors);
  tcase_add_test(tc, lbvh_times_of_last_build_and_refit);
  suite_add_tcase(s, tc);

  tc = tcase_create("profile_on_radix_2");
  tcase_add_checked_fixture(tc, profile_r2_setup, ctx_teardown);
  tcase_add_test(tc, radix_2_counts_passes);
  suite_add_tcase(s, tc);

  tc = tcase_create("profile_off");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_test(tc, query_without_profile_is_invalid);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(profile_suite)
