/* GLRADIX_KEY_UINT64: keys of two uint32 words, low word first, against a
 * CPU stable sort of uint64_t values (bits [begin_bit, end_bit), ascending or
 * descending), with values checking stability and words past the count
 * checking that nothing else is touched. */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* D64_NO_LOW_BYTE: the first pass alone is skipped at radix_bits 8, so a
 * key the skipped pass's copy lost cannot be found again where the caller's
 * buffer still holds it (as after two skipped passes in a row). */
typedef enum {
  D64_UNIFORM, D64_HIGH_ONLY, D64_LOW_ONLY, D64_MORTON63, D64_FEW, D64_NO_LOW_BYTE, D64_COUNT
} dist64;

/* 63-bit Morton code of three 21-bit coordinates, by plain bit loops. */
static uint64_t morton63(uint32_t x, uint32_t y, uint32_t z) {
  uint64_t m = 0;
  for (unsigned b = 0; b < 21; b++) {
    m |= (uint64_t)((x >> b) & 1u) << (3 * b);
    m |= (uint64_t)((y >> b) & 1u) << (3 * b + 1);
    m |= (uint64_t)((z >> b) & 1u) << (3 * b + 2);
  }
  return m;
}

static void gen64(uint64_t *keys, size_t n, dist64 d, uint64_t seed) {
  uint64_t st = seed, few[5];
  for (int i = 0; i < 5; i++) few[i] = test_rng_next(&st);
  for (size_t i = 0; i < n; i++) {
    uint64_t r = test_rng_next(&st);
    switch (d) {
    case D64_HIGH_ONLY: keys[i] = r & 0xFFFFFFFF00000000ull; break;
    case D64_LOW_ONLY: keys[i] = r & 0xFFFFFFFFull; break;
    case D64_MORTON63:
      keys[i] = morton63((uint32_t)r & 0x1FFFFFu, (uint32_t)(r >> 21) & 0x1FFFFFu,
                         (uint32_t)(r >> 42) & 0x1FFFFFu);
      break;
    case D64_FEW: keys[i] = few[r % 5u]; break;
    case D64_NO_LOW_BYTE: keys[i] = r & ~0xFFull; break;
    default: keys[i] = r; break;
    }
  }
}

static void check64(size_t n, dist64 d, int pairs, int desc, unsigned begin, unsigned end,
                    int indirect, uint64_t seed) {
  const size_t guard = 5;
  size_t words = 2 * (n + guard);
  uint64_t *keys = malloc((n + guard) * sizeof *keys);
  uint32_t *kw = test_alloc_u32(words), *out = test_alloc_u32(words);
  uint32_t *values = test_alloc_u32(n + guard), *out_v = test_alloc_u32(n + guard);
  uint64_t *order = calloc(n ? n : 1, sizeof *order);
  uint32_t *ref = test_alloc_u32(n ? n : 1); /* input index of each output slot */
  ck_assert_ptr_nonnull(keys);
  ck_assert_ptr_nonnull(order);
  GLuint kb = buf_create(NULL, 0, words), vb = pairs ? buf_create(NULL, 0, n + guard) : 0;
  const uint32_t count = (uint32_t)n;
  GLuint cb = indirect ? buf_create(&count, 1, 1) : 0;
  unsigned e = end ? end : 64;
  uint64_t mask = (e - begin == 64) ? ~0ull : ((1ull << (e - begin)) - 1ull);
  for (unsigned round = 0; round < 2; round++) {
    gen64(keys, n + guard, d, seed + round);
    gen_values(values, n + guard, round);
    memcpy(kw, keys, words * sizeof *kw); /* little-endian: low word first */
    buf_upload(kb, kw, words);
    if (pairs) buf_upload(vb, values, n + guard);
    glradix_sort_desc sd = {0};
    sd.keys = kb;
    sd.values = vb;
    sd.count = indirect ? (uint32_t)(n + guard) : (uint32_t)n; /* capacity */
    sd.key_type = GLRADIX_KEY_UINT64;
    sd.begin_bit = begin;
    sd.end_bit = end;
    sd.descending = desc;
    sd.count_buffer = cb;
    char what[128];
    snprintf(what, sizeof what, "n %zu dist %d pairs %d desc %d [%u,%u) indirect %d round %u", n,
             (int)d, pairs, desc, begin, end, indirect, round);
    test_log_reset(&tg_log);
    glradix_status st = glradix_sort(tg_ctx, &sd);
    ck_assert_msg(st == GLRADIX_OK, "%s: 64-bit sort: %s (%s)", what, glradix_status_string(st),
                  tg_log.first);
    ck_assert_msg(tg_log.count == 0, "%s: a good sort logged: %s", what, tg_log.first);
    buf_read(kb, out, words);
    if (pairs) buf_read(vb, out_v, n + guard);
    for (size_t i = 0; i < n; i++) order[i] = (keys[i] >> begin) & mask;
    ref_stable_order(order, n, desc, ref);
    for (size_t i = 0; i < n; i++) {
      uint64_t got = (uint64_t)out[2 * i] | ((uint64_t)out[2 * i + 1] << 32);
      uint64_t want = keys[ref[i]];
      EXPECT_MSG(got == want, "%s: key[%zu] = 0x%016llx, expected 0x%016llx", what, i,
                    (unsigned long long)got, (unsigned long long)want);
      if (pairs)
        EXPECT_MSG(out_v[i] == values[ref[i]], "%s: value[%zu] = %u, expected %u",
                      what, i, out_v[i], values[ref[i]]);
    }
    expect_equal_u32(kw + 2 * n, out + 2 * n, 2 * guard, what); /* past the count */
    if (pairs) expect_equal_u32(values + n, out_v + n, guard, what);
  }
  expect_no_gl_error("64-bit sort");
  buf_delete(kb);
  if (vb) buf_delete(vb);
  if (cb) buf_delete(cb);
  free(keys);
  free(kw);
  free(out);
  free(values);
  free(out_v);
  free(ref);
  free(order);
}

