/* glradix-bench --copy: see bench_copy.h. glCopyBufferSubData is no
 * yardstick: on NVIDIA it moved 16M pairs at 175 GB/s, a copy engine's pace,
 * not the multiprocessors'. */
#include <glad/gl.h>

#include "bench_copy.h"

#include "bench_buffers.h"
#include "bench_time.h"

#include <stdio.h>

#include <glradix/glradix.h>

enum { COPY_WG = 256, COPY_PER_INVOCATION = 4 };

/* Work groups to copy `words` (whole uvec4s only). */
static uint32_t copy_groups(uint32_t words) {
  const uint32_t per_group = COPY_WG * COPY_PER_INVOCATION;
  return (words / 4 + per_group - 1) / per_group;
}

typedef struct copy_job {
  GladGLContext *gl;
  const unsigned *src, *dst;
  const uint32_t *words;
  int buffers;
} copy_job;

/* One timed copy: every buffer, then the barrier that makes it visible. */
static int run_copy(void *arg) {
  const copy_job *j = arg;
  for (int b = 0; b < j->buffers; ++b) {
    j->gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, j->src[b]);
    j->gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, j->dst[b]);
    j->gl->Uniform1ui(0, j->words[b] / 4);
    j->gl->DispatchCompute(copy_groups(j->words[b]), 1, 1);
  }
  j->gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  return 0;
}

/* After the #defines build() puts in front, from the constants above. */
static const char *COPY_SOURCE =
    "layout(local_size_x = WG) in;\n"
    "layout(std430, binding = 0) readonly buffer Src { uvec4 src[]; };\n"
    "layout(std430, binding = 1) writeonly buffer Dst { uvec4 dst[]; };\n"
    "layout(location = 0) uniform uint u_count;\n"
    "void main() {\n"
    "  uint stride = gl_NumWorkGroups.x * WG;\n"
    "  for (uint k = 0u; k < PER_INVOCATION; k++) {\n"
    "    uint i = gl_WorkGroupID.x * WG + gl_LocalInvocationID.x + k * stride;\n"
    "    if (i < u_count) dst[i] = src[i];\n"
    "  }\n"
    "}\n";

static GLuint build(GladGLContext *gl) {
  char defines[64];
  snprintf(defines, sizeof defines, "#define WG %uu\n#define PER_INVOCATION %uu\n",
           (unsigned)COPY_WG, (unsigned)COPY_PER_INVOCATION);
  return bench_program(gl, defines, COPY_SOURCE, "copy");
}

double bench_copy_ms(GladGLContext *gl, const unsigned q[2], const unsigned *src,
                     const unsigned *dst, const uint32_t *words, int buffers, unsigned repeat,
                     double *times) {
  GLint max_groups = 0;
  gl->GetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &max_groups);
  for (int b = 0; b < buffers; ++b)
    if (copy_groups(words[b]) > (uint32_t)max_groups) return -1.0;
  const GLuint program = build(gl);
  if (!program) return -1.0;
  gl->UseProgram(program);
  copy_job job = {gl, src, dst, words, buffers};
  double ms = 0;
  bench_time_gpu(gl, q, run_copy, &job, repeat, times, &ms);
  gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
  gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, 0);
  gl->UseProgram(0);
  gl->DeleteProgram(program);
  return ms;
}

/* The gather: element i of dst takes a pseudo-random element of src, 32
 * bytes each, so that reads land anywhere in the array, as the LBVH's
 * leaves gather boxes. */
static const char *GATHER_SOURCE =
    "layout(local_size_x = WG) in;\n"
    "layout(std430, binding = 0) readonly buffer Src { uvec4 src[]; };\n"
    "layout(std430, binding = 1) writeonly buffer Dst { uvec4 dst[]; };\n"
    "layout(location = 0) uniform uint u_count;\n"
    "void main() {\n"
    "  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * WG;\n"
    "  uint n = u_count / 2u;\n"
    "  if (i >= n) return;\n"
    "  uint j = i * 0x9E3779B1u; j ^= j >> 15; j *= 0x85EBCA77u; j ^= j >> 13;\n"
    "  j %= n;\n"
    "  dst[2u * i] = src[2u * j];\n"
    "  dst[2u * i + 1u] = src[2u * j + 1u];\n"
    "}\n";

typedef struct gather_job {
  GladGLContext *gl;
  const GLuint *src, *dst;
  uint32_t vec4s;
} gather_job;

static int run_gather(void *arg) {
  const gather_job *j = arg;
  const uint32_t groups = (j->vec4s / 2 + COPY_WG - 1) / COPY_WG;
  for (int b = 0; b < 2; ++b) {
    j->gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, j->src[b]);
    j->gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, j->dst[b]);
    j->gl->Uniform1ui(0, j->vec4s);
    j->gl->DispatchCompute(groups > 65535 ? 65535 : groups, (groups + 65534) / 65535, 1);
  }
  j->gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  return 0;
}

int bench_copy_table(GladGLContext *gl, glradix_context *ctx, const unsigned q[2],
                     unsigned repeat, double *times, FILE *out) {
  char defines[64];
  snprintf(defines, sizeof defines, "#define WG %uu\n", (unsigned)COPY_WG);
  const GLuint gather = bench_program(gl, defines, GATHER_SOURCE, "gather");
  if (!gather) return 1;
  int failed = 0;
  static const unsigned mib[] = {256, 512, 768, 1024, 2048};
  for (int imported = 0; imported < 2; ++imported)
    for (size_t s = 0; s < sizeof mib / sizeof mib[0]; ++s) {
      const uint64_t bytes = (uint64_t)mib[s] << 18; /* four arrays of a quarter each */
      GLuint a[4];
      for (int k = 0; k < 4; ++k) a[k] = bench_buffer(gl, imported ? ctx : NULL, bytes, NULL);
      if (!a[0] || !a[1] || !a[2] || !a[3] || gl->GetError() != GL_NO_ERROR) {
        fprintf(stderr, "glradix-bench: copy-table: no buffers of %llu bytes\n",
                (unsigned long long)bytes);
        failed = 1;
      } else {
        const uint32_t words[2] = {(uint32_t)(bytes / 4), (uint32_t)(bytes / 4)};
        const double copy_ms = bench_copy_ms(gl, q, a, a + 2, words, 2, repeat, times);
        gl->UseProgram(gather);
        gather_job job = {gl, a, a + 2, (uint32_t)(bytes / 16)};
        double gather_ms = 0;
        bench_time_gpu(gl, q, run_gather, &job, repeat, times, &gather_ms);
        gl->UseProgram(0);
        const double moved = 4.0 * (double)bytes; /* two arrays read, two written */
        fprintf(out, "copy-table: memory=%s touched_mib=%u copy_ms=%.4f copy_gbps=%.2f "
                     "gather_ms=%.4f gather_gbps=%.2f\n",
                imported ? (glradix_buffer_imported(ctx, a[0]) ? "imported" : "created-plain") : "gl",
                mib[s], copy_ms, moved / copy_ms * 1e-6, gather_ms, moved / gather_ms * 1e-6);
        failed |= copy_ms <= 0 || gather_ms <= 0;
      }
      for (int k = 0; k < 4; ++k) bench_buffer_delete(gl, imported ? ctx : NULL, a[k]);
    }
  gl->DeleteProgram(gather);
  return failed;
}
