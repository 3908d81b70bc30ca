/* The quality build (glradix_lbvh_desc.quality): clusters of the sorted
 * codes' radix tree merged by mutual nearest neighbours (H-PLOC). Trees:
 * against a CPU reference that makes the same merges over the same codes,
 * compared from the root down (the internal nodes' numbering is free) with
 * every box bit-equal, each internal node used once and the parent words
 * the tree's own; refits of such trees against a CPU refit over the built
 * topology; and the tree's SAH cost below the LBVH's of the same boxes. */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl/contract.h"
#include "glradix/lbvh.h"

/* The warp's clusters and its neighbour search's reach (src/gl/contract.h):
 * a range of more than HALF leaves keeps HALF clusters. */
#define LANES ((size_t)_GLRADIX_CLUSTER_LANES)
#define HALF (LANES / 2)
#define RADIUS ((size_t)_GLRADIX_CLUSTER_RADIUS)


/* ---- the CPU reference ------------------------------------------------------ */

typedef struct ref_tree {
  const uint64_t *codes;    /* sorted */
  size_t n;
  int code_len;             /* 32 or 64 */
  glradix_lbvh_node *nodes; /* 2n - 1; the leaves filled in by the caller */
  uint32_t next;            /* the next internal node's index, counting down */
} ref_tree;

static float fmin_(float x, float y) { return x < y ? x : y; }
static float fmax_(float x, float y) { return x > y ? x : y; }

/* The surface area of the union of two boxes, halved, in float and in the
 * shader's order without fused multiply-adds (-ffp-contract=off for this
 * file), as its bits: the neighbours picked depend on every rounding. */
static uint32_t union_area_bits(const float *lo_a, const float *hi_a, const float *lo_b,
                                const float *hi_b) {
  float e[3];
  for (int c = 0; c < 3; c++) e[c] = fmax_(hi_a[c], hi_b[c]) - fmin_(lo_a[c], lo_b[c]);
  float xy = e[0] * e[1], yz = e[1] * e[2], zx = e[2] * e[0];
  float area = (xy + yz) + zx;
  uint32_t bits;
  memcpy(&bits, &area, sizeof bits);
  return bits;
}

/* Merges the clusters c[0..cnt-1] (node indices, cnt <= LANES) down to
 * `target` in rounds: each cluster's nearest neighbour within RADIUS
 * places (least union area, then least pair: its key), the mutual pairs'
 * cnt - target least keys merged into new nodes (the earlier cluster the
 * first child) from the boxes before the round, and the list closed up in
 * order. Returns the new count. */
static size_t ref_merge(ref_tree *t, uint32_t *c, size_t cnt, size_t target) {
  float lo[LANES][3], hi[LANES][3];
  for (size_t i = 0; i < cnt; i++) {
    memcpy(lo[i], t->nodes[c[i]].min, sizeof lo[i]);
    memcpy(hi[i], t->nodes[c[i]].max, sizeof hi[i]);
  }
  while (cnt > target) {
    size_t nn[LANES];
    uint64_t key[LANES]; /* area bits, then pair */
    for (size_t i = 0; i < cnt; i++) {
      uint32_t best_d = UINT32_MAX;
      size_t best_pair = SIZE_MAX;
      size_t from = i > RADIUS ? i - RADIUS : 0, to = i + RADIUS < cnt - 1 ? i + RADIUS : cnt - 1;
      nn[i] = i;
      for (size_t j = from; j <= to; j++) {
        if (j == i) continue;
        size_t a = i < j ? i : j, b = i < j ? j : i;
        uint32_t d = union_area_bits(lo[a], hi[a], lo[b], hi[b]);
        size_t pair = a * LANES + b;
        if (d < best_d || (d == best_d && pair < best_pair)) {
          nn[i] = j;
          best_d = d;
          best_pair = pair;
        }
      }
      key[i] = (uint64_t)best_d << 32 | best_pair;
    }
    unsigned char mutual[LANES], removed[LANES] = {0};
    for (size_t i = 0; i < cnt; i++) mutual[i] = i < nn[i] && nn[nn[i]] == i;
    size_t merges = 0;
    float new_lo[LANES][3], new_hi[LANES][3];
    memcpy(new_lo, lo, sizeof lo);
    memcpy(new_hi, hi, sizeof hi);
    for (size_t i = 0; i < cnt; i++) {
      size_t j = nn[i], closer = 0;
      if (!mutual[i]) continue;
      for (size_t k = 0; k < cnt; k++) closer += mutual[k] && key[k] < key[i];
      if (closer >= cnt - target) continue; /* the farther pairs wait a round */
      ck_assert_msg(t->next < t->n - 1, "reference: more than n - 1 merges");
      uint32_t node = t->next--;
      glradix_lbvh_node *x = &t->nodes[node];
      for (int a = 0; a < 3; a++) {
        new_lo[i][a] = x->min[a] = fmin_(lo[i][a], lo[j][a]);
        new_hi[i][a] = x->max[a] = fmax_(hi[i][a], hi[j][a]);
      }
      x->a = c[i];
      x->b = c[j];
      c[i] = node;
      removed[j] = 1;
      merges++;
    }
    ck_assert_msg(merges > 0, "reference: a round of %zu clusters without a merge", cnt);
    size_t to = 0;
    for (size_t i = 0; i < cnt; i++) {
      if (removed[i]) continue;
      c[to] = c[i];
      memcpy(lo[to], new_lo[i], sizeof lo[to]);
      memcpy(hi[to], new_hi[i], sizeof hi[to]);
      to++;
    }
    cnt = to;
  }
  return cnt;
}

