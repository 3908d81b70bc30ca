/* A sort between the application's own dispatches: its compute shader
 * writes the keys, glradix_sort sorts them, its second shader checks the
 * order on the GPU, with no synchronisation beyond what the header promises
 * (barriers on entry and on return). Twice in a row with different data. */
#include "common.h"

#include <stdlib.h>

static const char *writer_src =
    "#version 430\n"
    "layout(local_size_x = 64) in;\n"
    "layout(std430, binding = 0) writeonly buffer K { uint k[]; };\n"
    "layout(std430, binding = 1) writeonly buffer V { uint v[]; };\n"
    "layout(location = 0) uniform uint u_seed;\n"
    "layout(location = 1) uniform uint u_n;\n"
    "void main() {\n"
    "  uint i = gl_GlobalInvocationID.x;\n"
    "  if (i >= u_n) return;\n"
    "  uint x = (i ^ u_seed) * 0x9E3779B9u;\n"
    "  x ^= x >> 15; x *= 0x85EBCA6Bu; x ^= x >> 13;\n"
    "  k[i] = x & 0x3FFFFFFFu;\n" /* 30-bit keys */
    "  v[i] = i;\n"
    "}\n";

/* Counts neighbours out of order (by key, then by value: stability). */
static const char *checker_src =
    "#version 430\n"
    "layout(local_size_x = 64) in;\n"
    "layout(std430, binding = 0) readonly buffer K { uint k[]; };\n"
    "layout(std430, binding = 1) readonly buffer V { uint v[]; };\n"
    "layout(std430, binding = 2) buffer Bad { uint bad; };\n"
    "layout(location = 1) uniform uint u_n;\n"
    "void main() {\n"
    "  uint i = gl_GlobalInvocationID.x;\n"
    "  if (i == 0u || i >= u_n) return;\n"
    "  if (k[i - 1u] > k[i] || (k[i - 1u] == k[i] && v[i - 1u] > v[i])) atomicAdd(bad, 1u);\n"
    "}\n";

/* The writer's keys, computed on the CPU: the independent reference. */
static uint32_t cpu_key(uint32_t i, uint32_t seed) {
  uint32_t x = (i ^ seed) * 0x9E3779B9u;
  x ^= x >> 15;
  x *= 0x85EBCA6Bu;
  x ^= x >> 13;
  return x & 0x3FFFFFFFu;
}

START_TEST(sort_between_app_dispatches) {
  enum { N = 100003 };
  GLuint writer = gl_compute_program(writer_src), checker = gl_compute_program(checker_src);
  GLuint kb = buf_create(NULL, 0, N), vb = buf_create(NULL, 0, N);
  const uint32_t zero = 0;
  GLuint bad = buf_create(&zero, 1, 1);
  uint32_t *in = test_alloc_u32(N), *idx = test_alloc_u32(N);
  uint32_t *ok = test_alloc_u32(N), *ov = test_alloc_u32(N);
  for (uint32_t round = 0; round < 2; round++) {
    const uint32_t seed = 0x1234567u + round * 0x9E37u;
    buf_upload(bad, &zero, 1);
    tg_gl.UseProgram(writer);
    tg_gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, kb);
    tg_gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, vb);
    tg_gl.Uniform1ui(0, seed);
    tg_gl.Uniform1ui(1, N);
    tg_gl.DispatchCompute((N + 63) / 64, 1, 1);
    /* no barrier: glradix_sort starts with one */
    glradix_sort_desc sd = {0};
    sd.keys = kb;
    sd.values = vb;
    sd.count = N;
    sd.end_bit = 30;
    ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_OK);
    /* no barrier: glradix_sort ends with one for following dispatches */
    tg_gl.UseProgram(checker);
    tg_gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, kb);
    tg_gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, vb);
    tg_gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, bad);
    tg_gl.Uniform1ui(1, N);
    tg_gl.DispatchCompute((N + 63) / 64, 1, 1);
    uint32_t out_of_order = 1;
    buf_read(bad, &out_of_order, 1); /* the checker's own writes: its barrier */
    ck_assert_msg(out_of_order == 0, "round %u: the application's checker found %u "
                  "neighbours out of order", round, out_of_order);
    for (uint32_t i = 0; i < N; i++) {
      in[i] = cpu_key(i, seed);
      idx[i] = i;
    }
    buf_read(kb, ok, N);
    buf_read(vb, ov, N);
    check_sort_result(in, idx, ok, ov, N, 0, 30, round ? "round 1" : "round 0");
  }
  expect_no_gl_error("the application's dispatches around a sort");
  tg_gl.UseProgram(0);
  tg_gl.DeleteProgram(writer);
  tg_gl.DeleteProgram(checker);
  buf_delete(kb);
  buf_delete(vb);
  buf_delete(bad);
  free(in);
  free(idx);
  free(ok);
  free(ov);
}
END_TEST

static Suite *interop_suite(void) {
  Suite *s = suite_create("interop");
  TCase *tc = tcase_create("app_dispatches");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_test(tc, sort_between_app_dispatches);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(interop_suite)
