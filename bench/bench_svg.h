/* glradix-bench: SVG plot of throughput versus N (plain SVG text). */
#ifndef GLRADIX_BENCH_SVG_H
#define GLRADIX_BENCH_SVG_H

#include <stddef.h>
#include <stdint.h>

/* One measured row of the benchmark. */
typedef struct bench_result {
  uint32_t n;
  unsigned key_bits;
  int pairs;
  unsigned radix_bits; /* resolved value */
  double ms_median;
  double mkeys_per_s;
  const char *dist; /* the keys' distribution, as --dist names it */
} bench_result;

/* Writes Mkeys/s versus N (log2 x axis), one polyline per configuration
 * (pairs, key_bits, radix_bits, distribution), with axis labels and a
 * legend. `title` may be NULL. Returns 0 on success, -1 if the file cannot
 * be written. */
int bench_write_svg(const char *path, const char *title, const bench_result *rows,
                    size_t count);

#endif