/* The clusters of sorted range [first, last] into out (at most HALF): its
 * leaves for a range of at most HALF of them that is not the whole tree,
 * else its children's clusters merged to HALF, or to one for the whole. */
static size_t ref_clusters(ref_tree *t, size_t first, size_t last, uint32_t *out) {
  const int whole = first == 0 && last == t->n - 1;
  if (last - first + 1 <= HALF && !whole) {
    for (size_t k = first; k <= last; k++) out[k - first] = (uint32_t)(t->n - 1 + k);
    return last - first + 1;
  }
  size_t split = test_radix_split(t->codes, t->code_len, first, last);
  uint32_t list[LANES];
  size_t cnt = ref_clusters(t, first, split, list);
  cnt += ref_clusters(t, split + 1, last, list + cnt);
  cnt = ref_merge(t, list, cnt, whole ? 1 : HALF);
  memcpy(out, list, cnt * sizeof *out);
  return cnt;
}

/* Checks a tree of n leaves read from the root: links in range, every
 * node reached once (so every leaf and internal node once), a leaf's b
 * GLRADIX_LBVH_LEAF and its primitive below n. Returns the depth. */
static size_t check_tree_shape(const glradix_lbvh_node *nodes, size_t n, const char *what) {
  const size_t total = 2 * n - 1;
  unsigned char *seen = calloc(total, 1);
  uint32_t *stack = malloc(2 * total * sizeof *stack); /* node, depth pairs */
  ck_assert(seen && stack);
  size_t top = 0, reached = 0, depth = 0;
  stack[top++] = 0;
  stack[top++] = 0;
  while (top) {
    uint32_t level = stack[--top], x = stack[--top];
    EXPECT_MSG(x < total && !seen[x], "%s: node %u out of range or reached twice", what, x);
    seen[x] = 1;
    reached++;
    if (level > depth) depth = level;
    if (x >= n - 1) {
      EXPECT_MSG(nodes[x].b == GLRADIX_LBVH_LEAF && nodes[x].a < n,
                 "%s: leaf %u links (%u, %u)", what, x, nodes[x].a, nodes[x].b);
      continue;
    }
    EXPECT_MSG(top + 4 <= 2 * total, "%s: more nodes than the tree has", what);
    stack[top++] = nodes[x].a;
    stack[top++] = level + 1;
    stack[top++] = nodes[x].b;
    stack[top++] = level + 1;
  }
  EXPECT_MSG(reached == total, "%s: %zu of %zu nodes reached from the root", what, reached, total);
  free(seen);
  free(stack);
  return depth;
}

/* The quality tree of n sorted codes (code_len 32 or 64) over the leaves
 * already in nodes[n-1 .. 2n-2]; internal nodes numbered down from n - 2,
 * so the last merge, the root's, is node 0. Checked to be a tree. */
static void ref_build(const uint64_t *sorted, size_t n, int code_len, glradix_lbvh_node *nodes) {
  if (n < 2) return;
  ref_tree t = {sorted, n, code_len, nodes, (uint32_t)(n - 2)};
  uint32_t root;
  size_t cnt = ref_clusters(&t, 0, n - 1, &root);
  ck_assert_msg(cnt == 1 && root == 0 && t.next == UINT32_MAX,
                "reference of %zu leaves: %zu clusters left, root %u, %u nodes unused", n, cnt,
                root, t.next + 1);
  check_tree_shape(nodes, n, "reference");
}

/* The reference of the first n boxes of b with codes read back from the
 * GPU (30-bit words, or 63-bit pairs of words when wide): leaves in the
 * stable order of the codes, each its primitive's box. Returns 2n - 1
 * nodes (free()). */
