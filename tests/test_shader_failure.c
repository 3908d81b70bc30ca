/* A shader that fails to compile: the library's test hook (src/testing.h)
 * gives the scan_blocks program a broken #define. Creating the context
 * must return GLRADIX_ERROR_SHADER, hand the driver's log to the logger,
 * leave no program behind and leave the GL state as it was. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glradix/glradix.h>
#include <glradix/headless.h>

#include "pin_mesa.h"
#include "testing.h"

#define GL_CURRENT_PROGRAM 0x8B8D
typedef unsigned char (*is_program_fn)(unsigned);
typedef void (*get_integerv_fn)(unsigned, int *);
typedef unsigned (*get_error_fn)(void);

static char g_log[8192];
static int g_lines, g_multiline;

static void collect(void *user, const char *line) {
  (void)user;
  g_lines++;
  if (strchr(line, '\n') || strchr(line, '\r')) g_multiline++;
  strncat(g_log, line, sizeof g_log - strlen(g_log) - 2);
  strcat(g_log, "\n");
}

static glradix_apiproc gl_proc(const char *name) {
  glradix_apiproc p = glradix_headless_load(name);
  ck_assert_msg(p != NULL, "no %s", name);
  return p;
}

START_TEST(broken_shader_is_reported) {
  glradix_headless *h = NULL;
  ck_assert_msg(glradix_headless_create(&h) == GLRADIX_OK,
                "no headless OpenGL 4.3 context (GLRADIX_HEADLESS_VERBOSE=1 says why)");
  is_program_fn is_program = (is_program_fn)gl_proc("glIsProgram");
  get_integerv_fn get_integerv = (get_integerv_fn)gl_proc("glGetIntegerv");
  get_error_fn get_error = (get_error_fn)gl_proc("glGetError");
  glradix_desc d = {0};
  d.load = glradix_headless_load;
  d.log = collect;
  glradix_context *ctx = (glradix_context *)&d; /* must be set to NULL */
  _glradix_test_hooks hooks = _GLRADIX_TEST_HOOKS_NONE;
  hooks.break_shader = "scan_blocks";
  glradix_status st = _glradix_create_for_tests(&d, &hooks, &ctx);
  ck_assert_msg(st == GLRADIX_ERROR_SHADER, "glradix_create: %s", glradix_status_string(st));
  ck_assert_ptr_null(ctx);
  ck_assert_msg(strstr(g_log, "scan_blocks.comp") != NULL, "log names no stage:\n%s", g_log);
  ck_assert_msg(strstr(g_log, "driver log") != NULL, "log has no driver log:\n%s", g_log);
  ck_assert_msg(strstr(g_log, "broken_on_purpose") != NULL,
                "the driver's log does not mention the broken define:\n%s", g_log);
  /* the logger's contract: one line per message, no newline in it */
  ck_assert_msg(g_multiline == 0, "%d of %d messages span lines:\n%s", g_multiline, g_lines,
                g_log);
  /* no program is left behind, the current program is untouched */
  for (unsigned name = 1; name < 512; name++)
    ck_assert_msg(!is_program(name), "program %u left behind", name);
  int current = -1;
  get_integerv(GL_CURRENT_PROGRAM, &current);
  ck_assert_int_eq(current, 0);
  ck_assert_uint_eq(get_error(), 0);
  glradix_headless_destroy(h);
}
END_TEST

int main(void) {
  test_pin_mesa(); /* LeakSanitizer names Mesa's frames (tests/lsan.supp) */
  Suite *s = suite_create("shader_failure");
  TCase *tc = tcase_create("compile");
  tcase_add_test(tc, broken_shader_is_reported);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
