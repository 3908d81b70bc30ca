/* Key types (int32, float32) and descending order, keys only and pairs,
 * against a CPU reference that compares the keys as C values (int32_t, float
 * with an explicit total order for -0 and NaNs), stably by original index. */
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct kv {
  uint32_t key;
  uint32_t index;
} kv;

static glradix_key_type g_type;
static int g_descending;

static float as_float(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/* IEEE 754 totalOrder: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN;
 * NaNs of one sign ordered by payload (larger magnitude further out). */
static int cmp_float_total(uint32_t a, uint32_t b) {
  float fa = as_float(a), fb = as_float(b);
  int na = isnan(fa), nb = isnan(fb);
  int sa = signbit(fa) != 0, sb = signbit(fb) != 0;
  if (na || nb) {
    int ra = na ? (sa ? -1 : 1) : 0; /* -1: -NaN, 1: +NaN, 0: a number */
    int rb = nb ? (sb ? -1 : 1) : 0;
    if (ra != rb) return ra < rb ? -1 : 1;
    uint32_t ma = a & 0x7FFFFFFFu, mb = b & 0x7FFFFFFFu; /* both NaN, same sign */
    if (ma == mb) return 0;
    return (ma < mb) == (ra > 0) ? -1 : 1;
  }
  if (fa < fb) return -1;
  if (fa > fb) return 1;
  if (sa != sb) return sa ? -1 : 1; /* -0 < +0 */
  return 0;
}

static int cmp_key(uint32_t a, uint32_t b) {
  switch (g_type) {
  case GLRADIX_KEY_INT32: {
    int32_t x = (int32_t)a, y = (int32_t)b;
    return (x > y) - (x < y);
  }
  case GLRADIX_KEY_FLOAT32: return cmp_float_total(a, b);
  default: return (a > b) - (a < b);
  }
}

static int cmp_kv(const void *pa, const void *pb) {
  const kv *a = pa, *b = pb;
  int c = cmp_key(a->key, b->key);
  if (g_descending) c = -c;
  if (c != 0) return c;
  return (a->index > b->index) - (a->index < b->index); /* stable */
}

/* Interesting values of each type, mixed into random ones. */
static const uint32_t int_specials[] = {0x80000000u, 0x80000001u, 0xFFFFFFFFu, 0u, 1u,
                                        0x7FFFFFFEu, 0x7FFFFFFFu, 0xFFFFFF00u};
static const uint32_t float_specials[] = {
    0x00000000u, /* +0 */       0x80000000u, /* -0 */
    0x7F800000u, /* +inf */     0xFF800000u, /* -inf */
    0x7FC00000u, /* +qNaN */    0xFFC00000u, /* -qNaN */
    0x7F800001u, /* +sNaN */    0xFF800001u, /* -sNaN */
    0x00000001u, /* +denorm */  0x80000001u, /* -denorm */
    0x007FFFFFu, /* +max denorm */ 0x807FFFFFu,
    0x3F800000u, /* 1 */        0xBF800000u, /* -1 */
    0x7F7FFFFFu, /* FLT_MAX */  0xFF7FFFFFu};

static void gen_typed(uint32_t *keys, size_t n, glradix_key_type type, uint64_t seed) {
  uint64_t st = seed;
  const uint32_t *sp = type == GLRADIX_KEY_FLOAT32 ? float_specials : int_specials;
  size_t nsp = type == GLRADIX_KEY_FLOAT32 ? sizeof float_specials / sizeof float_specials[0]
                                           : sizeof int_specials / sizeof int_specials[0];
  for (size_t i = 0; i < n; i++) {
    uint32_t r = (uint32_t)test_rng_next(&st);
    /* a third specials (repeated: ties check stability), a third small
     * values around zero, a third anything */
    switch (r % 3u) {
    case 0: keys[i] = sp[(r >> 8) % nsp]; break;
    case 1:
      keys[i] = type == GLRADIX_KEY_FLOAT32 ? (r & 0x80000000u) | 0x3F800000u | ((r >> 4) & 0xFFu)
                                            : (uint32_t)((int32_t)((r >> 8) & 0xFFu) - 128);
      break;
    default: keys[i] = (uint32_t)test_rng_next(&st); break;
    }
  }
}

static void check_typed(glradix_key_type type, int descending, size_t n, int pairs,
                        uint64_t seed) {
  uint32_t *keys = test_alloc_u32(n), *values = test_alloc_u32(n);
  uint32_t *out_k = test_alloc_u32(n), *out_v = test_alloc_u32(n);
  kv *ref = malloc((n ? n : 1) * sizeof *ref);
  ck_assert_ptr_nonnull(ref);
  GLuint kb = buf_create(NULL, 0, n ? n : 1), vb = pairs ? buf_create(NULL, 0, n ? n : 1) : 0;
  for (unsigned round = 0; round < 2; round++) {
    gen_typed(keys, n, type, seed + round);
    gen_values(values, n, round);
    buf_upload(kb, keys, n);
    if (pairs) buf_upload(vb, values, n);
    glradix_sort_desc sd = {0};
    sd.keys = kb;
    sd.values = vb;
    sd.count = (uint32_t)n;
    sd.key_type = type;
    sd.descending = descending;
    test_log_reset(&tg_log);
    glradix_status st = glradix_sort(tg_ctx, &sd);
    ck_assert_msg(st == GLRADIX_OK, "type %d desc %d n %zu pairs %d round %u: sort failed: %s",
                  (int)type, descending, n, pairs, round, glradix_status_string(st));
    ck_assert_msg(tg_log.count == 0, "type %d desc %d n %zu pairs %d round %u: a good sort logged: %s",
                  (int)type, descending, n, pairs, round, tg_log.first);
    buf_read(kb, out_k, n);
    if (pairs) buf_read(vb, out_v, n);

    for (size_t i = 0; i < n; i++) ref[i] = (kv){keys[i], (uint32_t)i};
    g_type = type;
    g_descending = descending;
    qsort(ref, n, sizeof *ref, cmp_kv);
    for (size_t i = 0; i < n; i++) {
      EXPECT_MSG(out_k[i] == ref[i].key,
                    "type %d desc %d n %zu round %u: key[%zu] = 0x%08x, expected 0x%08x",
                    (int)type, descending, n, round, i, out_k[i], ref[i].key);
      if (pairs)
        EXPECT_MSG(out_v[i] == values[ref[i].index],
                      "type %d desc %d n %zu round %u: value[%zu] = %u, expected %u",
                      (int)type, descending, n, round, i, out_v[i], values[ref[i].index]);
    }
  }
  expect_no_gl_error("typed sort");
  buf_delete(kb);
  if (vb) buf_delete(vb);
  free(keys);
  free(values);
  free(out_k);
  free(out_v);
  free(ref);
}

/* one-tile (tile_sort), a few tiles, and many tiles */
static const size_t sizes[] = {1, 777, 5000, 100003};
#define N_SIZES (sizeof sizes / sizeof sizes[0])

/* case index -> type x descending x size x pairs; a forked child runs one
 * type, both directions (CASES_PER) */
#define CASES_PER (2 * 2 * N_SIZES)
#define N_TYPED (3 * CASES_PER)
static void typed_case(int i, int radix2) {
  size_t k = (size_t)i;
  int pairs = (int)(k % 2);
  k /= 2;
  size_t n = sizes[k % N_SIZES];
  k /= N_SIZES;
  /* radix_bits 2's 16 passes on one tile and a few only (the key
   * transforms are the same at every width); trimmed runs: one size per
   * kind, many tiles with values only */
  if ((radix2 && n == 100003) || (test_trimmed() && (n == 777 || (n == 100003 && !pairs)))) return;
  int descending = (int)(k % 2);
  k /= 2;
  static const glradix_key_type types[] = {GLRADIX_KEY_UINT32, GLRADIX_KEY_INT32,
                                           GLRADIX_KEY_FLOAT32};
  check_typed(types[k % 3], descending, n, pairs, 4000 + (uint64_t)i * 2);
}

START_TEST(typed_default_radix) { FOR_GROUP_CASES(i, CASES_PER, N_TYPED) typed_case(i, 0); }
END_TEST
START_TEST(typed_radix_2) { FOR_GROUP_CASES(i, CASES_PER, N_TYPED) typed_case(i, 1); }
END_TEST

START_TEST(descending_partial_range) {
  /* Descending over bits [4, 12) of uint32 keys: the reference orders by
   * that field only, largest first, stably. */
  const size_t n = 30011;
  uint32_t *keys = test_alloc_u32(n), *values = test_alloc_u32(n);
  uint32_t *out_k = test_alloc_u32(n), *out_v = test_alloc_u32(n);
  kv *ref = malloc(n * sizeof *ref);
  ck_assert_ptr_nonnull(ref);
  gen_keys(keys, n, DIST_UNIFORM, 77);
  gen_values(values, n, 0);
  GLuint kb = buf_create(keys, n, n), vb = buf_create(values, n, n);
  glradix_sort_desc sd = {0};
  sd.keys = kb;
  sd.values = vb;
  sd.count = (uint32_t)n;
  sd.begin_bit = 4;
  sd.end_bit = 12;
  sd.descending = 1;
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_OK);
  buf_read(kb, out_k, n);
  buf_read(vb, out_v, n);
  for (size_t i = 0; i < n; i++) ref[i] = (kv){(keys[i] >> 4) & 0xFFu, (uint32_t)i};
  g_type = GLRADIX_KEY_UINT32;
  g_descending = 1;
  qsort(ref, n, sizeof *ref, cmp_kv);
  for (size_t i = 0; i < n; i++) {
    ck_assert_uint_eq(out_k[i], keys[ref[i].index]);
    ck_assert_uint_eq(out_v[i], values[ref[i].index]);
  }
  buf_delete(kb);
  buf_delete(vb);
  free(keys);
  free(values);
  free(out_k);
  free(out_v);
  free(ref);
}
END_TEST

