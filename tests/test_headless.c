/* The EGL headless helper: creation, platform choice, reuse. Every context
 * is created inside the forked test child. */
#include "common.h"

#include <stdlib.h>
#include <string.h>

static void expect_usable(glradix_headless *h, const char *want_platform) {
  const char *r = glradix_headless_renderer(h);
  const char *p = glradix_headless_platform(h);
  ck_assert_msg(r && r[0], "renderer string is NULL or empty");
  ck_assert_msg(p && (!strcmp(p, "device") || !strcmp(p, "surfaceless")),
                "platform \"%s\" is neither device nor surfaceless",
                p ? p : "(null)");
  if (want_platform)
    ck_assert_msg(!strcmp(p, want_platform), "platform \"%s\", wanted \"%s\"",
                  p, want_platform);
  ck_assert_msg(glradix_headless_load("glGetString") != NULL,
                "glradix_headless_load(\"glGetString\") is NULL");
  ck_assert_msg(glradix_headless_load("glDispatchCompute") != NULL,
                "glradix_headless_load(\"glDispatchCompute\") is NULL");
}

static glradix_headless *create_or_fail(void) {
  glradix_headless *h = NULL;
  glradix_status st = glradix_headless_create(&h);
  if (st != GLRADIX_OK || !h)
    ck_abort_msg("glradix_headless_create failed: %s (a missing GL context is "
                 "a failure; GLRADIX_HEADLESS_VERBOSE=1 tells why)",
                 glradix_status_string(st));
  return h;
}

START_TEST(create_default_platform) {
  unsetenv("GLRADIX_EGL_PLATFORM");
  glradix_headless *h = create_or_fail();
  expect_usable(h, NULL);
  glradix_headless_destroy(h);
}
END_TEST

START_TEST(gives_gl_4_3_core_with_compute) {
  gl_setup(); /* checks GL 4.3 through glad with glradix_headless_load */
  GLint count = 0;
  tg_gl.GetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &count);
  ck_assert_msg(count >= 65535, "GL_MAX_COMPUTE_WORK_GROUP_COUNT[0] = %d",
                (int)count);
  GLint mask = 0;
  tg_gl.GetIntegerv(GL_CONTEXT_PROFILE_MASK, &mask);
  ck_assert_msg(mask & GL_CONTEXT_CORE_PROFILE_BIT, "not a core profile (0x%x)",
                (unsigned)mask);
  expect_no_gl_error("GL queries");
  gl_teardown();
}
END_TEST

START_TEST(forced_surfaceless) {
  setenv("GLRADIX_EGL_PLATFORM", "surfaceless", 1);
  glradix_headless *h = create_or_fail();
  unsetenv("GLRADIX_EGL_PLATFORM");
  expect_usable(h, "surfaceless");
  glradix_headless_destroy(h);
}
END_TEST

START_TEST(forced_device) {
  setenv("GLRADIX_EGL_PLATFORM", "device", 1);
  glradix_headless *h = create_or_fail();
  unsetenv("GLRADIX_EGL_PLATFORM");
  expect_usable(h, "device");
  glradix_headless_destroy(h);
}
END_TEST

START_TEST(unknown_platform_is_invalid_argument) {
  setenv("GLRADIX_EGL_PLATFORM", "no-such-platform", 1);
  int dummy;
  glradix_headless *h = (glradix_headless *)(void *)&dummy;
  glradix_status st = glradix_headless_create(&h);
  unsetenv("GLRADIX_EGL_PLATFORM");
  ck_assert_msg(st == GLRADIX_ERROR_INVALID_ARGUMENT, "returned \"%s\"",
                glradix_status_string(st));
  ck_assert_ptr_null(h);
}
END_TEST

/* GLRADIX_EGL_API=gles: an OpenGL ES 3.2 (or 3.1) context, whose EGL API
 * destroy binds and gives back as for GL; an unknown API is refused. */
