/* Bad input: every rejected call returns the documented status, logs
 * exactly one line and leaves the caller's buffers/arrays untouched. */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NW 1000u /* words in the fixture's buffers */

static GLuint kb, vb;
static uint32_t k0[NW], v0[NW];

static void bufs_setup(void) {
  ctx_setup_default();
  gen_keys(k0, NW, DIST_UNIFORM, 77);
  gen_values(v0, NW, 1);
  kb = buf_create(k0, NW, NW);
  vb = buf_create(v0, NW, NW);
}

static void bufs_teardown(void) {
  buf_delete(kb);
  buf_delete(vb);
  ctx_teardown();
}

static glradix_sort_desc sort_desc(unsigned keys, unsigned values,
                                   uint32_t count) {
  glradix_sort_desc sd = {0};
  sd.keys = keys;
  sd.values = values;
  sd.count = count;
  return sd;
}

static void expect_untouched(const char *what) {
  static uint32_t got[NW];
  char label[256];
  buf_read(kb, got, NW);
  snprintf(label, sizeof label, "%s: keys buffer changed", what);
  expect_equal_u32(k0, got, NW, label);
  buf_read(vb, got, NW);
  snprintf(label, sizeof label, "%s: values buffer changed", what);
  expect_equal_u32(v0, got, NW, label);
}

static void expect_one_line(glradix_status st, glradix_status want,
                            const char *what) {
  ck_assert_msg(st == want, "%s: returned \"%s\", expected \"%s\" (log: %s)",
                what, glradix_status_string(st), glradix_status_string(want),
                tg_log.first);
  ck_assert_msg(tg_log.count == 1, "%s: expected exactly 1 log line, got %d "
                "(first: \"%s\", last: \"%s\")", what, tg_log.count,
                tg_log.first, tg_log.last);
  ck_assert_msg(tg_log.bad_lines == 0, "%s: a log line was empty or had a "
                "newline", what);
}

/* The rejected call must leave no GL error behind, the buffers as they
 * were, and the context still able to sort them correctly. */
static void expect_rejected(const glradix_sort_desc *sd, glradix_status want,
                            const char *what) {
  expect_no_gl_error("before the call");
  test_log_reset(&tg_log);
  glradix_status st = glradix_sort(tg_ctx, sd);
  expect_one_line(st, want, what);
  expect_no_gl_error(what);
  expect_untouched(what);
}

static void expect_still_sorts(void) {
  static uint32_t ok[NW], ov[NW];
  glradix_sort_desc sd = sort_desc(kb, vb, NW);
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_OK);
  ck_assert_int_eq(tg_log.count, 0);
  buf_read(kb, ok, NW);
  buf_read(vb, ov, NW);
  check_sort_result(k0, v0, ok, ov, NW, 0, 0, "valid sort after a rejection");
}

START_TEST(sort_null_desc) {
  expect_rejected(NULL, GLRADIX_ERROR_INVALID_ARGUMENT, "desc NULL");
  expect_still_sorts();
}
END_TEST

START_TEST(sort_keys_zero) {
  glradix_sort_desc sd = sort_desc(0, vb, NW);
  expect_rejected(&sd, GLRADIX_ERROR_INVALID_ARGUMENT, "keys 0");
  expect_still_sorts();
}
END_TEST

START_TEST(sort_keys_not_a_buffer) {
  glradix_sort_desc sd = sort_desc(987654, vb, NW);
  expect_rejected(&sd, GLRADIX_ERROR_INVALID_ARGUMENT, "keys 987654");
  expect_still_sorts();
}
END_TEST

START_TEST(sort_keys_deleted_buffer) {
  GLuint dead = buf_create(k0, NW, NW);
  buf_delete(dead);
  glradix_sort_desc sd = sort_desc(dead, vb, NW);
  expect_rejected(&sd, GLRADIX_ERROR_INVALID_ARGUMENT, "keys deleted");
  expect_still_sorts();
}
END_TEST

START_TEST(sort_values_not_a_buffer) {
  glradix_sort_desc sd = sort_desc(kb, 987654, NW);
  expect_rejected(&sd, GLRADIX_ERROR_INVALID_ARGUMENT, "values 987654");
  expect_still_sorts();
}
END_TEST

