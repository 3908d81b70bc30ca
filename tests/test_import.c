/* glradix_buffer_create's buffers and the context's scratch on Vulkan
 * memory imported into GL: on llvmpipe with Mesa's lavapipe (a Vulkan
 * device whose UUIDs match the GL context's) the import is taken, and
 * without Vulkan (the import_absent run: a loader that is not there) plain
 * GL buffers stand in, said once in the log. Sorts on either are checked
 * against the CPU reference. */
#include "common.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* Whether this run has Vulkan (tests/CMakeLists.txt: the import_absent
 * run names a loader that is not there). */
static int vulkan_expected(void) { return !(test_forms() && test_forms()->vulkan_loader); }

static void copy_words(GLuint from, GLuint to, size_t n) {
  tg_gl.BindBuffer(GL_COPY_READ_BUFFER, from);
  tg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, to);
  tg_gl.CopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, (GLsizeiptr)(n * 4));
  expect_no_gl_error("glCopyBufferSubData");
}

/* Pairs in buffers of glradix_buffer_create, filled and read back by
 * copies through staging buffers (they are not mapped or updated), sorted
 * twice with different data; the scratch is imported too (import=1). */
START_TEST(sort_in_created_buffers) {
  enum { N = 100003 };
  uint32_t keys = 0, values = 0;
  ck_assert_int_eq(glradix_buffer_create(tg_ctx, N * 4, &keys), GLRADIX_OK);
  ck_assert_int_eq(glradix_buffer_create(tg_ctx, N * 4, &values), GLRADIX_OK);
  const int imported = vulkan_expected();
  ck_assert_msg(glradix_buffer_imported(tg_ctx, keys) == imported &&
                    glradix_buffer_imported(tg_ctx, values) == imported,
                "expected imported %d; log: %s", imported, tg_log.first);
  if (imported) ck_assert_msg(tg_log.count == 0, "logged: %s", tg_log.first);
  else
    ck_assert_msg(tg_log.count == 1 && strstr(tg_log.first, "imported memory unavailable"),
                  "expected one line on the missing import, got %d: %s", tg_log.count,
                  tg_log.first);
  const int lines = tg_log.count;
  uint32_t *in_k = test_alloc_u32(N), *in_v = test_alloc_u32(N);
  uint32_t *out_k = test_alloc_u32(N), *out_v = test_alloc_u32(N);
  GLuint stage_k = buf_create(NULL, 0, N), stage_v = buf_create(NULL, 0, N);
  for (unsigned round = 0; round < 2; round++) {
    gen_keys(in_k, N, DIST_UNIFORM, 0x5eed + round);
    gen_values(in_v, N, round);
    buf_upload(stage_k, in_k, N);
    buf_upload(stage_v, in_v, N);
    copy_words(stage_k, keys, N);
    copy_words(stage_v, values, N);
    glradix_sort_desc d = {.keys = keys, .values = values, .count = N};
    ck_assert_int_eq(glradix_sort(tg_ctx, &d), GLRADIX_OK);
    copy_words(keys, stage_k, N);
    copy_words(values, stage_v, N);
    buf_read(stage_k, out_k, N);
    buf_read(stage_v, out_v, N);
    check_sort_result(in_k, in_v, out_k, out_v, N, 0, 32, "created buffers");
  }
  ck_assert_msg(tg_log.count == lines, "logged again: %s", tg_log.last);
  ck_assert_uint_eq(_glradix_imported_scratch(tg_ctx), imported ? 3u : 0u);
  ck_assert_int_eq(glradix_buffer_destroy(tg_ctx, keys), GLRADIX_OK);
  ck_assert_int_eq(glradix_buffer_destroy(tg_ctx, values), GLRADIX_OK);
  buf_delete(stage_k);
  buf_delete(stage_v);
  free(in_k), free(in_v), free(out_k), free(out_v);
}
END_TEST

/* Imported storage is immutable and not mapped, and the plain stand-in
 * behaves the same: glBufferSubData and copies fill it, a map fails. */
START_TEST(storage_is_immutable) {
  uint32_t b = 0;
  ck_assert_int_eq(glradix_buffer_create(tg_ctx, 4096, &b), GLRADIX_OK);
  const uint32_t words[4] = {7, 11, 13, 17};
  uint32_t back[4] = {0};
  tg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, b);
  tg_gl.BufferSubData(GL_COPY_WRITE_BUFFER, 0, sizeof words, words);
  expect_no_gl_error("glBufferSubData");
  GLint immutable = 0;
  tg_gl.GetBufferParameteriv(GL_COPY_WRITE_BUFFER, GL_BUFFER_IMMUTABLE_STORAGE, &immutable);
  ck_assert_int_eq(immutable, GL_TRUE);
  ck_assert_ptr_null(tg_gl.MapBufferRange(GL_COPY_WRITE_BUFFER, 0, 16, GL_MAP_READ_BIT));
  ck_assert_uint_eq(tg_gl.GetError(), GL_INVALID_OPERATION);
  GLuint stage = buf_create(NULL, 0, 4);
  copy_words(b, stage, 4);
  buf_read(stage, back, 4);
  expect_equal_u32(words, back, 4, "glBufferSubData into a created buffer");
  buf_delete(stage);
  /* destroyed while bound, as glDeleteBuffers may be: GL unbinds it, and
   * the call leaves no binding to a deleted name behind */
  tg_gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, b);
  tg_gl.BindBuffer(GL_COPY_READ_BUFFER, b);
  ck_assert_int_eq(glradix_buffer_destroy(tg_ctx, b), GLRADIX_OK);
  expect_no_gl_error("glradix_buffer_destroy of a bound buffer");
  GLint bound = -1;
  tg_gl.GetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, 0, &bound);
  ck_assert_int_eq(bound, 0);
  tg_gl.GetIntegerv(GL_COPY_READ_BUFFER_BINDING, &bound);
  ck_assert_int_eq(bound, 0);
}
END_TEST

