/* GL buffer helpers and the "sort twice and compare" drivers. */
#include "common.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD_PATTERN(i) (0xDEADBEEFu ^ (uint32_t)(i) * 0x01000193u)

void expect_no_gl_error(const char *where) {
  GLenum e = tg_gl.GetError();
  ck_assert_msg(e == GL_NO_ERROR, "%s: GL error 0x%04x", where, (unsigned)e);
}

void expect_call_ok(glradix_status st, const char *what) {
  ck_assert_msg(st == GLRADIX_OK, "%s: \"%s\" (log: %s)", what, glradix_status_string(st),
                tg_log.first);
  ck_assert_msg(tg_log.count == 0, "%s logged: %s", what, tg_log.first);
  expect_no_gl_error(what);
}

GLuint buf_create(const uint32_t *data, size_t n, size_t alloc_words) {
  /* The words not given are zeros: a new store's contents are undefined
   * (NVIDIA's are not zeros), and tests compare untouched words with what
   * they expect. Zeroed on the CPU: on the H200 a glClearBufferSubData
   * before the tests' glBufferSubData left the sorts reading zeros. */
  uint32_t *init = NULL;
  if (alloc_words) {
    init = (uint32_t *)calloc(alloc_words, 4);
    ck_assert_msg(init != NULL, "buf_create: out of memory (%zu words)", alloc_words);
    if (data && n)
      memcpy(init, data, n * 4);
  }
  GLuint buf = 0;
  tg_gl.GenBuffers(1, &buf);
  tg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, buf);
  tg_gl.BufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)(alloc_words * 4), init,
                   GL_DYNAMIC_DRAW);
  tg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, 0);
  free(init);
  expect_no_gl_error("buf_create");
  return buf;
}

GLuint buf_bounds(const float *b, size_t n) { return buf_create((const uint32_t *)b, n * 8, n * 8); }

void buf_upload(GLuint buf, const uint32_t *data, size_t n) {
  if (!n)
    return;
  /* On the H200 (driver 580) an upload right after a glradix call that
   * wrote the buffer was overwritten by that call's shaders, its closing
   * barrier notwithstanding: wait for them first. */
  tg_gl.Finish();
  tg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, buf);
  tg_gl.BufferSubData(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)(n * 4), data);
  tg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, 0);
  expect_no_gl_error("buf_upload");
}

void buf_read(GLuint buf, uint32_t *out, size_t n) {
  if (!n)
    return;
  tg_gl.MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  tg_gl.BindBuffer(GL_COPY_READ_BUFFER, buf);
  const void *p = tg_gl.MapBufferRange(GL_COPY_READ_BUFFER, 0,
                                       (GLsizeiptr)(n * 4), GL_MAP_READ_BIT);
  ck_assert_msg(p != NULL, "glMapBufferRange(READ) of buffer %u (%zu words) "
                "failed: GL error 0x%04x", buf, n, (unsigned)tg_gl.GetError());
  memcpy(out, p, n * 4);
  tg_gl.UnmapBuffer(GL_COPY_READ_BUFFER);
  tg_gl.BindBuffer(GL_COPY_READ_BUFFER, 0);
  expect_no_gl_error("buf_read");
}

void buf_delete(GLuint buf) {
  if (buf)
    tg_gl.DeleteBuffers(1, &buf);
}

/* ---- drivers -------------------------------------------------------------- */

static void describe(char *out, size_t size, const char *api,
                     glradix_context *ctx, size_t n, test_dist d, int pairs,
                     unsigned begin_bit, unsigned end_bit, unsigned round,
                     uint64_t seed) {
  glradix_desc q = glradix_query_desc(ctx);
  snprintf(out, size,
           "%s %s n=%zu dist=%s bits=[%u,%u) radix_bits=%u dispatch_limit=%u "
           "round=%u seed=%" PRIu64,
           api, pairs ? "pairs" : "keys", n, dist_name(d), begin_bit,
           end_bit ? end_bit : 32, q.radix_bits, (unsigned)q.dispatch_limit,
           round, seed);
}