static const size_t sizes[] = {1, 777, 3001, 100003};
#define N_SIZES (sizeof sizes / sizeof sizes[0])

/* case index -> size x distribution x pairs x descending; a forked child
 * runs two sizes (CASES_PER) */
#define N_FULL (N_SIZES * D64_COUNT * 4)
#define CASES_PER (2 * D64_COUNT * 4)
/* mode 0: the default tcase; 1: with a GPU count (radix_bits 2); 2: the
 * second plan */
static void full_key_case(int i, int mode) {
  size_t k = (size_t)i;
  int desc = (int)(k % 2);
  k /= 2;
  int pairs = (int)(k % 2);
  k /= 2;
  dist64 d = (dist64)(k % D64_COUNT);
  k /= D64_COUNT;
  /* radix_bits 2 runs 32 passes, and the second plan's many tiles repeat
   * the first's host code: the largest size in the default tcase only */
  size_t n = mode ? sizes[k % (N_SIZES - 1)] : sizes[k % N_SIZES];
  /* over many tiles, every pass run, the low word's or the first alone
   * skipped; trimmed runs: one key, and at many tiles every pass run or
   * the low word's skipped */
  if (n == 100003 && (d == D64_FEW || d == D64_LOW_ONLY)) return;
  if (test_trimmed() && n != 1 && (n != 100003 || (d != D64_UNIFORM && d != D64_HIGH_ONLY)))
    return;
  check64(n, d, pairs, desc, 0, 0, mode == 1, 6000 + (uint64_t)i * 2);
}

START_TEST(key64_full) { FOR_GROUP_CASES(i, CASES_PER, N_FULL) full_key_case(i, 0); }
END_TEST
START_TEST(key64_full_indirect) { FOR_GROUP_CASES(i, CASES_PER, N_FULL) full_key_case(i, 1); }
END_TEST
START_TEST(key64_full_second_plan) { FOR_GROUP_CASES(i, CASES_PER, N_FULL) full_key_case(i, 2); }
END_TEST

/* Ranges inside the low word, across the word boundary, in the high word. */
static const unsigned ranges[][2] = {{0, 63}, {20, 44}, {32, 0}, {5, 37}, {0, 1}, {63, 64}};
#define N_RANGES (sizeof ranges / sizeof ranges[0])

START_TEST(key64_ranges) { /* a forked child runs every range, keys or pairs */
  FOR_GROUP_CASES(i, N_RANGES, N_RANGES * 2) {
    size_t r = (size_t)i % N_RANGES;
    int pairs = (int)(((size_t)i / N_RANGES) % 2);
    check64(20011, D64_UNIFORM, pairs, 0, ranges[r][0], ranges[r][1], 0, 7000 + (uint64_t)i * 2);
    check64(20011, D64_MORTON63, pairs, 1, ranges[r][0], ranges[r][1], 0, 7100 + (uint64_t)i * 2);
  }
}
END_TEST

/* Around the one-dispatch limit, half a tile for 64-bit keys, after a
 * reserve for them (which compiles their programs too). */
START_TEST(key64_small_edges) {
  const size_t half = glradix_tile_size(tg_ctx) / 2;
  const size_t n[] = {half - 1, half, half + 1, 2 * half, 2 * half + 1};
  glradix_sort_desc sd = {0};
  sd.values = 1; /* only "nonzero" matters to the reserve */
  sd.count = (uint32_t)n[4];
  sd.key_type = GLRADIX_KEY_UINT64;
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_reserve(tg_ctx, &sd), GLRADIX_OK);
  ck_assert_int_eq(tg_log.count, 0);
  for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
    check64(n[i], D64_UNIFORM, 1, (int)(i % 2), 0, 0, 0, 7300 + i * 2);
}
END_TEST

START_TEST(key64_bad_range) {
  GLuint kb = buf_create(NULL, 0, 32);
  glradix_sort_desc sd = {0};
  sd.keys = kb;
  sd.count = 16;
  sd.key_type = GLRADIX_KEY_UINT64;
  sd.end_bit = 65;
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(tg_log.count, 1);
  sd.end_bit = 0;
  sd.count = 17; /* 17 keys need 136 bytes; the buffer has 128 */
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(tg_log.count, 1);
  buf_delete(kb);
}
END_TEST

static Suite *key64_suite(void) {
  Suite *s = suite_create("key64");
  const int full = CASE_GROUPS(N_FULL, CASES_PER);
  TCase *tc = tcase_create("default");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_loop_test(tc, key64_full, 0, full);
  /* the ranges' host code and uniforms: the plain run's */
  if (!test_trimmed()) tcase_add_loop_test(tc, key64_ranges, 0, CASE_GROUPS(N_RANGES * 2, N_RANGES));
  tcase_add_test(tc, key64_small_edges);
  tcase_add_test(tc, key64_bad_range);
  suite_add_tcase(s, tc);
  if (test_fallback_run()) return s; /* the single-pass plan at radix_bits 8 */
  tc = tcase_create("radix_2_indirect");
  tcase_add_checked_fixture(tc, ctx_setup_r2, ctx_teardown);
  tcase_add_loop_test(tc, key64_full_indirect, 0, full);
  suite_add_tcase(s, tc);
  if (test_trimmed()) return s; /* the second plan's host code: the plain run's */
  tc = tcase_create("scan_then_propagate");
  tcase_add_checked_fixture(tc, ctx_setup_stp_r8, ctx_teardown);
  tcase_add_loop_test(tc, key64_full_second_plan, 0, full);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(key64_suite)
