/* glradix-bench --dist: key distributions for every key type. */
#ifndef GLRADIX_BENCH_DIST_H
#define GLRADIX_BENCH_DIST_H

#include <stddef.h>
#include <stdint.h>

#include <glradix/glradix.h>

typedef enum bench_dist {
  BENCH_DIST_UNIFORM,       /* uniform over the key bits */
  BENCH_DIST_SORTED,        /* ascending */
  BENCH_DIST_REVERSE,       /* descending */
  BENCH_DIST_NEARLY_SORTED, /* ascending, about 1% of the keys swapped at random */
  BENCH_DIST_MORTON,        /* Morton codes of points clustered around a few centres */
  BENCH_DIST_FEW_UNIQUE,    /* 16 distinct values */
  BENCH_DIST_ALL_EQUAL,     /* one value */
  BENCH_DIST_COUNT
} bench_dist;

/* splitmix64: the bench's one pseudo-random generator. */
uint64_t bench_mix64(uint64_t *state);

/* "uniform", "sorted", ... as --dist spells them. */
const char *bench_dist_name(bench_dist d);

/* Parses "D[,D...]" or "all" into at most BENCH_DIST_COUNT distributions;
 * 0, or -1 for an unknown name or a repeated one. */
int bench_dist_parse(const char *s, bench_dist *out, size_t *count);

/* n keys of `type` (n * typed_words words) in distribution d, within
 * key_bits bits for uint32 and uint64 and over finite values for float32.
 * The uniform keys are the bench's historical ones; the other
 * distributions depend on `seed` as well. */
void bench_dist_make(uint32_t *words, uint32_t n, glradix_key_type type, unsigned key_bits,
                     bench_dist d, uint64_t seed);

#endif
