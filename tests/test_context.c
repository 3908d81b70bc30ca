/* Context lifecycle: query_desc defaults, several contexts on one GL
 * context, max_count pre-allocation, repeated create/destroy. */
#include "common.h"

START_TEST(query_desc_resolves_defaults) {
  glradix_desc q = glradix_query_desc(tg_ctx);
  ck_assert_uint_eq(q.radix_bits, GLRADIX_DEFAULT_RADIX_BITS);
  ck_assert_int_eq(q.plan, GLRADIX_PLAN_REDUCE_THEN_SCAN);
  ck_assert_msg(q.load == glradix_headless_load, "load not echoed");
  ck_assert_msg(q.log == test_log_fn, "log not echoed");
  ck_assert_msg(q.log_user == &tg_log, "log_user not echoed");
  ck_assert_uint_eq(q.max_count, 0);
  ck_assert_int_eq(q.disable_subgroups, 0);
  ck_assert_int_eq(q.profile, 0);
  GLint limit = 0;
  tg_gl.GetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &limit);
  ck_assert_msg(q.dispatch_limit == 0 || q.dispatch_limit == (uint32_t)limit,
                "dispatch_limit 0 resolved to %u (driver limit %d)",
                (unsigned)q.dispatch_limit, (int)limit);
}
END_TEST

START_TEST(query_desc_echoes_explicit_values) {
  static const unsigned bits[] = {2, 4, 8};
  for (size_t i = 0; i < 3; i++) {
    glradix_desc d = test_desc(bits[i], 3);
    d.max_count = 5000;
    d.disable_subgroups = 1;
    d.profile = 1;
    glradix_context *c = NULL;
    ck_assert_int_eq(glradix_create(&d, &c), GLRADIX_OK);
    glradix_desc q = glradix_query_desc(c);
    ck_assert_uint_eq(q.radix_bits, bits[i]);
    ck_assert_uint_eq(q.dispatch_limit, 3);
    ck_assert_uint_eq(q.max_count, 5000);
    ck_assert_msg(q.disable_subgroups != 0, "disable_subgroups not echoed");
    ck_assert_msg(q.profile != 0, "profile not echoed");
    glradix_destroy(c);
  }
  ck_assert_int_eq(tg_log.count, 0);
  expect_no_gl_error("create/destroy");
}
END_TEST

START_TEST(create_destroy_repeatedly) {
  static const unsigned bits[] = {0, 2, 4, 8};
  for (int i = 0; i < 8; i++) {
    glradix_desc d = test_desc(bits[i % 4], 0);
    glradix_context *c = NULL;
    ck_assert_int_eq(glradix_create(&d, &c), GLRADIX_OK);
    ck_assert_ptr_nonnull(c);
    glradix_destroy(c);
  }
  ck_assert_int_eq(tg_log.count, 0);
  expect_no_gl_error("create/destroy loop");
  /* the fixture's context is unaffected */
  run_gl_sort_twice(tg_ctx, 5000, DIST_UNIFORM, 1, 0, 0, 11);
}
END_TEST

START_TEST(two_contexts_interleaved) {
  glradix_desc d = test_desc(4, 0);
  glradix_context *other = NULL;
  ck_assert_int_eq(glradix_create(&d, &other), GLRADIX_OK);
  run_gl_sort_twice(tg_ctx, 4097, DIST_UNIFORM, 1, 0, 0, 21);
  run_gl_sort_twice(other, 4097, DIST_MORTON, 1, 0, 0, 22);
  run_gl_sort_twice(tg_ctx, 100003, DIST_FEW_UNIQUE, 1, 0, 0, 23);
  run_gl_sort_twice(other, 12345, DIST_UNIFORM, 0, 0, 0, 24);
  run_host_sort_twice(other, 1025, DIST_UNIFORM, 1, 25);
  glradix_destroy(other);
  /* destroying one leaves the other working */
  run_gl_sort_twice(tg_ctx, 12345, DIST_REVERSE, 1, 0, 0, 26);
}
END_TEST

START_TEST(max_count_preallocated) {
  glradix_desc d = test_desc(0, 0);
  d.max_count = 100003;
  glradix_context *c = NULL;
  ck_assert_int_eq(glradix_create(&d, &c), GLRADIX_OK);
  ck_assert_int_eq(tg_log.count, 0);
  run_gl_sort_twice(c, 100003, DIST_UNIFORM, 1, 0, 0, 31);
  run_gl_sort_twice(c, 1025, DIST_MORTON, 1, 0, 0, 32);
  run_host_sort_twice(c, 100003, DIST_FEW_UNIQUE, 1, 33);
  glradix_destroy(c);
}
END_TEST

