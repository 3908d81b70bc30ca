/* glradix_sort_inspect: the keys after each stage of a pass, against CPU
 * stable sorts: after the scatter, the sort by the bits up to that pass's
 * end; after the shuffle (and the scan), each tile of the previous pass's
 * output stably sorted by the pass's digit. */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>

static void stable_by_bits(const uint32_t *in, uint32_t *out, size_t n, unsigned lo, unsigned hi) {
  ref_stable_sort(in, NULL, n, lo, hi, out, NULL);
}

static void check_inspect(size_t n, unsigned radix, uint64_t seed) {
  uint32_t *keys = test_alloc_u32(n), *out = test_alloc_u32(n);
  uint32_t *prev = test_alloc_u32(n), *want = test_alloc_u32(n);
  gen_keys(keys, n, DIST_UNIFORM, seed);
  GLuint kb = buf_create(NULL, 0, n), ob = buf_create(NULL, 0, n);
  const size_t tile = glradix_tile_size(tg_ctx);
  const unsigned passes = 32 / radix;
  const unsigned pick[] = {0, passes / 2, passes - 1};
  for (size_t pi = 0; pi < 3; pi++) {
    unsigned p = pick[pi];
    for (int stage = GLRADIX_STAGE_LOCAL_SHUFFLE; stage <= GLRADIX_STAGE_GLOBAL_SCATTER; stage++) {
      buf_upload(kb, keys, n);
      glradix_sort_desc sd = {0};
      sd.keys = kb;
      sd.count = (uint32_t)n;
      test_log_reset(&tg_log);
      glradix_status st = glradix_sort_inspect(tg_ctx, &sd, p, (glradix_stage)stage, ob);
      ck_assert_msg(st == GLRADIX_OK, "inspect: %s (%s)", glradix_status_string(st), tg_log.first);
      buf_read(ob, out, n);
      unsigned end = (p + 1) * radix;
      if (stage == GLRADIX_STAGE_GLOBAL_SCATTER || n <= tile) {
        stable_by_bits(keys, want, n, 0, end == 32 ? 0 : end);
      } else {
        if (p == 0) {
          for (size_t i = 0; i < n; i++) prev[i] = keys[i];
        } else {
          stable_by_bits(keys, prev, n, 0, p * radix);
        }
        for (size_t t = 0; t < n; t += tile) {
          size_t len = n - t < tile ? n - t : tile;
          stable_by_bits(prev + t, want + t, len, p * radix, end == 32 ? 0 : end);
        }
      }
      char what[80];
      snprintf(what, sizeof what, "n %zu radix %u pass %u stage %d", n, radix, p, stage);
      expect_equal_u32(want, out, n, what);
    }
  }
  expect_no_gl_error("inspect");
  buf_delete(kb);
  buf_delete(ob);
  free(keys);
  free(out);
  free(prev);
  free(want);
}

START_TEST(inspect_default) {
  check_inspect(10007, 8, 11);
  check_inspect(500, 8, 13);
}
END_TEST

START_TEST(inspect_radix_2) {
  check_inspect(10007, 2, 17);
}
END_TEST

START_TEST(inspect_bad_input) {
  GLuint kb = buf_create(NULL, 0, 100), small = buf_create(NULL, 0, 10);
  glradix_sort_desc sd = {0};
  sd.keys = kb;
  sd.count = 100;
  const struct {
    unsigned pass;
    int stage;
    GLuint out;
    const char *what;
  } cases[] = {{4, 0, kb, "pass 4 of 4"}, {0, 3, kb, "stage 3"}, {0, 0, small, "out too small"},
               {0, 0, 987654, "out not a buffer"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    test_log_reset(&tg_log);
    glradix_status st = glradix_sort_inspect(tg_ctx, &sd, cases[i].pass,
                                             (glradix_stage)cases[i].stage, cases[i].out);
    ck_assert_msg(st == GLRADIX_ERROR_INVALID_ARGUMENT, "%s: %s", cases[i].what,
                  glradix_status_string(st));
    ck_assert_msg(tg_log.count == 1, "%s: %d log lines", cases[i].what, tg_log.count);
  }
  /* out_keys the desc's keys or values: refused before anything runs */
  uint32_t keys[100], values[100], after[100];
  gen_keys(keys, 100, DIST_UNIFORM, 5);
  gen_values(values, 100, 0);
  buf_upload(kb, keys, 100);
  GLuint vb = buf_create(values, 100, 100);
  sd.values = vb;
  const GLuint outs[2] = {kb, vb};
  for (int i = 0; i < 2; i++) {
    test_log_reset(&tg_log);
    glradix_status st = glradix_sort_inspect(tg_ctx, &sd, 0, GLRADIX_STAGE_LOCAL_SHUFFLE, outs[i]);
    ck_assert_msg(st == GLRADIX_ERROR_INVALID_ARGUMENT, "out_keys %d: %s", i,
                  glradix_status_string(st));
    ck_assert_int_eq(tg_log.count, 1);
  }
  buf_read(kb, after, 100);
  expect_equal_u32(keys, after, 100, "keys after the refused inspections");
  buf_read(vb, after, 100);
  expect_equal_u32(values, after, 100, "values after the refused inspections");
  expect_no_gl_error("inspect bad input");
  buf_delete(kb);
  buf_delete(vb);
  buf_delete(small);
}
END_TEST

static Suite *inspect_suite(void) {
  Suite *s = suite_create("inspect");
  TCase *tc = tcase_create("default");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_test(tc, inspect_default);
  tcase_add_test(tc, inspect_bad_input);
  suite_add_tcase(s, tc);
  tc = tcase_create("radix_2");
  tcase_add_checked_fixture(tc, ctx_setup_r2, ctx_teardown);
  tcase_add_test(tc, inspect_radix_2);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(inspect_suite)
