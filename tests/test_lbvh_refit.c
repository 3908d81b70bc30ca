/* glradix_lbvh_refit: a tree built on the GPU, every primitive moved, the
 * tree refit. Against a CPU refit over the topology read back from the
 * build and the new boxes (min and max are exact, so every box must be
 * bit-equal), with the links unchanged; also after other builds and sorts,
 * on a context that never built, and refused input that writes nothing. */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glradix/lbvh.h"

/* The nodes of a tree of n primitives, read back and checked to be one
 * (links in range, every node but the root some node's child exactly
 * once), so that a broken tree fails here with its first bad link instead
 * of sending the CPU refit's walk astray. */
static glradix_lbvh_node *read_nodes(GLuint nodes, size_t n, const char *what) {
  const size_t total = 2 * n - 1;
  glradix_lbvh_node *t = malloc(total * sizeof *t);
  unsigned char *parented = calloc(total, 1);
  ck_assert(t && parented);
  buf_read(nodes, (uint32_t *)t, total * 8);
  for (size_t i = 0; i < total; i++) {
    if (i >= n - 1) {
      EXPECT_MSG(t[i].b == GLRADIX_LBVH_LEAF && t[i].a < n, "%s: leaf node %zu links (%u, %u)",
                 what, i, t[i].a, t[i].b);
      continue;
    }
    const uint32_t child[2] = {t[i].a, t[i].b};
    for (int c = 0; c < 2; c++) {
      EXPECT_MSG(child[c] != 0 && child[c] < total && !parented[child[c]],
                 "%s: node %zu links (%u, %u): child %u out of range or seen before", what, i,
                 t[i].a, t[i].b, child[c]);
      parented[child[c]] = 1;
    }
  }
  free(parented);
  return t;
}

/* A tree of n boxes built on ctx into a new nodes buffer; *bounds gets the
 * bounds buffer, the boxes are freed. */
static GLuint build_tree(glradix_context *ctx, size_t n, unsigned bits, uint64_t seed,
                         GLuint *bounds) {
  float *b = test_random_boxes(n, seed);
  *bounds = buf_bounds(b, n);
  free(b);
  GLuint nodes = buf_create(NULL, 0, glradix_lbvh_nodes_bytes((uint32_t)n) / 4);
  glradix_lbvh_desc d = {0};
  d.bounds = *bounds;
  d.count = (uint32_t)n;
  d.morton_bits = bits;
  d.nodes = nodes;
  test_log_reset(&tg_log);
  glradix_status s = glradix_lbvh_build(ctx, &d);
  ck_assert_msg(s == GLRADIX_OK, "build n %zu bits %u: %s (%s)", n, bits,
                glradix_status_string(s), tg_log.first);
  return nodes;
}

/* glradix_lbvh_refit of n primitives on ctx, which must succeed without a
 * log line. The Morton fields of the desc are nonsense: a refit ignores them. */
static void refit_ok(glradix_context *ctx, GLuint bounds, GLuint nodes, size_t n,
                     const char *what) {
  glradix_lbvh_desc d = {0};
  d.bounds = bounds;
  d.count = (uint32_t)n;
  d.nodes = nodes;
  d.morton_bits = 17;
  d.has_scene_box = 1;
  d.scene_min[0] = 1.0f; /* min > max */
  test_log_reset(&tg_log);
  expect_call_ok(glradix_lbvh_refit(ctx, &d), what);
}

/* Moves every primitive of the tree in `nodes` (new random boxes, seed),
 * refits it on ctx and checks it against `built`. */
static void move_and_refit(glradix_context *ctx, GLuint bounds, GLuint nodes, size_t n,
                           const glradix_lbvh_node *built, uint64_t seed, const char *what) {
  float *moved = test_random_boxes(n, seed);
  buf_upload(bounds, (const uint32_t *)moved, n * 8);
  refit_ok(ctx, bounds, nodes, n, what);
  glradix_lbvh_node *gpu = read_nodes(nodes, n, what);
  expect_lbvh_refit(built, gpu, n, moved, what);
  free(gpu);
  free(moved);
}

static const size_t refit_sizes[] = {1, 2, 3, 1000, 100003};
#define N_SIZES (sizeof refit_sizes / sizeof refit_sizes[0])

/* case k: size k / 2, 30- or 63-bit codes; refit unmoved (the build's
 * nodes again), then moved and refit twice */
