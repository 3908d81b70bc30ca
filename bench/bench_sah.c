/* glradix-bench --lbvh --sah: SAH costs and a CPU binned-SAH build. */
#include "bench_sah.h"

#include "bench_lbvh.h"
#include "bench_time.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double area(const float *lo, const float *hi) {
  const double x = (double)hi[0] - lo[0], y = (double)hi[1] - lo[1], z = (double)hi[2] - lo[2];
  return 2.0 * (x * y + y * z + z * x);
}

double bench_sah_cost(const glradix_lbvh_node *nodes, uint32_t n) {
  if (n == 0) return 0.0;
  /* by index, not by walking the links: the layout puts every node of the
   * tree in 0..2n-2 (bench_lbvh_check says whether the links agree) */
  double internal = 0.0, leaves = 0.0;
  for (size_t i = 0; i < 2 * (size_t)n - 1; ++i) {
    const double a = area(nodes[i].min, nodes[i].max);
    if (i + 1 < n)
      internal += a;
    else
      leaves += a;
  }
  return (BENCH_SAH_CT * internal + BENCH_SAH_CI * leaves) / area(nodes[0].min, nodes[0].max);
}

/* A primitive as the builder moves it: the records themselves are
 * partitioned, not indices to them, so that every pass over a range reads
 * memory in order (random boxes gathered through indices took over twice as long
 * at 1M). */
typedef struct prim {
  float lo[3], hi[3], c[3]; /* box and centroid */
  uint32_t p;               /* index in the input */
} prim;

typedef struct build {
  prim *prims;
  glradix_lbvh_node *nodes;
  uint32_t n, next_internal, next_leaf;
} build;

typedef struct task {
  uint32_t begin, end, node;
} task;

typedef struct bin {
  float lo[3], hi[3];
  uint32_t count;
} bin;

static void box_empty(float *lo, float *hi) {
  for (int c = 0; c < 3; ++c) {
    lo[c] = FLT_MAX;
    hi[c] = -FLT_MAX;
  }
}

static void box_grow(float *lo, float *hi, const float *blo, const float *bhi) {
  for (int c = 0; c < 3; ++c) {
    lo[c] = blo[c] < lo[c] ? blo[c] : lo[c];
    hi[c] = bhi[c] > hi[c] ? bhi[c] : hi[c];
  }
}

/* One expression for both the binning and the partition, so that both put
 * a centroid in the same bin. */
static int bin_of(float c, float cmin, float k) {
  const int b = (int)((c - cmin) * k);
  return b < 0 ? 0 : b >= BENCH_SAH_BINS ? BENCH_SAH_BINS - 1 : b;
}

/* The index of a child holding primitives [begin, end): a leaf written now,
 * or an internal node whose range goes on the stack. */
static uint32_t child(build *s, uint32_t begin, uint32_t end, task *stack, size_t *top) {
  if (end - begin == 1) {
    const prim *p = &s->prims[begin];
    const uint32_t x = s->n - 1 + s->next_leaf++;
    glradix_lbvh_node *q = &s->nodes[x];
    memcpy(q->min, p->lo, sizeof q->min);
    memcpy(q->max, p->hi, sizeof q->max);
    q->a = p->p;
    q->b = GLRADIX_LBVH_LEAF;
    return x;
  }
  const uint32_t x = s->next_internal++;
  stack[(*top)++] = (task){begin, end, x};
  return x;
}

