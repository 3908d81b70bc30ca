// glradix LBVH traversal for the application's own shaders: closest-hit and
// any-hit rays and box-overlap queries over the nodes glradix_lbvh_build
// writes (glradix/lbvh.h), in any stage that reads storage buffers.
// GLSL 4.30+ and GLSL ES 3.10+ (every declaration is highp, so a fragment
// shader's default precisions do not matter).
//
// HOW TO USE. GLSL has no #include: the shader's strings are, in order,
//   1. the #version line (the application's: `#version 430` or later, or
//      `#version 310 es` or later);
//   2. the configuration, as #defines:
//        #define GLRADIX_LBVH_BINDING 3  // required: the nodes' SSBO binding
//        #define GLRADIX_LBVH_RAY        // glradix_lbvh_closest_hit, _any_hit
//        #define GLRADIX_LBVH_BOX        // glradix_lbvh_box_query
//   3. this text: the installed <include>/glradix/lbvh.glsl, or at run time
//      glradix_lbvh_glsl() (glradix/lbvh.h), e.g. as one of the strings
//      given to glShaderSource;
//   4. the application's code, which defines the functions that the queries
//      it asked for call (prototyped here, so definitions may follow):
//
//   GLRADIX_LBVH_RAY: the ray against primitive `prim` (the index into the
//   bounds given to the build). Returns the smallest distance t (position
//   origin + t * dir) at which the ray meets the primitive with
//   tmin <= t <= tmax, or any value outside [tmin, tmax] when there is none
//   (-1.0 where tmin >= 0, say; a hit past tmax may be returned as it is).
//   tmax is the closest distance found so far: a hit at exactly tmax must
//   be returned, because it may win a tie.
//     float glradix_lbvh_ray_prim(uint prim, vec3 origin, vec3 dir,
//                                 float tmin, float tmax);
//
//   GLRADIX_LBVH_BOX: called once for each primitive whose bounds (its
//   leaf's box) overlap the query box; do any finer test here. Return true
//   to go on, false to end the query.
//     bool glradix_lbvh_box_hit(uint prim);
//
//   On OpenGL ES, a definition's return type and parameters must be highp
//   like the prototypes (a compute shader's defaults are; in a fragment
//   shader write highp or set `precision highp float; precision highp int;`).
//
// THE QUERIES (each only with its macro; without either, the node struct
// and buffer alone, for a traversal of the application's own):
//
//   uint glradix_lbvh_closest_hit(vec3 origin, vec3 dir, float tmin,
//                                 float tmax, out float t);
//     The primitive with the smallest distance that glradix_lbvh_ray_prim
//     returns within [tmin, tmax] (both ends included), and that distance in
//     t; equal distances: the lowest primitive index, so the answer does
//     not depend on the order in which nodes are visited. GLRADIX_LBVH_MISS
//     (and t = tmax) when no primitive is hit.
//   bool glradix_lbvh_any_hit(vec3 origin, vec3 dir, float tmin, float tmax);
//     Whether glradix_lbvh_ray_prim returns a distance within [tmin, tmax]
//     for some primitive (shadow rays: dir = light - point, tmax = 1); stops
//     at the first one found.
//   uint glradix_lbvh_box_query(vec3 lo, vec3 hi);
//     Calls glradix_lbvh_box_hit for each primitive whose bounds overlap the
//     closed box [lo, hi] (touching counts), in no particular order, and
//     returns how many calls were made.
//
// The queries only read the buffer and use no barrier: any invocation may
// call them, in any control flow, as often as it likes.
//
// Rays: dir need not be normalised; t is in units of dir. A component of
// dir that is 0 (or below the smallest normal float, which GPUs may flush to
// 0) is taken exactly: the ray never leaves that axis's slab, inside it or
// out, and the box tests make no infinity or NaN. Origins inside boxes,
// boxes of zero size and flat boxes work; coordinates must be finite (tmax
// may be +infinity where the GPU has one).
//
// The tree: the buffer at GLRADIX_LBVH_BINDING holds the nodes of a tree of
// at least one primitive (a build with a GPU count of 0 writes none, so
// skip the queries then). One tree per shader; a larger buffer is fine.
//
// Cost and limits: each query loops once per internal node it visits (a box
// query that overlaps everything visits all of them), and keeps a stack of
// GLRADIX_LBVH_STACK_SIZE uints per invocation. Drivers that bound loops
// (Mesa's llvmpipe stops a shader's loops at 65,535 iterations in all)
// cut off queries that visit more nodes than that.
//
// Culling is conservative: a box's exit distance is widened by a relative
// 2^-19 (16 float ulps), so that the rounding of the slab test, or of a
// primitive test whose hit lies in the primitive's box, never culls a hit;
// a node whose box is entered exactly at the best distance so far is
// visited (ties). Visiting a little more costs time, never the answer: the
// primitive tests decide.
#ifndef GLRADIX_LBVH_GLSL
#define GLRADIX_LBVH_GLSL