START_TEST(scratch_grows_on_demand) {
  /* one context, increasing then decreasing sizes */
  run_gl_sort_twice(tg_ctx, 1000, DIST_UNIFORM, 1, 0, 0, 41);
  run_gl_sort_twice(tg_ctx, 100003, DIST_UNIFORM, 1, 0, 0, 42);
  run_gl_sort_twice(tg_ctx, 4097, DIST_UNIFORM, 1, 0, 0, 43);
  run_gl_sort_twice(tg_ctx, 262147, DIST_MORTON, 1, 0, 0, 44);
  run_gl_sort_twice(tg_ctx, 17, DIST_UNIFORM, 1, 0, 0, 45);
}
END_TEST

/* The portable path (no subgroups) must always be available and correct;
 * on drivers with GL_KHR_shader_subgroup the default path differs. */
START_TEST(subgroups_disabled_portable_path) {
  ck_assert_uint_eq(glradix_subgroup_size(NULL), 0);
  unsigned sg = glradix_subgroup_size(tg_ctx);
  ck_assert_msg(sg == 0 || (sg & (sg - 1)) == 0,
                "subgroup size %u is not a power of two", sg);
  glradix_desc d = test_desc(0, 0);
  d.disable_subgroups = 1;
  glradix_context *c = NULL;
  ck_assert_int_eq(glradix_create(&d, &c), GLRADIX_OK);
  ck_assert_uint_eq(glradix_subgroup_size(c), 0);
  run_gl_sort_twice(c, 100003, DIST_UNIFORM, 1, 0, 0, 51);
  run_gl_sort_twice(c, 1025, DIST_MORTON, 0, 3, 32, 53);
  run_host_sort_twice(c, 4097, DIST_FEW_UNIQUE, 1, 55);
  glradix_destroy(c);
}
END_TEST

/* glradix_scratch_bytes / glradix_reserve: sizes follow the documented
 * rules (none up to one tile, at least 4 bytes a key, values double the
 * tile scratch, monotone), reserve then sort works, limits are enforced. */
START_TEST(scratch_query_and_reserve) {
  const uint32_t tile = glradix_tile_size(tg_ctx);
  glradix_sort_desc keys = {0}, pairs = {0};
  pairs.values = 1; /* only "nonzero" matters to the query */
  keys.count = pairs.count = tile;
  ck_assert_uint_eq(glradix_scratch_bytes(tg_ctx, &keys), 0);
  uint32_t sizes[] = {tile + 1, 100003, 1u << 20};
  size_t last = 0;
  for (size_t i = 0; i < 3; i++) {
    keys.count = pairs.count = sizes[i];
    size_t k = glradix_scratch_bytes(tg_ctx, &keys), p = glradix_scratch_bytes(tg_ctx, &pairs);
    ck_assert_msg(k >= 4u * sizes[i] && p >= 8u * sizes[i] && p > k && k > last,
                  "count %u: %zu bytes keys-only, %zu pairs", sizes[i], k, p);
    last = k;
  }
  ck_assert_uint_eq(glradix_scratch_bytes(NULL, &keys), 0);
  ck_assert_uint_eq(glradix_scratch_bytes(tg_ctx, NULL), 0);
  keys.count = UINT32_MAX; /* beyond llvmpipe's 128 MiB blocks */
  ck_assert_uint_eq(glradix_scratch_bytes(tg_ctx, &keys), 0);
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_reserve(tg_ctx, &keys), GLRADIX_ERROR_TOO_LARGE);
  ck_assert_int_eq(tg_log.count, 1);
  ck_assert_int_eq(glradix_reserve(tg_ctx, NULL), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(glradix_reserve(NULL, &keys), GLRADIX_ERROR_INVALID_ARGUMENT);
  /* an unknown key_type: no size, and reserve refuses it with one line */
  glradix_sort_desc odd = {0};
  odd.count = 100003;
  odd.key_type = (glradix_key_type)9;
  ck_assert_uint_eq(glradix_scratch_bytes(tg_ctx, &odd), 0);
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_reserve(tg_ctx, &odd), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(tg_log.count, 1);
  pairs.count = 300007;
  ck_assert_int_eq(glradix_reserve(tg_ctx, &pairs), GLRADIX_OK);
  expect_no_gl_error("reserve");
  run_gl_sort_twice(tg_ctx, 300007, DIST_MORTON, 1, 0, 0, 61);
  run_gl_sort_twice(tg_ctx, 12345, DIST_UNIFORM, 0, 0, 0, 63);
}
END_TEST

static Suite *context_suite(void) {
  Suite *s = suite_create("context");
  TCase *tc = tcase_create("lifecycle");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_test(tc, query_desc_resolves_defaults);
  tcase_add_test(tc, query_desc_echoes_explicit_values);
  tcase_add_test(tc, create_destroy_repeatedly);
  tcase_add_test(tc, two_contexts_interleaved);
  tcase_add_test(tc, max_count_preallocated);
  tcase_add_test(tc, scratch_query_and_reserve);
  tcase_add_test(tc, scratch_grows_on_demand);
  tcase_add_test(tc, subgroups_disabled_portable_path);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(context_suite)