/* Splits [t.begin, t.end) (two or more primitives) and writes node t.node. */
static void split(build *s, task t, task *stack, size_t *top) {
  glradix_lbvh_node *q = &s->nodes[t.node];
  float clo[3], chi[3]; /* the centroids' bounds */
  box_empty(q->min, q->max);
  box_empty(clo, chi);
  for (uint32_t i = t.begin; i < t.end; ++i) {
    const prim *p = &s->prims[i];
    box_grow(q->min, q->max, p->lo, p->hi);
    box_grow(clo, chi, p->c, p->c);
  }

  bin bins[3][BENCH_SAH_BINS];
  float k[3];
  for (int a = 0; a < 3; ++a) {
    k[a] = chi[a] > clo[a] ? (float)BENCH_SAH_BINS / (chi[a] - clo[a]) : 0.0f;
    for (int j = 0; j < BENCH_SAH_BINS; ++j) {
      box_empty(bins[a][j].lo, bins[a][j].hi);
      bins[a][j].count = 0;
    }
  }
  for (uint32_t i = t.begin; i < t.end; ++i) {
    const prim *p = &s->prims[i];
    for (int a = 0; a < 3; ++a) {
      if (k[a] == 0.0f) continue;
      bin *b = &bins[a][bin_of(p->c[a], clo[a], k[a])];
      box_grow(b->lo, b->hi, p->lo, p->hi);
      ++b->count;
    }
  }

  /* the plane after bin j of axis a: sweeps from both ends */
  double best = INFINITY;
  int best_axis = -1, best_bin = 0;
  for (int a = 0; a < 3; ++a) {
    if (k[a] == 0.0f) continue;
    double right_cost[BENCH_SAH_BINS];
    float lo[3], hi[3];
    uint32_t count = 0;
    box_empty(lo, hi);
    for (int j = BENCH_SAH_BINS - 1; j > 0; --j) {
      box_grow(lo, hi, bins[a][j].lo, bins[a][j].hi);
      count += bins[a][j].count;
      right_cost[j] = count ? area(lo, hi) * count : INFINITY;
    }
    box_empty(lo, hi);
    count = 0;
    for (int j = 0; j + 1 < BENCH_SAH_BINS; ++j) {
      box_grow(lo, hi, bins[a][j].lo, bins[a][j].hi);
      count += bins[a][j].count;
      const double cost = count ? area(lo, hi) * count + right_cost[j + 1] : INFINITY;
      if (cost < best) {
        best = cost;
        best_axis = a;
        best_bin = j;
      }
    }
  }

  uint32_t mid;
  if (best_axis < 0) {
    /* every centroid in one point: no plane parts them, any split costs
     * the same */
    mid = t.begin + (t.end - t.begin) / 2;
  } else {
    uint32_t i = t.begin, j = t.end;
    while (i < j) {
      if (bin_of(s->prims[i].c[best_axis], clo[best_axis], k[best_axis]) <= best_bin) {
        ++i;
      } else {
        const prim p = s->prims[i];
        s->prims[i] = s->prims[--j];
        s->prims[j] = p;
      }
    }
    mid = i; /* both sides hold primitives: best was finite */
  }
  /* the right child first on the stack, so that the left one is built next */
  const uint32_t r = child(s, mid, t.end, stack, top);
  const uint32_t l = child(s, t.begin, mid, stack, top);
  q->a = l;
  q->b = r;
}

int bench_sah_build(const float *boxes, uint32_t n, glradix_lbvh_node *nodes) {
  if (n == 0) return 0;
  build s = {malloc((size_t)n * sizeof(prim)), nodes, n, 0, 0};
  /* pending ranges are disjoint and hold two or more primitives each */
  task *stack = malloc(((size_t)n / 2 + 1) * sizeof *stack);
  int ok = s.prims && stack;
  for (uint32_t i = 0; ok && i < n; ++i) {
    prim *p = &s.prims[i];
    p->p = i;
    for (int c = 0; c < 3; ++c) {
      p->lo[c] = boxes[8 * (size_t)i + c];
      p->hi[c] = boxes[8 * (size_t)i + 4 + c];
      p->c[c] = 0.5f * (p->lo[c] + p->hi[c]);
    }
  }
  if (ok) {
    size_t top = 0;
    if (n == 1) {
      child(&s, 0, 1, stack, &top); /* the single leaf: node n - 1 = 0 */
    } else {
      s.next_internal = 1;
      stack[top++] = (task){0, n, 0};
    }
    while (top) {
      const task t = stack[--top];
      split(&s, t, stack, &top);
    }
  }
  free(s.prims);
  free(stack);
  return ok ? 0 : -1;
}

/* The cost function and the builder on three unit cubes, P0 at the origin,
 * P1 two units along x, P2 four units along z: the best tree pairs P0 and
 * P1 (box 3 x 1 x 1, area 14) under the root (3 x 1 x 5, area 46), beside
 * the leaf P2; leaves 3 x 6. Cost (46 + 14 + 18) / 46 = 78 / 46. */
