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
  unsigned count_buffer; /**< nonzero: GL buffer holding the uint32 number of primitives
                              at byte count_offset, read on the GPU (no read-back), once and
                              before anything is written; `count` is then the capacity,
                              and a larger GPU count is clamped to it (as
                              glradix_sort_desc.count_buffer) */
  size_t count_offset;   /**< a multiple of 4 */
} glradix_morton_desc;

/**
 * Writes the Morton code of each primitive's centroid, normalised to the
 * cube over the scene box's longest side, from its min corner (cubic cells,
 * so that a thin axis gets fewer of them; centroids outside the box are
 * clamped to it; a box of zero size maps every centroid to 0). With a
 * count_buffer, only the codes of the first m = min(GPU count, count) primitives are written (the scene box, if
 * computed, is theirs), those after them are left as they were; buffers
 * are checked for `count`.
 *
 * @errors GLRADIX_ERROR_INVALID_ARGUMENT (ctx or desc NULL; bounds or codes
 *         not buffers, too small or mapped; codes the same buffer as bounds;
 *         morton_bits not 0/30/63; a given scene box with min > max or
 *         non-finite values; count_buffer not a buffer of count_offset + 4
 *         bytes or mapped, or count_offset not a multiple of 4),
 *         GLRADIX_ERROR_TOO_LARGE,
 *         GLRADIX_ERROR_OUT_OF_MEMORY, GLRADIX_ERROR_UNSUPPORTED (a program
 *         above the context's storage-block limit, as glradix_sort),
 *         GLRADIX_ERROR_SHADER (with the driver's log: the LBVH's programs
 *         are compiled by the first call of this file's functions on a
 *         context, not by glradix_create; a failed one fails the LBVH calls
 *         alone), GLRADIX_ERROR_GL. One log line each.
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
  unsigned count_buffer; /**< as glradix_morton_desc.count_buffer: `count` (at least 1)
                              is the capacity, the tree that of the first m = min(GPU
                              count, count) primitives (see glradix_lbvh_build) */
  size_t count_offset;   /**< a multiple of 4 */
  int quality;           /**< nonzero: the quality build (glradix_lbvh_build); a refit
                              ignores it (the tree's root word says how it was built) */
} glradix_lbvh_desc;

/**
 * Node layout (32 bytes, std430): C `float min[3]; uint32_t a; float max[3];
 * uint32_t b;`, GLSL `struct { vec3 min; uint a; vec3 max; uint b; }`.
 * Internal nodes are 0 .. count-2 with the root at 0; leaves are count-1 ..
 * 2*count-2 in Morton order. For an internal node, a and b are the indices of
 * its two children in the same array; for a leaf, a is its primitive index and
 * b is 0xFFFFFFFF. With count == 1 the single leaf is node 0. Boxes enclose
 * exactly their primitives' boxes (no padding). After the 2*count-1 nodes
 * (at byte (2*count-1)*32) the build keeps each node's parent word, a
 * uint32 each, padded to whole 16 bytes: the parent's index, with bit 31
 * set for a right child (b); the root's is 0xFFFFFFFF, or
 * GLRADIX_LBVH_CLUSTERED_ROOT in a quality build's tree. Then each leaf's
 * primitive (leaf k's a), a uint32 each for the count leaves, padded to
 * whole 16 bytes. glradix_lbvh_refit reads the primitives and climbs along
 * the parent words; traversals need only the nodes.
 */
typedef struct glradix_lbvh_node {
  float min[3];
  uint32_t a;
  float max[3];
  uint32_t b;
} glradix_lbvh_node;

#define GLRADIX_LBVH_LEAF 0xFFFFFFFFu /**< b of a leaf */
/** The root's parent word in a quality build's tree, whose internal nodes
 *  follow no leaf range (0xFFFFFFFF: an LBVH's, numbered as Karras's). */
#define GLRADIX_LBVH_CLUSTERED_ROOT 0xFFFFFFFEu

/** The nodes buffer's bytes: (2 * count - 1) * 32 for the nodes, then
 *  their parent words, ceil((2 * count - 1) / 4) * 16, then the leaves'
 *  primitives, ceil(count / 4) * 16; 0 for count 0;
 *  SIZE_MAX where that does not fit a size_t (32-bit platforms, count
 *  above 2^26). */
GLRADIX_API size_t glradix_lbvh_nodes_bytes(uint32_t count);

