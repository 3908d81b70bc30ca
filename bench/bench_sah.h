/* glradix-bench --lbvh --sah: the surface area heuristic (SAH) cost of the
 * LBVH beside a CPU binned-SAH build's on the same primitives. */
#ifndef GLRADIX_BENCH_SAH_H
#define GLRADIX_BENCH_SAH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <glradix/lbvh.h>

/* The cost constants: a traversal step and a primitive test cost the same. */
#define BENCH_SAH_CT 1.0 /* C_t, per internal node */
#define BENCH_SAH_CI 1.0 /* C_i, per leaf (one primitive each) */
enum {
  BENCH_SAH_BINS = 32,          /* bins over the centroids, per axis and node */
  BENCH_SAH_MAX_N = 1u << 22    /* the largest n the CPU build runs for: 1M random boxes
                                   take about 2 s on the 2-core llvmpipe machine, and 16M
                                   would take most of a minute */
};

/* SAH cost of a tree of n primitives in glradix_lbvh_node layout (internal
 * nodes 0..n-2, leaves n-1..2n-2; with n == 1 node 0 is the leaf):
 * (sum over internal nodes of C_t * area + sum over leaves of C_i * area)
 * / area of the root, area the surface area of the node's box. */
double bench_sah_cost(const glradix_lbvh_node *nodes, uint32_t n);

/* A top-down binned SAH build on the CPU of n boxes (8 floats each, vec4 min
 * and vec4 max, as bench_scene_make writes): at each node the split of
 * least A_left * N_left + A_right * N_right over BENCH_SAH_BINS bins of
 * the centroids on each axis (the middle of the range when all centroids
 * coincide), down to one primitive a leaf, so that the tree is laid out and
 * checked as an LBVH is (bench_lbvh_check). 0, or -1 out of memory. */
int bench_sah_build(const float *boxes, uint32_t n, glradix_lbvh_node *nodes);

typedef struct bench_sah_result {
  double lbvh, binned; /* costs; binned 0 where n > BENCH_SAH_MAX_N */
  double leaves;       /* the leaves' share of each cost: the same for any tree with one
                          primitive a leaf, the floor of both */
  double binned_ms;    /* the CPU build's wall time */
} bench_sah_result;

/* The LBVH's cost, and for n up to BENCH_SAH_MAX_N the binned build's
 * (its tree checked with bench_lbvh_check). Checks the cost function and
 * the builder on a 3-box tree computed by hand first. 0, or 1 with a
 * message on stderr when a check fails, a cost is not finite or the binned
 * cost is above twice the LBVH's (a builder that bad is broken). */
int bench_sah_compare(const glradix_lbvh_node *lbvh, const float *boxes, uint32_t n,
                      bench_sah_result *r);

/* "sah: n=... scene=... lbvh=... binned=... ratio=..." and the constants. */
void bench_sah_print(FILE *f, uint32_t n, const char *scene, const bench_sah_result *r);

/* ",sah_lbvh,sah_binned,sah_ratio" for the end of a CSV row (the last two
 * empty where the binned build did not run). */
void bench_sah_csv(char *buf, size_t len, const bench_sah_result *r);

#endif
