/* Morton codes and the LBVH build. Codes: exact-grid points against a CPU
 * bit interleave. Trees: against a CPU top-down build (the binary radix tree
 * of the sorted, index-augmented codes is unique, and a recursive build
 * numbers its nodes as Karras's parallel one does), with boxes computed
 * bottom-up on the CPU; each primitive reached once from the root. */
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glradix/lbvh.h"

static uint64_t interleave(uint32_t x, uint32_t y, uint32_t z, unsigned bits_per_axis) {
  uint64_t m = 0;
  for (unsigned b = 0; b < bits_per_axis; b++) {
    m |= (uint64_t)((x >> b) & 1u) << (3 * b);
    m |= (uint64_t)((y >> b) & 1u) << (3 * b + 1);
    m |= (uint64_t)((z >> b) & 1u) << (3 * b + 2);
  }
  return m;
}


static uint64_t read_code(const uint32_t *words, size_t i, int wide) {
  return wide ? (uint64_t)words[2 * i] | ((uint64_t)words[2 * i + 1] << 32) : words[i];
}

/* ---- Morton codes on an exact grid ----------------------------------------- */

/* What a desc without a count buffer passes as its GPU count (check_tree_counted). */

/* 5001 points, or with a GPU count (not CPU_COUNT) the first m =
 * min(gpu_count, 5001) of them: their codes against a CPU interleave, the
 * codes after them untouched. `flat`: the scene box is 1 x 1/2 x 1/4, whose
 * longest side sets the cells of every axis (the cube over it), so a
 * point's y cell is its unit-grid cell halved and its z cell quartered. */
static void check_grid_codes(unsigned morton_bits, int gpu_box, size_t gpu_count, int flat) {
  const float scale[3] = {1.0f, flat ? 0.5f : 1.0f, flat ? 0.25f : 1.0f};
  const unsigned shift[3] = {0, flat ? 1u : 0u, flat ? 2u : 0u};
  const unsigned per_axis = morton_bits == 63 ? 21 : 10;
  const uint32_t cells = 1u << per_axis;
  const size_t n = 5001, m = gpu_count < n ? gpu_count : n;
  const size_t code_words = morton_bits == 63 ? 2 * n : n;
  float *b = calloc(n * 8, sizeof *b);
  uint32_t (*cell)[3] = calloc(n, sizeof *cell);
  uint64_t st = 11 + morton_bits;
  for (size_t i = 0; i < n; i++) {
    for (int c = 0; c < 3; c++) {
      uint32_t k = (uint32_t)test_rng_next(&st) % cells;
      if (i == 1) k = 0;
      if (i == 2) k = cells - 1;
      cell[i][c] = k >> shift[c];
      /* a point at the middle of its cell: exact in float */
      b[8 * i + c] = b[8 * i + 4 + c] = ((float)k + 0.5f) / (float)cells * scale[c];
    }
  }
  /* the last primitive coded (another tile than the extreme points 1 and
   * 2) spans the unit box, so the GPU's reduction must find [0,1]^3 */
  for (int c = 0; m > 0 && c < 3; c++) {
    b[8 * (m - 1) + c] = 0.0f;
    b[8 * (m - 1) + 4 + c] = scale[c];
    cell[m - 1][c] = (cells / 2) >> shift[c];
  }
  uint32_t *pattern = test_alloc_u32(code_words);
  for (size_t i = 0; i < code_words; i++) pattern[i] = PATTERN(i);
  const uint32_t count_words[4] = {7, 7, 7, (uint32_t)gpu_count};
  GLuint bb = buf_bounds(b, n), cb = buf_create(pattern, code_words, 2 * n);
  GLuint count_b = gpu_count != CPU_COUNT ? buf_create(count_words, 4, 4) : 0;
  glradix_morton_desc d = {0};
  d.bounds = bb;
  d.count = (uint32_t)n;
  d.codes = cb;
  d.morton_bits = morton_bits;
  d.has_scene_box = !gpu_box;
  d.count_buffer = count_b;
  d.count_offset = count_b ? COUNT_OFFSET : 0;
  for (int c = 0; c < 3; c++) { /* a wrong box, to be ignored, when the GPU reduces */
    d.scene_min[c] = gpu_box ? 5.0f : 0.0f;
    d.scene_max[c] = gpu_box ? 6.0f : scale[c];
  }
  test_log_reset(&tg_log);
  glradix_status s = glradix_morton_codes(tg_ctx, &d);
  ck_assert_msg(s == GLRADIX_OK, "morton: %s", glradix_status_string(s));
  ck_assert_msg(tg_log.count == 0, "morton logged %s", tg_log.first);
  uint32_t *out = test_alloc_u32(2 * n);
  buf_read(cb, out, code_words);
  for (size_t i = 0; i < m; i++) {
    uint64_t want = interleave(cell[i][0], cell[i][1], cell[i][2], per_axis);
    uint64_t got = read_code(out, i, morton_bits == 63);
    EXPECT_MSG(got == want, "morton_bits %u gpu_box %d gpu count %zu flat %d: code[%zu] = "
                  "0x%llx, expected 0x%llx", morton_bits, gpu_box, gpu_count, flat, i,
                  (unsigned long long)got, (unsigned long long)want);
  }
  const size_t written = morton_bits == 63 ? 2 * m : m;
  expect_equal_u32(pattern + written, out + written, code_words - written, "codes past the count");
  expect_no_gl_error("morton codes");
  buf_delete(bb);
  buf_delete(cb);
  if (count_b) buf_delete(count_b);
  free(b);
  free(cell);
  free(out);
  free(pattern);
}

