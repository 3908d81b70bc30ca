/* glradix-bench: one case timed the bench's way (restore, finish, time). */
#ifndef GLRADIX_BENCH_CASE_H
#define GLRADIX_BENCH_CASE_H

#include <stdint.h>

#include <glradix/glradix.h>

struct GladGLContext; /* glad/gl.h: the bench's own GL table */

typedef struct bench_case {
  struct GladGLContext *gl;
  int gpu_timer; /* GL_TIMESTAMP usable; otherwise CPU clock around glFinish */
  unsigned query[2];
  unsigned repeat; /* timed runs, after bench_time.h's warm-ups */
  int trace;       /* every run's time to stderr */
  double *times;   /* `repeat` entries */
  double *stage_times[3]; /* for stage times: per timed run, per stage */
  unsigned key_words;     /* 32-bit words per key */
  unsigned pristine[2];   /* the input keys and values, uploaded once */
} bench_case;

/* Any sort timed the bench's way: glradix_sort, or the bench's bitonic
 * sort beside it (bench_bitonic.h). */
typedef struct bench_case_job {
  unsigned keys, values; /* the buffers sorted in place; values 0: keys alone */
  uint32_t n;
  glradix_status (*sort)(void *arg); /* queues one sort of keys (and values) */
  /* NULL, or called after each timed run, once its time is read, with the
   * run's index among the timed ones */
  glradix_status (*after)(void *arg, unsigned timed);
  void *arg;
} bench_case_job;

/* Times one glradix_sort(ctx, sd): the GL_TIMESTAMP pair, or the CPU clock
 * around glFinish. Sets *ms; returns the sort's status. */
glradix_status bench_case_time(const bench_case *b, glradix_context *ctx,
                               const glradix_sort_desc *sd, double *ms);

/* Runs job's sort: before each run its keys (and values, if any) are
 * restored from b->pristine and the GPU finishes, so that the timed region
 * holds the sort alone; warm-ups, then the median of b->repeat runs in
 * *ms_median. Returns GLRADIX_OK or the first failing status. */
glradix_status bench_case_run_job(bench_case *b, const bench_case_job *job, double *ms_median);

/* bench_case_run_job for glradix_sort(ctx, sd), with, if `stages` is not
 * NULL, the medians of the stages' times. */
glradix_status bench_case_run(bench_case *b, glradix_context *ctx, const glradix_sort_desc *sd,
                              double *ms_median, glradix_stage_times *stages);

#endif