#ifndef GLRADIX_LBVH_BINDING
#error "glradix/lbvh.glsl: #define GLRADIX_LBVH_BINDING (the nodes' SSBO binding) first"
#endif

// A leaf's b; what glradix_lbvh_closest_hit returns on a miss.
#define GLRADIX_LBVH_LEAF 0xFFFFFFFFu
#define GLRADIX_LBVH_MISS 0xFFFFFFFFu

// The stack that every query keeps. A tree's paths are short: the prefix
// length of the index-augmented codes grows strictly from a node to its
// internal children and stays below CODE_LEN + 32 bits (62 for 30-bit codes,
// 95 for 63-bit), so a path holds at most 95 internal nodes, at depths 0..94.
// The traversal pushes only internal nodes, at most one a level (the sibling
// of the child it enters), and pops the deepest first, so the stack holds
// nodes of distinct depths 1..94: 94 entries at most on any tree the build
// makes. No overflow, so no fallback.
#define GLRADIX_LBVH_STACK_SIZE 96

// Node layout (32 bytes, std430): as glradix_lbvh_node in glradix/lbvh.h.
// Internal nodes 0 .. n-2 (the root at 0) have children a and b; leaves
// n-1 .. 2n-2 have their primitive in a and b == GLRADIX_LBVH_LEAF; with one
// primitive, node 0 is the leaf.
struct glradix_lbvh_node {
  highp vec3 min;
  highp uint a;
  highp vec3 max;
  highp uint b;
};

layout(std430, binding = GLRADIX_LBVH_BINDING) readonly buffer glradix_lbvh_nodes_block {
  glradix_lbvh_node glradix_lbvh_nodes[];
};

// Names ending in an underscore are this file's own.

// Relative widening of a box's exit distance (see the top of the file).
#define GLRADIX_LBVH_WIDEN_ 1.9073486e-6
// Beyond any finite distance a query can ask about, without an infinity
// (GLSL ES need not have them).
#define GLRADIX_LBVH_FAR_ 3.4028235e38

// Every internal node is visited at most once, and there are fewer of them
// than entries in the buffer: a loop bound that a valid tree never reaches
// and that ends a query on a malformed buffer instead of hanging the GPU.
highp uint glradix_lbvh_loop_bound_() {
  return uint(glradix_lbvh_nodes.length());
}

// Every query's step down: with both children hit, child a (when a_first)
// or b next and the other pushed; with one hit, that one; with none, the
// top of the stack, or out of the loop once it is empty. A macro, since a
// GLSL function would copy the stack in and out.
#define GLRADIX_LBVH_NEXT_(a_first)                                            \
  if (hit_a && hit_b) {                                                        \
    stack[sp++] = (a_first) ? cb : ca;                                         \
    node = (a_first) ? ca : cb;                                                \
  } else if (hit_a) {                                                          \
    node = ca;                                                                 \
  } else if (hit_b) {                                                          \
    node = cb;                                                                 \
  } else {                                                                     \
    if (sp == 0) break;                                                        \
    node = stack[--sp];                                                        \
  }

#if defined(GLRADIX_LBVH_RAY)

highp float glradix_lbvh_ray_prim(highp uint prim, highp vec3 origin, highp vec3 dir,
                                  highp float tmin, highp float tmax);

// A ray as the box tests take it: axes it does not move along (`still`)
// get inv 0, so that no 0 * inf makes a NaN; the others 1 / dir.
struct glradix_lbvh_ray_ {
  highp vec3 origin;
  highp vec3 inv;
  bvec3 still;
};