/* both code widths, with the scene box given and found on the GPU, a cube
 * and a flat box */
START_TEST(grid_codes) {
  for (int i = 0; i < 8; i++) check_grid_codes(i % 2 ? 63 : 30, (i / 2) % 2, CPU_COUNT, i / 4);
}
END_TEST

/* GPU counts of 0, below, equal to and above the capacity (5001): both
 * widths, the scene box of the counted points found on the GPU (or given) */
START_TEST(grid_codes_gpu_count) {
  static const size_t counts[] = {0, 1000, 5001, 70000};
  for (int i = 0; i < 16; i++) check_grid_codes(i % 2 ? 63 : 30, (i / 2) % 2, counts[i / 4], i % 3 == 0);
}
END_TEST

/* ---- trees ------------------------------------------------------------------ */

typedef struct cpu_tree {
  const uint64_t *codes; /* sorted */
  size_t n;
  int code_len;          /* 32 or 64 */
  glradix_lbvh_node *nodes;
} cpu_tree;

/* Top-down: [first, last] splits where the augmented keys' highest differing
 * bit flips; node numbering as Karras's. */
static void build_range(cpu_tree *t, size_t first, size_t last, uint32_t node) {
  const size_t split = test_radix_split(t->codes, t->code_len, first, last);
  uint32_t n1 = (uint32_t)t->n - 1;
  uint32_t left = split == first ? n1 + (uint32_t)split : (uint32_t)split;
  uint32_t right = split + 1 == last ? n1 + (uint32_t)split + 1 : (uint32_t)split + 1;
  t->nodes[node].a = left;
  t->nodes[node].b = right;
  if (split != first) build_range(t, first, split, left);
  if (split + 1 != last) build_range(t, split + 1, last, right);
}

static void cpu_box(cpu_tree *t, uint32_t node) {
  glradix_lbvh_node *x = &t->nodes[node];
  if (x->b == GLRADIX_LBVH_LEAF) return;
  cpu_box(t, x->a);
  cpu_box(t, x->b);
  for (int c = 0; c < 3; c++) {
    float la = t->nodes[x->a].min[c], lb = t->nodes[x->b].min[c];
    float ha = t->nodes[x->a].max[c], hb = t->nodes[x->b].max[c];
    x->min[c] = la < lb ? la : lb;
    x->max[c] = ha > hb ? ha : hb;
  }
}

/* Levels below `node` in a tree of glradix_lbvh_node (a leaf is 0). */
static size_t tree_depth(const glradix_lbvh_node *nodes, uint32_t node) {
  if (nodes[node].b == GLRADIX_LBVH_LEAF) return 0;
  size_t l = tree_depth(nodes, nodes[node].a), r = tree_depth(nodes, nodes[node].b);
  return 1 + (l > r ? l : r);
}

/* Builds the LBVH of boxes b (`capacity` of them, freed here) on the GPU,
 * twice with different data, and compares every node with a CPU Karras
 * build over the codes of its first n boxes (scene box [lo, hi]^3, or
 * reduced on the GPU with gpu_box), n = capacity, or with a GPU count
 * (gpu_count not CPU_COUNT) min(gpu_count, capacity): then the nodes past
 * the tree's 2n - 1, and the codes of a GPU-count glradix_morton_codes
 * past n, must be left as they were. The reference codes come from a
 * CPU-count glradix_morton_codes of n boxes (grid_codes checks those
 * against a CPU interleave). Returns the depth of the first round's tree. */
