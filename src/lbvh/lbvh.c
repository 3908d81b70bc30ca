/* LBVH build (shaders/lbvh/lbvh_leaves.comp + lbvh_tree.comp): Morton codes and
 * indices (morton.c), glradix_sort, the leaves, then topology, boxes and
 * each node's parent word in one bottom-up pass. Refit of a built tree
 * (lbvh_refit_leaves.comp + lbvh_tree.comp): the leaves' new boxes, then
 * the boxes bottom-up along the parent words the build kept. */
#include "glradix/lbvh.h"
#include "internal.h"

#include <stdint.h>

/* The nodes' bytes, in 64 bits (they pass a 32-bit size_t for n above
 * 2^26): 2n - 1 nodes, then their parent words, then the n leaves'
 * primitives, four words to 16 bytes. */
static uint64_t nodes_bytes(uint32_t count) {
  const uint64_t nodes = count == 0 ? 0 : 2 * (uint64_t)count - 1;
  return nodes * sizeof(glradix_lbvh_node) + (nodes + 3) / 4 * 16 + ((uint64_t)count + 3) / 4 * 16;
}

size_t glradix_lbvh_nodes_bytes(uint32_t count) {
#if SIZE_MAX < UINT64_MAX
  if (nodes_bytes(count) > SIZE_MAX) return SIZE_MAX;
#endif
  return (size_t)nodes_bytes(count);
}

/* Every exchange slot to EMPTY; the front of them for a tree of a GPU
 * count. */
static void reset_slots(glradix_context *ctx, GLuint n) {
  if (n > 1) _glradix_fill_words(ctx, ctx->lbvh_parents.name, 0, n - 1, 0xFFFFFFFFu);
}

/* The leaves' bounds are gathered in windows of ctx->forms.lbvh_window
 * primitives (lbvh_leaves.comp says why): a dispatch per window, each
 * writing the leaves of its window's primitives, which the shader finds
 * from the GPU's count (count is the capacity). */
