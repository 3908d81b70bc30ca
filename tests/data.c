/* Test data generators and the independent CPU references. */
#include "common.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *dist_name(test_dist d) {
  switch (d) {
  case DIST_UNIFORM: return "uniform";
  case DIST_EQUAL: return "all-equal";
  case DIST_SORTED: return "sorted";
  case DIST_REVERSE: return "reverse";
  case DIST_FEW_UNIQUE: return "few-unique(7)";
  case DIST_HIGH_BITS: return "high-bits(&0xF0000000)";
  case DIST_LOW_BITS: return "low-bits(&0x3FF)";
  case DIST_ALL_ONES: return "all-0xFFFFFFFF";
  case DIST_MORTON: return "morton30";
  default: return "?";
  }
}

int runs_in_grid(size_t n, test_dist d) {
  const int common = d == DIST_UNIFORM || d == DIST_FEW_UNIQUE;
  const int skips = d == DIST_EQUAL || d == DIST_LOW_BITS || d == DIST_MORTON;
  if (!test_trimmed())
    return n < 100003 || d == DIST_UNIFORM || (n < (1u << 20) && (common || skips));
  const int size_kind = n <= 1 || n == 2049 || n == 4097 || n == 12345 || n == 100003;
  /* under the sanitizers a GPU form's host code runs the same at a few tiles */
  return size_kind && (n < 100003 || (common && !(test_sanitized() && test_forms())));
}

int test_trimmed(void) { return getenv("GLRADIX_TEST_TRIM") != NULL; }

int test_sanitized(void) {
#if defined(__SANITIZE_ADDRESS__)
  return 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return 1;
#endif
#endif
  return 0;
}

/* splitmix64 */
uint64_t test_rng_next(uint64_t *state) {
  uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static uint32_t rng32(uint64_t *state) { return (uint32_t)(test_rng_next(state) >> 32); }

/* Spreads the low 10 bits of v so that bit i lands on bit 3*i. */
static uint32_t spread3(uint32_t v) {
  uint32_t r = 0;
  for (unsigned i = 0; i < 10; i++)
    r |= ((v >> i) & 1u) << (3 * i);
  return r;
}

uint32_t morton3_10(uint32_t x, uint32_t y, uint32_t z) {
  return spread3(x) | (spread3(y) << 1) | (spread3(z) << 2);
}

static void sort_u32(uint32_t *keys, size_t n, int descending);

void gen_keys(uint32_t *keys, size_t n, test_dist d, uint64_t seed) {
  uint64_t st = seed * UINT64_C(0x2545F4914F6CDD1D) + (uint64_t)d;
  uint32_t few[7];
  for (int i = 0; i < 7; i++)
    few[i] = rng32(&st);
  uint32_t same = rng32(&st);
  for (size_t i = 0; i < n; i++) {
    switch (d) {
    case DIST_EQUAL: keys[i] = same; break;
    case DIST_FEW_UNIQUE: keys[i] = few[rng32(&st) % 7u]; break;
    case DIST_HIGH_BITS: keys[i] = rng32(&st) & 0xF0000000u; break;
    case DIST_LOW_BITS: keys[i] = rng32(&st) & 0x3FFu; break;
    case DIST_ALL_ONES: keys[i] = 0xFFFFFFFFu; break;
    case DIST_MORTON: {
      uint32_t r = rng32(&st);
      keys[i] = morton3_10(r & 1023u, (r >> 10) & 1023u, (r >> 20) & 1023u);
      break;
    }
    default: keys[i] = rng32(&st); break;
    }
  }
  if (d == DIST_SORTED || d == DIST_REVERSE)
    sort_u32(keys, n, d == DIST_REVERSE);
}

void gen_values(uint32_t *values, size_t n, unsigned round) {
  for (size_t i = 0; i < n; i++)
    values[i] = round == 0 ? (uint32_t)i
                           : (uint32_t)i * 0x9E3779B1u + round * 0x7F4A7C15u;
}

uint32_t *test_alloc_u32(size_t n) {
  uint32_t *p = malloc((n ? n : 1) * sizeof *p);
  ck_assert_msg(p != NULL, "out of host memory for %zu words", n);
  return p;
}

/* ---- references ----------------------------------------------------------- */

typedef struct ref_item {
  uint64_t order;
  uint32_t index; /* original position: ties go by it */
} ref_item;

/* The references are not instrumented by the sanitizers (the asan preset),
 * which check the library, not these loops: instrumented, the merge sort
 * was 21% of the asan test_sort's profile, and with item_before still
 * instrumented (GCC will not inline it into an uninstrumented sort_items)
 * and the gathers of ref_stable_sort, 25%. */
#if defined(__GNUC__) || defined(__clang__)
#define REF_UNINSTRUMENTED __attribute__((no_sanitize("address", "undefined")))
#else
#define REF_UNINSTRUMENTED
#endif

/* The references' working arrays, kept per thread and grown as needed: a
 * forked test child checks many sorts, and under the asan preset every
 * fresh array of megabytes is new pages to fault in (page faults were a
 * fifth of the asan test_sort's profile, about half of them the
 * references'). One slot per array a reference holds at once. Threads
 * other than the child's main one give theirs back with ref_release. */
enum { WS_ITEMS, WS_MERGE, WS_ORDER, WS_INDEX, WS_COUNT };
static _Thread_local void *ws_buf[WS_COUNT];
static _Thread_local size_t ws_size[WS_COUNT];

void ref_release(void) {
  for (int i = 0; i < WS_COUNT; i++) {
    free(ws_buf[i]);
    ws_buf[i] = NULL;
    ws_size[i] = 0;
  }
}

static void *ref_workspace(int slot, size_t bytes) {
  if (bytes > ws_size[slot]) {
    free(ws_buf[slot]);
    ws_buf[slot] = malloc(bytes);
    ws_size[slot] = ws_buf[slot] ? bytes : 0;
  }
  ck_assert_msg(ws_buf[slot] != NULL, "out of host memory for the reference (%zu bytes)", bytes);
  return ws_buf[slot];
}

REF_UNINSTRUMENTED
static int item_before(const ref_item *x, const ref_item *y, int descending) {
  if (x->order != y->order) return (x->order < y->order) != (descending != 0);
  return x->index < y->index;
}

/* A comparison sort of `items` by (order, index): bottom-up merge sort,
 * with the comparison inline (with qsort and a callback the reference was
 * about a quarter of test_sort's profile; this made test_sort 48.0 -> 40.1
 * s on llvmpipe). test_api checks it against qsort. */
REF_UNINSTRUMENTED
static void sort_items(ref_item *items, size_t n, int descending) {
  ref_item *tmp = ref_workspace(WS_MERGE, (n ? n : 1) * sizeof *tmp);
  ref_item *from = items, *to = tmp;
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = lo + width < n ? lo + width : n;
      size_t hi = mid + width < n ? mid + width : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        to[k++] = item_before(&from[j], &from[i], descending) ? from[j++] : from[i++];
      while (i < mid) to[k++] = from[i++];
      while (j < hi) to[k++] = from[j++];
    }
    ref_item *t = from;
    from = to;
    to = t;
  }
  if (from != items) memcpy(items, from, n * sizeof *items);
}