static size_t check_tree_counted(float *b, size_t capacity, size_t gpu_count,
                                 unsigned morton_bits, int gpu_box, float lo, float hi) {
  size_t depth = 0;
  const int wide = morton_bits == 63;
  const size_t n = gpu_count < capacity ? gpu_count : capacity;
  const size_t code_words = wide ? 2 * capacity : capacity;
  const size_t node_words = glradix_lbvh_nodes_bytes((uint32_t)capacity) / 4;
  GLuint bb = buf_bounds(b, capacity), cb = buf_create(NULL, 0, 2 * capacity);
  GLuint nb = buf_create(NULL, 0, node_words), gpu_cb = 0, count_b = 0;
  uint32_t *pattern = test_alloc_u32(node_words > code_words ? node_words : code_words);
  for (size_t i = 0; i < node_words || i < code_words; i++) pattern[i] = PATTERN(i);
  const uint32_t count_words[4] = {7, 7, 7, (uint32_t)gpu_count};
  if (gpu_count != CPU_COUNT) {
    gpu_cb = buf_create(NULL, 0, 2 * capacity);
    count_b = buf_create(count_words, 4, 4);
  }
  for (unsigned round = 0; round < 2; round++) {
    if (round == 1) { /* different data: move every box */
      for (size_t i = 0; i < capacity * 8; i++) b[i] = b[i] * 0.5f + 1.0f;
      buf_upload(bb, (const uint32_t *)b, capacity * 8);
    }
    char what[128];
    snprintf(what, sizeof what, "n %zu (capacity %zu, gpu count %zu) bits %u gpu_box %d round %u",
             n, capacity, gpu_count, morton_bits, gpu_box, round);
    float smin[3] = {lo, lo, lo}, smax[3] = {hi, hi, hi};
    glradix_morton_desc md = {0};
    md.bounds = bb;
    md.count = (uint32_t)n;
    md.codes = cb;
    md.morton_bits = morton_bits;
    md.has_scene_box = !gpu_box;
    memcpy(md.scene_min, smin, sizeof smin);
    memcpy(md.scene_max, smax, sizeof smax);
    ck_assert_int_eq(glradix_morton_codes(tg_ctx, &md), GLRADIX_OK);
    uint32_t *codes = test_alloc_u32(2 * capacity);
    buf_read(cb, codes, wide ? 2 * n : n);
    if (gpu_count != CPU_COUNT) { /* the same codes from the GPU count, none past them */
      buf_upload(gpu_cb, pattern, code_words);
      md.codes = gpu_cb;
      md.count = (uint32_t)capacity;
      md.count_buffer = count_b;
      md.count_offset = COUNT_OFFSET;
      test_log_reset(&tg_log);
      ck_assert_msg(glradix_morton_codes(tg_ctx, &md) == GLRADIX_OK && tg_log.count == 0,
                    "%s: GPU-count codes (%s)", what, tg_log.first);
      uint32_t *gpu_codes = test_alloc_u32(code_words);
      buf_read(gpu_cb, gpu_codes, code_words);
      const size_t written = wide ? 2 * n : n;
      expect_equal_u32(codes, gpu_codes, written, what);
      expect_equal_u32(pattern + written, gpu_codes + written, code_words - written, what);
      free(gpu_codes);
    }
    glradix_lbvh_desc ld = {0};
    ld.bounds = bb;
    ld.count = (uint32_t)capacity;
    ld.morton_bits = morton_bits;
    ld.has_scene_box = !gpu_box;
    memcpy(ld.scene_min, smin, sizeof smin);
    memcpy(ld.scene_max, smax, sizeof smax);
    ld.nodes = nb;
    ld.count_buffer = count_b;
    ld.count_offset = count_b ? COUNT_OFFSET : 0;
    buf_upload(nb, pattern, node_words);
    test_log_reset(&tg_log);
    glradix_status s = glradix_lbvh_build(tg_ctx, &ld);
    ck_assert_msg(s == GLRADIX_OK, "%s: lbvh: %s (%s)", what, glradix_status_string(s),
                  tg_log.first);
    ck_assert_msg(tg_log.count == 0, "%s: a good build logged %s", what, tg_log.first);
    glradix_lbvh_node *gpu = malloc(node_words * 4);
    ck_assert_ptr_nonnull(gpu);
    buf_read(nb, (uint32_t *)gpu, node_words);
    if (n == 0) { /* no tree to compare, nothing written */
      expect_lbvh_rest(NULL, 0, capacity, (const uint32_t *)gpu, pattern, what);
      free(codes);
      free(gpu);
      continue;
    }

    /* the CPU tree over the same codes, sorted stably */
    uint64_t *gpu_codes = malloc(n * sizeof *gpu_codes), *sorted = malloc(n * sizeof *sorted);
    uint32_t *order = test_alloc_u32(n); /* primitive of each sorted slot */
    ck_assert_ptr_nonnull(gpu_codes);
    ck_assert_ptr_nonnull(sorted);
    for (size_t i = 0; i < n; i++) gpu_codes[i] = read_code(codes, i, wide);
    ref_stable_order(gpu_codes, n, 0, order);
    for (size_t i = 0; i < n; i++) sorted[i] = gpu_codes[order[i]];
    cpu_tree t = {sorted, n, wide ? 64 : 32, calloc(2 * n - 1, sizeof(glradix_lbvh_node))};
    for (size_t k = 0; k < n; k++) {
      glradix_lbvh_node *leaf = &t.nodes[n - 1 + k];
      uint32_t p = order[k];
      leaf->a = p;
      leaf->b = GLRADIX_LBVH_LEAF;
      memcpy(leaf->min, &b[8 * p], 3 * sizeof(float));
      memcpy(leaf->max, &b[8 * p + 4], 3 * sizeof(float));
    }
    if (n > 1) build_range(&t, 0, n - 1, 0);
    cpu_box(&t, 0);
    expect_lbvh_rest(t.nodes, n, capacity, (const uint32_t *)gpu, pattern, what);
    if (round == 0) depth = tree_depth(t.nodes, 0);

    for (size_t i = 0; i < 2 * n - 1; i++) {
      EXPECT_MSG(gpu[i].a == t.nodes[i].a && gpu[i].b == t.nodes[i].b,
                    "%s: node %zu links (%u, %u), CPU build (%u, %u)", what, i, gpu[i].a,
                    gpu[i].b, t.nodes[i].a, t.nodes[i].b);
      EXPECT_MSG(memcmp(gpu[i].min, t.nodes[i].min, sizeof gpu[i].min) == 0 &&
                        memcmp(gpu[i].max, t.nodes[i].max, sizeof gpu[i].max) == 0,
                    "%s: node %zu box differs from the union of its primitives", what, i);
    }
    /* every primitive exactly once from the root */
    unsigned char *seen = calloc(n, 1);
    uint32_t *stack = malloc((2 * n) * sizeof *stack);
    size_t top = 0;
    stack[top++] = 0;
    while (top) {
      uint32_t x = stack[--top];
      EXPECT_MSG(x < 2 * n - 1, "%s: child %u out of range", what, x);
      if (gpu[x].b == GLRADIX_LBVH_LEAF) {
        EXPECT_MSG(gpu[x].a < n, "%s: primitive %u out of range", what, gpu[x].a);
        EXPECT_MSG(!seen[gpu[x].a], "%s: primitive %u reached twice", what, gpu[x].a);
        seen[gpu[x].a] = 1;
      } else {
        EXPECT_MSG(top + 2 < 2 * n + 1, "%s: a cycle in the tree", what);
        stack[top++] = gpu[x].a;
        stack[top++] = gpu[x].b;
      }
    }
    for (size_t i = 0; i < n; i++) EXPECT_MSG(seen[i], "%s: primitive %zu not reached", what, i);
    free(seen);
    free(stack);
    free(codes);
    free(gpu);
    free(order);
    free(gpu_codes);
    free(sorted);
    free(t.nodes);
  }
  if (count_b) {
    uint32_t after[4];
    buf_read(count_b, after, 4);
    expect_equal_u32(count_words, after, 4, "count buffer after the builds");
    buf_delete(count_b);
    buf_delete(gpu_cb);
  }
  expect_no_gl_error("lbvh");
  buf_delete(bb);
  buf_delete(cb);
  buf_delete(nb);
  free(b);
  free(pattern);
  return depth;
}

