/* Stress: randomized small sorts against the CPU reference (fixed seed,
 * printed on failure), create/destroy cycles without GL name growth, and
 * two threads sorting at once, each on its own headless context. */
#include "common.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STRESS_SEED 20261130u

/* The order of a key as a C value, over bits [lo, hi) for the unsigned types. */
static uint64_t order_of(const uint32_t *w, size_t i, glradix_key_type t, unsigned lo, unsigned hi) {
  if (t == GLRADIX_KEY_INT32) return (uint64_t)((int64_t)(int32_t)w[i] + 2147483648ll);
  if (t == GLRADIX_KEY_FLOAT32) {
    /* finite floats only: widened to double, whose sign-magnitude bits
     * order as unsigned once negatives are flipped (-0 just below +0) */
    float f;
    memcpy(&f, &w[i], 4);
    double d = f;
    uint64_t bits;
    memcpy(&bits, &d, 8);
    return bits >> 63 ? ~bits : bits | (1ull << 63);
  }
  uint64_t k = t == GLRADIX_KEY_UINT64 ? (uint64_t)w[2 * i] | ((uint64_t)w[2 * i + 1] << 32) : w[i];
  unsigned width = hi - lo;
  return (k >> lo) & (width >= 64 ? ~0ull : ((1ull << width) - 1ull));
}

static void random_case(glradix_context *const ctxs[3], uint64_t *st, unsigned case_no) {
  static const glradix_key_type types[] = {GLRADIX_KEY_UINT32, GLRADIX_KEY_INT32,
                                           GLRADIX_KEY_FLOAT32, GLRADIX_KEY_UINT64};
  uint64_t r = test_rng_next(st);
  glradix_context *ctx = ctxs[r % 3];
  glradix_key_type type = types[(r >> 2) % 4];
  int pairs = (int)((r >> 4) & 1), desc = (int)((r >> 5) & 1);
  size_t n = (size_t)(test_rng_next(st) % 3000u);
  unsigned width = type == GLRADIX_KEY_UINT64 ? 64 : 32, lo = 0, hi = width;
  if (type == GLRADIX_KEY_UINT32 || type == GLRADIX_KEY_UINT64) {
    lo = (unsigned)(test_rng_next(st) % width);
    hi = lo + 1 + (unsigned)(test_rng_next(st) % (width - lo));
  }
  unsigned kw = type == GLRADIX_KEY_UINT64 ? 2 : 1;
  uint32_t *w = test_alloc_u32(n * kw + 1), *v = test_alloc_u32(n + 1);
  uint32_t *ow = test_alloc_u32(n * kw + 1), *ov = test_alloc_u32(n + 1);
  uint32_t spread = (uint32_t)(test_rng_next(st) % 3u); /* few, some, many distinct keys */
  for (size_t i = 0; i < n * kw; i++) {
    uint32_t x = (uint32_t)test_rng_next(st);
    w[i] = spread == 0 ? x % 5u : spread == 1 ? x & 0x00F00F0Fu : x;
    if (type == GLRADIX_KEY_FLOAT32 && ((w[i] >> 23) & 0xFFu) == 0xFFu) w[i] &= 0xBFFFFFFFu;
  }
  for (size_t i = 0; i < n; i++) v[i] = (uint32_t)i;
  GLuint kb = buf_create(w, n * kw, n * kw + 1), vb = pairs ? buf_create(v, n, n + 1) : 0;
  glradix_sort_desc sd = {0};
  sd.keys = kb;
  sd.values = vb;
  sd.count = (uint32_t)n;
  sd.key_type = type;
  sd.descending = desc;
  sd.begin_bit = lo;
  sd.end_bit = hi == width ? 0 : hi;
  glradix_status s = glradix_sort(ctx, &sd);
  ck_assert_msg(s == GLRADIX_OK, "seed %u case %u: %s", STRESS_SEED, case_no,
                glradix_status_string(s));
  buf_read(kb, ow, n * kw);
  if (pairs) buf_read(vb, ov, n);
  uint64_t *order = calloc(n + 1, sizeof *order);
  uint32_t *ref = test_alloc_u32(n + 1);
  ck_assert_ptr_nonnull(order);
  for (size_t i = 0; i < n; i++) order[i] = order_of(w, i, type, lo, hi);
  ref_stable_order(order, n, desc, ref);
  for (size_t i = 0; i < n; i++) {
    uint32_t src = ref[i];
    EXPECT_MSG(memcmp(&ow[i * kw], &w[(size_t)src * kw], kw * 4) == 0 &&
                      (!pairs || ov[i] == src),
                  "seed %u case %u (n %zu type %d desc %d pairs %d bits [%u,%u) radix %u): "
                  "position %zu holds the wrong key",
                  STRESS_SEED, case_no, n, (int)type, desc, pairs, lo, hi,
                  glradix_query_desc(ctx).radix_bits, i);
  }
  free(order);
  free(ref);
  buf_delete(kb);
  if (vb) buf_delete(vb);
  free(w);
  free(v);
  free(ow);
  free(ov);
}