/* Sorts n 32-bit words, ascending or descending. */
REF_UNINSTRUMENTED
static void sort_u32(uint32_t *keys, size_t n, int descending) {
  ref_item *items = ref_workspace(WS_ITEMS, (n ? n : 1) * sizeof *items);
  for (size_t i = 0; i < n; i++) items[i] = (ref_item){keys[i], (uint32_t)i};
  sort_items(items, n, descending);
  for (size_t i = 0; i < n; i++) keys[i] = (uint32_t)items[i].order;
}

REF_UNINSTRUMENTED
void ref_stable_order(const uint64_t *order, size_t n, int descending, uint32_t *index) {
  ref_item *items = ref_workspace(WS_ITEMS, (n ? n : 1) * sizeof *items);
  for (size_t i = 0; i < n; i++) items[i] = (ref_item){order[i], (uint32_t)i};
  sort_items(items, n, descending);
  for (size_t i = 0; i < n; i++) index[i] = items[i].index;
}

REF_UNINSTRUMENTED
void ref_stable_sort(const uint32_t *keys, const uint32_t *values, size_t n,
                     unsigned begin_bit, unsigned end_bit, uint32_t *ref_keys,
                     uint32_t *ref_values) {
  unsigned end = end_bit ? end_bit : 32;
  unsigned width = end - begin_bit;
  uint32_t mask = width >= 32 ? 0xFFFFFFFFu : ((1u << width) - 1u);
  uint64_t *order = ref_workspace(WS_ORDER, (n ? n : 1) * sizeof *order);
  uint32_t *index = ref_workspace(WS_INDEX, (n ? n : 1) * sizeof *index);
  for (size_t i = 0; i < n; i++) order[i] = (keys[i] >> begin_bit) & mask;
  ref_stable_order(order, n, 0, index);
  for (size_t i = 0; i < n; i++) {
    ref_keys[i] = keys[index[i]];
    if (ref_values && values)
      ref_values[i] = values[index[i]];
  }
}

void ref_sort_keys(const uint32_t *keys, size_t n, uint32_t *ref_keys) {
  if (n)
    memcpy(ref_keys, keys, n * sizeof *keys);
  sort_u32(ref_keys, n, 0);
}