START_TEST(sort_values_equal_keys) {
  glradix_sort_desc sd = sort_desc(kb, kb, NW);
  expect_rejected(&sd, GLRADIX_ERROR_INVALID_ARGUMENT, "values == keys");
  expect_still_sorts();
}
END_TEST

START_TEST(sort_keys_buffer_too_small) {
  glradix_sort_desc sd = sort_desc(kb, vb, NW + 1);
  expect_rejected(&sd, GLRADIX_ERROR_INVALID_ARGUMENT, "keys < count*4");
  sd = sort_desc(kb, 0, NW + 1);
  expect_rejected(&sd, GLRADIX_ERROR_INVALID_ARGUMENT,
                  "keys < count*4, no values");
  expect_still_sorts();
}
END_TEST

START_TEST(sort_keys_buffer_empty) {
  GLuint empty = buf_create(NULL, 0, 0);
  glradix_sort_desc sd = sort_desc(empty, 0, 1);
  expect_rejected(&sd, GLRADIX_ERROR_INVALID_ARGUMENT, "keys of 0 bytes");
  buf_delete(empty);
  expect_still_sorts();
}
END_TEST

START_TEST(sort_values_buffer_too_small) {
  GLuint small = buf_create(v0, NW - 1, NW - 1);
  glradix_sort_desc sd = sort_desc(kb, small, NW);
  expect_rejected(&sd, GLRADIX_ERROR_INVALID_ARGUMENT, "values < count*4");
  static uint32_t got[NW - 1];
  buf_read(small, got, NW - 1);
  expect_equal_u32(v0, got, NW - 1, "small values buffer changed");
  buf_delete(small);
  expect_still_sorts();
}
END_TEST

START_TEST(sort_begin_not_below_end) {
  static const unsigned cases[][2] = {{8, 8}, {9, 8}, {31, 1}, {32, 0},
                                      {32, 32}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char what[64];
    glradix_sort_desc sd = sort_desc(kb, vb, NW);
    sd.begin_bit = cases[i][0];
    sd.end_bit = cases[i][1];
    snprintf(what, sizeof what, "bits [%u,%u)", cases[i][0], cases[i][1]);
    expect_rejected(&sd, GLRADIX_ERROR_INVALID_ARGUMENT, what);
  }
  expect_still_sorts();
}
END_TEST

START_TEST(sort_end_bit_33) {
  glradix_sort_desc sd = sort_desc(kb, vb, NW);
  sd.end_bit = 33;
  expect_rejected(&sd, GLRADIX_ERROR_INVALID_ARGUMENT, "end_bit 33");
  sd.begin_bit = 4;
  sd.end_bit = 1000;
  expect_rejected(&sd, GLRADIX_ERROR_INVALID_ARGUMENT, "bits [4,1000)");
  expect_still_sorts();
}
END_TEST

static void expect_rejected_while_mapped(GLuint mapped, const char *what) {
  tg_gl.BindBuffer(GL_COPY_READ_BUFFER, mapped);
  void *p = tg_gl.MapBufferRange(GL_COPY_READ_BUFFER, 0, NW * 4,
                                 GL_MAP_READ_BIT);
  tg_gl.BindBuffer(GL_COPY_READ_BUFFER, 0);
  ck_assert_msg(p != NULL, "could not map the buffer");
  expect_no_gl_error("map");
  glradix_sort_desc sd = sort_desc(kb, vb, NW);
  test_log_reset(&tg_log);
  glradix_status st = glradix_sort(tg_ctx, &sd);
  expect_one_line(st, GLRADIX_ERROR_INVALID_ARGUMENT, what);
  expect_no_gl_error(what);
  tg_gl.BindBuffer(GL_COPY_READ_BUFFER, mapped);
  GLint still = 0;
  tg_gl.GetBufferParameteriv(GL_COPY_READ_BUFFER, GL_BUFFER_MAPPED, &still);
  ck_assert_msg(still, "%s: the library unmapped the caller's buffer", what);
  tg_gl.UnmapBuffer(GL_COPY_READ_BUFFER);
  tg_gl.BindBuffer(GL_COPY_READ_BUFFER, 0);
  expect_untouched(what);
}