static size_t check_tree_of(float *b, size_t n, unsigned morton_bits, int gpu_box, float lo,
                            float hi) {
  return check_tree_counted(b, n, CPU_COUNT, morton_bits, gpu_box, lo, hi);
}

static void check_tree(size_t n, unsigned morton_bits, int gpu_box, uint64_t seed) {
  check_tree_of(test_random_boxes(n, seed), n, morton_bits, gpu_box, -25.0f, 90.0f);
}

/* A tree deeper than 64 levels. Codes (63-bit): c_j = bits j+1..62 set, for
 * j = 62..0, then 8 times all 63 bits set. Every level of the tree splits
 * off the smallest code, so the 8 largest sit 66 levels down, and they are
 * the last invocations of the refit: their walk reaches the root second at
 * every level and must go all the way up. In a scene box of [0, 2^21]^3,
 * one cell per unit, the centre q + 0.5 of cell q is exact. */
START_TEST(tree_deeper_than_64_levels) {
  enum { N = 63 + 8 };
  float *b = calloc(N * 8, sizeof *b);
  ck_assert_ptr_nonnull(b);
  for (size_t i = 0; i < N; i++) {
    uint64_t code = i < 63 ? ((1ull << 63) - 1) & ~((2ull << (62 - i)) - 1) : (1ull << 63) - 1;
    uint32_t q[3] = {0, 0, 0};
    for (unsigned p = 0; p < 63; p++) /* code bit p is bit p / 3 of axis p % 3 */
      if (code >> p & 1u) q[p % 3] |= 1u << (p / 3);
    for (int c = 0; c < 3; c++) b[8 * i + c] = b[8 * i + 4 + c] = (float)q[c] + 0.5f;
  }
  size_t depth = check_tree_of(b, N, 63, 0, 0.0f, 2097152.0f);
  ck_assert_msg(depth > 64, "the test tree is only %zu levels deep", depth);
}
END_TEST