START_TEST(refit_trees) {
  FOR_GROUP_CASES(k, 4, N_SIZES * 2) {
    size_t n = refit_sizes[k / 2];
    unsigned bits = k % 2 ? 63 : 30;
    GLuint bounds;
    GLuint nodes = build_tree(tg_ctx, n, bits, 700 + (uint64_t)k, &bounds);
    char what[64];
    snprintf(what, sizeof what, "n %zu bits %u, boxes unmoved", n, bits);
    glradix_lbvh_node *built = read_nodes(nodes, n, what);
    refit_ok(tg_ctx, bounds, nodes, n, what); /* the build's nodes, bit for bit */
    glradix_lbvh_node *same = read_nodes(nodes, n, what);
    ck_assert_msg(memcmp(same, built, (2 * n - 1) * sizeof *same) == 0, "%s: nodes changed", what);
    free(same);
    for (unsigned round = 0; round < 2; round++) {
      snprintf(what, sizeof what, "n %zu bits %u round %u", n, bits, round);
      move_and_refit(tg_ctx, bounds, nodes, n, built, 800 + 2 * (uint64_t)k + round, what);
    }
    free(built);
    buf_delete(bounds);
    buf_delete(nodes);
  }
}
END_TEST

/* The tree of the first m = min(gpu_count, capacity) of `capacity` boxes,
 * built and then refit with that GPU count (word 3 of a count buffer):
 * the refit against the CPU one over the built topology, and the nodes
 * past the tree (all of them for m = 0) as they were before the build. */
static void check_refit_counted(size_t capacity, size_t gpu_count, unsigned bits, uint64_t seed) {
  const size_t m = gpu_count < capacity ? gpu_count : capacity;
  const size_t node_words = glradix_lbvh_nodes_bytes((uint32_t)capacity) / 4;
  char what[96];
  snprintf(what, sizeof what, "capacity %zu gpu count %zu bits %u", capacity, gpu_count, bits);
  float *b = test_random_boxes(capacity, seed);
  GLuint bounds = buf_bounds(b, capacity);
  uint32_t *pattern = test_alloc_u32(node_words), *got = test_alloc_u32(node_words);
  for (size_t i = 0; i < node_words; i++) pattern[i] = PATTERN(i);
  GLuint nodes = buf_create(pattern, node_words, node_words);
  const uint32_t count_words[4] = {7, 7, 7, (uint32_t)gpu_count};
  GLuint count_b = buf_create(count_words, 4, 4);
  glradix_lbvh_desc d = {0};
  d.bounds = bounds;
  d.count = (uint32_t)capacity;
  d.morton_bits = bits;
  d.nodes = nodes;
  d.count_buffer = count_b;
  d.count_offset = 12;
  test_log_reset(&tg_log);
  glradix_status s = glradix_lbvh_build(tg_ctx, &d);
  ck_assert_msg(s == GLRADIX_OK && tg_log.count == 0, "%s: build: %s (%s)", what,
                glradix_status_string(s), tg_log.first);
  glradix_lbvh_node *built = m ? read_nodes(nodes, m, what) : NULL;
  float *moved = test_random_boxes(capacity, seed + 1);
  buf_upload(bounds, (const uint32_t *)moved, capacity * 8);
  d.morton_bits = 17; /* ignored by a refit */
  test_log_reset(&tg_log);
  s = glradix_lbvh_refit(tg_ctx, &d);
  ck_assert_msg(s == GLRADIX_OK && tg_log.count == 0, "%s: refit: %s (%s)", what,
                glradix_status_string(s), tg_log.first);
  buf_read(nodes, got, node_words);
  expect_lbvh_rest(built, m, capacity, got, pattern, what);
  if (m > 0) expect_lbvh_refit(built, (const glradix_lbvh_node *)got, m, moved, what);
  expect_no_gl_error(what);
  buf_delete(bounds);
  buf_delete(nodes);
  buf_delete(count_b);
  free(b);
  free(moved);
  free(built);
  free(pattern);
  free(got);
}

/* GPU counts of 0, 1, 2, below, equal to and above the capacity (clamped),
 * both code widths */
static const size_t refit_counts[] = {0, 1, 2, 4000, 5000, 9000};
#define N_COUNTS (sizeof refit_counts / sizeof refit_counts[0])
START_TEST(refit_gpu_count) {
  FOR_GROUP_CASES(k, 6, N_COUNTS * 2)
    check_refit_counted(5000, refit_counts[k / 2], k % 2 ? 63 : 30, 900 + 2 * (uint64_t)k);
}
END_TEST

/* Tree A (3001 boxes), then a build of another count and a sort on the
 * same context, then A refit there; and A refit on a second context that
 * has never built (no LBVH scratch at all). */
