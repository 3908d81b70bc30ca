/* glradix-bench: one case timed the bench's way (restore, finish, time). */
#include <glad/gl.h>

#include "bench_case.h"

#include "bench_buffers.h"
#include "bench_time.h"

#include <stdio.h>

/* The GL_TIMESTAMP pair around the job's sort, or the CPU clock around
 * glFinish. */
static glradix_status time_job(const bench_case *b, const bench_case_job *job, double *ms) {
  GladGLContext *gl = b->gl;
  glradix_status st;
  if (b->gpu_timer) {
    gl->QueryCounter(b->query[0], GL_TIMESTAMP);
    st = job->sort(job->arg);
    gl->QueryCounter(b->query[1], GL_TIMESTAMP);
    *ms = bench_query_ms(gl, b->query);
  } else {
    gl->Finish();
    const double t0 = bench_now_ms();
    st = job->sort(job->arg);
    gl->Finish();
    *ms = bench_now_ms() - t0;
  }
  return st;
}

typedef struct glradix_job {
  bench_case *b;
  glradix_context *ctx;
  const glradix_sort_desc *sd;
  glradix_stage_times *stages;
} glradix_job;

static glradix_status glradix_job_sort(void *arg) {
  const glradix_job *j = arg;
  return glradix_sort(j->ctx, j->sd);
}

static glradix_status glradix_job_stages(void *arg, unsigned timed) {
  const glradix_job *j = arg;
  glradix_stage_times t;
  const glradix_status st = glradix_query_stage_times(j->ctx, &t);
  if (st != GLRADIX_OK) return st;
  j->b->stage_times[0][timed] = t.tiles_ms;
  j->b->stage_times[1][timed] = t.scan_ms;
  j->b->stage_times[2][timed] = t.scatter_ms;
  j->stages->passes = t.passes;
  if (t.fallbacks > j->stages->fallbacks) j->stages->fallbacks = t.fallbacks; /* the most in a run */
  return GLRADIX_OK;
}

glradix_status bench_case_time(const bench_case *b, glradix_context *ctx,
                               const glradix_sort_desc *sd, double *ms) {
  glradix_job j = {NULL, ctx, sd, NULL};
  const bench_case_job job = {sd->keys, sd->values, sd->count, glradix_job_sort, NULL, &j};
  return time_job(b, &job, ms);
}

glradix_status bench_case_run_job(bench_case *b, const bench_case_job *job, double *ms_median) {
  GladGLContext *gl = b->gl;
  const uint32_t n = job->n;
  const double warm_start = bench_now_ms();
  for (unsigned r = 0, timed = 0; timed < b->repeat; ++r) {
    const int warming = bench_warming(r, warm_start);
    bench_restore(gl, job->keys, b->pristine[0], n * b->key_words);
    if (job->values) bench_restore(gl, job->values, b->pristine[1], n);
    GLenum err = gl->GetError();
    if (err != GL_NO_ERROR) {
      fprintf(stderr, "glradix-bench: GL error 0x%04x uploading %u keys\n", err, n);
      return err == GL_OUT_OF_MEMORY ? GLRADIX_ERROR_OUT_OF_MEMORY : GLRADIX_ERROR_GL;
    }
    /* The upload may still be in flight on a copy engine: finish it so that
     * the timed region holds the sort alone. */
    bench_idle(gl);
    double ms;
    glradix_status st = time_job(b, job, &ms);
    if (st != GLRADIX_OK) return st;
    if (b->trace)
      fprintf(stderr, "trace: n %u run %u %s %.4f ms at %.0f ms\n", n, r + 1,
              warming ? "warm-up" : "timed", ms, bench_now_ms() - warm_start);
    if (warming) continue;
    b->times[timed] = ms;
    if (job->after && (st = job->after(job->arg, timed)) != GLRADIX_OK) return st;
    timed++;
  }
  *ms_median = bench_median(b->times, b->repeat);
  return GLRADIX_OK;
}

glradix_status bench_case_run(bench_case *b, glradix_context *ctx, const glradix_sort_desc *sd,
                              double *ms_median, glradix_stage_times *stages) {
  glradix_job j = {b, ctx, sd, stages};
  const bench_case_job job = {sd->keys, sd->values, sd->count, glradix_job_sort,
                              stages ? glradix_job_stages : NULL, &j};
  const glradix_status st = bench_case_run_job(b, &job, ms_median);
  if (st != GLRADIX_OK || !stages) return st;
  double *med[3] = {&stages->tiles_ms, &stages->scan_ms, &stages->scatter_ms};
  for (int i = 0; i < 3; i++) *med[i] = bench_median(b->stage_times[i], b->repeat);
  stages->total_ms = *ms_median;
  return GLRADIX_OK;
}