static const size_t tree_sizes[] = {1, 2, 3, 1001, 100003};
#define N_TREES (sizeof tree_sizes / sizeof tree_sizes[0])

/* case k: size k / 4, both code widths, the scene box given and found on
 * the GPU; a forked child runs the three smallest sizes or the rest */
#define TREES_PER 12
START_TEST(trees) {
  FOR_GROUP_CASES(k, TREES_PER, N_TREES * 4) {
    unsigned bits = k % 2 ? 63 : 30;
    int gpu_box = (k / 2) % 2;
    /* trimmed runs: many boxes at each width once, each scene box once */
    if (test_trimmed() && tree_sizes[k / 4] == 100003 && gpu_box == (bits == 63)) continue;
    check_tree(tree_sizes[k / 4], bits, gpu_box, 900 + (uint64_t)k);
  }
}
END_TEST

/* Sizes around every work-group size a context may pick, where the
 * bottom-up pass hands nodes from shared memory over to global slots. */
static const size_t group_edges[] = {31, 32, 33, 63, 64, 65, 127, 128, 129,
                                     255, 256, 257, 511, 512, 513};
#define N_EDGES (sizeof group_edges / sizeof group_edges[0])

/* cases 0-5: the three shapes at 3001 boxes with both code widths; then
 * random boxes at each group edge, both widths */
#define SHAPES_PER 12
START_TEST(tree_shapes) {
  FOR_GROUP_CASES(k, SHAPES_PER, 6 + 2 * N_EDGES) {
    unsigned bits = k % 2 ? 63 : 30;
    if (k < 6)
      check_tree_of(test_shaped_boxes(k / 2, 3001, 1500 + (uint64_t)k), 3001, bits, 1, -25.0f, 90.0f);
    else
      check_tree(group_edges[(k - 6) / 2], bits, 0, 1600 + (uint64_t)k);
  }
}
END_TEST

/* (capacity, GPU count): 0, 1, 2, below, equal to and above the capacity
 * (clamped), each with both code widths, the scene box given and found on
 * the GPU; then 100003 of 150000 (two variants: several windows of leaves
 * under lbvh_gpu_forms, and several scan blocks for the sort) */
static const size_t counted_trees[][2] = {{5000, 0},    {5000, 1},     {5000, 2},
                                          {5000, 1000}, {5000, 5000},  {5000, 12345},
                                          {150000, 100003}};
#define N_COUNTED (6 * 4 + 2)
#define COUNTED_PER 8
START_TEST(trees_gpu_count) {
  FOR_GROUP_CASES(k, COUNTED_PER, N_COUNTED) {
    const size_t *c = counted_trees[k < 24 ? k / 4 : 6];
    unsigned bits = k % 2 ? 63 : 30;
    int gpu_box = k < 24 ? (k / 2) % 2 : k % 2 == 0;
    check_tree_counted(test_random_boxes(c[0], 1300 + (uint64_t)k), c[0], c[1], bits, gpu_box, -25.0f,
                       90.0f);
  }
}
END_TEST