/* Bad input gets a status and one log line, nothing made; buffers left at
 * glradix_destroy are freed with it (the asan preset checks the leaks). */
START_TEST(bad_input) {
  uint32_t b = 99;
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_buffer_create(tg_ctx, 0, &b), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_uint_eq(b, 0);
  ck_assert_int_eq(glradix_buffer_create(tg_ctx, 16, NULL), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(glradix_buffer_create(NULL, 16, &b), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(glradix_buffer_create(tg_ctx, UINT64_MAX, &b), GLRADIX_ERROR_TOO_LARGE);
  ck_assert_uint_eq(b, 0);
  const int lines = tg_log.count;
  ck_assert_int_eq(lines, 3);
  if (vulkan_expected()) {
    /* past the device's memory: refused before anything is allocated */
    ck_assert_int_eq(glradix_buffer_create(tg_ctx, (uint64_t)1 << 56, &b), GLRADIX_ERROR_TOO_LARGE);
    ck_assert_int_eq(tg_log.count, lines + 1);
  }
  uint32_t live = 0, gone = 0;
  ck_assert_int_eq(glradix_buffer_create(tg_ctx, 64, &live), GLRADIX_OK);
  ck_assert_int_eq(glradix_buffer_create(tg_ctx, 64, &gone), GLRADIX_OK);
  ck_assert_int_eq(glradix_buffer_destroy(tg_ctx, gone), GLRADIX_OK);
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_buffer_destroy(tg_ctx, gone), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(glradix_buffer_imported(tg_ctx, gone), 0);
  ck_assert_int_eq(glradix_buffer_destroy(tg_ctx, 0), GLRADIX_ERROR_INVALID_ARGUMENT);
  GLuint plain = buf_create(NULL, 0, 16);
  ck_assert_int_eq(glradix_buffer_destroy(tg_ctx, plain), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(glradix_buffer_destroy(NULL, live), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(tg_log.count, 3);
  ck_assert_msg(strstr(tg_log.first, "not a live buffer") != NULL, "%s", tg_log.first);
  ck_assert_int_eq(tg_gl.IsBuffer(plain), GL_TRUE);
  ck_assert_int_eq(glradix_buffer_imported(NULL, live), 0);
  buf_delete(plain);
  expect_no_gl_error("bad input");
  /* `live` is left for glradix_destroy */
}
END_TEST

/* GLRADIX_MEMORY_GL: plain buffers, Vulkan never tried, nothing logged;
 * a memory value outside the enum is refused at create. */
START_TEST(memory_gl) {
  gl_setup();
  glradix_desc desc = test_desc(0, 0);
  desc.memory = GLRADIX_MEMORY_GL;
  glradix_context *ctx = NULL;
  ck_assert_int_eq(test_create(&desc, &ctx), GLRADIX_OK);
  uint32_t b = 0;
  ck_assert_int_eq(glradix_buffer_create(ctx, 1 << 20, &b), GLRADIX_OK);
  ck_assert_int_eq(glradix_buffer_imported(ctx, b), 0);
  ck_assert_int_eq(tg_log.count, 0);
  glradix_destroy(ctx);
  desc.memory = (glradix_memory)2;
  ck_assert_int_eq(glradix_create(&desc, &ctx), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_ptr_null(ctx);
  ck_assert_int_eq(tg_log.count, 1);
  gl_teardown();
}
END_TEST

static Suite *import_suite(void) {
  Suite *s = suite_create("import");
  TCase *tc = tcase_create("buffers");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_test(tc, sort_in_created_buffers);
  tcase_add_test(tc, storage_is_immutable);
  tcase_add_test(tc, bad_input);
  suite_add_tcase(s, tc);
  TCase *plain = tcase_create("plain");
  tcase_add_test(plain, memory_gl);
  suite_add_tcase(s, plain);
  return s;
}

int main(void) {
  /* lavapipe keeps 128 bytes past vkDestroyInstance, and the loader unloads
   * it then: held mapped here, the leak checker names it, and
   * tests/lsan.supp leaves Mesa's leak out as it does llvmpipe's. */
  if (test_sanitized()) dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NODELETE);
  test_init();
  return test_run_suite(import_suite());
}