START_TEST(refit_after_other_work) {
  const size_t n = 3001;
  GLuint bounds;
  GLuint nodes = build_tree(tg_ctx, n, 30, 41, &bounds);
  glradix_lbvh_node *built = read_nodes(nodes, n, "tree A, built");
  GLuint other_bounds;
  GLuint other = build_tree(tg_ctx, 20011, 63, 42, &other_bounds);
  uint32_t keys[777];
  gen_keys(keys, 777, DIST_UNIFORM, 43);
  GLuint kb = buf_create(keys, 777, 777);
  glradix_sort_desc sd = {0};
  sd.keys = kb;
  sd.count = 777;
  ck_assert_int_eq(glradix_sort(tg_ctx, &sd), GLRADIX_OK);
  move_and_refit(tg_ctx, bounds, nodes, n, built, 44, "after a build of 20011 and a sort");

  glradix_context *fresh = NULL;
  glradix_desc desc = test_desc(0, 0);
  ck_assert_int_eq(test_create(&desc, &fresh), GLRADIX_OK);
  move_and_refit(fresh, bounds, nodes, n, built, 45, "on a context that never built");
  glradix_destroy(fresh);
  /* the other tree, larger than the last refit's, on the first context */
  glradix_lbvh_node *other_built = read_nodes(other, 20011, "the 63-bit tree, built");
  move_and_refit(tg_ctx, other_bounds, other, 20011, other_built, 46, "the 63-bit tree");
  free(other_built);
  free(built);
  buf_delete(kb);
  buf_delete(bounds);
  buf_delete(nodes);
  buf_delete(other_bounds);
  buf_delete(other);
}
END_TEST

/* Refused input: the status, one log line naming the problem, and the
 * nodes (and bounds) as they were. */