static glradix_lbvh_node *ref_of(const float *b, const uint32_t *code_words, size_t n, int wide) {
  uint64_t *codes = malloc(n * sizeof *codes), *sorted = malloc(n * sizeof *sorted);
  uint32_t *order = test_alloc_u32(n);
  glradix_lbvh_node *nodes = calloc(2 * n - 1, sizeof *nodes);
  ck_assert(codes && sorted && nodes);
  for (size_t i = 0; i < n; i++)
    codes[i] = wide ? code_words[2 * i] | (uint64_t)code_words[2 * i + 1] << 32 : code_words[i];
  ref_stable_order(codes, n, 0, order);
  for (size_t k = 0; k < n; k++) {
    glradix_lbvh_node *leaf = &nodes[n - 1 + k];
    sorted[k] = codes[order[k]];
    leaf->a = order[k];
    leaf->b = GLRADIX_LBVH_LEAF;
    memcpy(leaf->min, &b[8 * order[k]], sizeof leaf->min);
    memcpy(leaf->max, &b[8 * order[k] + 4], sizeof leaf->max);
  }
  ref_build(sorted, n, wide ? 64 : 32, nodes);
  free(codes);
  free(sorted);
  free(order);
  return nodes;
}

/* ---- comparing trees ----------------------------------------------------- */

/* A node's subtree in a line: its box, how many leaves it has, their
 * sorted positions' least and greatest, and its children's leaf counts. */
static void summary(const glradix_lbvh_node *nodes, size_t n, uint32_t x, char *out, size_t len) {
  const glradix_lbvh_node *v = &nodes[x];
  if (x >= n - 1) {
    snprintf(out, len, "leaf %u (primitive %u) (%g %g %g)-(%g %g %g)", x, v->a, (double)v->min[0],
             (double)v->min[1], (double)v->min[2], (double)v->max[0], (double)v->max[1],
             (double)v->max[2]);
    return;
  }
  size_t leaves[2] = {0, 0}, least = SIZE_MAX, most = 0;
  uint32_t *stack = malloc((2 * n) * sizeof *stack);
  ck_assert_ptr_nonnull(stack);
  for (int c = 0; c < 2; c++) {
    size_t top = 0, steps = 0;
    stack[top++] = c ? v->b : v->a;
    while (top && steps++ < 2 * n) { /* steps: a GPU tree may hold a cycle */
      uint32_t y = stack[--top];
      if (y >= 2 * n - 1) continue;
      if (y >= n - 1) {
        leaves[c]++;
        if (y - (n - 1) < least) least = y - (n - 1);
        if (y - (n - 1) > most) most = y - (n - 1);
      } else if (top + 2 <= 2 * n) {
        stack[top++] = nodes[y].a;
        stack[top++] = nodes[y].b;
      }
    }
  }
  free(stack);
  snprintf(out, len,
           "node %u (%u, %u) (%g %g %g)-(%g %g %g): %zu leaves, sorted %zu..%zu, children %zu + %zu",
           x, v->a, v->b, (double)v->min[0], (double)v->min[1], (double)v->min[2],
           (double)v->max[0], (double)v->max[1], (double)v->max[2], leaves[0] + leaves[1], least,
           most, leaves[0], leaves[1]);
}

static int same_box(const glradix_lbvh_node *x, const glradix_lbvh_node *y) {
  return memcmp(x->min, y->min, sizeof x->min) == 0 && memcmp(x->max, y->max, sizeof x->max) == 0;
}

/* The GPU's tree of n leaves against the reference's, walked together from
 * both roots (node 0): leaves in place (their primitive and box), and at
 * each internal node the same box bits and the same children in the same
 * order, the GPU's internal nodes each reached once. A difference fails
 * with its depth and both subtrees. */
static void expect_same_tree(const glradix_lbvh_node *gpu, const glradix_lbvh_node *want, size_t n,
                             const char *what) {
  for (size_t i = n - 1; i < 2 * n - 1; i++)
    EXPECT_MSG(gpu[i].a == want[i].a && gpu[i].b == GLRADIX_LBVH_LEAF && same_box(&gpu[i], &want[i]),
               "%s: leaf %zu: primitive %u (b %u), the reference's %u, or another box", what, i,
               gpu[i].a, gpu[i].b, want[i].a);
  if (n == 1) return;
  unsigned char *seen = calloc(n - 1, 1);
  uint32_t *stack = malloc(6 * n * sizeof *stack); /* GPU node, reference node, depth */
  ck_assert(seen && stack);
  size_t top = 0;
  stack[top++] = 0;
  stack[top++] = 0;
  stack[top++] = 0;
  while (top) {
    uint32_t level = stack[--top], y = stack[--top], x = stack[--top];
    char bad[96] = "";
    if (y >= n - 1) {
      if (x != y) snprintf(bad, sizeof bad, "the reference has leaf %u there", y);
    } else if (x >= n - 1) {
      snprintf(bad, sizeof bad, "a leaf where the reference has an internal node");
    } else if (seen[x]) {
      snprintf(bad, sizeof bad, "internal node %u reached twice", x);
    } else if (!same_box(&gpu[x], &want[y])) {
      snprintf(bad, sizeof bad, "another box");
    }
    if (bad[0]) {
      char got[256], ref[256];
      if (x < 2 * n - 1) summary(gpu, n, x, got, sizeof got);
      else snprintf(got, sizeof got, "node %u, out of range", x);
      summary(want, n, y, ref, sizeof ref);
      ck_abort_msg("%s: %s at depth %u: GPU %s; reference %s", what, bad, level, got, ref);
    }
    if (y >= n - 1) continue;
    seen[x] = 1;
    ck_assert(top + 6 <= 6 * n);
    stack[top++] = gpu[x].b;
    stack[top++] = want[y].b;
    stack[top++] = level + 1;
    stack[top++] = gpu[x].a;
    stack[top++] = want[y].a;
    stack[top++] = level + 1;
  }
  for (size_t i = 0; i < n - 1; i++)
    EXPECT_MSG(seen[i], "%s: internal node %zu not in the tree", what, i);
  free(seen);
  free(stack);
}

