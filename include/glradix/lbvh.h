/*
 * glradix LBVH: Morton codes and a linear BVH (Karras 2012) built on the GPU
 * from primitive bounds in a GL buffer, sorted with glradix_sort.
 *
 * Thread rules and GL state (every function): as glradix_sort in glradix.h
 * (the context's GL context must be current on the calling thread; pending
 * GL errors are the caller's; indexed SSBO bindings 0..5, the generic SSBO,
 * copy and dispatch-indirect bindings and the current program are restored;
 * results are ready for draws, dispatches and read-backs).
 */
#ifndef GLRADIX_LBVH_H
#define GLRADIX_LBVH_H

#include "glradix.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Morton codes of primitive centroids. Zero-initialise it. */
typedef struct glradix_morton_desc {
  unsigned bounds;      /**< GL buffer: count x (vec4 min, vec4 max); .w ignored;
                             a point is min == max */
  uint32_t count;
  unsigned codes;       /**< GL buffer receiving count codes: uint32 (30-bit) or
                             uint64 (63-bit, low word first) */
  unsigned morton_bits; /**< 0 or 30: 10 bits per axis; 63: 21 bits per axis */
  int has_scene_box;    /**< 0: the scene box is computed on the GPU from the bounds */
  float scene_min[3], scene_max[3];
} glradix_morton_desc;

/**
 * Writes the Morton code of each primitive's centroid, normalised to the
 * scene box (cells of equal size; centroids outside the box are clamped to
 * it; a flat axis maps to 0).
 *
 * @errors GLRADIX_ERROR_INVALID_ARGUMENT (ctx or desc NULL; bounds or codes
 *         not buffers, too small or mapped; codes the same buffer as bounds;
 *         morton_bits not 0/30/63; a given scene box with min > max or
 *         non-finite values), GLRADIX_ERROR_TOO_LARGE,
 *         GLRADIX_ERROR_OUT_OF_MEMORY, GLRADIX_ERROR_GL. One log line each.
 * @gl_state as glradix_sort (this file's header).
 */
GLRADIX_API glradix_status glradix_morton_codes(glradix_context *ctx,
                                                const glradix_morton_desc *desc);

/** An LBVH build (or refit: glradix_lbvh_refit). Zero-initialise it. */
typedef struct glradix_lbvh_desc {
  unsigned bounds;      /**< as glradix_morton_desc.bounds */
  uint32_t count;       /**< primitives, at least 1 */
  unsigned morton_bits; /**< as glradix_morton_desc.morton_bits */
  int has_scene_box;
  float scene_min[3], scene_max[3];
  unsigned nodes;       /**< GL buffer of at least glradix_lbvh_nodes_bytes(count) bytes */
} glradix_lbvh_desc;

/**
 * Node layout (32 bytes, std430): C `float min[3]; uint32_t a; float max[3];
 * uint32_t b;`, GLSL `struct { vec3 min; uint a; vec3 max; uint b; }`.
 * Internal nodes are 0 .. count-2 with the root at 0; leaves are count-1 ..
 * 2*count-2 in Morton order. For an internal node, a and b are the indices of
 * its two children in the same array; for a leaf, a is its primitive index and
 * b is 0xFFFFFFFF. With count == 1 the single leaf is node 0. Boxes enclose
 * exactly their primitives' boxes (no padding).
 */
typedef struct glradix_lbvh_node {
  float min[3];
  uint32_t a;
  float max[3];
  uint32_t b;
} glradix_lbvh_node;

#define GLRADIX_LBVH_LEAF 0xFFFFFFFFu /**< b of a leaf */

/** (2 * count - 1) * 32; 0 for count 0; SIZE_MAX where that does not fit
 *  a size_t (32-bit platforms, count above 2^26). */
GLRADIX_API size_t glradix_lbvh_nodes_bytes(uint32_t count);

/**
 * Morton codes, a stable glradix_sort of (code, primitive index), the
 * internal nodes in parallel (duplicate codes ordered by their sorted index,
 * as if each code were augmented with it), and a bottom-up box refit in which
 * the second child to arrive at a node continues (an atomic counter per node;
 * nothing waits on another work group).
 *
 * @errors as glradix_morton_codes, plus nodes not a buffer, too small,
 *         mapped or the same buffer as bounds, count 0, and
 *         GLRADIX_ERROR_SHADER when the sort's programs for 63-bit codes or
 *         for large counts are compiled on first use (as glradix_sort).
 * @gl_state as glradix_sort (this file's header).
 */
GLRADIX_API glradix_status glradix_lbvh_build(glradix_context *ctx, const glradix_lbvh_desc *desc);

/**
 * New boxes for the primitives of a tree that glradix_lbvh_build made
 * (deforming geometry): desc->bounds, count and nodes as for that build
 * (count the same); the Morton and scene-box fields are ignored. No sort
 * and no new links: the parent links are taken from the nodes themselves
 * (nothing the build left on a context is needed, so other builds and
 * sorts may come between, on any context), each leaf takes its primitive's
 * box and the internal boxes are refit bottom-up as the build's are. The
 * boxes are exactly those a build of the same topology gives; the tree's
 * quality follows how far the primitives moved.
 *
 * @errors GLRADIX_ERROR_INVALID_ARGUMENT (ctx or desc NULL; count 0;
 *         bounds or nodes not buffers, too small or mapped; nodes the same
 *         buffer as bounds), GLRADIX_ERROR_TOO_LARGE (as glradix_lbvh_build),
 *         GLRADIX_ERROR_OUT_OF_MEMORY, GLRADIX_ERROR_GL. One log line each;
 *         on a validation error nothing is written.
 * @gl_state as glradix_sort (this file's header).
 */
GLRADIX_API glradix_status glradix_lbvh_refit(glradix_context *ctx, const glradix_lbvh_desc *desc);

#ifdef __cplusplus
}
#endif
#endif /* GLRADIX_LBVH_H */
