/* Session 18 experiment (untracked): what a dispatch costs on the GPU, and
 * whether the sort's GPU time includes waits on the CPU's submission.
 * floor: K dispatches of a kernel writing one word per group, with and
 * without a memory barrier between, timed by GL_TIMESTAMP pairs, either
 * right after glFinish (cold) or queued behind a busy kernel (ahead).
 * sort: glradix_sort of 30-bit pairs timed the same two ways, plus the CPU
 * time of the glradix_sort call. */
#define GLAD_GL_IMPLEMENTATION
#include <glad/gl.h>

#include <glradix/glradix.h>
#include <glradix/headless.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static GladGLContext gl;
static GLADapiproc load(const char *name) { return (GLADapiproc)glradix_headless_load(name); }

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static GLuint build(const char *src) {
  GLuint s = gl.CreateShader(GL_COMPUTE_SHADER);
  gl.ShaderSource(s, 1, &src, NULL);
  gl.CompileShader(s);
  GLint ok = 0;
  gl.GetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[4096];
    gl.GetShaderInfoLog(s, sizeof log, NULL, log);
    fprintf(stderr, "compile: %s\n", log);
    exit(1);
  }
  GLuint p = gl.CreateProgram();
  gl.AttachShader(p, s);
  gl.LinkProgram(p);
  return p;
}

static const char *TOUCH = "#version 430\nlayout(local_size_x = 512) in;\n"
                           "layout(std430, binding = 0) buffer B { uint b[]; };\n"
                           "void main() { if (gl_LocalInvocationID.x == 0u) b[gl_WorkGroupID.x] += 1u; }\n";
static const char *BUSY = "#version 430\nlayout(local_size_x = 512) in;\n"
                          "layout(std430, binding = 1) buffer B { uint b[]; };\n"
                          "layout(location = 0) uniform uint u_iters;\n"
                          "void main() { uint x = gl_GlobalInvocationID.x;\n"
                          "  for (uint i = 0u; i < u_iters; i++) x = x * 1664525u + 1013904223u;\n"
                          "  if (x == 7u) b[0] = x; }\n";

static GLuint q[2], touch, busy, sink, target;

static double elapsed(void) {
  GLuint64 a = 0, b = 0;
  gl.GetQueryObjectui64v(q[0], GL_QUERY_RESULT, &a);
  gl.GetQueryObjectui64v(q[1], GL_QUERY_RESULT, &b);
  return (double)(b - a) * 1e-6;
}

static void ahead(unsigned iters) {
  gl.UseProgram(busy);
  gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, sink);
  gl.Uniform1ui(0, iters);
  gl.DispatchCompute(132 * 4, 1, 1);
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp);
  return v[n / 2];
}

enum { REP = 9 };

static void floor_case(unsigned groups, int barrier, int queued, unsigned k, unsigned iters) {
  double t[REP];
  for (int r = 0; r < REP; r++) {
    gl.Finish();
    if (queued) ahead(iters);
    gl.QueryCounter(q[0], GL_TIMESTAMP);
    gl.UseProgram(touch);
    gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, target);
    for (unsigned i = 0; i < k; i++) {
      gl.DispatchCompute(groups, 1, 1);
      if (barrier) gl.MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    gl.QueryCounter(q[1], GL_TIMESTAMP);
    gl.Flush();
    t[r] = elapsed();
  }
  printf("floor groups %u barrier %d %s: %.2f us a dispatch (K=%u, median of %d)\n", groups,
         barrier, queued ? "ahead" : "cold ", median(t, REP) * 1e3 / k, k, REP);
}