/* ---- building ------------------------------------------------------------ */

/* One build's inputs: `capacity` boxes in a bounds buffer, the tree of the
 * first n = min(gpu_count, capacity) (gpu_count CPU_COUNT: no count
 * buffer, n = capacity), codes of bits width, the scene box [lo, hi]^3 or
 * (gpu_box) reduced on the GPU. */
typedef struct build_case {
  size_t capacity, gpu_count;
  unsigned bits;
  int gpu_box;
  float lo, hi;
} build_case;

static size_t case_n(const build_case *c) {
  return c->gpu_count < c->capacity ? c->gpu_count : c->capacity;
}

/* The codes of the first n boxes in bb, as a build computes them (the CPU
 * count: lbvh.c's GPU count gives the same codes, test_lbvh's
 * grid_codes_gpu_count). */
static uint32_t *codes_of(GLuint bb, const build_case *c, size_t n) {
  const int wide = c->bits == 63;
  GLuint cb = buf_create(NULL, 0, wide ? 2 * n : n);
  glradix_morton_desc md = {0};
  md.bounds = bb;
  md.count = (uint32_t)n;
  md.codes = cb;
  md.morton_bits = c->bits;
  md.has_scene_box = !c->gpu_box;
  for (int a = 0; a < 3; a++) {
    md.scene_min[a] = c->lo;
    md.scene_max[a] = c->hi;
  }
  expect_call_ok(glradix_morton_codes(tg_ctx, &md), "morton codes");
  uint32_t *codes = test_alloc_u32(wide ? 2 * n : n);
  buf_read(cb, codes, wide ? 2 * n : n);
  buf_delete(cb);
  return codes;
}

/* glradix_lbvh_build (quality as given) of case c's boxes in bb into nb,
 * which is first filled with PATTERN; count_b holds the GPU count (or 0). */
static void build(GLuint bb, GLuint nb, GLuint count_b, const build_case *c, int quality,
                  const uint32_t *pattern, const char *what) {
  glradix_lbvh_desc d = {0};
  d.bounds = bb;
  d.count = (uint32_t)c->capacity;
  d.morton_bits = c->bits;
  d.has_scene_box = !c->gpu_box;
  for (int a = 0; a < 3; a++) {
    d.scene_min[a] = c->lo;
    d.scene_max[a] = c->hi;
  }
  d.nodes = nb;
  d.count_buffer = count_b;
  d.count_offset = count_b ? COUNT_OFFSET : 0;
  d.quality = quality;
  buf_upload(nb, pattern, glradix_lbvh_nodes_bytes((uint32_t)c->capacity) / 4);
  test_log_reset(&tg_log);
  glradix_status s = glradix_lbvh_build(tg_ctx, &d);
  ck_assert_msg(s == GLRADIX_OK && tg_log.count == 0, "%s: build: %s (%s)", what,
                glradix_status_string(s), tg_log.first);
}

/* Reads back the whole nodes buffer of a quality build of case c over the
 * boxes b (already in bb) and checks it against the reference: the tree,
 * its parent words, and the nodes and words past it as `pattern`. Returns
 * the buffer's words (free()); *ref_depth gets the reference's depth. */