glradix_lbvh_ray_ glradix_lbvh_make_ray_(highp vec3 origin, highp vec3 dir) {
  glradix_lbvh_ray_ r;
  r.origin = origin;
  // 1.17549435e-38: the smallest normal float; below it GPUs may flush to 0
  r.still = lessThan(abs(dir), vec3(1.17549435e-38));
  r.inv = mix(vec3(1.0) / mix(dir, vec3(1.0), r.still), vec3(0.0), r.still);
  return r;
}

// Slab test: whether the ray meets the closed box [lo, hi] at some t in
// [tmin, tmax] (tmax widened), and where it enters (clamped to tmin).
bool glradix_lbvh_slab_(glradix_lbvh_ray_ r, highp vec3 lo, highp vec3 hi, highp float tmin,
                        highp float tmax, out highp float enter) {
  highp vec3 t0 = (lo - r.origin) * r.inv, t1 = (hi - r.origin) * r.inv;
  highp vec3 tn = min(t0, t1), tf = max(t0, t1);
  // a still axis: every t if the origin is in the slab, none otherwise
  bvec3 outside = bvec3(uvec3(lessThan(r.origin, lo)) | uvec3(greaterThan(r.origin, hi)));
  highp vec3 big = vec3(GLRADIX_LBVH_FAR_);
  tn = mix(tn, mix(-big, big, outside), r.still);
  tf = mix(tf, mix(big, -big, outside), r.still);
  enter = max(max(tn.x, tn.y), max(tn.z, tmin));
  highp float exit = min(min(tf.x, tf.y), min(tf.z, tmax));
  // widened away from 0 on either side (a multiply: -inf stays -inf)
  exit *= exit > 0.0 ? 1.0 + GLRADIX_LBVH_WIDEN_ : 1.0 - GLRADIX_LBVH_WIDEN_;
  return enter <= exit;
}

// A leaf's primitive against the closest hit so far (t, best): it replaces
// it when closer, or as close with a lower index, so the answer is the
// lowest (distance, index) pair whatever the visiting order.
void glradix_lbvh_closest_leaf_(highp uint prim, highp vec3 origin, highp vec3 dir,
                                highp float tmin, inout highp float t, inout highp uint best) {
  highp float tp = glradix_lbvh_ray_prim(prim, origin, dir, tmin, t);
  if (tp >= tmin && (tp < t || (tp == t && prim < best))) {
    t = tp;
    best = prim;
  }
}

// Whether a leaf's primitive is hit in [tmin, tmax].
bool glradix_lbvh_any_leaf_(highp uint prim, highp vec3 origin, highp vec3 dir,
                            highp float tmin, highp float tmax) {
  highp float tp = glradix_lbvh_ray_prim(prim, origin, dir, tmin, tmax);
  return tp >= tmin && tp <= tmax;
}

highp uint glradix_lbvh_closest_hit(highp vec3 origin, highp vec3 dir, highp float tmin,
                                    highp float tmax, out highp float t) {
  glradix_lbvh_ray_ r = glradix_lbvh_make_ray_(origin, dir);
  highp uint best = GLRADIX_LBVH_MISS;
  t = tmax;
  glradix_lbvh_node root = glradix_lbvh_nodes[0];
  highp float enter_a, enter_b;
  if (root.b == GLRADIX_LBVH_LEAF) { // one primitive
    glradix_lbvh_closest_leaf_(root.a, origin, dir, tmin, t, best);
    return best;
  }
  if (!glradix_lbvh_slab_(r, root.min, root.max, tmin, tmax, enter_a)) return best;
  highp uint stack[GLRADIX_LBVH_STACK_SIZE];
  highp int sp = 0;
  highp uint node = 0u;
  highp uint bound = glradix_lbvh_loop_bound_();
  for (highp uint i = 0u; i < bound; i++) {
    highp uint ca = glradix_lbvh_nodes[node].a, cb = glradix_lbvh_nodes[node].b;
    glradix_lbvh_node a = glradix_lbvh_nodes[ca], b = glradix_lbvh_nodes[cb];
    bool hit_a = glradix_lbvh_slab_(r, a.min, a.max, tmin, t, enter_a);
    bool hit_b = glradix_lbvh_slab_(r, b.min, b.max, tmin, t, enter_b);
    // leaves are tested here rather than pushed
    if (hit_a && a.b == GLRADIX_LBVH_LEAF) {
      glradix_lbvh_closest_leaf_(a.a, origin, dir, tmin, t, best);
      hit_a = false;
    }
    if (hit_b && b.b == GLRADIX_LBVH_LEAF) {
      glradix_lbvh_closest_leaf_(b.a, origin, dir, tmin, t, best);
      hit_b = false;
    }
    GLRADIX_LBVH_NEXT_(enter_a <= enter_b) // the nearer first, the other later
  }
  return best;
}

