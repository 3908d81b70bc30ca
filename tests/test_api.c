/* CPU-only API tests: status strings, version, NULL handling, defaults.
 * No GL context is created here (and none is needed). Also the tests' own
 * CPU references (data.c) against libc's qsort, since every other suite
 * trusts them. */
#include "common.h"

#include <stdlib.h>
#include <string.h>

static const glradix_status all_status[] = {
    GLRADIX_OK,                GLRADIX_ERROR_INVALID_ARGUMENT,
    GLRADIX_ERROR_UNSUPPORTED, GLRADIX_ERROR_SHADER,
    GLRADIX_ERROR_OUT_OF_MEMORY, GLRADIX_ERROR_TOO_LARGE,
    GLRADIX_ERROR_GL};
#define N_STATUS (sizeof all_status / sizeof all_status[0])

START_TEST(status_ok_is_zero) {
  ck_assert_int_eq(GLRADIX_OK, 0);
}
END_TEST

START_TEST(status_string_distinct_for_every_value) {
  for (size_t i = 0; i < N_STATUS; i++) {
    const char *s = glradix_status_string(all_status[i]);
    ck_assert_msg(s != NULL, "status %d: NULL string", (int)all_status[i]);
    ck_assert_msg(s[0] != '\0', "status %d: empty string", (int)all_status[i]);
    ck_assert_msg(strcmp(s, "unknown status") != 0,
                  "status %d is in the enum but reads \"unknown status\"",
                  (int)all_status[i]);
    for (size_t j = 0; j < i; j++)
      ck_assert_msg(strcmp(s, glradix_status_string(all_status[j])) != 0,
                    "status %d and %d share the string \"%s\"",
                    (int)all_status[i], (int)all_status[j], s);
  }
}
END_TEST

START_TEST(status_string_out_of_range) {
  const int bad[] = {-1, (int)N_STATUS, 999, -2147483647 - 1, 2147483647};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    const char *s = glradix_status_string((glradix_status)bad[i]);
    ck_assert_msg(s != NULL, "status %d: NULL string", bad[i]);
    ck_assert_msg(strcmp(s, "unknown status") == 0,
                  "status %d: \"%s\", documented \"unknown status\"", bad[i], s);
  }
}
END_TEST

START_TEST(version_matches_macros) {
  int major = -1, minor = -1, patch = -1;
  glradix_version(&major, &minor, &patch);
  ck_assert_int_eq(major, GLRADIX_VERSION_MAJOR);
  ck_assert_int_eq(minor, GLRADIX_VERSION_MINOR);
  ck_assert_int_eq(patch, GLRADIX_VERSION_PATCH);
}
END_TEST

START_TEST(destroy_null_is_noop) {
  glradix_destroy(NULL);
}
END_TEST

START_TEST(query_desc_null_is_zero) {
  glradix_desc d = glradix_query_desc(NULL);
  ck_assert_msg(d.load == NULL && d.radix_bits == 0 && d.log == NULL &&
                    d.log_user == NULL && d.max_count == 0 &&
                    d.dispatch_limit == 0,
                "glradix_query_desc(NULL) is not all zeroes");
}
END_TEST

