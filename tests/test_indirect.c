/* GPU-driven counts (glradix_sort_desc.count_buffer): the number of keys
 * comes from a GL buffer, `count` is the capacity. Checked against the
 * stable CPU reference on the first min(gpu count, capacity) keys; the keys
 * and values past that must come back untouched. Also the chain a GPU-driven
 * renderer runs: compaction's count fed straight into the sort. */
#include "common.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void check_indirect(glradix_context *ctx, size_t capacity, size_t gpu_count, int pairs,
                           unsigned end_bit, uint64_t seed) {
  size_t n = gpu_count < capacity ? gpu_count : capacity;
  size_t words = capacity ? capacity : 1;
  uint32_t *keys = test_alloc_u32(capacity), *values = test_alloc_u32(capacity);
  uint32_t *out_k = test_alloc_u32(capacity), *out_v = test_alloc_u32(capacity);
  uint32_t *ref_k = test_alloc_u32(capacity), *ref_v = test_alloc_u32(capacity);
  GLuint kb = buf_create(NULL, 0, words), vb = pairs ? buf_create(NULL, 0, words) : 0;
  const uint32_t count_words[4] = {7, 7, 7, (uint32_t)gpu_count};
  GLuint cb = buf_create(count_words, 4, 4);
  for (unsigned round = 0; round < 2; round++) {
    gen_keys(keys, capacity, round ? DIST_MORTON : DIST_UNIFORM, seed + round);
    gen_values(values, capacity, round);
    buf_upload(kb, keys, capacity);
    if (pairs) buf_upload(vb, values, capacity);
    glradix_sort_desc sd = {0};
    sd.keys = kb;
    sd.values = vb;
    sd.count = (uint32_t)capacity;
    sd.end_bit = end_bit;
    sd.count_buffer = cb;
    sd.count_offset = COUNT_OFFSET;
    char what[128];
    snprintf(what, sizeof what, "capacity %zu gpu count %zu pairs %d end_bit %u round %u",
             capacity, gpu_count, pairs, end_bit, round);
    test_log_reset(&tg_log);
    glradix_status st = glradix_sort(ctx, &sd);
    ck_assert_msg(st == GLRADIX_OK, "%s: indirect sort: %s", what, glradix_status_string(st));
    ck_assert_msg(tg_log.count == 0, "%s: a good sort logged: %s", what, tg_log.first);
    buf_read(kb, out_k, capacity);
    if (pairs) buf_read(vb, out_v, capacity);
    ref_stable_sort(keys, pairs ? values : NULL, n, 0, end_bit, ref_k, pairs ? ref_v : NULL);
    expect_equal_u32(ref_k, out_k, n, what);
    expect_equal_u32(keys + n, out_k + n, capacity - n, what); /* untouched tail */
    if (pairs) {
      expect_equal_u32(ref_v, out_v, n, what);
      expect_equal_u32(values + n, out_v + n, capacity - n, what);
    }
  }
  uint32_t after[4];
  buf_read(cb, after, 4);
  expect_equal_u32(count_words, after, 4, "count buffer after the sort");
  expect_no_gl_error("indirect sort");
  buf_delete(kb);
  if (vb) buf_delete(vb);
  buf_delete(cb);
  free(keys);
  free(values);
  free(out_k);
  free(out_v);
  free(ref_k);
  free(ref_v);
}

/* (capacity, gpu count) pairs: below, equal to and above the capacity, 0,
 * within one tile, and a count needing fewer tiles than the capacity
 * (indirect_gpu_forms: capacities from 300000 in wide tiles, one filled). */
static const size_t cases[][2] = {
    {100003, 0},     {100003, 1},     {100003, 5000},  {100003, 100003},
    {100003, 999999}, {1000, 0},      {1000, 999},     {1000, 1000},
    {1000, 4000},    {300007, 400000}, {300007, 150001}};
#define N_CASES (sizeof cases / sizeof cases[0])