bool glradix_lbvh_any_hit(highp vec3 origin, highp vec3 dir, highp float tmin,
                          highp float tmax) {
  glradix_lbvh_ray_ r = glradix_lbvh_make_ray_(origin, dir);
  glradix_lbvh_node root = glradix_lbvh_nodes[0];
  highp float enter_a, enter_b;
  if (root.b == GLRADIX_LBVH_LEAF) return glradix_lbvh_any_leaf_(root.a, origin, dir, tmin, tmax);
  if (!glradix_lbvh_slab_(r, root.min, root.max, tmin, tmax, enter_a)) return false;
  highp uint stack[GLRADIX_LBVH_STACK_SIZE];
  highp int sp = 0;
  highp uint node = 0u;
  highp uint bound = glradix_lbvh_loop_bound_();
  for (highp uint i = 0u; i < bound; i++) {
    highp uint ca = glradix_lbvh_nodes[node].a, cb = glradix_lbvh_nodes[node].b;
    glradix_lbvh_node a = glradix_lbvh_nodes[ca], b = glradix_lbvh_nodes[cb];
    bool hit_a = glradix_lbvh_slab_(r, a.min, a.max, tmin, tmax, enter_a);
    bool hit_b = glradix_lbvh_slab_(r, b.min, b.max, tmin, tmax, enter_b);
    if (hit_a && a.b == GLRADIX_LBVH_LEAF) {
      if (glradix_lbvh_any_leaf_(a.a, origin, dir, tmin, tmax)) return true;
      hit_a = false;
    }
    if (hit_b && b.b == GLRADIX_LBVH_LEAF) {
      if (glradix_lbvh_any_leaf_(b.a, origin, dir, tmin, tmax)) return true;
      hit_b = false;
    }
    GLRADIX_LBVH_NEXT_(true)
  }
  return false;
}

#endif // GLRADIX_LBVH_RAY

#if defined(GLRADIX_LBVH_BOX)

bool glradix_lbvh_box_hit(highp uint prim);

bool glradix_lbvh_overlap_(highp vec3 lo, highp vec3 hi, glradix_lbvh_node n) {
  return all(lessThanEqual(lo, n.max)) && all(lessThanEqual(n.min, hi));
}

highp uint glradix_lbvh_box_query(highp vec3 lo, highp vec3 hi) {
  highp uint calls = 0u;
  glradix_lbvh_node root = glradix_lbvh_nodes[0];
  if (!glradix_lbvh_overlap_(lo, hi, root)) return 0u;
  if (root.b == GLRADIX_LBVH_LEAF) {
    glradix_lbvh_box_hit(root.a);
    return 1u;
  }
  highp uint stack[GLRADIX_LBVH_STACK_SIZE];
  highp int sp = 0;
  highp uint node = 0u;
  highp uint bound = glradix_lbvh_loop_bound_();
  for (highp uint i = 0u; i < bound; i++) {
    highp uint ca = glradix_lbvh_nodes[node].a, cb = glradix_lbvh_nodes[node].b;
    glradix_lbvh_node a = glradix_lbvh_nodes[ca], b = glradix_lbvh_nodes[cb];
    bool hit_a = glradix_lbvh_overlap_(lo, hi, a);
    bool hit_b = glradix_lbvh_overlap_(lo, hi, b);
    if (hit_a && a.b == GLRADIX_LBVH_LEAF) {
      calls++;
      if (!glradix_lbvh_box_hit(a.a)) return calls;
      hit_a = false;
    }
    if (hit_b && b.b == GLRADIX_LBVH_LEAF) {
      calls++;
      if (!glradix_lbvh_box_hit(b.a)) return calls;
      hit_b = false;
    }
    GLRADIX_LBVH_NEXT_(true)
  }
  return calls;
}

#endif // GLRADIX_LBVH_BOX

#endif // GLRADIX_LBVH_GLSL