START_TEST(sort_keys_mapped) {
  expect_rejected_while_mapped(kb, "keys mapped");
  expect_still_sorts();
}
END_TEST

START_TEST(sort_values_mapped) {
  expect_rejected_while_mapped(vb, "values mapped");
  expect_still_sorts();
}
END_TEST

START_TEST(sort_count_zero_is_ok_and_silent) {
  glradix_sort_desc sd = sort_desc(kb, vb, 0);
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_OK);
  ck_assert_int_eq(tg_log.count, 0);
  sd.values = 0;
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_OK);
  ck_assert_int_eq(tg_log.count, 0);
  expect_no_gl_error("count 0");
  expect_untouched("count 0");
}
END_TEST

/* count * 4 above GL_MAX_SHADER_STORAGE_BLOCK_SIZE (llvmpipe: 128 MiB):
 * TOO_LARGE, checked before the buffer is (so a small one will do), and
 * the keys untouched. */
START_TEST(sort_count_above_ssbo_limit_is_too_large) {
  uint64_t count = (uint64_t)test_max_ssbo_bytes() / 4 + 1;
  ck_assert_msg(count <= UINT32_MAX, "a %llu-byte block limit leaves no count above it",
                (unsigned long long)count * 4);
  GLuint keys = buf_create(k0, NW, NW);
  glradix_sort_desc sd = sort_desc(keys, 0, (uint32_t)count);
  test_log_reset(&tg_log);
  glradix_status st = glradix_sort(tg_ctx, &sd);
  expect_one_line(st, GLRADIX_ERROR_TOO_LARGE, "count*4 > SSBO limit");
  expect_no_gl_error("too large");
  static uint32_t got[NW];
  buf_read(keys, got, NW);
  expect_equal_u32(k0, got, NW, "too large: keys changed");
  buf_delete(keys);
  expect_still_sorts();
}
END_TEST

/* ---- glradix_sort_host ---------------------------------------------------- */

START_TEST(host_keys_null) {
  uint32_t v[16];
  gen_values(v, 16, 1);
  test_log_reset(&tg_log);
  glradix_status st = glradix_sort_host(tg_ctx, NULL, v, 16);
  expect_one_line(st, GLRADIX_ERROR_INVALID_ARGUMENT, "host keys NULL");
  uint32_t ref[16];
  gen_values(ref, 16, 1);
  expect_equal_u32(ref, v, 16, "host keys NULL: values changed");
  test_log_reset(&tg_log);
  st = glradix_sort_host(tg_ctx, NULL, NULL, 3);
  expect_one_line(st, GLRADIX_ERROR_INVALID_ARGUMENT, "host keys NULL, no values");
  expect_no_gl_error("host keys NULL");
}
END_TEST

START_TEST(host_count_zero_is_ok_and_silent) {
  uint32_t k[4] = {4, 3, 2, 1}, v[4] = {0, 1, 2, 3};
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_sort_host(tg_ctx, NULL, NULL, 0), GLRADIX_OK);
  ck_assert_int_eq(glradix_sort_host(tg_ctx, k, v, 0), GLRADIX_OK);
  ck_assert_int_eq(glradix_sort_host(tg_ctx, k, NULL, 0), GLRADIX_OK);
  ck_assert_int_eq(tg_log.count, 0);
  ck_assert_msg(k[0] == 4 && k[3] == 1 && v[0] == 0 && v[3] == 3,
                "count 0 changed the arrays");
}
END_TEST

