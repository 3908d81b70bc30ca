/* glradix_scan and glradix_compact against CPU loops, each run twice in a
 * row with different data on the same buffers. */
#include "common.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOTAL_OFFSET 8 /* bytes: the total goes to word 2 of its buffer */

static uint32_t rnd(uint64_t *st) { return (uint32_t)test_rng_next(st); }

/* ---- scan ----------------------------------------------------------------- */

static void check_scan(size_t n, int inclusive, int in_place, uint64_t seed) {
  uint32_t *in = test_alloc_u32(n), *out = test_alloc_u32(n), *ref = test_alloc_u32(n);
  size_t words = n ? n : 1;
  GLuint ib = buf_create(NULL, 0, words), ob = in_place ? ib : buf_create(NULL, 0, words);
  GLuint tb = buf_create(NULL, 0, 4);
  for (unsigned round = 0; round < 2; round++) {
    uint64_t st = seed + round;
    /* round 1 has huge values: the sums wrap modulo 2^32 */
    for (size_t i = 0; i < n; i++) in[i] = round ? rnd(&st) : rnd(&st) % 1000u;
    uint32_t run = 0;
    for (size_t i = 0; i < n; i++) {
      if (!inclusive) ref[i] = run;
      run += in[i];
      if (inclusive) ref[i] = run;
    }
    const uint32_t marker[4] = {0xAAAAAAAAu, 0xBBBBBBBBu, 0xCCCCCCCCu, 0xDDDDDDDDu};
    buf_upload(tb, marker, 4);
    buf_upload(ib, in, n);
    glradix_scan_desc d = {0};
    d.input = ib;
    d.output = ob;
    d.count = (uint32_t)n;
    d.inclusive = inclusive;
    d.total_buffer = tb;
    d.total_offset = TOTAL_OFFSET;
    test_log_reset(&tg_log);
    glradix_status s = glradix_scan(tg_ctx, &d);
    ck_assert_msg(s == GLRADIX_OK, "scan n %zu: %s", n, glradix_status_string(s));
    ck_assert_int_eq(tg_log.count, 0);
    buf_read(ob, out, n);
    char what[96];
    snprintf(what, sizeof what, "scan n %zu inclusive %d in_place %d round %u", n, inclusive,
             in_place, round);
    expect_equal_u32(ref, out, n, what);
    uint32_t t[4];
    buf_read(tb, t, 4);
    ck_assert_msg(t[2] == run, "%s: total %u, expected %u", what, t[2], run);
    ck_assert_msg(t[0] == marker[0] && t[1] == marker[1] && t[3] == marker[3],
                  "%s: words around the total changed", what);
  }
  expect_no_gl_error("scan");
  buf_delete(ib);
  if (!in_place) buf_delete(ob);
  buf_delete(tb);
  free(in);
  free(out);
  free(ref);
}

static const size_t scan_sizes[] = {0, 1, 2, 255, 256, 257, 1000, 1023, 1024, 1025,
                                    4095, 4097, 100003, (1u << 20) + 7};
#define N_SCAN (sizeof scan_sizes / sizeof scan_sizes[0])

START_TEST(scan_sizes_modes) { /* a forked child runs four sizes */
  FOR_GROUP_CASES(i, 16, N_SCAN * 4) {
    size_t k = (size_t)i;
    int inclusive = (int)(k % 2), in_place = (int)((k / 2) % 2);
    check_scan(scan_sizes[k / 4], inclusive, in_place, 100 + (uint64_t)i * 2);
  }
}
END_TEST

/* Lengths that need two and three scan levels whatever the context's scan
 * block (256 to 2048 values), and squares of the block sizes: their block
 * totals fill exactly one block, which the last group of the level below
 * scans (scan_blocks.comp's chain). */
START_TEST(scan_level_edges) {
  static const size_t edges[] = {2047, 2048, 2049, 2048 * 2048 - 1, 2048 * 2048 + 1,
                                 256 * 256, 512 * 512, 1024 * 1024, 2048 * 2048};
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
    check_scan(edges[i], (int)(i % 2), 0, 900 + i * 2);
}
END_TEST

/* ---- compaction ----------------------------------------------------------- */

typedef enum { KEEP_NONE, KEEP_ALL, KEEP_HALF, KEEP_FLOAT_POSITIVE } keep_mode;

static const uint32_t float_bits[] = {0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u,
                                      0x7FC00000u, 0xFFC00000u, 0x00000001u, 0x80000001u,
                                      0x3F800000u, 0xBF800000u};

