/* glradix-bench --host: glradix_sort_host called again and again. */
#include "bench_host.h"

#include "bench_dist.h"
#include "bench_time.h"
#include "bench_verify.h"

#include <stdlib.h>
#include <string.h>

static int host_size(glradix_context *ctx, uint32_t n, unsigned key_bits, int pairs,
                     unsigned calls, int verify, int trace, FILE *info, double *sort_ms) {
  uint32_t *in = malloc((size_t)n * 4), *keys = malloc((size_t)n * 4);
  uint32_t *vals = pairs ? malloc((size_t)n * 4) : NULL;
  int failed = !in || !keys || (pairs && !vals);
  if (failed) fprintf(stderr, "glradix-bench: --host: no host memory for %u keys\n", n);
  if (!failed) bench_dist_make(in, n, GLRADIX_KEY_UINT32, key_bits, BENCH_DIST_UNIFORM, 1);
  for (unsigned c = 0; c < calls && !failed; ++c) {
    memcpy(keys, in, (size_t)n * 4);
    for (uint32_t i = 0; vals && i < n; ++i) vals[i] = i;
    const double t0 = bench_now_ms();
    glradix_status st = glradix_sort_host(ctx, keys, vals, n);
    const double wall = bench_now_ms() - t0;
    glradix_stage_times t = {0};
    if (st == GLRADIX_OK) st = glradix_query_stage_times(ctx, &t);
    if (st != GLRADIX_OK) {
      fprintf(stderr, "glradix-bench: --host: n = %u, call %u: %s\n", n, c + 1,
              glradix_status_string(st));
      failed = 1;
      break;
    }
    sort_ms[c] = t.total_ms;
    if (trace)
      fprintf(stderr, "trace: host n %u call %u sort %.4f ms, call %.2f ms\n", n, c + 1,
              t.total_ms, wall);
    char why[256];
    if ((verify || c + 1 == calls) &&
        !bench_check(GLRADIX_KEY_UINT32, key_bits, in, keys, vals, n, why, sizeof why)) {
      fprintf(stderr, "glradix-bench: --host: n = %u, call %u: verification failed: %s\n", n,
              c + 1, why);
      failed = 1;
    }
  }
  if (!failed) {
    const double first = sort_ms[0], last = sort_ms[calls - 1];
    const double med = bench_median(sort_ms, calls), worst = sort_ms[calls - 1];
    fprintf(info, "%10u %5d %6u %9.4f %9.4f %9.4f %9.4f %9.3f\n", n, pairs, calls, first, last,
            med, worst, last / first);
  }
  free(in);
  free(keys);
  free(vals);
  return failed;
}

int bench_host(glradix_context *ctx, const uint32_t *sizes, size_t nsizes, unsigned key_bits,
               int pairs, unsigned calls, int verify, int trace, FILE *info) {
  double *sort_ms = malloc((calls ? calls : 1) * sizeof *sort_ms);
  if (!sort_ms || !calls) {
    free(sort_ms);
    return 1;
  }
  fprintf(info, "glradix_sort_host, %u calls per size, uniform keys over %u bits; sort: the "
                "GPU time of the sort inside each call (profile)\n", calls, key_bits);
  fprintf(info, "%10s %5s %6s %9s %9s %9s %9s %9s\n", "n", "pairs", "calls", "sort_1st",
          "sort_last", "median", "worst", "last/1st");
  int failed = 0;
  for (size_t i = 0; i < nsizes && !failed; ++i)
    failed = host_size(ctx, sizes[i], key_bits, pairs, calls, verify, trace, info, sort_ms);
  free(sort_ms);
  return failed;
}