static int self_test(void) {
  static const float boxes[3 * 8] = {0, 0, 0, 0, 1, 1, 1, 0,  2, 0, 0, 0, 3, 1, 1, 0,
                                     0, 0, 4, 0, 1, 1, 5, 0};
  const glradix_lbvh_node hand[5] = {{{0, 0, 0}, 1, {3, 1, 5}, 4},
                                     {{0, 0, 0}, 2, {3, 1, 1}, 3},
                                     {{0, 0, 0}, 0, {1, 1, 1}, GLRADIX_LBVH_LEAF},
                                     {{2, 0, 0}, 1, {3, 1, 1}, GLRADIX_LBVH_LEAF},
                                     {{0, 0, 4}, 2, {1, 1, 5}, GLRADIX_LBVH_LEAF}};
  const double want = (BENCH_SAH_CT * (46.0 + 14.0) + BENCH_SAH_CI * 18.0) / 46.0;
  glradix_lbvh_node built[5];
  char why[160];
  const double got = bench_sah_cost(hand, 3);
  if (fabs(got - want) > 1e-12) {
    fprintf(stderr, "glradix-bench: sah self-test: the hand-made tree costs %.15g, not %.15g\n",
            got, want);
    return 1;
  }
  if (bench_sah_build(boxes, 3, built) != 0 || !bench_lbvh_check(built, boxes, 3, why, sizeof why) ||
      fabs(bench_sah_cost(built, 3) - want) > 1e-12) {
    fprintf(stderr, "glradix-bench: sah self-test: the binned build of 3 boxes is not the best "
                    "tree\n");
    return 1;
  }
  return 0;
}

int bench_sah_compare(const glradix_lbvh_node *lbvh, const float *boxes, uint32_t n,
                      bench_sah_result *r) {
  memset(r, 0, sizeof *r);
  if (self_test()) return 1;
  r->lbvh = bench_sah_cost(lbvh, n);
  {
    /* the leaves' share: of the primitives' boxes and the scene box alone */
    double leaves = 0.0;
    for (uint32_t i = 0; i < n; ++i)
      leaves += area(&boxes[8 * (size_t)i], &boxes[8 * (size_t)i + 4]);
    r->leaves = BENCH_SAH_CI * leaves / area(lbvh[0].min, lbvh[0].max);
  }
  if (!isfinite(r->lbvh) || r->lbvh <= 0.0) {
    fprintf(stderr, "glradix-bench: sah n = %u: the LBVH's cost is %g\n", n, r->lbvh);
    return 1;
  }
  if (n > BENCH_SAH_MAX_N) return 0;
  glradix_lbvh_node *nodes = malloc(glradix_lbvh_nodes_bytes(n));
  const double t0 = bench_now_ms();
  if (!nodes || bench_sah_build(boxes, n, nodes) != 0) {
    fprintf(stderr, "glradix-bench: sah n = %u: out of host memory for the binned build\n", n);
    free(nodes);
    return 1;
  }
  r->binned_ms = bench_now_ms() - t0;
  char why[160];
  int bad = !bench_lbvh_check(nodes, boxes, n, why, sizeof why);
  if (bad) fprintf(stderr, "glradix-bench: sah n = %u: the binned tree is wrong: %s\n", n, why);
  r->binned = bench_sah_cost(nodes, n);
  free(nodes);
  if (!isfinite(r->binned) || r->binned <= 0.0 || r->binned > 2.0 * r->lbvh) {
    fprintf(stderr, "glradix-bench: sah n = %u: the binned build's cost %g against the LBVH's %g\n",
            n, r->binned, r->lbvh);
    bad = 1;
  }
  return bad;
}

void bench_sah_print(FILE *f, uint32_t n, const char *scene, const bench_sah_result *r) {
  fprintf(f, "sah: n=%u scene=%s lbvh=%.3f", n, scene, r->lbvh);
  if (r->binned > 0)
    fprintf(f, " binned=%.3f ratio=%.3f (lbvh/binned; binned build %.0f ms on the CPU)",
            r->binned, r->lbvh / r->binned, r->binned_ms);
  else
    fprintf(f, " binned=- ratio=- (the binned build runs up to n = %u)", (unsigned)BENCH_SAH_MAX_N);
  fprintf(f, " leaves=%.3f of each; C_t=%g C_i=%g, %d bins, 1 primitive a leaf\n", r->leaves,
          BENCH_SAH_CT, BENCH_SAH_CI, BENCH_SAH_BINS);
}

void bench_sah_csv(char *buf, size_t len, const bench_sah_result *r) {
  if (r->binned > 0)
    snprintf(buf, len, ",%.4f,%.4f,%.4f", r->lbvh, r->binned, r->lbvh / r->binned);
  else
    snprintf(buf, len, ",%.4f,,", r->lbvh);
}