static void check_compact(size_t n, keep_mode mode, int in_place, int zero_fill, uint64_t seed) {
  size_t words = n ? n : 1;
  uint32_t *in = test_alloc_u32(n), *flags = test_alloc_u32(n), *out = test_alloc_u32(n);
  uint32_t *ref = test_alloc_u32(n), *before = test_alloc_u32(n);
  GLuint ib = buf_create(NULL, 0, words), ob = in_place ? ib : buf_create(NULL, 0, words);
  GLuint fb = mode == KEEP_FLOAT_POSITIVE ? 0 : buf_create(NULL, 0, words);
  GLuint cb = buf_create(NULL, 0, 4);
  for (unsigned round = 0; round < 2; round++) {
    uint64_t st = seed + round;
    for (size_t i = 0; i < n; i++) {
      uint32_t r = rnd(&st);
      if (mode == KEEP_FLOAT_POSITIVE) {
        float f = (float)((int32_t)(r % 2001u) - 1000) * 0.25f;
        memcpy(&in[i], &f, 4);
        if (r % 7u == 0) in[i] = float_bits[(r >> 8) % (sizeof float_bits / 4)];
      } else {
        in[i] = r;
      }
      flags[i] = mode == KEEP_ALL ? (r | 1u) : mode == KEEP_HALF ? ((r >> 13) & 1u) * (r >> 16) : 0u;
      before[i] = 0x5EED0000u + (uint32_t)i; /* the output's old contents */
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
      int keep;
      if (mode == KEEP_FLOAT_POSITIVE) {
        float f;
        memcpy(&f, &in[i], 4);
        keep = f > 0.0f; /* false for NaN, -0 and +0 */
      } else {
        keep = flags[i] != 0;
      }
      if (keep) ref[kept++] = in[i];
    }
    for (size_t i = kept; i < n; i++) ref[i] = zero_fill ? 0u : in_place ? in[i] : before[i];
    buf_upload(ib, in, n);
    if (!in_place) buf_upload(ob, before, n);
    if (fb) buf_upload(fb, flags, n);
    glradix_compact_desc d = {0};
    d.input = ib;
    d.output = ob;
    d.flags = fb;
    d.count = (uint32_t)n;
    d.count_out_buffer = cb;
    d.count_out_offset = 4;
    d.zero_fill = zero_fill;
    test_log_reset(&tg_log);
    glradix_status s = glradix_compact(tg_ctx, &d);
    ck_assert_msg(s == GLRADIX_OK, "compact n %zu: %s", n, glradix_status_string(s));
    ck_assert_int_eq(tg_log.count, 0);
    buf_read(ob, out, n);
    char what[112];
    snprintf(what, sizeof what, "compact n %zu mode %d in_place %d zero_fill %d round %u", n,
             (int)mode, in_place, zero_fill, round);
    expect_equal_u32(ref, out, n, what);
    uint32_t c[4];
    buf_read(cb, c, 4);
    ck_assert_msg(c[1] == kept, "%s: count_out %u, expected %zu", what, c[1], kept);
  }
  expect_no_gl_error("compact");
  buf_delete(ib);
  if (!in_place) buf_delete(ob);
  if (fb) buf_delete(fb);
  buf_delete(cb);
  free(in);
  free(flags);
  free(out);
  free(ref);
  free(before);
}

static const size_t compact_sizes[] = {0, 1, 3, 1000, 4097, 100003};
#define N_COMPACT (sizeof compact_sizes / sizeof compact_sizes[0])

START_TEST(compact_modes) { /* a forked child runs three sizes */
  FOR_GROUP_CASES(i, 48, N_COMPACT * 16) {
    size_t k = (size_t)i;
    int zero_fill = (int)(k % 2);
    int in_place = (int)((k / 2) % 2);
    keep_mode mode = (keep_mode)((k / 4) % 4);
    check_compact(compact_sizes[k / 16], mode, in_place, zero_fill, 2000 + (uint64_t)i * 2);
  }
}
END_TEST

/* ---- bad input ------------------------------------------------------------ */

