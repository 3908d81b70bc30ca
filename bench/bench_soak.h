/* glradix-bench --soak: sorts timed in a process that lives like an
 * application, beside the same sorts timed the bench's way. */
#ifndef GLRADIX_BENCH_SOAK_H
#define GLRADIX_BENCH_SOAK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <glradix/glradix.h>

#include "bench_case.h"
#include "bench_dist.h"

typedef struct bench_soak_desc {
  unsigned seconds;            /* length of the soak loop */
  const uint32_t *sizes;       /* key counts, each with buffers of its own */
  size_t nsizes;
  const bench_dist *dists;     /* the distributions the loop draws from */
  size_t ndists;
  int keys_only, pairs;        /* which kinds run */
  glradix_key_type key_type;
  unsigned key_bits;
  uint64_t seed;               /* every choice of the loop follows from it */
  int verify;                  /* check every sort, not a sample */
  int csv;
} bench_soak_desc;

/* First the fresh reference: each size and kind timed by bench_case_run on
 * uniform keys (b->repeat runs after the warm-ups), sizes in the order
 * given. Then, for d->seconds, a loop of random steps drawn from the seed:
 * a sort of a random size, kind and distribution (keys restored by a GPU
 * copy of the size's pristine buffer, or one in 8 uploaded from the CPU),
 * each timed alone by bench_case_time; a read-back now and then (a staging
 * copy, glGetBufferSubData or glMapBufferRange on the sorted buffers); an
 * LBVH build (glradix_lbvh_build, up to 1M boxes) one step in 16; a size's
 * buffers deleted and created again one step in 32. Every 16th sort (every
 * sort with d->verify) is read back and checked on the CPU.
 * Reports per size and kind, over all distributions and per distribution:
 * the count, median, p95 and worst time and their ratios to the fresh
 * median; a table on stdout, or with d->csv CSV: impl, n, key_bits, pairs,
 * radix_bits, sorts, ms_fresh, ms_median, ms_p95, ms_worst,
 * median_over_fresh, p95_over_fresh, verified (sorts checked), dist ("all"
 * or one distribution; "uploaded": the sorts of any distribution whose keys
 * came from a CPU upload, their verified column 0), and where NVML reads the GPU's clock (bench_clock.h)
 * sorts_at_max_clock, median_at_max_over_fresh, p95_at_max_over_fresh: the
 * sorts that began and ended at the highest clock ("-" elsewhere). With
 * b->trace every sort's time, wall-clock time and clocks go to stderr.
 * `b` brings the GL table, timer, queries, repeat and trace; the soak sets
 * the rest.
 * Returns 0, or 1 if a sort, build, GL call or check failed. */
int bench_soak(bench_case *b, glradix_context *ctx, const bench_soak_desc *d, FILE *info);

#endif