static void dispatch_windows(glradix_context *ctx, GLuint count) {
  GladGLContext *gl = &ctx->gl;
  const GLuint window_size = ctx->forms.lbvh_window;
  gl->Uniform1ui(_GLRADIX_LOC_WINDOW_SIZE, window_size);
  for (GLuint window = 0;; window += window_size) {
    gl->Uniform1ui(_GLRADIX_LOC_PRIM_WINDOW, window);
    _glradix_dispatch(ctx, _glradix_div_up(count, ctx->forms.wg_size));
    if (count - window <= window_size) break;
  }
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

/* the leaves of a build: primitive indices[k] and its box at node n - 1 + k */
static void lbvh_leaves(glradix_context *ctx, const glradix_lbvh_desc *d) {
  GladGLContext *gl = &ctx->gl;
  gl->UseProgram(ctx->programs[_GLRADIX_SET_BASE][_GLRADIX_PROG_LBVH_LEAVES]);
  _glradix_bind(ctx, _GLRADIX_B_BOUNDS, d->bounds, (uint64_t)d->count * 32u);
  _glradix_bind(ctx, _GLRADIX_B_INDICES, ctx->lbvh_indices.name, 0);
  _glradix_bind(ctx, _GLRADIX_B_NODES, d->nodes, nodes_bytes(d->count));
  _glradix_bind(ctx, _GLRADIX_B_BOX, ctx->lbvh_state.name, 0);
  gl->Uniform1ui(_GLRADIX_LOC_COUNT, d->count);
  dispatch_windows(ctx, d->count);
}

/* a built tree's leaves' boxes from d->bounds, each leaf keeping its
 * primitive */
static void lbvh_refit_leaves(glradix_context *ctx, const glradix_lbvh_desc *d) {
  GladGLContext *gl = &ctx->gl;
  gl->UseProgram(ctx->programs[_GLRADIX_SET_BASE][_GLRADIX_PROG_LBVH_REFIT_LEAVES]);
  _glradix_bind(ctx, _GLRADIX_B_BOUNDS, d->bounds, (uint64_t)d->count * 32u);
  _glradix_bind(ctx, _GLRADIX_B_NODES, d->nodes, nodes_bytes(d->count));
  _glradix_bind(ctx, _GLRADIX_B_BOX, ctx->lbvh_state.name, 0);
  gl->Uniform1ui(_GLRADIX_LOC_COUNT, d->count);
  dispatch_windows(ctx, d->count);
}

/* A bottom-up tree pass with its buffers bound, in groups of `wg`: the
 * codes (a build's), the nodes, the exchange slots and the state. */
static void dispatch_tree(glradix_context *ctx, const glradix_lbvh_desc *d, _glradix_program program,
                          GLuint wg) {
  GladGLContext *gl = &ctx->gl;
  gl->UseProgram(ctx->programs[_GLRADIX_SET_BASE][program]);
  if (program != _GLRADIX_PROG_LBVH_REFIT) _glradix_bind(ctx, _GLRADIX_B_CODES, ctx->lbvh_codes.name, 0);
  _glradix_bind(ctx, _GLRADIX_B_NODES, d->nodes, nodes_bytes(d->count));
  _glradix_bind(ctx, _GLRADIX_B_PARENTS, ctx->lbvh_parents.name, 0);
  _glradix_bind(ctx, _GLRADIX_B_BOX, ctx->lbvh_state.name, 0);
  gl->Uniform1ui(_GLRADIX_LOC_COUNT, d->count);
  _glradix_dispatch(ctx, _glradix_div_up(d->count, wg));
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

/* The tree pass a build runs: the quality build's or the LBVH's, for its
 * codes' width. */
static _glradix_program tree_program(const glradix_lbvh_desc *d) {
  if (d->quality) return d->morton_bits == 63 ? _GLRADIX_PROG_LBVH_CLUSTER_63 : _GLRADIX_PROG_LBVH_CLUSTER_30;
  return d->morton_bits == 63 ? _GLRADIX_PROG_LBVH_TREE_63 : _GLRADIX_PROG_LBVH_TREE_30;
}

/* The internal nodes bottom-up (lbvh_tree.comp): a build's from the
 * sorted codes, with the parent words; a refit's boxes along those words
 * (program). */
static void lbvh_tree(glradix_context *ctx, const glradix_lbvh_desc *d, _glradix_program program) {
  dispatch_tree(ctx, d, program, ctx->forms.lbvh_wg);
}

/* The quality build's internal nodes (lbvh_cluster.comp): the same climbs,
 * merging clusters into nodes numbered from a counter; the sorted indices,
 * dead once the leaves have their primitives, hold the ranges' clusters. */
static void lbvh_cluster(glradix_context *ctx, const glradix_lbvh_desc *d) {
  const GLuint no_nodes_yet = 0;
  _glradix_write_words(ctx, ctx->lbvh_state.name, _GLRADIX_LBVH_NODE_SLOT, 1, &no_nodes_yet);
  _glradix_bind(ctx, _GLRADIX_B_INDICES, ctx->lbvh_indices.name, 0);
  dispatch_tree(ctx, d, tree_program(d), _GLRADIX_CLUSTER_LANES);
}

/* Build (with_morton) and refit check count, nodes, bounds and the count
 * buffer in the same order; a refit ignores the Morton fields. With a
 * count buffer, count is the capacity that every size is checked for. */
static glradix_status tree_checks(glradix_context *ctx, const char *fn, const glradix_lbvh_desc *d,
                                  bool with_morton) {
  if (d->count == 0) {
    _glradix_log(&ctx->desc, "%s: count is 0 (a tree needs a primitive)", fn);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  if (d->count > (UINT32_MAX - 1) / 3) {
    _glradix_log(&ctx->desc, "%s: count %u exceeds the node index range", fn, d->count);
    return GLRADIX_ERROR_TOO_LARGE;
  }
  /* the node dispatch, one invocation per node, is the largest grid */
  if (!_glradix_groups_fit(ctx, _glradix_div_up(2 * d->count - 1, ctx->forms.wg_size)) ||
      !_glradix_groups_fit(ctx, _glradix_div_up(d->count, ctx->forms.lbvh_wg)) ||
      !_glradix_groups_fit(ctx, _glradix_div_up(d->count, _GLRADIX_CLUSTER_LANES))) {
    _glradix_log(&ctx->desc, "%s: count %u needs more work groups than this context's limits",
                 fn, d->count);
    return GLRADIX_ERROR_TOO_LARGE;
  }
  const uint64_t bounds_bytes = (uint64_t)d->count * 32u;
  glradix_status st =
      _glradix_check_size(ctx, fn, "nodes", d->count, nodes_bytes(d->count));
  if (st == GLRADIX_OK && with_morton)
    st = _glradix_morton_check(ctx, fn, d->bounds, d->count, d->morton_bits, d->has_scene_box,
                               d->scene_min, d->scene_max);
  if (st == GLRADIX_OK && !with_morton)
    st = _glradix_check_size(ctx, fn, "bounds", d->count, bounds_bytes);
  if (st == GLRADIX_OK && !with_morton)
    st = _glradix_check_buffer(ctx, fn, d->bounds, "bounds", bounds_bytes);
  if (st == GLRADIX_OK)
    st = _glradix_check_buffer(ctx, fn, d->nodes, "nodes", nodes_bytes(d->count));
  if (st == GLRADIX_OK) st = _glradix_check_distinct(ctx, fn, d->nodes, "nodes", d->bounds, "bounds");
  if (st == GLRADIX_OK)
    st = _glradix_check_word(ctx, fn, d->count_buffer, d->count_offset, "count_buffer");
  /* the programs, while none has run (a build's sort checks its own) */
  const _glradix_program built[] = {_GLRADIX_PROG_LBVH_LEAVES, tree_program(d)};
  const _glradix_program refitted[] = {_GLRADIX_PROG_LBVH_REFIT_LEAVES, _GLRADIX_PROG_LBVH_REFIT};
  if (st == GLRADIX_OK && with_morton)
    st = _glradix_check_morton_programs(ctx, fn, d->morton_bits == 63 ? 63 : 30,
                                        d->has_scene_box);
  if (st == GLRADIX_OK) st = _glradix_build_lbvh_programs(ctx);
  if (st == GLRADIX_OK)
    st = _glradix_check_programs(ctx, fn, with_morton ? built : refitted, 2);
  return st;
}

static glradix_status build(glradix_context *ctx, const glradix_lbvh_desc *d) {
  const char *what = "allocating LBVH scratch";
  const unsigned bits = d->morton_bits ? d->morton_bits : 30;
  const GLsizeiptr n = d->count;
  glradix_status st = _glradix_ensure_scratch(ctx, &ctx->lbvh_codes, n * (bits == 63 ? 8 : 4), what);
  if (st == GLRADIX_OK) st = _glradix_ensure_scratch(ctx, &ctx->lbvh_indices, n * 4, what);
  if (st == GLRADIX_OK) st = _glradix_ensure_scratch(ctx, &ctx->lbvh_parents, n * 4, what);
  if (st != GLRADIX_OK) return st;
  _glradix_morton_job job =
      _glradix_morton_job_make(d->bounds, d->count, bits, d->has_scene_box, d->scene_min,
                               d->scene_max, ctx->lbvh_codes.name, ctx->lbvh_indices.name);
  job.count_buffer = d->count_buffer;
  job.count_offset = d->count_offset;
  _glradix_profile_lbvh_mark(ctx, 0);
  st = _glradix_morton(ctx, &job);
  if (st != GLRADIX_OK) return st;
  _glradix_profile_lbvh_mark(ctx, 1);
  glradix_sort_desc sort = {0};
  sort.keys = ctx->lbvh_codes.name;
  sort.values = ctx->lbvh_indices.name;
  sort.count = d->count;
  if (d->count_buffer != 0) { /* the copy _glradix_morton took: the caller's word is read once */
    sort.count_buffer = ctx->lbvh_state.name;
    sort.count_offset = _GLRADIX_LBVH_COUNT_SLOT * sizeof(GLuint);
  }
  sort.end_bit = bits;
  sort.key_type = bits == 63 ? GLRADIX_KEY_UINT64 : GLRADIX_KEY_UINT32;
  st = _glradix_sort(ctx, "glradix_lbvh_build", &sort);
  if (st != GLRADIX_OK) return st;
  _glradix_profile_lbvh_mark(ctx, 2);
  reset_slots(ctx, d->count);
  lbvh_leaves(ctx, d);
  _glradix_profile_lbvh_mark(ctx, 3);
  if (d->quality) lbvh_cluster(ctx, d);
  else lbvh_tree(ctx, d, tree_program(d));
  _glradix_profile_lbvh_mark(ctx, 4);
  return GLRADIX_OK;
}

glradix_status glradix_lbvh_build(glradix_context *ctx, const glradix_lbvh_desc *desc) {
  const char *fn = "glradix_lbvh_build";
  _glradix_gl_state saved;
  glradix_status entered = _glradix_enter(ctx, fn, desc, &saved);
  if (entered != GLRADIX_OK) return entered;
  glradix_status st = tree_checks(ctx, fn, desc, true);
  if (st == GLRADIX_OK) st = build(ctx, desc);
  return _glradix_end(ctx, fn, st, &saved);
}

/* No sort and no new links: the leaves' boxes, then the boxes bottom-up
 * along the parent words the build kept. */
static glradix_status refit(glradix_context *ctx, const glradix_lbvh_desc *d) {
  const GLsizeiptr n = d->count;
  const char *what = "allocating LBVH scratch";
  glradix_status st = _glradix_ensure_scratch(ctx, &ctx->lbvh_parents, n * 4, what);
  if (st == GLRADIX_OK)
    st = _glradix_lbvh_state(ctx, d->count, d->count_buffer, d->count_offset, false);
  if (st != GLRADIX_OK) return st;
  for (unsigned point = 0; point < 3; point++) _glradix_profile_lbvh_mark(ctx, point);
  reset_slots(ctx, d->count);
  lbvh_refit_leaves(ctx, d);
  _glradix_profile_lbvh_mark(ctx, 3);
  lbvh_tree(ctx, d, _GLRADIX_PROG_LBVH_REFIT);
  _glradix_profile_lbvh_mark(ctx, 4);
  return GLRADIX_OK;
}

glradix_status glradix_lbvh_refit(glradix_context *ctx, const glradix_lbvh_desc *desc) {
  const char *fn = "glradix_lbvh_refit";
  _glradix_gl_state saved;
  glradix_status entered = _glradix_enter(ctx, fn, desc, &saved);
  if (entered != GLRADIX_OK) return entered;
  glradix_status st = tree_checks(ctx, fn, desc, false);
  if (st == GLRADIX_OK) st = refit(ctx, desc);
  return _glradix_end(ctx, fn, st, &saved);
}