static uint32_t *expect_quality_build(GLuint bb, GLuint nb, GLuint count_b, const float *b,
                                      const build_case *c, const uint32_t *pattern,
                                      const char *what, size_t *ref_depth) {
  const size_t n = case_n(c), words = glradix_lbvh_nodes_bytes((uint32_t)c->capacity) / 4;
  uint32_t *codes = n ? codes_of(bb, c, n) : NULL;
  build(bb, nb, count_b, c, 1, pattern, what);
  uint32_t *got = test_alloc_u32(words);
  buf_read(nb, got, words);
  const glradix_lbvh_node *gpu = (const glradix_lbvh_node *)got;
  if (n == 0) {
    expect_lbvh_rest_root(NULL, 0, c->capacity, got, pattern, GLRADIX_LBVH_CLUSTERED_ROOT, what);
    return got;
  }
  glradix_lbvh_node *want = ref_of(b, codes, n, c->bits == 63);
  if (ref_depth) *ref_depth = check_tree_shape(want, n, "reference");
  expect_same_tree(gpu, want, n, what);
  /* the words from the GPU's own links: its numbering is its own */
  expect_lbvh_rest_root(gpu, n, c->capacity, got, pattern, GLRADIX_LBVH_CLUSTERED_ROOT, what);
  free(want);
  free(codes);
  return got;
}

/* Builds case c over boxes b (freed here) with quality twice, the second
 * time with every box moved (the buffers reused), each checked against
 * the reference. Returns the first build's reference depth. */
static size_t check_quality(float *b, const build_case *c) {
  const size_t words = glradix_lbvh_nodes_bytes((uint32_t)c->capacity) / 4;
  uint32_t *pattern = test_alloc_u32(words);
  for (size_t i = 0; i < words; i++) pattern[i] = PATTERN(i);
  GLuint bb = buf_bounds(b, c->capacity), nb = buf_create(NULL, 0, words), count_b = 0;
  const uint32_t count_words[4] = {7, 7, 7, (uint32_t)c->gpu_count};
  if (c->gpu_count != CPU_COUNT) count_b = buf_create(count_words, 4, 4);
  size_t depth = 0;
  for (unsigned round = 0; round < 2; round++) {
    if (round == 1) { /* different data: move every box */
      for (size_t i = 0; i < c->capacity * 8; i++) b[i] = b[i] * 0.5f + 1.0f;
      buf_upload(bb, (const uint32_t *)b, c->capacity * 8);
    }
    char what[160];
    snprintf(what, sizeof what, "n %zu (capacity %zu, gpu count %zu) bits %u gpu_box %d round %u",
             case_n(c), c->capacity, c->gpu_count, c->bits, c->gpu_box, round);
    free(expect_quality_build(bb, nb, count_b, b, c, pattern, what, round ? NULL : &depth));
  }
  if (count_b) {
    uint32_t after[4];
    buf_read(count_b, after, 4);
    expect_equal_u32(count_words, after, 4, "count buffer after the builds");
    buf_delete(count_b);
  }
  expect_no_gl_error("lbvh quality");
  buf_delete(bb);
  buf_delete(nb);
  free(b);
  free(pattern);
  return depth;
}

/* ---- boxes ------------------------------------------------------------------ */

/* n boxes at x = 2.5^i (flat in x, a unit across in y and z): the union of
 * a box with everything before it is smaller than with the next box, so
 * one pair merges a round and the clusters grow as a caterpillar, a tree
 * about n deep; most codes are equal (cells of 2.5^(n-1) / 2^21). */
static float *caterpillar_boxes(size_t n) {
  float *b = calloc(n * 8, sizeof *b);
  ck_assert_ptr_nonnull(b);
  float x = 1.0f;
  for (size_t i = 0; i < n; i++, x *= 2.5f) {
    const float box[8] = {x, 0.0f, 0.0f, 0.0f, x, 1.0f, 1.0f, 0.0f};
    memcpy(b + 8 * i, box, sizeof box);
  }
  return b;
}

/* ---- the reference alone ---------------------------------------------------- */

/* Unit boxes at x = xs[k] (y, z in [0, 1]) with sorted codes `codes`
 * (NULL: 0 .. n-1), built by the reference. */
static glradix_lbvh_node *ref_on_line(const float *xs, const uint64_t *codes, size_t n) {
  uint64_t *own = malloc(n * sizeof *own);
  glradix_lbvh_node *nodes = calloc(2 * n - 1, sizeof *nodes);
  ck_assert(own && nodes);
  for (size_t k = 0; k < n; k++) {
    const glradix_lbvh_node leaf = {{xs[k], 0.0f, 0.0f}, (uint32_t)k, {xs[k] + 1.0f, 1.0f, 1.0f},
                                    GLRADIX_LBVH_LEAF};
    nodes[n - 1 + k] = leaf;
    own[k] = codes ? codes[k] : k;
  }
  ref_build(own, n, 32, nodes);
  free(own);
  return nodes;
}

/* Trees worked out by hand: three equally spaced boxes (the tie goes to
 * the lower pair: ((0, 1), 2)); two pairs far apart (both merge in the
 * first round: ((0, 1), (2, 3))); and a range of 18 leaves (codes 0..17,
 * below the root's split from codes 32..49) in nine mutual pairs, of
 * which the two closest (leaves 10 and 11, 14 and 15), not the first,
 * merge first: the reference numbers nodes down from n - 2 as it makes
 * them, and makes the lower cluster's first. */