void expect_lbvh_rest(const glradix_lbvh_node *tree, size_t n, size_t capacity,
                      const uint32_t *words, const uint32_t *pattern, const char *what) {
  expect_lbvh_rest_root(tree, n, capacity, words, pattern, 0xFFFFFFFFu, what);
}

void expect_lbvh_rest_root(const glradix_lbvh_node *tree, size_t n, size_t capacity,
                           const uint32_t *words, const uint32_t *pattern, uint32_t root_word,
                           const char *what) {
  const size_t tree_words = n ? (2 * n - 1) * 8 : 0, nodes_words = (2 * capacity - 1) * 8;
  const size_t all_words = glradix_lbvh_nodes_bytes((uint32_t)capacity) / 4;
  expect_equal_u32(pattern + tree_words, words + tree_words, nodes_words - tree_words, what);
  const size_t nodes = n ? 2 * n - 1 : 0;
  uint32_t *parents = test_alloc_u32(nodes);
  for (size_t i = 0; i < nodes; i++) parents[i] = root_word;
  for (size_t i = 0; n > 1 && i < n - 1; i++) {
    parents[tree[i].a] = (uint32_t)i;
    parents[tree[i].b] = (uint32_t)i | 0x80000000u;
  }
  char kept[160];
  snprintf(kept, sizeof kept, "%s: kept parent words", what);
  expect_equal_u32(parents, words + nodes_words, nodes, kept);
  const size_t prims_words = nodes_words + (2 * capacity - 1 + 3) / 4 * 4;
  expect_equal_u32(pattern + nodes_words + nodes, words + nodes_words + nodes,
                   prims_words - nodes_words - nodes, what);
  uint32_t *prims = test_alloc_u32(n ? n : 1);
  for (size_t k = 0; k < n; k++) prims[k] = tree[n - 1 + k].a;
  snprintf(kept, sizeof kept, "%s: kept leaf primitives", what);
  expect_equal_u32(prims, words + prims_words, n, kept);
  expect_equal_u32(pattern + prims_words + n, words + prims_words + n,
                   all_words - prims_words - n, what);
  free(prims);
  free(parents);
}

/* The CPU refit of tree t (2n - 1 nodes) over boxes b, bottom-up by an
 * explicit walk (a quality build's caterpillar is deep): leaves take
 * their primitive's box, internal nodes their children's union. */
static void cpu_refit(glradix_lbvh_node *t, size_t n, const float *b) {
  uint32_t *stack = test_alloc_u32(6 * n); /* node, children done */
  size_t top = 0;
  stack[top++] = 0;
  stack[top++] = 0;
  while (top) {
    uint32_t done = stack[--top], x = stack[--top];
    glradix_lbvh_node *v = &t[x];
    if (v->b == GLRADIX_LBVH_LEAF) {
      memcpy(v->min, &b[8 * v->a], sizeof v->min);
      memcpy(v->max, &b[8 * v->a + 4], sizeof v->max);
    } else if (!done) {
      stack[top++] = x;
      stack[top++] = 1;
      stack[top++] = v->a;
      stack[top++] = 0;
      stack[top++] = v->b;
      stack[top++] = 0;
    } else {
      for (int c = 0; c < 3; c++) {
        const float la = t[v->a].min[c], lb = t[v->b].min[c];
        const float ha = t[v->a].max[c], hb = t[v->b].max[c];
        v->min[c] = la < lb ? la : lb;
        v->max[c] = ha > hb ? ha : hb;
      }
    }
  }
  free(stack);
}

void expect_lbvh_refit(const glradix_lbvh_node *built, const glradix_lbvh_node *gpu, size_t n,
                       const float *b, const char *what) {
  glradix_lbvh_node *want = malloc((2 * n - 1) * sizeof *want);
  ck_assert_ptr_nonnull(want);
  memcpy(want, built, (2 * n - 1) * sizeof *want);
  cpu_refit(want, n, b);
  for (size_t i = 0; i < 2 * n - 1; i++) {
    EXPECT_MSG(gpu[i].a == built[i].a && gpu[i].b == built[i].b,
               "%s: node %zu links (%u, %u) after the refit, (%u, %u) built", what, i, gpu[i].a,
               gpu[i].b, built[i].a, built[i].b);
    EXPECT_MSG(memcmp(gpu[i].min, want[i].min, sizeof want[i].min) == 0 &&
                   memcmp(gpu[i].max, want[i].max, sizeof want[i].max) == 0,
               "%s: node %zu box (%g %g %g)-(%g %g %g), CPU refit (%g %g %g)-(%g %g %g)", what,
               i, (double)gpu[i].min[0], (double)gpu[i].min[1], (double)gpu[i].min[2],
               (double)gpu[i].max[0], (double)gpu[i].max[1], (double)gpu[i].max[2],
               (double)want[i].min[0], (double)want[i].min[1], (double)want[i].min[2],
               (double)want[i].max[0], (double)want[i].max[1], (double)want[i].max[2]);
  }
  free(want);
}

