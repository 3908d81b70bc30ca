/* glradix-bench --copy: see bench_copy.h. glCopyBufferSubData is no
 * yardstick: on NVIDIA it moved 16M pairs at 175 GB/s, a copy engine's pace,
 * not the multiprocessors'. */
#include <glad/gl.h>

#include "bench_copy.h"
#include "bench_time.h"

#include <stdio.h>

enum { COPY_WG = 256, COPY_PER_INVOCATION = 4 };

static const char *COPY_SOURCE =
    "#version 430\n"
    "layout(local_size_x = 256) in;\n"
    "layout(std430, binding = 0) readonly buffer Src { uvec4 src[]; };\n"
    "layout(std430, binding = 1) writeonly buffer Dst { uvec4 dst[]; };\n"
    "layout(location = 0) uniform uint u_count;\n"
    "void main() {\n"
    "  uint stride = gl_NumWorkGroups.x * 256u;\n"
    "  for (uint k = 0u; k < 4u; k++) {\n"
    "    uint i = gl_WorkGroupID.x * 256u + gl_LocalInvocationID.x + k * stride;\n"
    "    if (i < u_count) dst[i] = src[i];\n"
    "  }\n"
    "}\n";

static GLuint build(GladGLContext *gl) {
  GLuint shader = gl->CreateShader(GL_COMPUTE_SHADER), program = 0;
  GLint ok = 0;
  gl->ShaderSource(shader, 1, &COPY_SOURCE, NULL);
  gl->CompileShader(shader);
  gl->GetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok) {
    program = gl->CreateProgram();
    gl->AttachShader(program, shader);
    gl->LinkProgram(program);
    gl->GetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
      gl->DeleteProgram(program);
      program = 0;
    }
  }
  gl->DeleteShader(shader);
  return program;
}

double bench_copy_ms(GladGLContext *gl, const unsigned q[2], const unsigned *src,
                     const unsigned *dst, const uint32_t *words, int buffers, unsigned repeat,
                     double *times) {
  GLint max_groups = 0;
  gl->GetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &max_groups);
  for (int b = 0; b < buffers; ++b)
    if ((words[b] / 4 + COPY_WG * COPY_PER_INVOCATION - 1) / (COPY_WG * COPY_PER_INVOCATION) >
        (uint32_t)max_groups)
      return -1.0;
  const GLuint program = build(gl);
  if (!program) return -1.0;
  gl->UseProgram(program);
  const double warm_start = bench_now_ms();
  for (unsigned r = 0, timed = 0; timed < repeat; ++r) {
    gl->QueryCounter(q[0], GL_TIMESTAMP);
    for (int b = 0; b < buffers; ++b) {
      const uint32_t vecs = words[b] / 4;
      gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, src[b]);
      gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, dst[b]);
      gl->Uniform1ui(0, vecs);
      gl->DispatchCompute((vecs + COPY_WG * COPY_PER_INVOCATION - 1) / (COPY_WG * COPY_PER_INVOCATION), 1, 1);
    }
    gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    gl->QueryCounter(q[1], GL_TIMESTAMP);
    const double ms = bench_query_ms(gl, q);
    if (!bench_warming(r, warm_start)) times[timed++] = ms;
  }
  gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
  gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, 0);
  gl->UseProgram(0);
  gl->DeleteProgram(program);
  return bench_median(times, repeat);
}
