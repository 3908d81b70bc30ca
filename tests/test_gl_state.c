/* The documented @gl_state contract: bindings and the current program are
 * restored (after every public call that touches GL), and the caller's
 * pending GL errors are logged and left pending for the caller. */
#include "common.h"
#include "glradix/lbvh.h"

#include <stdlib.h>
#include <string.h>

static const char *probe_src =
    "#version 430\n"
    "layout(local_size_x = 1) in;\n"
    "layout(std430, binding = 0) buffer B { uint x[]; };\n"
    "void main() { x[0] = 1u; }\n";

static GLuint make_probe_program(void) { return gl_compute_program(probe_src); }

/* The state an application might have bound before calling the library.
 * The header promises indexed SSBO bindings 0..5. */
#define N_INDEXED 6
typedef struct app_state {
  GLuint program;
  GLuint ssbo[N_INDEXED]; /* indexed SHADER_STORAGE bindings (ranges) */
  GLuint generic_ssbo, copy_read, copy_write, dispatch_indirect;
} app_state;

#define SLICE 256 /* bytes; a multiple of every offset alignment */

static void bind_app_state(app_state *st) {
  memset(st, 0, sizeof *st);
  st->program = make_probe_program();
  for (GLuint i = 0; i < N_INDEXED; i++) {
    st->ssbo[i] = buf_create(NULL, 0, N_INDEXED * SLICE);
    tg_gl.BindBufferRange(GL_SHADER_STORAGE_BUFFER, i, st->ssbo[i],
                          (GLintptr)(i * SLICE), SLICE);
  }
  st->generic_ssbo = buf_create(NULL, 0, 16);
  st->copy_read = buf_create(NULL, 0, 16);
  st->copy_write = buf_create(NULL, 0, 16);
  st->dispatch_indirect = buf_create(NULL, 0, 16);
  tg_gl.UseProgram(st->program);
  tg_gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, st->generic_ssbo);
  tg_gl.BindBuffer(GL_COPY_READ_BUFFER, st->copy_read);
  tg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, st->copy_write);
  tg_gl.BindBuffer(GL_DISPATCH_INDIRECT_BUFFER, st->dispatch_indirect);
  expect_no_gl_error("binding the application state");
}

static void expect_app_state(const app_state *st, const char *after) {
  GLint v = 0;
  tg_gl.GetIntegerv(GL_CURRENT_PROGRAM, &v);
  ck_assert_msg((GLuint)v == st->program, "after %s: current program %d, was %u",
                after, (int)v, st->program);
  for (GLuint i = 0; i < N_INDEXED; i++) {
    GLint name = 0;
    GLint64 start = -1, size = -1;
    tg_gl.GetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, i, &name);
    ck_assert_msg((GLuint)name == st->ssbo[i],
                  "after %s: SSBO binding %u is buffer %d, was %u", after, i,
                  (int)name, st->ssbo[i]);
    tg_gl.GetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, i, &start);
    tg_gl.GetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, i, &size);
    ck_assert_msg(start == (GLint64)(i * SLICE) && size == SLICE,
                  "after %s: SSBO binding %u range is [%lld,+%lld), was "
                  "[%u,+%d) (name restored, range lost)",
                  after, i, (long long)start, (long long)size, i * SLICE, SLICE);
  }
  tg_gl.GetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &v);
  ck_assert_msg((GLuint)v == st->generic_ssbo,
                "after %s: generic SSBO binding %d, was %u", after, (int)v,
                st->generic_ssbo);
  tg_gl.GetIntegerv(GL_COPY_READ_BUFFER_BINDING, &v);
  ck_assert_msg((GLuint)v == st->copy_read,
                "after %s: COPY_READ binding %d, was %u", after, (int)v,
                st->copy_read);
  tg_gl.GetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &v);
  ck_assert_msg((GLuint)v == st->copy_write,
                "after %s: COPY_WRITE binding %d, was %u", after, (int)v,
                st->copy_write);
  tg_gl.GetIntegerv(GL_DISPATCH_INDIRECT_BUFFER_BINDING, &v);
  ck_assert_msg((GLuint)v == st->dispatch_indirect,
                "after %s: DISPATCH_INDIRECT binding %d, was %u", after, (int)v,
                st->dispatch_indirect);
  expect_no_gl_error(after);
}