START_TEST(refit_bad_input) {
  /* the nodes, 9 parent words (12 with padding), 5 primitives (8) */
  enum { N = 5, NODE_WORDS = (2 * N - 1) * 8, PARENT_WORDS = NODE_WORDS + 12, ALL_WORDS = PARENT_WORDS + 8 };
  GLuint bounds;
  GLuint nodes = build_tree(tg_ctx, N, 30, 51, &bounds);
  uint32_t before[ALL_WORDS], after[ALL_WORDS];
  buf_read(nodes, before, ALL_WORDS);
  float moved[N * 8];
  for (size_t i = 0; i < N * 8; i++) moved[i] = 1000.0f + (float)i;
  buf_upload(bounds, (const uint32_t *)moved, N * 8);
  GLuint small_nodes = buf_create(before, NODE_WORDS - 8, NODE_WORDS - 8);
  GLuint small_bounds = buf_create((const uint32_t *)moved, N * 8 - 8, N * 8 - 8);
  /* 2N - 1 nodes and no room for their parent words */
  GLuint old_layout = buf_create(before, NODE_WORDS, NODE_WORDS);
  /* the parent words and no room for the leaves' primitives */
  GLuint no_prims = buf_create(before, PARENT_WORDS, PARENT_WORDS);
  glradix_lbvh_desc d = {0};
  d.bounds = bounds;
  d.count = N;
  d.nodes = nodes;
  enum { CASES = 10 };
  struct {
    glradix_lbvh_desc d;
    glradix_status want;
    const char *what, *says;
  } cases[CASES];
  for (int i = 0; i < CASES; i++) {
    cases[i].d = d;
    cases[i].want = GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  cases[0].d.nodes = small_nodes;
  cases[0].what = "nodes too small", cases[0].says = "nodes";
  cases[1].d.count = 0;
  cases[1].what = "count 0", cases[1].says = "count";
  cases[2].d.bounds = small_bounds;
  cases[2].what = "bounds too small", cases[2].says = "bounds";
  cases[3].d.bounds = nodes;
  cases[3].what = "nodes the bounds too", cases[3].says = "same buffer";
  cases[4].d.bounds = 987654;
  cases[4].what = "bounds not a buffer", cases[4].says = "bounds";
  cases[5].d.nodes = 987655;
  cases[5].what = "nodes not a buffer", cases[5].says = "nodes";
  cases[6].d.count = UINT32_MAX;
  cases[6].want = GLRADIX_ERROR_TOO_LARGE;
  cases[6].what = "count 2^32 - 1", cases[6].says = "count";
  cases[7].d.count = N + 1; /* nodes and bounds hold N */
  cases[7].what = "count above the buffers'", cases[7].says = "bounds";
  cases[8].d.nodes = old_layout;
  cases[8].what = "nodes without parent words", cases[8].says = "nodes";
  cases[9].d.nodes = no_prims;
  cases[9].what = "nodes without leaf primitives", cases[9].says = "nodes";
  for (int i = 0; i < CASES; i++) {
    test_log_reset(&tg_log);
    glradix_status s = glradix_lbvh_refit(tg_ctx, &cases[i].d);
    ck_assert_msg(s == cases[i].want, "%s: %s", cases[i].what, glradix_status_string(s));
    ck_assert_msg(tg_log.count == 1, "%s: %d log lines", cases[i].what, tg_log.count);
    ck_assert_msg(strstr(tg_log.first, cases[i].says) != NULL, "%s: logged \"%s\"",
                  cases[i].what, tg_log.first);
    buf_read(nodes, after, ALL_WORDS);
    expect_equal_u32(before, after, ALL_WORDS, cases[i].what);
  }
  /* nodes mapped (not persistently) */
  tg_gl.BindBuffer(GL_COPY_READ_BUFFER, nodes);
  ck_assert_ptr_nonnull(tg_gl.MapBufferRange(GL_COPY_READ_BUFFER, 0, 32, GL_MAP_READ_BIT));
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_lbvh_refit(tg_ctx, &d), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_msg(tg_log.count == 1 && strstr(tg_log.first, "mapped"), "nodes mapped: \"%s\"",
                tg_log.first);
  tg_gl.BindBuffer(GL_COPY_READ_BUFFER, nodes);
  ck_assert(tg_gl.UnmapBuffer(GL_COPY_READ_BUFFER));
  /* bounds mapped */
  tg_gl.BindBuffer(GL_COPY_READ_BUFFER, bounds);
  ck_assert_ptr_nonnull(tg_gl.MapBufferRange(GL_COPY_READ_BUFFER, 0, 32, GL_MAP_READ_BIT));
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_lbvh_refit(tg_ctx, &d), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_msg(tg_log.count == 1 && strstr(tg_log.first, "bounds"), "bounds mapped: \"%s\"",
                tg_log.first);
  tg_gl.BindBuffer(GL_COPY_READ_BUFFER, bounds);
  ck_assert(tg_gl.UnmapBuffer(GL_COPY_READ_BUFFER));
  buf_read(nodes, after, NODE_WORDS);
  expect_equal_u32(before, after, NODE_WORDS, "nodes after the mapped cases");
  /* the bounds, refused as the nodes, untouched too */
  uint32_t bounds_after[N * 8];
  buf_read(bounds, bounds_after, N * 8);
  expect_equal_u32((const uint32_t *)moved, bounds_after, N * 8, "bounds after the refusals");
  ck_assert_int_eq(glradix_lbvh_refit(tg_ctx, NULL), GLRADIX_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(glradix_lbvh_refit(NULL, &d), GLRADIX_ERROR_INVALID_ARGUMENT);
  expect_no_gl_error("refit bad input");
  /* and the same desc, now fine, refits */
  glradix_lbvh_node *built = (glradix_lbvh_node *)malloc(sizeof before);
  ck_assert_ptr_nonnull(built);
  memcpy(built, before, sizeof before);
  move_and_refit(tg_ctx, bounds, nodes, N, built, 52, "after the refusals");
  free(built);
  /* a nodes buffer that no build made (random words, parent words among
   * them): the refit ends, as for any tree, and leaves the bounds alone */
  enum { JUNK_N = 3000 };
  const size_t junk_words = glradix_lbvh_nodes_bytes(JUNK_N) / 4;
  uint32_t *junk = test_alloc_u32(junk_words);
  uint64_t st = 77;
  for (size_t i = 0; i < junk_words; i++) junk[i] = (uint32_t)test_rng_next(&st);
  float *boxes = test_random_boxes(JUNK_N, 78);
  GLuint junk_nodes = buf_create(junk, junk_words, junk_words);
  GLuint junk_bounds = buf_bounds(boxes, JUNK_N);
  glradix_lbvh_desc jd = {0};
  jd.bounds = junk_bounds;
  jd.count = JUNK_N;
  jd.nodes = junk_nodes;
  test_log_reset(&tg_log);
  ck_assert_int_eq(glradix_lbvh_refit(tg_ctx, &jd), GLRADIX_OK);
  uint32_t *still = test_alloc_u32(JUNK_N * 8);
  buf_read(junk_bounds, still, JUNK_N * 8);
  expect_equal_u32((const uint32_t *)boxes, still, JUNK_N * 8, "bounds after a refit of junk");
  expect_no_gl_error("refit of junk");
  buf_delete(junk_nodes);
  buf_delete(junk_bounds);
  free(junk);
  free(boxes);
  free(still);
  buf_delete(old_layout);
  buf_delete(no_prims);
  buf_delete(small_nodes);
  buf_delete(small_bounds);
  buf_delete(bounds);
  buf_delete(nodes);
}
END_TEST

static Suite *lbvh_refit_suite(void) {
  Suite *s = suite_create("lbvh_refit");
  TCase *tc = tcase_create("lbvh_refit");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_loop_test(tc, refit_trees, 0, CASE_GROUPS(N_SIZES * 2, 4));
  tcase_add_loop_test(tc, refit_gpu_count, 0, CASE_GROUPS(N_COUNTS * 2, 6));
  tcase_add_test(tc, refit_after_other_work);
  tcase_add_test(tc, refit_bad_input);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(lbvh_refit_suite)
