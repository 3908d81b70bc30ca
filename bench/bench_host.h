/* glradix-bench --host: glradix_sort_host called again and again in one
 * process, as an application with keys on the CPU calls it. */
#ifndef GLRADIX_BENCH_HOST_H
#define GLRADIX_BENCH_HOST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <glradix/glradix.h>

/* For each size: `calls` calls of glradix_sort_host on the same uniform
 * uint32 keys over key_bits (with their indices as values when `pairs`),
 * each call's wall time and its sort part (glradix_query_stage_times'
 * total: ctx needs desc.profile); one line per size with the first, last,
 * median and worst sort part and the last over the first. Checks the last
 * call's result (every call's with `verify`) on the CPU. `trace` prints
 * every call. Returns nonzero on a failed call or check. */
int bench_host(glradix_context *ctx, const uint32_t *sizes, size_t nsizes, unsigned key_bits,
               int pairs, unsigned calls, int verify, int trace, FILE *info);

#endif