START_TEST(sort_restores_bindings_and_program) {
  app_state st;
  /* buffers for the sort first: buf_* helpers rebind COPY_* targets */
  uint32_t k[5000], v[5000];
  gen_keys(k, 5000, DIST_UNIFORM, 3);
  gen_values(v, 5000, 0);
  GLuint kb = buf_create(k, 5000, 5000), vb = buf_create(v, 5000, 5000);
  GLuint ob = buf_create(NULL, 0, 5000); /* inspection's output */
  const uint32_t gpu_count = 4321;
  GLuint cb = buf_create(&gpu_count, 1, 1);
  bind_app_state(&st);
  glradix_sort_desc sd = {0};
  sd.keys = kb;
  sd.values = vb;
  sd.count = 5000;
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_OK);
  expect_app_state(&st, "glradix_sort");
  sd.begin_bit = 3;
  sd.end_bit = 17; /* a partial range */
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_OK);
  expect_app_state(&st, "glradix_sort [3,17)");
  sd.count_buffer = cb; /* GPU count: indirect dispatches */
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_OK);
  expect_app_state(&st, "glradix_sort with count_buffer");
  sd.count_buffer = 0;
  glradix_scan_desc scan = {0};
  scan.input = scan.output = vb;
  scan.count = 5000;
  ck_assert_int_eq(glradix_scan(tg_ctx, &scan), GLRADIX_OK);
  expect_app_state(&st, "glradix_scan");
  glradix_compact_desc cd = {0};
  cd.input = cd.output = kb;
  cd.flags = vb;
  cd.count = 5000;
  ck_assert_int_eq(glradix_compact(tg_ctx, &cd), GLRADIX_OK);
  expect_app_state(&st, "glradix_compact");
  ck_assert_int_eq(glradix_sort_inspect(tg_ctx, &sd, 1, GLRADIX_STAGE_LOCAL_SHUFFLE, ob),
                   GLRADIX_OK);
  expect_app_state(&st, "glradix_sort_inspect");
  /* 625 primitives' bounds are the first 5000 words of kb */
  glradix_morton_desc md = {0};
  md.bounds = kb;
  md.count = 625;
  md.codes = vb;
  ck_assert_int_eq(glradix_morton_codes(tg_ctx, &md), GLRADIX_OK);
  expect_app_state(&st, "glradix_morton_codes");
  glradix_lbvh_desc ld = {0};
  ld.bounds = kb;
  ld.count = 100;
  ld.nodes = vb; /* 199 nodes x 8 words fit in 5000 */
  ck_assert_int_eq(glradix_lbvh_build(tg_ctx, &ld), GLRADIX_OK);
  expect_app_state(&st, "glradix_lbvh_build");
  sd.count = 300000; /* scratch grows */
  ck_assert_int_eq(glradix_reserve(tg_ctx, &sd), GLRADIX_OK);
  expect_app_state(&st, "glradix_reserve");
  sd.keys = 987654; /* a rejected call restores (touches) nothing either */
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_ERROR_INVALID_ARGUMENT);
  expect_app_state(&st, "a rejected glradix_sort");
  ck_assert_int_eq(tg_log.count, 1);
}
END_TEST

START_TEST(sort_host_restores_bindings_and_program) {
  app_state st;
  bind_app_state(&st);
  uint32_t k[3000], v[3000];
  gen_keys(k, 3000, DIST_UNIFORM, 4);
  gen_values(v, 3000, 0);
  ck_assert_int_eq(glradix_sort_host(tg_ctx, k, v, 3000), GLRADIX_OK);
  expect_app_state(&st, "glradix_sort_host");
  ck_assert_int_eq(glradix_sort_host(tg_ctx, k, NULL, 3000), GLRADIX_OK);
  expect_app_state(&st, "glradix_sort_host keys only");
  ck_assert_int_eq(tg_log.count, 0);
}
END_TEST

START_TEST(create_restores_bindings_and_program) {
  app_state st;
  bind_app_state(&st);
  glradix_desc d = test_desc(4, 0);
  d.max_count = 70000; /* scratch buffers are created at create time */
  glradix_context *c = NULL;
  ck_assert_int_eq(glradix_create(&d, &c), GLRADIX_OK);
  expect_app_state(&st, "glradix_create(max_count 70000)");
  glradix_destroy(c);
  ck_assert_int_eq(tg_log.count, 0);
}
END_TEST

/* Raises a GL error of the given kind with the application's own call. */
static void raise_app_error(GLenum kind) {
  if (kind == GL_INVALID_OPERATION) {
    /* no query of the kind is active: GL and ES both refuse (ES, unlike
     * GL core, binds a buffer name never generated) */
    tg_gl.EndQuery(GL_ANY_SAMPLES_PASSED);
  } else if (kind == GL_INVALID_ENUM) {
    tg_gl.Enable(0x7FFF);
  } else if (kind == GL_INVALID_VALUE) {
    tg_gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0x7FFFFFFF, 0);
  } else { /* GL_INVALID_FRAMEBUFFER_OPERATION: clearing an incomplete framebuffer */
    GLuint fbo = 0;
    tg_gl.GenFramebuffers(1, &fbo);
    tg_gl.BindFramebuffer(GL_FRAMEBUFFER, fbo);
    tg_gl.Clear(GL_COLOR_BUFFER_BIT);
    tg_gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
    tg_gl.DeleteFramebuffers(1, &fbo);
  }
}

