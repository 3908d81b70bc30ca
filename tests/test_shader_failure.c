/* A shader that fails to compile: the library's test hook (src/testing.h)
 * gives the scan_blocks program a broken #define. Creating the context
 * must return GLRADIX_ERROR_SHADER, hand the driver's log to the logger,
 * leave no program behind and leave the GL state as it was. An LBVH
 * program, built by the first LBVH call, fails that call alone. */
#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glradix/glradix.h>
#include <glradix/headless.h>
#include <glradix/lbvh.h>

#include "pin_mesa.h"
#include "testing.h"

#define GL_CURRENT_PROGRAM 0x8B8D
typedef unsigned char (*is_program_fn)(unsigned);
typedef void (*get_integerv_fn)(unsigned, int *);
typedef unsigned (*get_error_fn)(void);
typedef void (*gen_buffers_fn)(int, unsigned *);
typedef void (*bind_buffer_fn)(unsigned, unsigned);
typedef void (*buffer_data_fn)(unsigned, ptrdiff_t, const void *, unsigned);
typedef void (*get_buffer_sub_data_fn)(unsigned, ptrdiff_t, ptrdiff_t, void *);
#define GL_SHADER_STORAGE_BUFFER 0x90D2
#define GL_DYNAMIC_COPY 0x88EA

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

/* A headless context, then glradix_create with `stage` broken (the test
 * hook) and the log collected; *ctx as the create leaves it. */
static glradix_status create_broken(const char *stage, glradix_headless **h,
                                    glradix_context **ctx) {
  ck_assert_msg(glradix_headless_create(h) == GLRADIX_OK,
                "no headless OpenGL 4.3 context (GLRADIX_HEADLESS_VERBOSE=1 says why)");
  glradix_desc d = {0};
  d.load = glradix_headless_load;
  d.log = collect;
  _glradix_test_hooks hooks = _GLRADIX_TEST_HOOKS_NONE;
  hooks.break_shader = stage;
  return _glradix_create_for_tests(&d, &hooks, ctx);
}

START_TEST(broken_shader_is_reported) {
  glradix_headless *h = NULL;
  glradix_context *ctx = (glradix_context *)&h; /* must be set to NULL */
  glradix_status st = create_broken("scan_blocks", &h, &ctx);
  is_program_fn is_program = (is_program_fn)gl_proc("glIsProgram");
  get_integerv_fn get_integerv = (get_integerv_fn)gl_proc("glGetIntegerv");
  get_error_fn get_error = (get_error_fn)gl_proc("glGetError");
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

/* The LBVH's programs are built by the first LBVH call: one that fails to
 * compile fails that call (and the next) with GLRADIX_ERROR_SHADER and the
 * driver's log, writes nothing, and leaves the context's sorts working. */
START_TEST(broken_lbvh_shader_fails_the_lbvh_call_only) {
  glradix_headless *h = NULL;
  glradix_context *ctx = NULL;
  glradix_status st = create_broken("lbvh_tree", &h, &ctx);
  gen_buffers_fn gen_buffers = (gen_buffers_fn)gl_proc("glGenBuffers");
  bind_buffer_fn bind_buffer = (bind_buffer_fn)gl_proc("glBindBuffer");
  buffer_data_fn buffer_data = (buffer_data_fn)gl_proc("glBufferData");
  get_buffer_sub_data_fn get_sub = (get_buffer_sub_data_fn)gl_proc("glGetBufferSubData");
  ck_assert_msg(st == GLRADIX_OK, "glradix_create: %s (log: %s)", glradix_status_string(st), g_log);
  /* the nodes, their parent words and the leaves' primitives, four words
   * to 16 bytes (lbvh.h) */
  enum { N = 3000, NODE_WORDS = (2 * N - 1) * 8 + (2 * N - 1 + 3) / 4 * 4 + (N + 3) / 4 * 4 };
  static float boxes[N * 8];
  static uint32_t keys[N], nodes[NODE_WORDS], after[NODE_WORDS];
  for (uint32_t i = 0; i < N; i++) {
    keys[i] = (i * 2654435761u) >> 8;
    for (int c = 0; c < 3; c++) boxes[8 * i + c] = boxes[8 * i + 4 + c] = (float)((i * (7u + c)) % 101);
  }
  for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++) nodes[i] = 0xA5A5A5A5u;
  unsigned buf[3];
  gen_buffers(3, buf);
  const void *data[3] = {boxes, nodes, keys};
  const ptrdiff_t bytes[3] = {sizeof boxes, sizeof nodes, sizeof keys};
  for (int i = 0; i < 3; i++) {
    bind_buffer(GL_SHADER_STORAGE_BUFFER, buf[i]);
    buffer_data(GL_SHADER_STORAGE_BUFFER, bytes[i], data[i], GL_DYNAMIC_COPY);
  }
  glradix_lbvh_desc ld = {0};
  ld.bounds = buf[0];
  ld.count = N;
  ld.nodes = buf[1];
  for (int call = 0; call < 2; call++) {
    g_log[0] = '\0';
    st = glradix_lbvh_build(ctx, &ld);
    ck_assert_msg(st == GLRADIX_ERROR_SHADER, "build %d: %s", call, glradix_status_string(st));
    ck_assert_msg(strstr(g_log, "lbvh_tree.comp") && strstr(g_log, "broken_on_purpose"),
                  "build %d's log names no stage or driver log:\n%s", call, g_log);
  }
  bind_buffer(GL_SHADER_STORAGE_BUFFER, buf[1]);
  get_sub(GL_SHADER_STORAGE_BUFFER, 0, sizeof after, after);
  ck_assert_msg(memcmp(nodes, after, sizeof nodes) == 0, "the failed builds wrote nodes");
  glradix_sort_desc sd = {0};
  sd.keys = buf[2];
  sd.count = N;
  ck_assert_int_eq(glradix_sort(ctx, &sd), GLRADIX_OK);
  bind_buffer(GL_SHADER_STORAGE_BUFFER, buf[2]);
  get_sub(GL_SHADER_STORAGE_BUFFER, 0, sizeof keys, after);
  for (uint32_t i = 1; i < N; i++) ck_assert_msg(after[i - 1] <= after[i], "keys unsorted at %u", i);
  glradix_destroy(ctx);
  glradix_headless_destroy(h);
}
END_TEST

int main(void) {
  test_pin_mesa(); /* LeakSanitizer names Mesa's frames (tests/lsan.supp) */
  Suite *s = suite_create("shader_failure");
  TCase *tc = tcase_create("compile");
  tcase_add_test(tc, broken_shader_is_reported);
  tcase_add_test(tc, broken_lbvh_shader_fails_the_lbvh_call_only);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
