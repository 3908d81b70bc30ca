/* glradix-bench --copy: see bench_copy.h. glCopyBufferSubData is no
 * yardstick: on NVIDIA it moved 16M pairs at 175 GB/s, a copy engine's pace,
 * not the multiprocessors'. */
#include <glad/gl.h>

#include "bench_copy.h"

#include "bench_buffers.h"
#include "bench_time.h"

#include <stdio.h>

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