static void run_gl_sort_twice_guard(glradix_context *ctx, size_t n,
                                    test_dist d, int pairs, unsigned begin_bit,
                                    unsigned end_bit, uint64_t seed,
                                    size_t guard) {
  size_t total = n + guard;
  uint32_t *in_k = test_alloc_u32(total), *in_v = test_alloc_u32(total);
  uint32_t *out_k = test_alloc_u32(total), *out_v = test_alloc_u32(total);
  GLuint kb = buf_create(NULL, 0, total);
  GLuint vb = pairs ? buf_create(NULL, 0, total) : 0;
  char what[384];

  for (unsigned round = 0; round < 2; round++) {
    describe(what, sizeof what, "glradix_sort", ctx, n, d, pairs, begin_bit,
             end_bit, round, seed + round);
    gen_keys(in_k, n, d, seed + round);
    gen_values(in_v, n, round);
    for (size_t i = n; i < total; i++)
      in_k[i] = in_v[i] = GUARD_PATTERN(i + round);
    buf_upload(kb, in_k, total);
    if (pairs)
      buf_upload(vb, in_v, total);

    glradix_sort_desc sd = {0};
    sd.keys = kb;
    sd.values = vb;
    sd.count = (uint32_t)n;
    sd.begin_bit = begin_bit;
    sd.end_bit = end_bit;
    test_log_reset(&tg_log);
    glradix_status st = glradix_sort(ctx, &sd);
    ck_assert_msg(st == GLRADIX_OK, "%s: returned \"%s\"; log (%d): %s", what,
                  glradix_status_string(st), tg_log.count, tg_log.first);
    ck_assert_msg(tg_log.count == 0, "%s: OK but logged %d line(s): %s", what,
                  tg_log.count, tg_log.first);
    expect_no_gl_error(what);

    buf_read(kb, out_k, total);
    if (pairs)
      buf_read(vb, out_v, total);
    check_sort_result(in_k, pairs ? in_v : NULL, out_k, pairs ? out_v : NULL,
                      n, begin_bit, end_bit, what);
    if (guard) {
      char label[448];
      snprintf(label, sizeof label, "%s: keys past count", what);
      expect_equal_u32(in_k + n, out_k + n, guard, label);
      if (pairs) {
        snprintf(label, sizeof label, "%s: values past count", what);
        expect_equal_u32(in_v + n, out_v + n, guard, label);
      }
    }
  }
  buf_delete(kb);
  buf_delete(vb);
  free(in_k);
  free(in_v);
  free(out_k);
  free(out_v);
}

void run_gl_sort_twice(glradix_context *ctx, size_t n, test_dist d, int pairs,
                       unsigned begin_bit, unsigned end_bit, uint64_t seed) {
  /* Buffers are exactly count words; count 0 gets 4 guard words instead. */
  run_gl_sort_twice_guard(ctx, n, d, pairs, begin_bit, end_bit, seed,
                          n ? 0 : 4);
}

void run_gl_sort_twice_padded(glradix_context *ctx, size_t n, test_dist d,
                              int pairs, size_t guard, uint64_t seed) {
  run_gl_sort_twice_guard(ctx, n, d, pairs, 0, 0, seed, guard);
}

void run_host_sort_twice(glradix_context *ctx, size_t n, test_dist d, int pairs,
                         uint64_t seed) {
  uint32_t *in_k = test_alloc_u32(n), *in_v = test_alloc_u32(n);
  uint32_t *out_k = test_alloc_u32(n), *out_v = test_alloc_u32(n);
  char what[384];

  for (unsigned round = 0; round < 2; round++) {
    describe(what, sizeof what, "glradix_sort_host", ctx, n, d, pairs, 0, 0,
             round, seed + round);
    gen_keys(in_k, n, d, seed + round);
    gen_values(in_v, n, round);
    if (n) {
      memcpy(out_k, in_k, n * 4);
      memcpy(out_v, in_v, n * 4);
    }
    test_log_reset(&tg_log);
    glradix_status st =
        glradix_sort_host(ctx, out_k, pairs ? out_v : NULL, n);
    ck_assert_msg(st == GLRADIX_OK, "%s: returned \"%s\"; log (%d): %s", what,
                  glradix_status_string(st), tg_log.count, tg_log.first);
    ck_assert_msg(tg_log.count == 0, "%s: OK but logged %d line(s): %s", what,
                  tg_log.count, tg_log.first);
    expect_no_gl_error(what);
    check_sort_result(in_k, pairs ? in_v : NULL, out_k, pairs ? out_v : NULL,
                      n, 0, 0, what);
  }
  free(in_k);
  free(in_v);
  free(out_k);
  free(out_v);
}

GLuint gl_compute_program(const char *source) {
  /* The same test shaders as GLSL ES 3.10 on an ES context: the version
   * line is all that differs for what they use. */
  static const char gl_version[] = "#version 430\n";
  const char *parts[2] = {"", source};
  if (test_es() && strncmp(source, gl_version, sizeof gl_version - 1) == 0) {
    parts[0] = "#version 310 es\n";
    parts[1] = source + sizeof gl_version - 1;
  }
  GLuint sh = tg_gl.CreateShader(GL_COMPUTE_SHADER);
  tg_gl.ShaderSource(sh, 2, parts, NULL);
  tg_gl.CompileShader(sh);
  GLint ok = 0;
  tg_gl.GetShaderiv(sh, GL_COMPILE_STATUS, &ok);
  char log[1024] = "";
  if (!ok) tg_gl.GetShaderInfoLog(sh, sizeof log, NULL, log);
  ck_assert_msg(ok, "test shader did not compile: %s", log);
  GLuint prog = tg_gl.CreateProgram();
  tg_gl.AttachShader(prog, sh);
  tg_gl.LinkProgram(prog);
  tg_gl.GetProgramiv(prog, GL_LINK_STATUS, &ok);
  ck_assert_msg(ok, "test program did not link");
  tg_gl.DeleteShader(sh);
  return prog;
}

GLint64 test_max_ssbo_bytes(void) {
  GLint64 v = 0;
  tg_gl.GetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &v);
  ck_assert_msg(v > 0, "GL_MAX_SHADER_STORAGE_BLOCK_SIZE unknown");
  return v;
}