static void indirect_case(int i, unsigned end_bit, int default_plan) {
  size_t k = (size_t)i;
  /* under the sanitizers, for the second plan and dispatch_limit 3, and
   * radix_bits 2's 15 passes in trimmed runs: the host code takes the
   * same path at 100003 */
  if ((test_sanitized() || !default_plan || (test_trimmed() && end_bit == 30)) &&
      cases[k / 2][0] > 100003)
    return;
  int pairs = (int)(k % 2);
  check_indirect(tg_ctx, cases[k / 2][0], cases[k / 2][1], pairs, end_bit,
                 300 + (uint64_t)i * 2);
}

/* A forked child runs both pairs and keys alone of four (capacity, count)
 * pairs. */
#define INDIRECT_PER 8
START_TEST(indirect_counts) { FOR_GROUP_CASES(i, INDIRECT_PER, N_CASES * 2) indirect_case(i, 0, 1); }
END_TEST
/* the scan-then-propagate plan, and dispatch_limit 3 */
START_TEST(indirect_counts_other) {
  FOR_GROUP_CASES(i, INDIRECT_PER, N_CASES * 2) indirect_case(i, 0, 0);
}
END_TEST
/* 30 bits at radix_bits 2: 15 passes, odd, so the reduce-then-scan plan
 * ends with copy_back over the GPU count. */
START_TEST(indirect_counts_odd_passes) {
  FOR_GROUP_CASES(i, INDIRECT_PER, N_CASES * 2) indirect_case(i, 30, 1);
}
END_TEST

/* cull -> compact -> sort: the kept keys and their count never leave the GPU. */
START_TEST(compact_count_feeds_sort) {
  const size_t n = 200003;
  uint32_t *keys = test_alloc_u32(n), *flags = test_alloc_u32(n), *out = test_alloc_u32(n);
  uint32_t *kept = test_alloc_u32(n), *ref = test_alloc_u32(n);
  for (unsigned round = 0; round < 2; round++) {
    uint64_t st = 77 + round;
    gen_keys(keys, n, DIST_MORTON, 500 + round);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
      flags[i] = (uint32_t)(test_rng_next(&st) % 3u == 0u);
      if (flags[i]) kept[m++] = keys[i];
    }
    GLuint in = buf_create(keys, n, n), fb = buf_create(flags, n, n);
    GLuint compacted = buf_create(NULL, 0, n), cb = buf_create(NULL, 0, 4);
    glradix_compact_desc cd = {0};
    cd.input = in;
    cd.output = compacted;
    cd.flags = fb;
    cd.count = (uint32_t)n;
    cd.count_out_buffer = cb;
    ck_assert_int_eq(glradix_compact(tg_ctx, &cd), GLRADIX_OK);
    glradix_sort_desc sd = {0};
    sd.keys = compacted;
    sd.count = (uint32_t)n; /* capacity */
    sd.count_buffer = cb;
    ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_OK);
    buf_read(compacted, out, n);
    ref_sort_keys(kept, m, ref);
    expect_equal_u32(ref, out, m, "compacted then sorted");
    buf_delete(in);
    buf_delete(fb);
    buf_delete(compacted);
    buf_delete(cb);
  }
  expect_no_gl_error("compact then sort");
  free(keys);
  free(flags);
  free(out);
  free(kept);
  free(ref);
}
END_TEST

START_TEST(indirect_bad_input) {
  uint32_t before[64], after[64];
  for (uint32_t i = 0; i < 64; i++)
    before[i] = 64 - i; /* descending: a sort that ran would change them */
  GLuint kb = buf_create(before, 64, 64), cb = buf_create(NULL, 0, 2);
  glradix_sort_desc sd = {0};
  sd.keys = kb;
  sd.count = 64;
  sd.count_buffer = cb;
  sd.count_offset = 2; /* not a multiple of 4 */
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(tg_log.count, 1);
  sd.count_offset = 8; /* past the 8-byte buffer */
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(tg_log.count, 1);
  sd.count_offset = SIZE_MAX - 3; /* a multiple of 4 whose word would wrap past 0 */
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(tg_log.count, 1);
  sd.count_buffer = 987654;
  sd.count_offset = 0;
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(tg_log.count, 1);
  buf_read(kb, after, 64);
  expect_equal_u32(before, after, 64, "keys after the rejected sorts");
  expect_no_gl_error("indirect bad input");
  buf_delete(kb);
  buf_delete(cb);
}
END_TEST