START_TEST(reference_by_hand) {
  const float tie[3] = {0.0f, 2.0f, 4.0f}, pairs[4] = {0.0f, 1.0f, 10.0f, 11.0f};
  glradix_lbvh_node *t = ref_on_line(tie, NULL, 3);
  uint32_t first = t[0].a;
  ck_assert_msg(first < 2 && t[0].b == 4 && t[first].a == 2 && t[first].b == 3,
                "three boxes: root (%u, %u)", t[0].a, t[0].b);
  free(t);
  t = ref_on_line(pairs, NULL, 4);
  uint32_t l = t[0].a, r = t[0].b;
  ck_assert_msg(l < 3 && r < 3 && t[l].a == 3 && t[l].b == 4 && t[r].a == 5 && t[r].b == 6,
                "two pairs: root (%u, %u)", t[0].a, t[0].b);
  ck_assert(t[0].min[0] == 0.0f && t[0].max[0] == 12.0f);
  free(t);
  enum { N = 36 };
  float xs[N];
  uint64_t codes[N];
  for (size_t k = 0; k < N; k++) {
    const size_t p = k % 18 / 2; /* pair p: 100 apart, its second box 3 + p past its first */
    const float gap = p == 5 ? 0.5f : p == 7 ? 1.0f : 3.0f + (float)p;
    xs[k] = (k < 18 ? 0.0f : 5000.0f) + 100.0f * (float)p + (k % 2 ? gap : 0.0f);
    codes[k] = k < 18 ? k : k + 14;
  }
  t = ref_on_line(xs, codes, N);
  ck_assert_msg(t[N - 2].a == N - 1 + 10 && t[N - 2].b == N - 1 + 11 &&
                    t[N - 3].a == N - 1 + 14 && t[N - 3].b == N - 1 + 15,
                "nine pairs: the first two merges (%u, %u) and (%u, %u)", t[N - 2].a, t[N - 2].b,
                t[N - 3].a, t[N - 3].b);
  free(t);
}
END_TEST

/* Every n from 1 to 200, random boxes and random 30-bit codes (few
 * distinct for odd n: equal codes): a tree, each internal box the union
 * of its children's, and the same tree again from the same input. */
START_TEST(reference_trees) {
  for (size_t n = 1; n <= 200; n++) {
    float *b = test_random_boxes(n, 5000 + n);
    uint32_t *codes = test_alloc_u32(n);
    uint64_t st = 6000 + n;
    for (size_t i = 0; i < n; i++)
      codes[i] = (uint32_t)(test_rng_next(&st) >> 34) & (n % 2 ? 0x3000000Fu : 0x3FFFFFFFu);
    glradix_lbvh_node *t = ref_of(b, codes, n, 0), *again = ref_of(b, codes, n, 0);
    ck_assert_msg(memcmp(t, again, (2 * n - 1) * sizeof *t) == 0, "n %zu: another tree", n);
    for (size_t i = 0; i + 1 < n; i++)
      for (int a = 0; a < 3; a++)
        EXPECT_MSG(t[i].min[a] == fmin_(t[t[i].a].min[a], t[t[i].b].min[a]) &&
                       t[i].max[a] == fmax_(t[t[i].a].max[a], t[t[i].b].max[a]),
                   "n %zu: node %zu's box is not its children's union", n, i);
    free(t);
    free(again);
    free(codes);
    free(b);
  }
}
END_TEST

/* ---- GPU trees ------------------------------------------------------------- */

static const size_t tree_sizes[] = {1, 2, 3, 15, 16, 17, 31, 32, 33, 1001};
#define N_SIZES (sizeof tree_sizes / sizeof tree_sizes[0])

/* case k: size k / 4, both code widths, the scene box given and found on
 * the GPU; then 100003 boxes (30-bit codes: the widths differ in the
 * prefixes alone, which the small trees and shapes cover) */
#define N_TREES (N_SIZES * 4 + 1)
#define TREES_PER 14
START_TEST(trees) {
  FOR_GROUP_CASES(k, TREES_PER, N_TREES) {
    const int large = (size_t)k >= N_SIZES * 4;
    const size_t n = large ? 100003 : tree_sizes[k / 4];
    const build_case c = {n, CPU_COUNT, k % 2 ? 63 : 30, large ? k % 2 : (k / 2) % 2, -25.0f,
                          90.0f};
    /* trimmed runs (ES, sanitizers): the small trees alone */
    if (test_trimmed() && large) continue;
    check_quality(test_random_boxes(n, 2100 + (uint64_t)k), &c);
  }
}
END_TEST

