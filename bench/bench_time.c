/* Timing shared by glradix-bench's measurements. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <glad/gl.h>

#include "bench_time.h"

#include <stdlib.h>
#include <time.h>

double bench_now_ms(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static unsigned warmup_ms = BENCH_WARM_MS;

void bench_set_warmup_ms(unsigned ms) { warmup_ms = ms; }

static unsigned idle_ms;

void bench_set_idle_ms(unsigned ms) { idle_ms = ms; }

void bench_idle(GladGLContext *gl) {
  gl->Finish();
  if (!idle_ms) return;
  const struct timespec t = {(time_t)(idle_ms / 1000), (long)(idle_ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

int bench_warming(unsigned r, double start_ms) {
  return r < BENCH_WARMUPS || bench_now_ms() - start_ms < warmup_ms;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double bench_median(double *v, unsigned n) {
  qsort(v, n, sizeof *v, cmp_double);
  return v[n / 2];
}

int bench_time_gpu(GladGLContext *gl, const unsigned q[2], int (*run)(void *arg), void *arg,
                   unsigned repeat, double *times, double *ms) {
  const double warm_start = bench_now_ms();
  for (unsigned r = 0, timed = 0; timed < repeat; ++r) {
    const int warming = bench_warming(r, warm_start);
    gl->QueryCounter(q[0], GL_TIMESTAMP);
    const int failed = run(arg);
    gl->QueryCounter(q[1], GL_TIMESTAMP);
    if (failed) return failed;
    const double ms_run = bench_query_ms(gl, q);
    if (!warming) times[timed++] = ms_run;
  }
  *ms = bench_median(times, repeat);
  return 0;
}

double bench_query_ms(GladGLContext *gl, const unsigned q[2]) {
  GLuint64 t0 = 0, t1 = 0;
  gl->GetQueryObjectui64v(q[0], GL_QUERY_RESULT, &t0);
  gl->GetQueryObjectui64v(q[1], GL_QUERY_RESULT, &t1);
  return (double)(t1 - t0) * 1e-6;
}