/* GL offers no harmless call that raises GL_INVALID_FRAMEBUFFER_OPERATION
 * (nor GL_OUT_OF_MEMORY): such a pending error is logged twice, taken and
 * "cannot be raised again", and is gone after the call. */
START_TEST(pending_framebuffer_error_is_logged) {
  uint32_t k[3000];
  gen_keys(k, 3000, DIST_UNIFORM, 9);
  GLuint kb = buf_create(k, 3000, 3000);
  raise_app_error(GL_INVALID_FRAMEBUFFER_OPERATION);
  test_log_reset(&tg_log);
  glradix_sort_desc sd = {0};
  sd.keys = kb;
  sd.count = 3000;
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_OK);
  ck_assert_msg(tg_log.count == 2 && strstr(tg_log.first, "GL_INVALID_FRAMEBUFFER_OPERATION") &&
                    strstr(tg_log.last, "cannot be raised again"),
                "log (%d lines): %s / %s", tg_log.count, tg_log.first, tg_log.last);
  expect_no_gl_error("after the sort");
  buf_delete(kb);
}
END_TEST

START_TEST(pending_gl_errors_are_left_for_the_caller) {
  enum { N = 20000 };
  uint32_t *k = test_alloc_u32(N), *v = test_alloc_u32(N);
  uint32_t *ok = test_alloc_u32(N), *ov = test_alloc_u32(N);
  gen_keys(k, N, DIST_UNIFORM, 5);
  gen_values(v, N, 0);
  GLuint kb = buf_create(k, N, N), vb = buf_create(v, N, N);
  /* The application's own error, pending when the library is called: a
   * driver may keep only the first of several, so one at a time. */
  static const GLenum kinds[] = {GL_INVALID_OPERATION, GL_INVALID_ENUM, GL_INVALID_VALUE};
  const GLenum kind = kinds[_i];
  raise_app_error(kind);
  test_log_reset(&tg_log);
  glradix_sort_desc sd = {0};
  sd.keys = kb;
  sd.values = vb;
  sd.count = N;
  glradix_status st = glradix_sort(tg_ctx, &sd);
  ck_assert_msg(st == GLRADIX_OK, "pending GL errors made the sort fail: %s "
                "(log: %s)", glradix_status_string(st), tg_log.first);
  ck_assert_msg(tg_log.count == 1 && strstr(tg_log.first, "pending before the call"),
                "expected one log line naming the pending error, got %d: %s", tg_log.count,
                tg_log.first);
  /* neither swallowed nor blamed: the caller's glGetError still sees it */
  GLenum e = tg_gl.GetError();
  ck_assert_msg(e == kind, "after the sort glGetError gave 0x%04x, the caller's was 0x%04x",
                e, kind);
  expect_no_gl_error("after the caller took its error back");
  buf_read(kb, ok, N);
  buf_read(vb, ov, N);
  check_sort_result(k, v, ok, ov, N, 0, 0, "sort with pending GL errors");
  /* every other entry point leaves it too */
  raise_app_error(kind);
  glradix_scan_desc scan = {0};
  scan.input = scan.output = vb;
  scan.count = N;
  ck_assert_int_eq(glradix_scan(tg_ctx, &scan), GLRADIX_OK);
  ck_assert_uint_eq(tg_gl.GetError(), kind);
  raise_app_error(kind);
  ck_assert_int_eq(glradix_reserve(tg_ctx, &sd), GLRADIX_OK);
  ck_assert_uint_eq(tg_gl.GetError(), kind);
  raise_app_error(kind);
  sd.keys = 987654; /* a rejected call leaves it as well */
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_uint_eq(tg_gl.GetError(), kind);
  expect_no_gl_error("at the end");
  buf_delete(kb);
  buf_delete(vb);
  free(k);
  free(v);
  free(ok);
  free(ov);
}
END_TEST

static Suite *gl_state_suite(void) {
  Suite *s = suite_create("gl_state");
  TCase *tc = tcase_create("restore");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_test(tc, sort_restores_bindings_and_program);
  tcase_add_test(tc, sort_host_restores_bindings_and_program);
  tcase_add_test(tc, create_restores_bindings_and_program);
  tcase_add_loop_test(tc, pending_gl_errors_are_left_for_the_caller, 0, 3);
  tcase_add_test(tc, pending_framebuffer_error_is_logged);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(gl_state_suite)