START_TEST(host_count_above_uint32_is_too_large) {
#if SIZE_MAX > UINT32_MAX
  uint32_t k[8], v[8], k_ref[8], v_ref[8];
  gen_keys(k, 8, DIST_UNIFORM, 5);
  gen_values(v, 8, 1);
  memcpy(k_ref, k, sizeof k);
  memcpy(v_ref, v, sizeof v);
  test_log_reset(&tg_log);
  /* The arrays are only 8 long: the library must refuse before reading. */
  glradix_status st =
      glradix_sort_host(tg_ctx, k, v, (size_t)UINT32_MAX + 1u);
  expect_one_line(st, GLRADIX_ERROR_TOO_LARGE, "host count 2^32");
  expect_equal_u32(k_ref, k, 8, "host count 2^32: keys changed");
  expect_equal_u32(v_ref, v, 8, "host count 2^32: values changed");
  expect_no_gl_error("host count 2^32");
#endif
}
END_TEST

/* The same for host arrays: rejected before they are read. */
START_TEST(host_count_above_ssbo_limit_is_too_large) {
  uint64_t count = (uint64_t)test_max_ssbo_bytes() / 4 + 1;
  uint32_t k[2] = {7, 3};
  test_log_reset(&tg_log);
  glradix_status st = glradix_sort_host(tg_ctx, k, NULL, (size_t)count);
  expect_one_line(st, GLRADIX_ERROR_TOO_LARGE, "host count*4 > SSBO limit");
  ck_assert_msg(k[0] == 7 && k[1] == 3, "host too large: the array changed");
  expect_no_gl_error("host too large");
}
END_TEST

/* ---- glradix_create with a current GL context ------------------------------ */

START_TEST(create_bad_radix_bits) {
  static const unsigned bad[] = {3, 16, 1, 6, 32};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char what[64];
    snprintf(what, sizeof what, "radix_bits %u", bad[i]);
    glradix_desc d = test_desc(bad[i], 0);
    int dummy;
    glradix_context *out = (glradix_context *)(void *)&dummy;
    test_log_reset(&tg_log);
    glradix_status st = glradix_create(&d, &out);
    expect_one_line(st, GLRADIX_ERROR_INVALID_ARGUMENT, what);
    ck_assert_msg(out == NULL, "%s: *out not NULL on error", what);
    expect_no_gl_error(what);
  }
}
END_TEST

START_TEST(create_bad_plan) {
  glradix_desc d = test_desc(0, 0);
  d.plan = (glradix_plan)7;
  int dummy;
  glradix_context *out = (glradix_context *)(void *)&dummy;
  test_log_reset(&tg_log);
  glradix_status st = glradix_create(&d, &out);
  expect_one_line(st, GLRADIX_ERROR_INVALID_ARGUMENT, "plan 7");
  ck_assert_msg(out == NULL, "plan 7: *out not NULL on error");
}
END_TEST

START_TEST(create_null_out_with_context) {
  glradix_desc d = test_desc(0, 0);
  test_log_reset(&tg_log);
  glradix_status st = glradix_create(&d, NULL);
  expect_one_line(st, GLRADIX_ERROR_INVALID_ARGUMENT, "out NULL");
}
END_TEST

START_TEST(create_null_load_with_context) {
  glradix_desc d = test_desc(0, 0);
  d.load = NULL;
  glradix_context *out = NULL;
  test_log_reset(&tg_log);
  glradix_status st = glradix_create(&d, &out);
  expect_one_line(st, GLRADIX_ERROR_INVALID_ARGUMENT, "load NULL");
  ck_assert_ptr_null(out);
}
END_TEST

/* A loader whose glGetString says the context is OpenGL 3.3: the rest is
 * the real context's. */
typedef const unsigned char *(*get_string_fn)(unsigned);
static get_string_fn real_get_string;
static const unsigned char *get_string_33(unsigned name) {
  return name == GL_VERSION ? (const unsigned char *)"3.3 (Core Profile) test" : real_get_string(name);
}
static glradix_apiproc load_as_33(const char *name) {
  if (strcmp(name, "glGetString") != 0) return glradix_headless_load(name);
  real_get_string = (get_string_fn)glradix_headless_load(name);
  return (glradix_apiproc)get_string_33;
}

START_TEST(create_on_gl_below_4_3_is_unsupported) {
  glradix_desc d = test_desc(0, 0);
  d.load = load_as_33;
  glradix_context *out = (glradix_context *)&d;
  test_log_reset(&tg_log);
  glradix_status st = glradix_create(&d, &out);
  expect_one_line(st, GLRADIX_ERROR_UNSUPPORTED, "OpenGL 3.3");
  ck_assert_msg(strstr(tg_log.first, "3.3") != NULL, "log: %s", tg_log.first);
  ck_assert_ptr_null(out);
  expect_no_gl_error("create on 3.3");
}
END_TEST