int main(int argc, char **argv) {
  unsigned iters = argc > 1 ? (unsigned)atoi(argv[1]) : 200000;
  glradix_headless *h = NULL;
  if (glradix_headless_create(&h) != GLRADIX_OK || !gladLoadGLContext(&gl, load)) return 1;
  printf("renderer: %s\n", glradix_headless_renderer(h));
  gl.GenQueries(2, q);
  touch = build(TOUCH);
  busy = build(BUSY);
  gl.GenBuffers(1, &sink);
  gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, sink);
  gl.BufferData(GL_SHADER_STORAGE_BUFFER, 16, NULL, GL_DYNAMIC_DRAW);
  gl.GenBuffers(1, &target);
  gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, target);
  gl.BufferData(GL_SHADER_STORAGE_BUFFER, 65536 * 4, NULL, GL_DYNAMIC_DRAW);
  /* how long the busy kernel takes */
  {
    double t[REP];
    for (int r = 0; r < REP; r++) {
      gl.Finish();
      gl.QueryCounter(q[0], GL_TIMESTAMP);
      ahead(iters);
      gl.QueryCounter(q[1], GL_TIMESTAMP);
      t[r] = elapsed();
    }
    printf("busy kernel: %.3f ms (iters %u)\n", median(t, REP), iters);
  }
  unsigned gs[] = {1, 256, 2048, 8192};
  for (int g = 0; g < 4; g++)
    for (int bar = 0; bar < 2; bar++)
      for (int qd = 0; qd < 2; qd++) floor_case(gs[g], bar, qd, 100, iters);

  /* the sort, timed cold and queued ahead */
  glradix_desc d = {0};
  d.load = glradix_headless_load;
  glradix_context *ctx = NULL;
  if (glradix_create(&d, &ctx) != GLRADIX_OK) return 1;
  unsigned sizes[] = {65536, 262144, 1048576, 4194304, 16777216};
  for (int si = 0; si < 5; si++) {
    unsigned n = sizes[si];
    uint32_t *keys = malloc(n * 4u), *vals = malloc(n * 4u), *out = malloc(n * 4u);
    uint32_t s = 12345u + n;
    for (unsigned i = 0; i < n; i++) {
      s = s * 1664525u + 1013904223u;
      keys[i] = s >> 2;
      vals[i] = i;
    }
    GLuint kb, vb;
    gl.GenBuffers(1, &kb);
    gl.GenBuffers(1, &vb);
    gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, kb);
    gl.BufferData(GL_SHADER_STORAGE_BUFFER, n * 4, keys, GL_DYNAMIC_DRAW);
    gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, vb);
    gl.BufferData(GL_SHADER_STORAGE_BUFFER, n * 4, vals, GL_DYNAMIC_DRAW);
    glradix_sort_desc sd = {0};
    sd.keys = kb;
    sd.values = vb;
    sd.count = n;
    sd.begin_bit = 0;
    sd.end_bit = 30;
    double cold[REP], queued[REP], cpu[REP];
    for (int w = 0; w < 3; w++) glradix_sort(ctx, &sd);
    for (int mode = 0; mode < 2; mode++)
      for (int r = 0; r < REP; r++) {
        gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, kb);
        gl.BufferSubData(GL_SHADER_STORAGE_BUFFER, 0, n * 4, keys);
        gl.Finish();
        if (mode) ahead(iters);
        gl.QueryCounter(q[0], GL_TIMESTAMP);
        double c0 = now_ms();
        if (glradix_sort(ctx, &sd) != GLRADIX_OK) return 1;
        double c1 = now_ms();
        gl.QueryCounter(q[1], GL_TIMESTAMP);
        gl.Flush();
        (mode ? queued : cold)[r] = elapsed();
        cpu[r] = c1 - c0;
      }
    gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, kb);
    gl.GetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, n * 4, out);
    int ok = 1;
    for (unsigned i = 1; i < n; i++) ok &= out[i - 1] <= out[i];
    printf("sort %u pairs: cold %.4f ms, queued %.4f ms, cpu call %.4f ms, sorted %s\n", n,
           median(cold, REP), median(queued, REP), median(cpu, REP), ok ? "yes" : "NO");
    gl.DeleteBuffers(1, &kb);
    gl.DeleteBuffers(1, &vb);
    free(keys);
    free(vals);
    free(out);
  }
  glradix_destroy(ctx);
  glradix_headless_destroy(h);
  return 0;
}
