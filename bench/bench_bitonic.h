/* glradix-bench --vs-bitonic: a bitonic sort of the same GL buffers as
 * glradix, the comparison-sort yardstick beside it. Ascending, uint32 keys
 * alone or with uint32 values; not stable (equal keys come out in any
 * order). */
#ifndef GLRADIX_BENCH_BITONIC_H
#define GLRADIX_BENCH_BITONIC_H

#include <stdint.h>

#include <glradix/glradix.h>

struct GladGLContext; /* glad/gl.h: the bench's own GL table */
struct bench_case;    /* bench_case.h */

typedef struct bench_bitonic bench_bitonic;

/* Builds the programs, their shared-memory blocks sized from the context's
 * limits. NULL if out of host memory, or if a program does not build or
 * fit (the reason on stderr). */
bench_bitonic *bench_bitonic_create(struct GladGLContext *gl);

/* Keys per shared-memory block: keys alone (pairs 0) or with values. */
uint32_t bench_bitonic_block(const bench_bitonic *b, int pairs);

/* Queues the sort of the first n keys of buffer `keys` in place (and
 * `values` with them, unless 0); nothing past n is read or written.
 * Ends with the barrier glradix_sort ends with. GLRADIX_ERROR_TOO_LARGE
 * for n above 2^31, GLRADIX_ERROR_GL if GL raised an error. Changes the
 * current program and SSBO bindings 0 and 1 (left at 0). */
glradix_status bench_bitonic_sort(bench_bitonic *b, unsigned keys, unsigned values, uint32_t n);

/* Times the sort as bench_case_run times glradix_sort (keys and values
 * restored from b->pristine before each run, warm-ups, the median of
 * b->repeat runs in *ms_median). */
glradix_status bench_bitonic_run(struct bench_case *b, bench_bitonic *bt, unsigned keys,
                                 unsigned values, uint32_t n, double *ms_median);

void bench_bitonic_destroy(bench_bitonic *b);

#endif