/**
 * Morton codes, a stable glradix_sort of (code, primitive index), the
 * leaves, then the internal nodes' topology and boxes in one bottom-up pass
 * in which the second child to arrive at a node continues (Apetrei 2014,
 * numbered as Karras 2012 numbers them; duplicate codes ordered by their
 * sorted index, as if each code were augmented with it; an atomic exchange
 * per node, in shared memory within a work group's leaves; nothing waits on
 * another work group).
 *
 * Quality build (desc->quality nonzero): the same codes and sort, then
 * clusters merged bottom-up instead of one node a radix-tree node (H-PLOC,
 * Benthin et al. 2024): climbing the same radix tree, a range of leaves
 * keeps up to 16 clusters, and when both halves of a range are done, 32
 * invocations merge their clusters, mutual nearest neighbours by the
 * surface area of their union (closest pairs first, neighbours within 2
 * places in Morton order), down to 16, or to one at the root. Same node
 * layout and traversal; internal nodes follow no leaf range (numbered as
 * they are made, the root last, at 0) and the root's parent word is
 * GLRADIX_LBVH_CLUSTERED_ROOT. Its trees cost less to traverse (SAH) and
 * take longer to build: BENCHMARKS.md, "LBVH". Its programs are compiled
 * by its first call on a context (GLRADIX_ERROR_SHADER there, as above).
 *
 * GPU count (desc->count_buffer): the tree of m = min(GPU count, count)
 * primitives is exactly a build of those first m (internal nodes 0 .. m-2,
 * leaves m-1 .. 2m-2, the scene box, if computed, theirs), and the nodes
 * from 2m-1 on are left as they were: m = 0 writes no node, m = 1 makes
 * node 0 the single leaf. The sort runs on the GPU count too (indirect
 * dispatches); nothing is read back, so a cull -> glradix_compact -> build
 * chain needs no round trip.
 *
 * @errors as glradix_morton_codes, plus nodes not a buffer, too small,
 *         mapped or the same buffer as bounds, count 0, and
 *         GLRADIX_ERROR_SHADER when the sort's programs for 63-bit codes or
 *         for large counts are compiled on first use (as glradix_sort);
 *         GLRADIX_ERROR_UNSUPPORTED also for the sort's programs, with no
 *         node written.
 * @gl_state as glradix_sort (this file's header).
 */
GLRADIX_API glradix_status glradix_lbvh_build(glradix_context *ctx, const glradix_lbvh_desc *desc);

/**
 * New boxes for the primitives of a tree that glradix_lbvh_build made
 * (deforming geometry): desc->bounds, count and nodes as for that build
 * (count the same); the Morton and scene-box fields are ignored. No sort
 * and no new links: each leaf takes the box of the primitive the build kept
 * for it, and the internal boxes are refit bottom-up along the parent words
 * the build kept, both in the nodes buffer (nothing the build left on a
 * context is needed, so other builds and sorts may come between, on any
 * context); nodes buffers with no room for those words (2*count-1 nodes
 * alone, or a layout before the kept primitives) are refused as too small,
 * and a buffer no build made gives undefined boxes, nothing written
 * outside it. The boxes are exactly those a build of the same topology
 * gives; the tree's quality follows how far the primitives moved. With a
 * count_buffer, as for the build: the tree of m = min(GPU count, count)
 * primitives (a build of that GPU count) is refit, the nodes from 2m-1 on
 * are left as they were, and m = 0 writes nothing.
 *
 * @errors GLRADIX_ERROR_INVALID_ARGUMENT (ctx or desc NULL; count 0;
 *         bounds or nodes not buffers, too small or mapped; nodes the same
 *         buffer as bounds; count_buffer as for glradix_morton_codes),
 *         GLRADIX_ERROR_TOO_LARGE (as glradix_lbvh_build),
 *         GLRADIX_ERROR_OUT_OF_MEMORY, GLRADIX_ERROR_UNSUPPORTED and
 *         GLRADIX_ERROR_SHADER (as glradix_morton_codes),
 *         GLRADIX_ERROR_GL. One log line each;
 *         on a validation error nothing is written.
 * @gl_state as glradix_sort (this file's header).
 */
GLRADIX_API glradix_status glradix_lbvh_refit(glradix_context *ctx, const glradix_lbvh_desc *desc);

/** Per-step GPU times of an LBVH build or refit (desc.profile). */
typedef struct glradix_lbvh_times {
  double codes_ms;  /**< the scene box (when computed) and the Morton codes; 0 for a refit */
  double sort_ms;   /**< glradix_sort of (code, primitive index); 0 for a refit */
  double leaves_ms; /**< the leaves' boxes gathered, after clearing the exchange slots */
  double tree_ms;   /**< the internal nodes bottom-up: a build's topology, boxes and
                         parent words, a refit's boxes */
  double total_ms;  /**< the first step's start to the last one's end */
} glradix_lbvh_times;

/**
 * Reads the per-step GPU times of the context's last glradix_lbvh_build or
 * glradix_lbvh_refit that passed its checks (waits for the GPU to finish
 * it); all zero before one. The sort's own stages are
 * glradix_query_stage_times'.
 *
 * @errors GLRADIX_ERROR_INVALID_ARGUMENT (ctx or out NULL, or the context was
 *         created without desc.profile), GLRADIX_ERROR_GL. One log line each.
 * @gl_state as glradix_query_stage_times.
 */
GLRADIX_API glradix_status glradix_query_lbvh_times(glradix_context *ctx, glradix_lbvh_times *out);

/**
 * The GLSL traversal of these trees for the application's shaders, the
 * text of the installed glradix/lbvh.glsl (its top says how to use it):
 * closest-hit and any-hit rays and box-overlap queries over the nodes
 * buffer, with the primitive tests the application defines. For programs
 * that assemble shader strings at run time: it follows the #version line
 * and the GLRADIX_LBVH_* #defines.
 *
 * @errors none: a static NUL-terminated string, the same on every call,
 *         never NULL.
 * Thread rules: unlike this file's other functions, any thread at any
 *         time, with or without a context or a current GL context.
 * @gl_state none: no GL call is made.
 */
GLRADIX_API const char *glradix_lbvh_glsl(void);

#ifdef __cplusplus
}
#endif
#endif /* GLRADIX_LBVH_H */