/* cases 0-5: the three shapes at 3001 boxes with both code widths (the
 * scene box found on the GPU); 6-7: the caterpillar, deeper than 64 */
#define SHAPES_PER 4
START_TEST(tree_shapes) {
  FOR_GROUP_CASES(k, SHAPES_PER, 8) {
    const unsigned bits = k % 2 ? 63 : 30;
    if (test_trimmed() && bits == 63) continue; /* trimmed runs: one width */
    if (k < 6) {
      const build_case c = {3001, CPU_COUNT, bits, 1, 0.0f, 0.0f};
      check_quality(test_shaped_boxes(k / 2, 3001, 2200 + (uint64_t)k), &c);
    } else {
      const build_case c = {90, CPU_COUNT, bits, 1, 0.0f, 0.0f};
      size_t depth = check_quality(caterpillar_boxes(90), &c);
      ck_assert_msg(depth > 64, "the caterpillar is only %zu levels deep", depth);
    }
  }
}
END_TEST

/* (capacity, GPU count): 0, 1, 2, below, equal to and above the capacity
 * (clamped), both code widths, the scene box given and found on the GPU */
static const size_t counted[][2] = {{5000, 0},    {5000, 1},    {5000, 2},
                                    {5000, 1000}, {5000, 5000}, {5000, 12345}};
#define N_COUNTED (6 * 4)
#define COUNTED_PER 8
START_TEST(trees_gpu_count) {
  FOR_GROUP_CASES(k, COUNTED_PER, N_COUNTED) {
    if (test_trimmed() && k % 2) continue; /* trimmed runs: 30-bit codes */
    const build_case c = {counted[k / 4][0], counted[k / 4][1], k % 2 ? 63 : 30, (k / 2) % 2,
                          -25.0f, 90.0f};
    check_quality(test_random_boxes(c.capacity, 2300 + (uint64_t)k), &c);
  }
}
END_TEST

/* ---- refit ------------------------------------------------------------------ */

/* A quality tree of case c over boxes b (freed here), checked against the
 * reference, then every box moved (moved: capacity new boxes, freed here)
 * and glradix_lbvh_refit run, with desc.quality `refit_quality` (a refit
 * ignores it): each node's box against the CPU refit of the built links,
 * the links, the parent words and everything past the tree unchanged.
 * The unmoved boxes refit first must give the build's words back. */
static void check_quality_refit(float *b, float *moved, const build_case *c, int refit_quality) {
  const size_t n = case_n(c), words = glradix_lbvh_nodes_bytes((uint32_t)c->capacity) / 4;
  char what[160];
  snprintf(what, sizeof what, "refit: n %zu (capacity %zu, gpu count %zu) bits %u quality %d", n,
           c->capacity, c->gpu_count, c->bits, refit_quality);
  uint32_t *pattern = test_alloc_u32(words);
  for (size_t i = 0; i < words; i++) pattern[i] = PATTERN(i);
  GLuint bb = buf_bounds(b, c->capacity), nb = buf_create(NULL, 0, words), count_b = 0;
  const uint32_t count_words[4] = {7, 7, 7, (uint32_t)c->gpu_count};
  if (c->gpu_count != CPU_COUNT) count_b = buf_create(count_words, 4, 4);
  uint32_t *built = expect_quality_build(bb, nb, count_b, b, c, pattern, what, NULL);
  glradix_lbvh_desc d = {0};
  d.bounds = bb;
  d.count = (uint32_t)c->capacity;
  d.nodes = nb;
  d.count_buffer = count_b;
  d.count_offset = count_b ? COUNT_OFFSET : 0;
  d.quality = refit_quality;
  d.morton_bits = 17; /* ignored by a refit */
  uint32_t *got = test_alloc_u32(words);
  for (int round = 0; round < 2; round++) {
    if (round == 1) buf_upload(bb, (const uint32_t *)moved, c->capacity * 8);
    test_log_reset(&tg_log);
    expect_call_ok(glradix_lbvh_refit(tg_ctx, &d), what);
    buf_read(nb, got, words);
    if (round == 0) {
      expect_equal_u32(built, got, words, "a refit of the unmoved boxes");
      continue;
    }
    /* the CPU refit of the built tree; past the nodes (parent words,
     * primitives, the pattern) every word as built */
    const size_t nodes = n ? 2 * n - 1 : 0;
    if (n > 0)
      expect_lbvh_refit((const glradix_lbvh_node *)built, (const glradix_lbvh_node *)got, n, moved,
                        what);
    expect_equal_u32(built + nodes * 8, got + nodes * 8, words - nodes * 8, what);
  }
  expect_no_gl_error(what);
  if (count_b) buf_delete(count_b);
  buf_delete(bb);
  buf_delete(nb);
  free(built);
  free(got);
  free(pattern);
  free(b);
  free(moved);
}