void expect_equal_u32(const uint32_t *expected, const uint32_t *got, size_t n,
                      const char *what) {
  /* Compare first, assert once: ck_assert per element would write to
   * Check's pipe millions of times. */
  size_t bad = n, nbad = 0;
  for (size_t i = 0; i < n; i++) {
    if (expected[i] != got[i]) {
      if (bad == n)
        bad = i;
      nbad++;
    }
  }
  if (bad != n)
    ck_abort_msg("%s: %zu of %zu words differ; first at [%zu]: expected "
                 "0x%08" PRIx32 ", got 0x%08" PRIx32,
                 what, nbad, n, bad, expected[bad], got[bad]);
}

void check_sort_result(const uint32_t *in_keys, const uint32_t *in_values,
                       const uint32_t *out_keys, const uint32_t *out_values,
                       size_t n, unsigned begin_bit, unsigned end_bit,
                       const char *what) {
  char label[512];
  uint32_t *ref_k = test_alloc_u32(n);
  uint32_t *ref_v = in_values ? test_alloc_u32(n) : NULL;
  int whole = begin_bit == 0 && (end_bit == 0 || end_bit == 32);
  if (whole && !in_values)
    ref_sort_keys(in_keys, n, ref_k);
  else
    ref_stable_sort(in_keys, in_values, n, begin_bit, end_bit, ref_k, ref_v);
  snprintf(label, sizeof label, "%s: keys", what);
  expect_equal_u32(ref_k, out_keys, n, label);
  if (in_values) {
    snprintf(label, sizeof label, "%s: values (stable order)", what);
    expect_equal_u32(ref_v, out_values, n, label);
  }
  free(ref_k);
  free(ref_v);
}

float *test_random_boxes(size_t n, uint64_t seed) {
  float *b = calloc(n * 8, sizeof *b);
  ck_assert_ptr_nonnull(b);
  uint64_t st = seed;
  for (size_t i = 0; i < n; i++) {
    int dup = test_rng_next(&st) % 3u == 0u;
    for (int c = 0; c < 3; c++) {
      float lo = dup ? 0.25f : (float)(test_rng_next(&st) % 100000u) * 1e-3f - 20.0f;
      float size = dup ? 0.0f : (float)(test_rng_next(&st) % 1000u) * 1e-3f;
      b[8 * i + c] = lo;
      b[8 * i + 4 + c] = lo + size;
    }
    b[8 * i + 3] = b[8 * i + 7] = 99.0f;
  }
  return b;
}

/* Boxes of a shape: 0 clustered (8 tight clusters: runs of equal codes),
 * 1 all equal, 2 collinear (centroids on a line, shuffled). */
float *test_shaped_boxes(int shape, size_t n, uint64_t seed) {
  float *b = test_random_boxes(n, seed);
  for (size_t i = 0; i < n; i++) {
    float c[3];
    for (int a = 0; a < 3; a++) {
      if (shape == 0) c[a] = (float)(((i * 7 + 3) % 8) >> a & 1u) * 50.0f + b[8 * i + a] * 1e-4f;
      else if (shape == 1) c[a] = 10.0f;
      else c[a] = a == 0 ? (float)((i * 7919) % n) * 0.01f : 5.0f;
    }
    for (int a = 0; a < 3; a++) {
      b[8 * i + a] = c[a] - 0.25f;
      b[8 * i + 4 + a] = c[a] + 0.25f;
    }
  }
  return b;
}

static int clz64(uint64_t x) { return x ? __builtin_clzll(x) : 64; }

/* common prefix of the index-augmented keys of sorted positions i and j */
static int augmented_prefix(const uint64_t *codes, int code_len, size_t i, size_t j) {
  if (codes[i] == codes[j]) return code_len + (clz64((uint64_t)(i ^ j)) - 32);
  return clz64(codes[i] ^ codes[j]) - (64 - code_len);
}

size_t test_radix_split(const uint64_t *codes, int code_len, size_t first, size_t last) {
  int common = augmented_prefix(codes, code_len, first, last);
  size_t split = first, step = last - first;
  do { /* binary search for the last index sharing more than `common` bits with first */
    step = (step + 1) / 2;
    size_t next = split + step;
    if (next < last && augmented_prefix(codes, code_len, first, next) > common) split = next;
  } while (step > 1);
  return split;
}
