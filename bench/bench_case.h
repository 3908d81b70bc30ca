/* glradix-bench: one case timed the bench's way (restore, finish, time). */
#ifndef GLRADIX_BENCH_CASE_H
#define GLRADIX_BENCH_CASE_H

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

/* Times one glradix_sort(ctx, sd): the GL_TIMESTAMP pair, or the CPU clock
 * around glFinish. Sets *ms; returns the sort's status. */
glradix_status bench_case_time(const bench_case *b, glradix_context *ctx,
                               const glradix_sort_desc *sd, double *ms);

/* Runs sd's case: before each run sd's keys (and values, if any) are
 * restored from b->pristine and the GPU finishes, so that the timed region
 * holds the sort alone; warm-ups, then the median of b->repeat runs in
 * *ms_median (and, with `stages`, the stages' medians). Returns GLRADIX_OK
 * or the failing status. */
glradix_status bench_case_run(bench_case *b, glradix_context *ctx, const glradix_sort_desc *sd,
                              double *ms_median, glradix_stage_times *stages);

#endif