START_TEST(randomized_small_cases) {
  glradix_context *ctxs[3] = {NULL, NULL, NULL};
  const unsigned bits[3] = {2, 4, 8};
  for (int i = 0; i < 3; i++) {
    glradix_desc d = test_desc(bits[i], 0);
    if (i == 1) d.plan = GLRADIX_PLAN_SCAN_THEN_PROPAGATE;
    ck_assert_int_eq(glradix_create(&d, &ctxs[i]), GLRADIX_OK);
  }
  /* The asan test preset (test_trimmed) runs a quarter: the host code
   * takes the same few paths in every case, and the shaders are the ci
   * preset's to exercise. */
  uint64_t st = STRESS_SEED;
  const unsigned cases = test_trimmed() ? 500 : 2000;
  for (unsigned c = 0; c < cases; c++) random_case(ctxs, &st, c);
  expect_no_gl_error("randomized cases");
  for (int i = 0; i < 3; i++) glradix_destroy(ctxs[i]);
}
END_TEST

/* 200 create / sort / destroy cycles (50 under the asan test preset)
 * leave no buffer or program behind: every name handed out meanwhile is
 * free again afterwards. */
START_TEST(create_destroy_cycles) {
  uint32_t keys[3000];
  GLuint probe[2];
  tg_gl.GenBuffers(1, &probe[0]);
  tg_gl.DeleteBuffers(1, &probe[0]);
  GLuint first_program = tg_gl.CreateProgram();
  tg_gl.DeleteProgram(first_program);
  const int cycles = test_trimmed() ? 50 : 200;
  for (int c = 0; c < cycles; c++) {
    glradix_desc d = test_desc(0, 0);
    glradix_context *ctx = NULL;
    ck_assert_int_eq(glradix_create(&d, &ctx), GLRADIX_OK);
    gen_keys(keys, 3000, DIST_UNIFORM, (uint64_t)c);
    ck_assert_int_eq(glradix_sort_host(ctx, keys, NULL, 3000), GLRADIX_OK);
    glradix_destroy(ctx);
  }
  tg_gl.GenBuffers(1, &probe[1]);
  GLuint last_program = tg_gl.CreateProgram();
  unsigned buffers = 0, programs = 0;
  for (GLuint name = probe[0] + 1; name < probe[1]; name++) buffers += tg_gl.IsBuffer(name) != 0;
  for (GLuint name = first_program + 1; name < last_program; name++)
    programs += tg_gl.IsProgram(name) != 0;
  ck_assert_msg(buffers == 0 && programs == 0,
                "%u buffers and %u programs left after %d cycles (names %u..%u, %u..%u)",
                buffers, programs, cycles, probe[0], probe[1], first_program, last_program);
  tg_gl.DeleteBuffers(1, &probe[1]);
  tg_gl.DeleteProgram(last_program);
  expect_no_gl_error("cycles");
}
END_TEST

/* Two threads, each with its own headless GL context and glradix context,
 * sorting at the same time. Contexts are made one after the other (EGL
 * loading is process-wide); the sorts overlap. */
typedef struct worker {
  pthread_mutex_t *setup;
  int ok;
  uint64_t seed;
} worker;

static void *work(void *arg) {
  worker *w = arg;
  glradix_headless *h = NULL;
  glradix_context *ctx = NULL;
  pthread_mutex_lock(w->setup);
  glradix_status s = glradix_headless_create(&h);
  if (s == GLRADIX_OK) {
    glradix_desc d = {0};
    d.load = glradix_headless_load;
    s = glradix_create(&d, &ctx);
  }
  pthread_mutex_unlock(w->setup);
  w->ok = s == GLRADIX_OK;
  enum { N = 50000 };
  uint32_t *k = malloc(N * 4), *ref = malloc(N * 4);
  for (int round = 0; round < 20 && w->ok && k && ref; round++) {
    gen_keys(k, N, DIST_UNIFORM, w->seed + (uint64_t)round);
    ref_sort_keys(k, N, ref);
    w->ok = glradix_sort_host(ctx, k, NULL, N) == GLRADIX_OK && memcmp(k, ref, N * 4) == 0;
  }
  free(k);
  free(ref);
  ref_release(); /* the references keep arrays per thread (data.c) */
  pthread_mutex_lock(w->setup);
  glradix_destroy(ctx);
  glradix_headless_destroy(h);
  pthread_mutex_unlock(w->setup);
  return NULL;
}

START_TEST(two_threads) {
  pthread_mutex_t setup = PTHREAD_MUTEX_INITIALIZER;
  worker w[2] = {{&setup, 0, 100}, {&setup, 0, 200}};
  pthread_t t[2];
  for (int i = 0; i < 2; i++) ck_assert_int_eq(pthread_create(&t[i], NULL, work, &w[i]), 0);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  ck_assert_msg(w[0].ok && w[1].ok, "thread results: %d %d", w[0].ok, w[1].ok);
}
END_TEST

static Suite *stress_suite(void) {
  Suite *s = suite_create("stress");
  TCase *tc = tcase_create("gl");
  tcase_add_checked_fixture(tc, gl_setup, gl_teardown);
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, randomized_small_cases);
  tcase_add_test(tc, create_destroy_cycles);
  suite_add_tcase(s, tc);
  tc = tcase_create("threads"); /* makes its own contexts */
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, two_threads);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(stress_suite)