START_TEST(bad_key_type) {
  GLuint kb = buf_create(NULL, 0, 16);
  uint32_t before[16], after[16];
  for (uint32_t i = 0; i < 16; i++) before[i] = 16 - i;
  buf_upload(kb, before, 16);
  glradix_sort_desc sd = {0};
  sd.keys = kb;
  sd.count = 16;
  sd.key_type = (glradix_key_type)9;
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(tg_log.count, 1);
  buf_read(kb, after, 16);
  expect_equal_u32(before, after, 16, "keys after a rejected key_type");
  buf_delete(kb);
}
END_TEST

static Suite *key_types_suite(void) {
  Suite *s = suite_create("key_types");
  const int cases = CASE_GROUPS(N_TYPED, CASES_PER);
  TCase *tc = tcase_create("default_radix");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_loop_test(tc, typed_default_radix, 0, cases);
  tcase_add_test(tc, descending_partial_range);
  tcase_add_test(tc, bad_key_type);
  suite_add_tcase(s, tc);
  if (test_fallback_run()) return s; /* the single-pass plan at radix_bits 8 */
  /* radix_bits 2 on GPUs counts the next pass's digits in shuffle_scatter,
   * through the key order (the *_gpu_forms run) */
  tc = tcase_create("radix_2");
  tcase_add_checked_fixture(tc, ctx_setup_r2, ctx_teardown);
  tcase_add_loop_test(tc, typed_radix_2, 0, cases);
  suite_add_tcase(s, tc);
  tc = tcase_create("radix_2_scan_then_propagate");
  tcase_add_checked_fixture(tc, ctx_setup_stp_r2, ctx_teardown);
  tcase_add_loop_test(tc, typed_radix_2, 0, cases);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(key_types_suite)
