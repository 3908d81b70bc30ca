/* Timing shared by glradix-bench's measurements (sorts and LBVH builds). */
#ifndef GLRADIX_BENCH_TIME_H
#define GLRADIX_BENCH_TIME_H

/* Warm-up runs before each case's timed runs: at least BENCH_WARMUPS, and
 * more until the warm-up time has passed (BENCH_WARM_MS unless set). A GPU
 * that sat idle (a compile, or the CPU verifying the previous case) runs
 * at low clocks for a while; warming only the first case of a process left
 * later cases up to 5x slower after a long verification. */
enum { BENCH_WARMUPS = 2, BENCH_WARM_MS = 1000 };

struct GladGLContext; /* glad/gl.h: the bench's own GL table */

/* Sets the warm-up time of the cases that follow, in milliseconds; 0: the
 * BENCH_WARMUPS runs alone (the tests, which time nothing). */
void bench_set_warmup_ms(unsigned ms);

/* Sets how long the GPU sits idle before each run of the cases that
 * follow, in milliseconds (0, the default: none). */
void bench_set_idle_ms(unsigned ms);

/* Waits for the GPU to finish, then sleeps the idle time set, if any: the
 * GPU then runs the next sort as one that an application issues now and
 * then, from the clocks an idle GPU drops to. */
void bench_idle(struct GladGLContext *gl);

/* Wall-clock milliseconds. */
double bench_now_ms(void);

/* Whether run `r` (0-based) of a case that started at `start_ms` is still a
 * warm-up. Timed runs are those after it, numbered r - BENCH_WARMUPS... */
int bench_warming(unsigned r, double start_ms);

/* The median of `n` values (sorts them in place). */
double bench_median(double *v, unsigned n);

/* Milliseconds from GL_TIMESTAMP query q[0] to q[1], once both are
 * written (waits for them). */
double bench_query_ms(struct GladGLContext *gl, const unsigned q[2]);

/* Calls run(arg) between the GL_TIMESTAMP pair q, warm-ups first (as
 * bench_warming says), until `repeat` timed calls are in `times`; sets *ms
 * to their median. Stops at the first call that returns nonzero and
 * returns that value; 0 when every call succeeded. */
int bench_time_gpu(struct GladGLContext *gl, const unsigned q[2], int (*run)(void *arg),
                   void *arg, unsigned repeat, double *times, double *ms);

#endif