START_TEST(primitives_bad_input) {
  GLuint a = buf_create(NULL, 0, 64), b = buf_create(NULL, 0, 64), small = buf_create(NULL, 0, 2);
  uint32_t before[64], after[64];
  for (uint32_t i = 0; i < 64; i++) before[i] = i * 7u;
  buf_upload(a, before, 64);
  buf_upload(b, before, 64);
  struct {
    glradix_scan_desc s;
    const char *what;
  } scans[] = {
      {{.input = 987654, .output = b, .count = 64}, "scan input not a buffer"},
      {{.input = a, .output = small, .count = 64}, "scan output too small"},
      {{.input = a, .output = b, .count = 64, .total_buffer = b, .total_offset = 3},
       "scan total_offset not a multiple of 4"},
      {{.input = a, .output = b, .count = 64, .total_buffer = small, .total_offset = 8},
       "scan total beyond its buffer"},
      {{.input = a, .output = b, .count = 64, .total_buffer = b, .total_offset = SIZE_MAX - 3},
       "scan total_offset whose word wraps past 0"},
  };
  for (size_t i = 0; i < sizeof scans / sizeof scans[0]; i++) {
    test_log_reset(&tg_log);
    glradix_status s = glradix_scan(tg_ctx, &scans[i].s);
    ck_assert_msg(s == GLRADIX_ERROR_INVALID_ARGUMENT, "%s: %s", scans[i].what,
                  glradix_status_string(s));
    ck_assert_msg(tg_log.count == 1, "%s: %d log lines", scans[i].what, tg_log.count);
  }
  struct {
    glradix_compact_desc c;
    const char *what;
  } compacts[] = {
      {{.input = a, .output = b, .flags = 987654, .count = 64}, "compact flags not a buffer"},
      {{.input = a, .output = b, .flags = b, .count = 64}, "compact flags == output"},
      {{.input = small, .output = b, .count = 64}, "compact input too small"},
      {{.input = a, .output = b, .count = 64, .count_out_buffer = 987654},
       "compact count_out not a buffer"},
      {{.input = a, .output = small, .count = 64}, "compact output too small"},
      {{.input = a, .output = b, .flags = small, .count = 64}, "compact flags too small"},
      {{.input = a, .output = b, .count = 64, .count_out_buffer = b, .count_out_offset = 6},
       "compact count_out_offset not a multiple of 4"},
      {{.input = a, .output = b, .count = 64, .count_out_buffer = b,
        .count_out_offset = SIZE_MAX - 3},
       "compact count_out_offset whose word wraps past 0"},
  };
  for (size_t i = 0; i < sizeof compacts / sizeof compacts[0]; i++) {
    test_log_reset(&tg_log);
    glradix_status s = glradix_compact(tg_ctx, &compacts[i].c);
    ck_assert_msg(s == GLRADIX_ERROR_INVALID_ARGUMENT, "%s: %s", compacts[i].what,
                  glradix_status_string(s));
    ck_assert_msg(tg_log.count == 1, "%s: %d log lines", compacts[i].what, tg_log.count);
  }
  /* a mapped (not persistently) output: refused, and left mapped */
  tg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, b);
  void *mapped = tg_gl.MapBufferRange(GL_COPY_WRITE_BUFFER, 0, 64 * 4, GL_MAP_READ_BIT);
  ck_assert_ptr_nonnull(mapped);
  glradix_scan_desc onto_mapped = {.input = a, .output = b, .count = 64};
  glradix_compact_desc compact_mapped = {.input = a, .output = b, .count = 64};
  /* each refused by the mapped check: one line, naming it */
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_scan(tg_ctx, &onto_mapped), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_msg(tg_log.count == 1 && strstr(tg_log.first, "mapped"), "scan: %d lines, \"%s\"",
                tg_log.count, tg_log.first);
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_compact(tg_ctx, &compact_mapped), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_msg(tg_log.count == 1 && strstr(tg_log.first, "mapped"), "compact: %d lines, \"%s\"",
                tg_log.count, tg_log.first);
  tg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, b);
  GLint still = 0;
  tg_gl.GetBufferParameteriv(GL_COPY_WRITE_BUFFER, GL_BUFFER_MAPPED, &still);
  ck_assert_msg(still, "the library unmapped the caller's buffer");
  tg_gl.UnmapBuffer(GL_COPY_WRITE_BUFFER);
  tg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, 0);
  ck_assert_int_eq(glradix_scan(tg_ctx, NULL), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(glradix_compact(tg_ctx, NULL), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(glradix_scan(NULL, &scans[0].s), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(glradix_compact(NULL, &compacts[0].c), GLRADIX_ERROR_INVALID_ARGUMENT);
  buf_read(a, after, 64);
  expect_equal_u32(before, after, 64, "input after rejected calls");
  buf_read(b, after, 64);
  expect_equal_u32(before, after, 64, "output after rejected calls");
  expect_no_gl_error("rejected scans and compactions");
  buf_delete(a);
  buf_delete(b);
  buf_delete(small);
}
END_TEST

static Suite *primitives_suite(void) {
  Suite *s = suite_create("primitives");
  TCase *tc = tcase_create("scan");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_loop_test(tc, scan_sizes_modes, 0, CASE_GROUPS(N_SCAN * 4, 16));
  tcase_add_test(tc, scan_level_edges);
  suite_add_tcase(s, tc);
  tc = tcase_create("compact");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_loop_test(tc, compact_modes, 0, CASE_GROUPS(N_COMPACT * 16, 48));
  tcase_add_test(tc, primitives_bad_input);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(primitives_suite)
