/* Check runner setup, the capturing logger and the GL fixtures. */
#include "common.h"
#include "pin_mesa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

glradix_headless *tg_headless;
GladGLContext tg_gl;
glradix_context *tg_ctx;
test_log tg_log;

void test_init(void) {
  /* Large sorts on llvmpipe outlive Check's 4 s default. The environment
   * (ctest sets it) wins; this only covers running a binary by hand. */
  setenv("CK_DEFAULT_TIMEOUT", "120", 0);
  test_pin_mesa();
}

int test_run_suite(Suite *s) {
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* ---- log capture ---------------------------------------------------------- */

void test_log_reset(test_log *log) { memset(log, 0, sizeof *log); }

void test_log_fn(void *user, const char *message) {
  test_log *log = user;
  if (!message || !message[0] || strchr(message, '\n'))
    log->bad_lines++;
  if (message) {
    if (log->count == 0)
      snprintf(log->first, sizeof log->first, "%s", message);
    snprintf(log->last, sizeof log->last, "%s", message);
  }
  log->count++;
  if (getenv("GLRADIX_TEST_VERBOSE"))
    fprintf(stderr, "glradix log: %s\n", message ? message : "(null)");
}

/* ---- GL fixtures ---------------------------------------------------------- */

void gl_setup(void) {
  tg_headless = NULL;
  tg_ctx = NULL;
  test_log_reset(&tg_log);
  memset(&tg_gl, 0, sizeof tg_gl);
  glradix_status st = glradix_headless_create(&tg_headless);
  if (st != GLRADIX_OK || !tg_headless)
    ck_abort_msg("no headless OpenGL 4.3 or ES 3.1 context: %s (a missing GL "
                 "context is a failure; set GLRADIX_HEADLESS_VERBOSE=1 for the reason)",
                 glradix_status_string(st));
  /* GLRADIX_EGL_API=gles runs the suites on an OpenGL ES context */
  int es = test_es();
  int version = es ? gladLoadGLES2Context(&tg_gl, glradix_headless_load)
                   : gladLoadGLContext(&tg_gl, glradix_headless_load);
  if (!version || !(es ? tg_gl.ES_VERSION_3_1 : tg_gl.VERSION_4_3))
    ck_abort_msg("the headless context does not give %s through "
                 "glradix_headless_load (glad version %d.%d)", es ? "ES 3.1" : "GL 4.3",
                 GLAD_VERSION_MAJOR(version), GLAD_VERSION_MINOR(version));
}

int test_es(void) {
  const char *api = getenv("GLRADIX_EGL_API");
  return api && strcmp(api, "gles") == 0;
}

void gl_teardown(void) {
  glradix_headless_destroy(tg_headless);
  tg_headless = NULL;
}

glradix_desc test_desc(unsigned radix_bits, uint32_t dispatch_limit) {
  glradix_desc d = {0};
  d.load = glradix_headless_load;
  d.radix_bits = radix_bits;
  d.log = test_log_fn;
  d.log_user = &tg_log;
  d.dispatch_limit = dispatch_limit;
  return d;
}

void ctx_setup_with(glradix_desc desc) {
  gl_setup();
  glradix_status st = test_create(&desc, &tg_ctx);
  if (st != GLRADIX_OK || !tg_ctx)
    ck_abort_msg("glradix_create(radix_bits %u, dispatch_limit %u, max_count "
                 "%u) failed: %s; log (%d lines): %s",
                 desc.radix_bits, (unsigned)desc.dispatch_limit,
                 (unsigned)desc.max_count, glradix_status_string(st),
                 tg_log.count, tg_log.first);
  ck_assert_msg(tg_log.count == 0, "glradix_create succeeded but logged: %s",
                tg_log.first);
}

void ctx_teardown(void) {
  glradix_destroy(tg_ctx);
  tg_ctx = NULL;
  gl_teardown();
}

void ctx_setup_default(void) { ctx_setup_with(test_desc(0, 0)); }
void ctx_setup_r2(void) { ctx_setup_with(test_desc(2, 0)); }
void ctx_setup_r4(void) { ctx_setup_with(test_desc(4, 0)); }
void ctx_setup_dl1(void) { ctx_setup_with(test_desc(0, 1)); }
void ctx_setup_dl3(void) { ctx_setup_with(test_desc(0, 3)); }
void ctx_setup_dl3_r2(void) { ctx_setup_with(test_desc(2, 3)); }

static glradix_desc stp_desc(unsigned radix_bits) {
  glradix_desc d = test_desc(radix_bits, 0);
  d.plan = GLRADIX_PLAN_SCAN_THEN_PROPAGATE;
  return d;
}
void ctx_setup_stp_r2(void) { ctx_setup_with(stp_desc(2)); }
void ctx_setup_stp_r8(void) { ctx_setup_with(stp_desc(8)); }
