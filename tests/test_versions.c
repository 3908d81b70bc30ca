/* Contexts the library cannot use: an OpenGL ES context below 3.1 or a GL
 * context below 4.3 gets GLRADIX_ERROR_UNSUPPORTED with one log line naming
 * the version needed (never a shader compile error), and on ES,
 * desc.profile without GL_EXT_disjoint_timer_query gets it too. llvmpipe
 * offers ES 3.2 and GL 4.5 whatever version is asked for, so Mesa's
 * version and extension overrides make the older contexts; each test sets
 * them in its own forked child, before its first context. */
#include "common.h"

#include <stdlib.h>
#include <string.h>

/* EGL tokens and entry points used here (no EGL header is included). */
#define T_EGL_OPENGL_ES_API 0x30A0u
#define T_EGL_OPENGL_API 0x30A2u
#define T_EGL_CONTEXT_MAJOR_VERSION 0x3098
#define T_EGL_CONTEXT_MINOR_VERSION 0x30FB
#define T_EGL_CONTEXT_OPENGL_PROFILE_MASK 0x30FD
#define T_EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT 0x1
#define T_EGL_NONE 0x3038
typedef void *(*egl_get_current_display_fn)(void);
typedef unsigned (*egl_bind_api_fn)(unsigned);
typedef void *(*egl_create_context_fn)(void *dpy, void *config, void *share, const int *attribs);
typedef unsigned (*egl_make_current_fn)(void *dpy, void *draw, void *read, void *ctx);
typedef unsigned (*egl_destroy_context_fn)(void *dpy, void *ctx);

/* glradix_create on a context of `api` major.minor that a headless context
 * of the other API's display makes (it keeps libEGL loaded); expects
 * UNSUPPORTED and one log line containing `needed`. */
static void expect_unsupported_on(unsigned api, int major, int minor, const char *needed) {
  setenv("GLRADIX_EGL_API", api == T_EGL_OPENGL_API ? "gles" : "gl", 1);
  glradix_headless *h = NULL;
  ck_assert_msg(glradix_headless_create(&h) == GLRADIX_OK, "no headless context");
  egl_get_current_display_fn get_display =
      (egl_get_current_display_fn)glradix_headless_load("eglGetCurrentDisplay");
  egl_bind_api_fn bind = (egl_bind_api_fn)glradix_headless_load("eglBindAPI");
  egl_create_context_fn create = (egl_create_context_fn)glradix_headless_load("eglCreateContext");
  egl_make_current_fn make_current = (egl_make_current_fn)glradix_headless_load("eglMakeCurrent");
  egl_destroy_context_fn destroy = (egl_destroy_context_fn)glradix_headless_load("eglDestroyContext");
  ck_assert(get_display && bind && create && make_current && destroy);
  void *dpy = get_display();
  int attribs[] = {T_EGL_CONTEXT_MAJOR_VERSION, major, T_EGL_CONTEXT_MINOR_VERSION, minor,
                   T_EGL_CONTEXT_OPENGL_PROFILE_MASK, T_EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                   T_EGL_NONE};
  if (api == T_EGL_OPENGL_ES_API) attribs[4] = T_EGL_NONE; /* profiles are GL's only */
  ck_assert(bind(api));
  void *old = create(dpy, NULL, NULL, attribs);
  ck_assert_msg(old != NULL, "no %s %d.%d context", api == T_EGL_OPENGL_API ? "GL" : "ES", major,
                minor);
  ck_assert(make_current(dpy, NULL, NULL, old));

  test_log_reset(&tg_log);
  glradix_desc d = test_desc(0, 0);
  glradix_context *ctx = (glradix_context *)&d; /* must come back NULL */
  glradix_status st = glradix_create(&d, &ctx);
  ck_assert_msg(st == GLRADIX_ERROR_UNSUPPORTED, "glradix_create gave %s (log: %s)",
                glradix_status_string(st), tg_log.first);
  ck_assert_ptr_null(ctx);
  ck_assert_msg(tg_log.count == 1 && tg_log.bad_lines == 0 && strstr(tg_log.first, needed),
                "expected one log line naming %s, got %d: %s", needed, tg_log.count, tg_log.first);

  make_current(dpy, NULL, NULL, NULL);
  destroy(dpy, old);
  bind(api == T_EGL_OPENGL_API ? T_EGL_OPENGL_ES_API : T_EGL_OPENGL_API);
  glradix_headless_destroy(h);
}

START_TEST(es_3_0_is_unsupported) {
  setenv("MESA_GLES_VERSION_OVERRIDE", "3.0", 1);
  expect_unsupported_on(T_EGL_OPENGL_ES_API, 3, 0, "OpenGL ES 3.0 is current; ES 3.1");
}
END_TEST

START_TEST(gl_4_2_is_unsupported) {
  setenv("MESA_GL_VERSION_OVERRIDE", "4.2", 1);
  expect_unsupported_on(T_EGL_OPENGL_API, 3, 3, "OpenGL 4.2 is current; 4.3");
}
END_TEST

/* OpenGL ES has timer queries only through GL_EXT_disjoint_timer_query:
 * without it desc.profile is refused at create, and a context without
 * profiling still sorts. */
START_TEST(es_profile_needs_timer_extension) {
  setenv("MESA_EXTENSION_OVERRIDE", "-GL_EXT_disjoint_timer_query", 1);
  setenv("GLRADIX_EGL_API", "gles", 1);
  gl_setup();
  glradix_desc d = test_desc(0, 0);
  d.profile = 1;
  glradix_status st = glradix_create(&d, &tg_ctx);
  ck_assert_msg(st == GLRADIX_ERROR_UNSUPPORTED, "glradix_create(profile) gave %s",
                glradix_status_string(st));
  ck_assert_ptr_null(tg_ctx);
  ck_assert_msg(tg_log.count == 1 && strstr(tg_log.first, "GL_EXT_disjoint_timer_query"),
                "expected one log line naming the extension, got %d: %s", tg_log.count,
                tg_log.first);
  d.profile = 0;
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_create(&d, &tg_ctx), GLRADIX_OK);
  run_gl_sort_twice(tg_ctx, 30001, DIST_UNIFORM, 1, 0, 0, 5);
  glradix_destroy(tg_ctx);
  tg_ctx = NULL;
  gl_teardown();
}
END_TEST

static Suite *versions_suite(void) {
  Suite *s = suite_create("versions");
  TCase *tc = tcase_create("versions");
  tcase_add_test(tc, es_3_0_is_unsupported);
  tcase_add_test(tc, gl_4_2_is_unsupported);
  tcase_add_test(tc, es_profile_needs_timer_extension);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(versions_suite)