START_TEST(gles_api) {
  setenv("GLRADIX_EGL_API", "gles", 1);
  glradix_headless *h = create_or_fail();
  expect_usable(h, NULL);
  ck_assert_str_eq(glradix_headless_api(h), "gles");
  typedef const char *(*get_string_fn)(unsigned);
  get_string_fn get_string = (get_string_fn)glradix_headless_load("glGetString");
  const char *version = get_string(GL_VERSION);
  ck_assert_msg(version && (!strncmp(version, "OpenGL ES 3.2", 13) ||
                            !strncmp(version, "OpenGL ES 3.1", 13)),
                "GL_VERSION \"%s\"", version ? version : "(null)");
  glradix_headless_destroy(h);
  setenv("GLRADIX_EGL_API", "gl", 1);
  h = create_or_fail();
  ck_assert_str_eq(glradix_headless_api(h), "gl");
  glradix_headless_destroy(h);
  setenv("GLRADIX_EGL_API", "vulkan", 1);
  h = (glradix_headless *)&h;
  ck_assert_int_eq(glradix_headless_create(&h), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_ptr_null(h);
  ck_assert_ptr_null(glradix_headless_api(NULL));
}
END_TEST

START_TEST(create_destroy_create_again) {
  unsetenv("GLRADIX_EGL_PLATFORM");
  for (int i = 0; i < 3; i++) {
    glradix_headless *h = create_or_fail();
    expect_usable(h, NULL);
    glradix_headless_destroy(h);
  }
}
END_TEST

/* An application that uses the other client API on the same thread keeps
 * its bound EGL API across destroy, which binds the helper's own API
 * inside (create binds it and leaves it bound, as documented): an ES user
 * around a GL helper, and a GL user around an ES helper
 * (GLRADIX_EGL_API=gles). */
#define TEST_EGL_OPENGL_ES_API 0x30A0u
#define TEST_EGL_OPENGL_API 0x30A2u
typedef unsigned (*egl_query_api_fn)(void);
typedef unsigned (*egl_bind_api_fn)(unsigned);
START_TEST(bound_egl_api_is_kept) {
  static const struct {
    const char *helper; /* GLRADIX_EGL_API */
    unsigned helper_api, app_api;
  } cases[] = {{"gl", TEST_EGL_OPENGL_API, TEST_EGL_OPENGL_ES_API},
               {"gles", TEST_EGL_OPENGL_ES_API, TEST_EGL_OPENGL_API}};
  unsetenv("GLRADIX_EGL_PLATFORM");
  unsetenv("GLRADIX_EGL_API");
  glradix_headless *keep = create_or_fail(); /* keeps libEGL loaded throughout */
  egl_query_api_fn query = (egl_query_api_fn)glradix_headless_load("eglQueryAPI");
  egl_bind_api_fn bind = (egl_bind_api_fn)glradix_headless_load("eglBindAPI");
  ck_assert_msg(query && bind, "eglQueryAPI / eglBindAPI not found");
  const unsigned helper_api = cases[_i].helper_api, app_api = cases[_i].app_api;
  ck_assert_msg(bind(app_api), "eglBindAPI(0x%x) failed", app_api);
  setenv("GLRADIX_EGL_API", cases[_i].helper, 1);
  glradix_headless *h = create_or_fail();
  unsetenv("GLRADIX_EGL_API");
  ck_assert_str_eq(glradix_headless_api(h), cases[_i].helper);
  ck_assert_msg(query() == helper_api, "%s helper, once created: API 0x%x", cases[_i].helper,
                query());
  ck_assert(bind(app_api));
  glradix_headless_destroy(h);
  ck_assert_msg(query() == app_api, "%s helper, once destroyed: API 0x%x, the application's 0x%x",
                cases[_i].helper, query(), app_api);
  bind(TEST_EGL_OPENGL_API);
  glradix_headless_destroy(keep);
}
END_TEST

static Suite *headless_suite(void) {
  Suite *s = suite_create("headless");
  TCase *tc = tcase_create("egl");
  tcase_add_test(tc, create_default_platform);
  tcase_add_test(tc, gives_gl_4_3_core_with_compute);
  tcase_add_test(tc, forced_surfaceless);
  tcase_add_test(tc, forced_device);
  tcase_add_test(tc, unknown_platform_is_invalid_argument);
  tcase_add_test(tc, gles_api);
  tcase_add_test(tc, create_destroy_create_again);
  tcase_add_loop_test(tc, bound_egl_api_is_kept, 0, 2);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(headless_suite)