/* The count word far into a large buffer: past GL_MAX_SHADER_STORAGE_BLOCK_SIZE
 * on llvmpipe (128 MiB) and not aligned to the storage-buffer offset
 * alignment, which a storage binding of it would need. */
START_TEST(indirect_count_far) {
  const size_t capacity = 5000, gpu_count = 3001, far = (150u << 20) + 12;
  GLuint cb = buf_create(NULL, 0, (160u << 20) / 4);
  const uint32_t count_word = (uint32_t)gpu_count;
  tg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, cb);
  tg_gl.BufferSubData(GL_COPY_WRITE_BUFFER, (GLintptr)far, 4, &count_word);
  tg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, 0);
  uint32_t *keys = test_alloc_u32(capacity), *out = test_alloc_u32(capacity);
  uint32_t *ref = test_alloc_u32(capacity);
  gen_keys(keys, capacity, DIST_UNIFORM, 77);
  GLuint kb = buf_create(keys, capacity, capacity);
  glradix_sort_desc sd = {0};
  sd.keys = kb;
  sd.count = (uint32_t)capacity;
  sd.count_buffer = cb;
  sd.count_offset = far;
  test_log_reset(&tg_log);
  glradix_status st = glradix_sort(tg_ctx, &sd);
  ck_assert_msg(st == GLRADIX_OK, "far count: %s (%s)", glradix_status_string(st), tg_log.first);
  buf_read(kb, out, capacity);
  ref_stable_sort(keys, NULL, gpu_count, 0, 32, ref, NULL);
  expect_equal_u32(ref, out, gpu_count, "keys sorted by a far count");
  expect_equal_u32(keys + gpu_count, out + gpu_count, capacity - gpu_count, "untouched tail");
  expect_no_gl_error("far count");
  buf_delete(kb);
  buf_delete(cb);
  free(keys);
  free(out);
  free(ref);
}
END_TEST

static Suite *indirect_suite(void) {
  Suite *s = suite_create("indirect");
  TCase *tc = tcase_create("default");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_loop_test(tc, indirect_counts, 0, CASE_GROUPS(N_CASES * 2, INDIRECT_PER));
  tcase_add_test(tc, compact_count_feeds_sort);
  tcase_add_test(tc, indirect_bad_input);
  tcase_add_test(tc, indirect_count_far);
  suite_add_tcase(s, tc);
  if (test_fallback_run()) return s; /* the single-pass plan at radix_bits 8 */
  tc = tcase_create("radix_2");
  tcase_add_checked_fixture(tc, ctx_setup_r2, ctx_teardown);
  tcase_add_loop_test(tc, indirect_counts_odd_passes, 0, CASE_GROUPS(N_CASES * 2, INDIRECT_PER));
  suite_add_tcase(s, tc);
  /* indirect_gpu_forms stops here: what the GPU forms change in the host
   * code (wide tiles, the next counts of radix_bits 2) the two tcases above
   * take, and the plans below are indirect's; so does the asan preset's
   * run (sort_bits and dispatch run these plans' host code under it). */
  if (test_forms() || test_sanitized()) return s;
  tc = tcase_create("scan_then_propagate");
  tcase_add_checked_fixture(tc, ctx_setup_stp_r8, ctx_teardown);
  tcase_add_loop_test(tc, indirect_counts_other, 0, CASE_GROUPS(N_CASES * 2, INDIRECT_PER));
  suite_add_tcase(s, tc);
  tc = tcase_create("dispatch_limit_3");
  tcase_add_checked_fixture(tc, ctx_setup_dl3, ctx_teardown);
  tcase_add_loop_test(tc, indirect_counts_other, 0, CASE_GROUPS(N_CASES * 2, INDIRECT_PER));
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(indirect_suite)