/* Left out of trimmed runs (test_trimmed: other forms, ES, the asan
 * preset): its host code takes the path of the 100003-box trees, which
 * (lbvh_gpu_forms) gather their leaves in several windows too; a million
 * boxes on llvmpipe are the shaders' test, which the plain run has. */
START_TEST(tree_1m) {
  if (!test_trimmed()) check_tree((size_t)1 << 20, 30, 1, 4242);
}
END_TEST

START_TEST(lbvh_bad_input) {
  float b[16] = {0};
  GLuint bb = buf_bounds(b, 2), small = buf_create(NULL, 0, 8);
  glradix_lbvh_desc d = {0};
  d.bounds = bb;
  d.count = 2;
  d.nodes = small; /* 3 nodes need 96 bytes */
  struct {
    glradix_lbvh_desc d;
    const char *what;
  } cases[7];
  for (int i = 0; i < 7; i++) cases[i].d = d;
  cases[0].what = "nodes too small";
  cases[1].d.count = 0;
  cases[1].what = "count 0";
  cases[2].d.morton_bits = 17;
  cases[2].what = "morton_bits 17";
  cases[3].d.has_scene_box = 1;
  cases[3].d.scene_min[0] = 2.0f;
  cases[3].d.scene_max[0] = 1.0f;
  cases[3].what = "scene box min > max";
  cases[4].d.bounds = 987654;
  cases[4].what = "bounds not a buffer";
  cases[5].d.count = 3;
  cases[5].what = "bounds too small";
  cases[6].d.has_scene_box = 1;
  cases[6].d.scene_max[1] = NAN;
  cases[6].what = "scene box with a NaN";
  /* what each line names: every case's nodes are too small too, so the
   * line tells which check caught it */
  static const char *says[7] = {"nodes", "count", "morton_bits", "scene box", "bounds",
                                "bounds", "scene box"};
  for (int i = 0; i < 7; i++) {
    test_log_reset(&tg_log);
    glradix_status s = glradix_lbvh_build(tg_ctx, &cases[i].d);
    ck_assert_msg(s == GLRADIX_ERROR_INVALID_ARGUMENT, "%s: %s", cases[i].what,
                  glradix_status_string(s));
    ck_assert_msg(tg_log.count == 1, "%s: %d log lines", cases[i].what, tg_log.count);
    ck_assert_msg(strstr(tg_log.first, says[i]) != NULL, "%s: logged \"%s\"", cases[i].what,
                  tg_log.first);
  }
  glradix_morton_desc m = {0};
  m.bounds = bb;
  m.count = 2;
  m.codes = small;
  m.morton_bits = 63; /* 16 bytes needed, 32 there: fine */
  ck_assert_int_eq(glradix_morton_codes(tg_ctx, &m), GLRADIX_OK);
  m.count = 5; /* bounds hold 2 */
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_morton_codes(tg_ctx, &m), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(tg_log.count, 1);
  /* an output that is the bounds buffer too: refused, the bounds untouched */
  float b3[24] = {0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 0.0f, 2.0f, 2.0f, 2.0f, 0.0f,
                  3.0f, 3.0f, 3.0f, 0.0f, 4.0f, 4.0f, 4.0f, 0.0f, 5.0f, 5.0f, 5.0f, 0.0f};
  GLuint both = buf_bounds(b3, 3); /* 96 bytes: 2 boxes, or 3 nodes */
  d.bounds = d.nodes = both;
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_lbvh_build(tg_ctx, &d), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(tg_log.count, 1);
  m.bounds = m.codes = both;
  m.count = 2;
  m.morton_bits = 30;
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_morton_codes(tg_ctx, &m), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(tg_log.count, 1);
  uint32_t after[24];
  buf_read(both, after, 24);
  ck_assert_msg(memcmp(after, b3, sizeof b3) == 0, "bounds changed by refused calls");
  expect_no_gl_error("lbvh bad input");
  buf_delete(both);
  ck_assert_int_eq(glradix_lbvh_build(tg_ctx, NULL), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(glradix_morton_codes(NULL, &m), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_uint_eq(glradix_lbvh_nodes_bytes(0), 0);
  /* and 5 parent words, then 3 leaf primitives */
  ck_assert_uint_eq(glradix_lbvh_nodes_bytes(3), 5 * 32 + 2 * 16 + 16);
  ck_assert_uint_eq(glradix_lbvh_nodes_bytes(2), 3 * 32 + 16 + 16);
  ck_assert_uint_eq(glradix_lbvh_nodes_bytes(5), 9 * 32 + 3 * 16 + 2 * 16);
  const uint64_t nodes = 2 * (uint64_t)UINT32_MAX - 1; /* their bytes pass 32 bits */
  const uint64_t most = nodes * 32 + (nodes + 3) / 4 * 16 + ((uint64_t)UINT32_MAX + 3) / 4 * 16;
  ck_assert_uint_eq(glradix_lbvh_nodes_bytes(UINT32_MAX),
                    most > SIZE_MAX ? SIZE_MAX : (size_t)most);
  buf_delete(bb);
  buf_delete(small);
}
END_TEST

/* Bad GPU-count inputs for glradix_morton_codes, glradix_lbvh_build and
 * glradix_lbvh_refit: count_buffer not a buffer, too small for the word at
 * count_offset, count_offset not a multiple of 4 or wrapping past the end,
 * count_buffer mapped. Each refused with one log line naming count_buffer,
 * and nothing written. */
START_TEST(gpu_count_bad_input) {
  enum { N = 5, NODE_WORDS = (2 * N - 1) * 8 + 12 + 8, CODE_WORDS = 2 * N }; /* nodes_bytes(5) */
  float *b = test_random_boxes(N, 61);
  GLuint bb = buf_bounds(b, N);
  uint32_t pattern[NODE_WORDS], after[NODE_WORDS];
  for (size_t i = 0; i < NODE_WORDS; i++) pattern[i] = PATTERN(i);
  GLuint nb = buf_create(pattern, NODE_WORDS, NODE_WORDS);
  GLuint cb = buf_create(pattern, CODE_WORDS, CODE_WORDS);
  const uint32_t two[2] = {3, 3};
  GLuint small = buf_create(two, 2, 2); /* 8 bytes */
  struct {
    GLuint buffer;
    size_t offset;
    int map;
    const char *what;
  } cases[] = {{small, 8, 0, "offset 8 of an 8-byte buffer"},
               {small, 2, 0, "offset 2"},
               {small, SIZE_MAX - 3, 0, "an offset whose word wraps past 0"},
               {987654, 0, 0, "not a buffer"},
               {small, 0, 1, "mapped"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (cases[i].map) {
      tg_gl.BindBuffer(GL_COPY_READ_BUFFER, small);
      ck_assert_ptr_nonnull(tg_gl.MapBufferRange(GL_COPY_READ_BUFFER, 0, 8, GL_MAP_READ_BIT));
    }
    glradix_lbvh_desc ld = {0};
    ld.bounds = bb;
    ld.count = N;
    ld.nodes = nb;
    ld.morton_bits = 63;
    ld.count_buffer = cases[i].buffer;
    ld.count_offset = cases[i].offset;
    glradix_morton_desc md = {0};
    md.bounds = bb;
    md.count = N;
    md.codes = cb;
    md.morton_bits = 63;
    md.count_buffer = cases[i].buffer;
    md.count_offset = cases[i].offset;
    for (int fn = 0; fn < 3; fn++) {
      test_log_reset(&tg_log);
      glradix_status st = fn == 0   ? glradix_lbvh_build(tg_ctx, &ld)
                          : fn == 1 ? glradix_lbvh_refit(tg_ctx, &ld)
                                    : glradix_morton_codes(tg_ctx, &md);
      ck_assert_msg(st == GLRADIX_ERROR_INVALID_ARGUMENT, "%s, function %d: %s", cases[i].what,
                    fn, glradix_status_string(st));
      ck_assert_msg(tg_log.count == 1, "%s, function %d: %d log lines", cases[i].what, fn,
                    tg_log.count);
      ck_assert_msg(strstr(tg_log.first, "count_buffer") != NULL, "%s, function %d: logged \"%s\"",
                    cases[i].what, fn, tg_log.first);
    }
    if (cases[i].map) {
      tg_gl.BindBuffer(GL_COPY_READ_BUFFER, small);
      ck_assert(tg_gl.UnmapBuffer(GL_COPY_READ_BUFFER));
    }
  }
  buf_read(nb, after, NODE_WORDS);
  expect_equal_u32(pattern, after, NODE_WORDS, "nodes after the refusals");
  buf_read(cb, after, CODE_WORDS);
  expect_equal_u32(pattern, after, CODE_WORDS, "codes after the refusals");
  buf_read(small, after, 2);
  expect_equal_u32(two, after, 2, "count buffer after the refusals");
  expect_no_gl_error("gpu count bad input");
  buf_delete(bb);
  buf_delete(nb);
  buf_delete(cb);
  buf_delete(small);
  free(b);
}
END_TEST

/* dispatch_limit 1 (every grid a column of groups, at most 65535 on
 * llvmpipe): 1.1M primitives need 2.2M nodes, more groups than that with
 * llvmpipe's 32 invocations a group, so the build is refused before it
 * writes anything; with a GPU's larger groups it fits and builds. */
START_TEST(lbvh_grid_limit) {
  enum { N = 1100000 };
  float *b = malloc(sizeof(float) * 8 * N);
  ck_assert_ptr_nonnull(b);
  for (size_t i = 0; i < N; i++) {
    float x = (float)(i % 1000), y = (float)(i / 1000);
    const float box[8] = {x, y, 0.0f, 0.0f, x + 0.5f, y + 0.5f, 1.0f, 0.0f};
    memcpy(b + 8 * i, box, sizeof box);
  }
  GLuint bb = buf_bounds(b, N);
  const size_t node_words = glradix_lbvh_nodes_bytes(N) / 4;
  uint32_t *pattern = test_alloc_u32(node_words), *after = test_alloc_u32(node_words);
  for (size_t i = 0; i < node_words; i++) pattern[i] = PATTERN(i);
  GLuint nb = buf_create(pattern, node_words, node_words);
  glradix_lbvh_desc d = {0};
  d.bounds = bb;
  d.nodes = nb;
  d.count = N;
  test_log_reset(&tg_log);
  glradix_status st = glradix_lbvh_build(tg_ctx, &d);
  buf_read(nb, after, node_words);
  if (st == GLRADIX_ERROR_TOO_LARGE) {
    ck_assert_int_eq(tg_log.count, 1);
    expect_equal_u32(pattern, after, node_words, "nodes after the refused build");
  } else {
    ck_assert_msg(st == GLRADIX_OK, "%s (log: %s)", glradix_status_string(st), tg_log.first);
    /* the root's box is the scene's: [0, 999.5] x [0, 1099.5] x [0, 1] */
    glradix_lbvh_node root;
    memcpy(&root, after, sizeof root);
    ck_assert(root.min[0] == 0.0f && root.min[1] == 0.0f && root.max[0] == 999.5f &&
              root.max[1] == 1099.5f && root.max[2] == 1.0f);
  }
  expect_no_gl_error("lbvh grid limit");
  buf_delete(bb);
  buf_delete(nb);
  free(b);
  free(pattern);
  free(after);
}
END_TEST

static Suite *lbvh_suite(void) {
  Suite *s = suite_create("lbvh");
  TCase *tc = tcase_create("lbvh");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_test(tc, grid_codes);
  tcase_add_test(tc, grid_codes_gpu_count);
  tcase_add_loop_test(tc, trees, 0, CASE_GROUPS(N_TREES * 4, TREES_PER));
  tcase_add_loop_test(tc, trees_gpu_count, 0, CASE_GROUPS(N_COUNTED, COUNTED_PER));
  tcase_add_loop_test(tc, tree_shapes, 0, CASE_GROUPS(6 + 2 * N_EDGES, SHAPES_PER));
  tcase_add_test(tc, tree_deeper_than_64_levels);
  tcase_add_test(tc, lbvh_bad_input);
  tcase_add_test(tc, gpu_count_bad_input);
  /* Runs with other forms (lbvh_gpu_forms, lbvh_min_limits) leave these
   * two to lbvh: the LBVH shaders and their 2-D grids are the same in
   * all, and the GPU forms' sorts of a million pairs and on 2-D grids are
   * sort_gpu_forms' and dispatch_gpu_forms' (on CI's llvmpipe they took 10
   * and 6 s of lbvh_gpu_forms' 45). */
  if (!test_forms()) {
    tcase_add_test(tc, tree_1m);
    suite_add_tcase(s, tc);
    tc = tcase_create("dispatch_limit_1");
    tcase_add_checked_fixture(tc, ctx_setup_dl1, ctx_teardown);
    tcase_add_test(tc, lbvh_grid_limit);
  }
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(lbvh_suite)