/* A failure after programs were built (scratch for max_count): nothing is
 * left of the half-made context. */
START_TEST(create_with_too_large_max_count) {
  glradix_desc d = test_desc(0, 0);
  d.max_count = 0xFFFFFFFFu;
  glradix_context *out = (glradix_context *)&d;
  test_log_reset(&tg_log);
  glradix_status st = glradix_create(&d, &out);
  expect_one_line(st, GLRADIX_ERROR_TOO_LARGE, "max_count 2^32 - 1");
  ck_assert_ptr_null(out);
  for (GLuint name = 1; name < 512; name++)
    ck_assert_msg(!tg_gl.IsProgram(name), "program %u left behind", name);
  expect_no_gl_error("create with too large max_count");
}
END_TEST

/* No fixture: a headless context is made and destroyed, so that none is
 * current (and the loader may still answer) when glradix_create runs. */
START_TEST(create_without_current_context_is_unsupported) {
  glradix_headless *h = NULL;
  glradix_status hs = glradix_headless_create(&h);
  if (hs != GLRADIX_OK)
    ck_abort_msg("glradix_headless_create failed: %s",
                 glradix_status_string(hs));
  glradix_headless_destroy(h);
  test_log_reset(&tg_log);
  glradix_desc d = test_desc(0, 0);
  int dummy;
  glradix_context *out = (glradix_context *)(void *)&dummy;
  glradix_status st = glradix_create(&d, &out);
  expect_one_line(st, GLRADIX_ERROR_UNSUPPORTED, "no current GL context");
  ck_assert_ptr_null(out);
}
END_TEST

static Suite *errors_suite(void) {
  Suite *s = suite_create("errors");
  TCase *tc = tcase_create("sort");
  tcase_add_checked_fixture(tc, bufs_setup, bufs_teardown);
  tcase_add_test(tc, sort_null_desc);
  tcase_add_test(tc, sort_keys_zero);
  tcase_add_test(tc, sort_keys_not_a_buffer);
  tcase_add_test(tc, sort_keys_deleted_buffer);
  tcase_add_test(tc, sort_values_not_a_buffer);
  tcase_add_test(tc, sort_values_equal_keys);
  tcase_add_test(tc, sort_keys_buffer_too_small);
  tcase_add_test(tc, sort_keys_buffer_empty);
  tcase_add_test(tc, sort_values_buffer_too_small);
  tcase_add_test(tc, sort_begin_not_below_end);
  tcase_add_test(tc, sort_end_bit_33);
  tcase_add_test(tc, sort_keys_mapped);
  tcase_add_test(tc, sort_values_mapped);
  tcase_add_test(tc, sort_count_zero_is_ok_and_silent);
  tcase_add_test(tc, sort_count_above_ssbo_limit_is_too_large);
  suite_add_tcase(s, tc);

  tc = tcase_create("sort_host");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_test(tc, host_keys_null);
  tcase_add_test(tc, host_count_zero_is_ok_and_silent);
  tcase_add_test(tc, host_count_above_uint32_is_too_large);
  tcase_add_test(tc, host_count_above_ssbo_limit_is_too_large);
  suite_add_tcase(s, tc);

  tc = tcase_create("create");
  tcase_add_checked_fixture(tc, gl_setup, gl_teardown);
  tcase_add_test(tc, create_bad_radix_bits);
  tcase_add_test(tc, create_bad_plan);
  tcase_add_test(tc, create_null_out_with_context);
  tcase_add_test(tc, create_null_load_with_context);
  tcase_add_test(tc, create_on_gl_below_4_3_is_unsupported);
  tcase_add_test(tc, create_with_too_large_max_count);
  suite_add_tcase(s, tc);

  tc = tcase_create("no_context");
  tcase_add_test(tc, create_without_current_context_is_unsupported);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(errors_suite)