/* case k: 0-5 random boxes of 1, 2, 17 and 1001 at both widths (the
 * last two at one each), 6-7 the collinear shape (3001) and the
 * caterpillar, 8-9 GPU counts 4000 and 0 of 5000; the refit's
 * desc.quality alternating */
#define N_REFITS 10
START_TEST(refit_trees) {
  FOR_GROUP_CASES(k, 5, N_REFITS) {
    static const size_t sizes[] = {1, 1, 2, 2, 17, 1001};
    const unsigned bits = k % 2 ? 63 : 30;
    build_case c = {0, CPU_COUNT, bits, 0, -25.0f, 90.0f};
    float *b;
    if (k < 6) {
      c.capacity = sizes[k];
      b = test_random_boxes(c.capacity, 2400 + (uint64_t)k);
    } else if (k == 6) {
      c.capacity = 3001;
      c.gpu_box = 1;
      b = test_shaped_boxes(2, c.capacity, 2400 + (uint64_t)k);
    } else if (k == 7) {
      c.capacity = 90;
      c.gpu_box = 1;
      b = caterpillar_boxes(c.capacity);
    } else {
      c.capacity = 5000;
      c.gpu_count = k == 8 ? 4000 : 0;
      b = test_random_boxes(c.capacity, 2400 + (uint64_t)k);
    }
    check_quality_refit(b, test_random_boxes(c.capacity, 2500 + (uint64_t)k), &c, k % 2);
  }
}
END_TEST

/* ---- the point of it: a cheaper tree ----------------------------------- */

/* Half a box's surface area, in double. */
static double half_area(const glradix_lbvh_node *x) {
  const double e[3] = {(double)x->max[0] - x->min[0], (double)x->max[1] - x->min[1],
                       (double)x->max[2] - x->min[2]};
  return e[0] * e[1] + e[1] * e[2] + e[2] * e[0];
}

/* The SAH cost with C_t = C_i = 1 and a primitive a leaf (bench_sah.c's):
 * the areas of every node over the root's. */
static double sah_cost(const glradix_lbvh_node *nodes, size_t n) {
  double sum = 0.0;
  for (size_t i = 0; i < 2 * n - 1; i++) sum += half_area(&nodes[i]);
  return sum / half_area(&nodes[0]);
}

/* 100003 random boxes: the quality tree (checked against the reference)
 * costs less than the LBVH of the same boxes and codes. */
START_TEST(sah_below_lbvh) {
  const size_t n = 100003, words = glradix_lbvh_nodes_bytes((uint32_t)n) / 4;
  const build_case c = {n, CPU_COUNT, 30, 0, -25.0f, 90.0f};
  float *b = test_random_boxes(n, 2600);
  uint32_t *pattern = test_alloc_u32(words);
  for (size_t i = 0; i < words; i++) pattern[i] = PATTERN(i);
  GLuint bb = buf_bounds(b, n), nb = buf_create(NULL, 0, words);
  uint32_t *quality = expect_quality_build(bb, nb, 0, b, &c, pattern, "sah: quality", NULL);
  build(bb, nb, 0, &c, 0, pattern, "sah: lbvh");
  uint32_t *lbvh = test_alloc_u32(words);
  buf_read(nb, lbvh, words);
  check_tree_shape((const glradix_lbvh_node *)lbvh, n, "sah: lbvh");
  const double q = sah_cost((const glradix_lbvh_node *)quality, n);
  const double l = sah_cost((const glradix_lbvh_node *)lbvh, n);
  ck_assert_msg(q < l, "the quality tree's SAH cost %g, the LBVH's %g", q, l);
  expect_no_gl_error("sah");
  buf_delete(bb);
  buf_delete(nb);
  free(quality);
  free(lbvh);
  free(pattern);
  free(b);
}
END_TEST

static Suite *lbvh_quality_suite(void) {
  Suite *s = suite_create("lbvh_quality");
  TCase *tc = tcase_create("reference");
  tcase_add_test(tc, reference_by_hand);
  tcase_add_test(tc, reference_trees);
  suite_add_tcase(s, tc);
  tc = tcase_create("lbvh_quality");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_loop_test(tc, trees, 0, CASE_GROUPS(N_TREES, TREES_PER));
  tcase_add_loop_test(tc, tree_shapes, 0, CASE_GROUPS(8, SHAPES_PER));
  tcase_add_loop_test(tc, trees_gpu_count, 0, CASE_GROUPS(N_COUNTED, COUNTED_PER));
  tcase_add_loop_test(tc, refit_trees, 0, CASE_GROUPS(N_REFITS, 5));
  if (!test_trimmed()) tcase_add_test(tc, sah_below_lbvh); /* the plain run's */
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(lbvh_quality_suite)