START_TEST(null_ctx_queries) {
  ck_assert_uint_eq(glradix_subgroup_size(NULL), 0);
  ck_assert_uint_eq(glradix_tile_size(NULL), 0);
  glradix_stage_times t;
  ck_assert_int_eq(glradix_query_stage_times(NULL, &t),
                   GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(glradix_query_stage_times(NULL, NULL),
                   GLRADIX_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(create_null_desc) {
  int dummy;
  glradix_context *out = (glradix_context *)(void *)&dummy;
  ck_assert_int_eq(glradix_create(NULL, &out), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_ptr_null(out);
}
END_TEST

START_TEST(create_null_out) {
  test_log log;
  test_log_reset(&log);
  glradix_desc d = {0};
  d.load = glradix_headless_load;
  d.log = test_log_fn;
  d.log_user = &log;
  ck_assert_int_eq(glradix_create(&d, NULL), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_msg(log.count == 1, "expected exactly one log line, got %d (%s)",
                log.count, log.first);
  ck_assert_int_eq(log.bad_lines, 0);
}
END_TEST

START_TEST(create_null_load) {
  test_log log;
  test_log_reset(&log);
  glradix_desc d = {0};
  d.log = test_log_fn;
  d.log_user = &log;
  int dummy;
  glradix_context *out = (glradix_context *)(void *)&dummy;
  ck_assert_int_eq(glradix_create(&d, &out), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_ptr_null(out);
  ck_assert_msg(log.count == 1, "expected exactly one log line, got %d (%s)",
                log.count, log.first);
  ck_assert_int_eq(log.bad_lines, 0);
}
END_TEST

START_TEST(create_null_load_without_logger_is_silent) {
  glradix_desc d = {0};
  glradix_context *out = NULL;
  ck_assert_int_eq(glradix_create(&d, &out), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_ptr_null(out);
}
END_TEST

START_TEST(sort_null_ctx) {
  glradix_sort_desc sd = {0};
  sd.keys = 1;
  sd.count = 10;
  ck_assert_int_eq(glradix_sort(NULL, &sd), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(glradix_sort(NULL, NULL), GLRADIX_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(sort_host_null_ctx_leaves_arrays) {
  uint32_t k[10], v[10];
  for (uint32_t i = 0; i < 10; i++) {
    k[i] = 10 - i;
    v[i] = i;
  }
  ck_assert_int_eq(glradix_sort_host(NULL, k, v, 10),
                   GLRADIX_ERROR_INVALID_ARGUMENT);
  for (uint32_t i = 0; i < 10; i++)
    ck_assert_msg(k[i] == 10 - i && v[i] == i, "array changed at %u", i);
}
END_TEST

START_TEST(headless_null_arguments) {
  ck_assert_int_eq(glradix_headless_create(NULL),
                   GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_ptr_null(glradix_headless_renderer(NULL));
  ck_assert_ptr_null(glradix_headless_platform(NULL));
  glradix_headless_destroy(NULL);
}
END_TEST

START_TEST(headless_load_before_create_is_null) {
  /* This forked child never created a headless context. */
  ck_assert_msg(glradix_headless_load("glGetString") == NULL, "glGetString found");
}
END_TEST

/* ---- the references against qsort --------------------------------------- */

typedef struct qsort_item {
  uint64_t order;
  uint32_t index;
} qsort_item;

static int qsort_desc; /* qsort has no context argument */

static int cmp_qsort_item(const void *a, const void *b) {
  const qsort_item *x = a, *y = b;
  if (x->order != y->order) return (x->order < y->order) != (qsort_desc != 0) ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* Sizes around the merge sort's powers of two, few distinct orders (ties
 * must keep their original order), both directions. */
START_TEST(references_match_qsort) {
  static const size_t sizes[] = {0, 1, 2, 3, 5, 16, 17, 1000, 4097};
  uint64_t st = 77;
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    size_t n = sizes[s];
    uint64_t *order = malloc((n ? n : 1) * sizeof *order);
    qsort_item *items = malloc((n ? n : 1) * sizeof *items);
    uint32_t *index = test_alloc_u32(n), *keys = test_alloc_u32(n), *ref = test_alloc_u32(n),
             *expect = test_alloc_u32(n);
    ck_assert(order && items);
    for (size_t i = 0; i < n; i++) {
      keys[i] = (uint32_t)(test_rng_next(&st) >> 32);
      order[i] = keys[i] % 5u * UINT64_C(0x100000001);
    }
    for (int desc = 0; desc <= 1; desc++) {
      for (size_t i = 0; i < n; i++) items[i] = (qsort_item){order[i], (uint32_t)i};
      qsort_desc = desc;
      if (n) qsort(items, n, sizeof *items, cmp_qsort_item);
      for (size_t i = 0; i < n; i++) expect[i] = items[i].index;
      ref_stable_order(order, n, desc, index);
      expect_equal_u32(expect, index, n, desc ? "ref_stable_order, descending" : "ref_stable_order");
    }
    if (n) memcpy(expect, keys, n * sizeof *keys);
    if (n) qsort(expect, n, sizeof *expect, cmp_u32);
    ref_sort_keys(keys, n, ref);
    expect_equal_u32(expect, ref, n, "ref_sort_keys");
    free(order);
    free(items);
    free(index);
    free(keys);
    free(ref);
    free(expect);
  }
}
END_TEST

static Suite *api_suite(void) {
  Suite *s = suite_create("api");
  TCase *tc = tcase_create("cpu");
  tcase_add_test(tc, status_ok_is_zero);
  tcase_add_test(tc, status_string_distinct_for_every_value);
  tcase_add_test(tc, status_string_out_of_range);
  tcase_add_test(tc, version_matches_macros);
  tcase_add_test(tc, destroy_null_is_noop);
  tcase_add_test(tc, query_desc_null_is_zero);
  tcase_add_test(tc, null_ctx_queries);
  tcase_add_test(tc, create_null_desc);
  tcase_add_test(tc, create_null_out);
  tcase_add_test(tc, create_null_load);
  tcase_add_test(tc, create_null_load_without_logger_is_silent);
  tcase_add_test(tc, sort_null_ctx);
  tcase_add_test(tc, sort_host_null_ctx_leaves_arrays);
  tcase_add_test(tc, headless_null_arguments);
  tcase_add_test(tc, headless_load_before_create_is_null);
  suite_add_tcase(s, tc);
  TCase *refs = tcase_create("references");
  tcase_add_test(refs, references_match_qsort);
  suite_add_tcase(s, refs);
  return s;
}

TEST_MAIN(api_suite)
