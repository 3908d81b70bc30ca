// LBVH, internal nodes bottom-up in one pass: one invocation per leaf
// climbs towards the root, and at each parent the first child to arrive
// stops while the second (which then sees its sibling's box) writes the
// parent and climbs on. Nothing waits on another invocation.
// Build (the default): the topology comes from the sorted codes as in
// Apetrei 2014: a node covering leaves [l, r] is its parent's left child
// when its right neighbour shares the longer prefix with it (equal codes
// compare by their sorted index, as if augmented with it), and the
// parent's split is then r, else l - 1. The children exchange their far
// ends at the split, so the second knows the parent's range, and the nodes
// are numbered as Karras 2012 numbers them (a left child is its range's
// right end, a right child its left end, the root 0): the same tree, node
// for node, as the Karras build.
// The build keeps each node's parent word after the nodes (PARENT in
// common.glsl), written where the parent is made.
// Refit (LBVH_REFIT): the topology is the nodes' own, the parents the
// kept words; a child's split is its position (its leaf index or node
// index) if it is the left child, one less if it is the right one. A
// quality build's tree (its root word CLUSTERED_ROOT) follows no leaf
// range: its children exchange at their parent's slot, in global memory.
// Most parents are settled by the work group: it climbs its own WG_SIZE
// leaves while the parent's split lies between two of them, exchanging at
// shared-memory slots, each child's box in the nodes (read back through a
// work-group fence; shared memory holds only the slots and prefixes, so
// more of these latency-bound groups fit a multiprocessor: BENCHMARKS.md,
// "LBVH"); a child whose
// sibling never came (after a barrier) or whose split lies outside
// continues with an exchange slot in global memory per split. Only nodes
// spanning several groups' leaves pay for global atomics.
// n = lbvh_count() primitives; the leaves' boxes are already in the nodes
// (lbvh_leaves.comp or lbvh_refit_leaves.comp) and the slots hold EMPTY.

layout(std430, binding = B_PARENTS) coherent buffer Slots { uint slots[]; };
#define SLOT(g) slots[g]
// Each node as two words, (min, a) and (max, b) (NODE_LO, NODE_HI in
// common.glsl): two 16-byte loads or stores a node.
layout(std430, binding = B_NODES) coherent buffer Nodes { uvec4 nodes[]; };

shared uint s_slot[WG_SIZE];
#ifdef LBVH_REFIT
// The parent words of the group's leaves, then of internal nodes base ..
// base + WG_SIZE - 1: the local climbs find them without a global load.
shared uint s_up[2u * WG_SIZE];
#else
// lbvh_prefix(base - 1 + i) at i: the local climbs' prefixes without global loads
shared int s_delta[WG_SIZE + 1u];
#endif

uint n;
uint base;       // the group's first leaf
uint me;         // build: this node's far end from the split; refit: its node index
uint id;         // this node's index
vec3 lo, hi;     // its box
bool is_left;
uint split;      // its parent's split
bool clustered = false; // refit: a quality build's tree (lbvh_cluster.comp)
#ifdef LBVH_REFIT
uint parent;
#else
uint l, r;       // its range of leaves

// lbvh_prefix(i, n), from shared memory for i in base - 1 .. base + WG_SIZE - 1
int prefix_at(uint i) {
  uint at = i + 1u - base;
  return at <= WG_SIZE ? s_delta[at] : lbvh_prefix(i, n);
}
#endif

// Which child this node is, and its parent's split (false at the root).
// A build's is_left is already set, for a leaf by main, else by join.
bool find_parent() {
#ifdef LBVH_REFIT
  uint pos = id >= n - 1u ? id - (n - 1u) : id;
  uint at = pos - base + (id >= n - 1u ? 0u : WG_SIZE);
  uint word = pos - base < WG_SIZE ? s_up[at] : PARENT(id);
  parent = word & ~RIGHT_CHILD;
  if (word == EMPTY || parent >= n - 1u) return false; // the root, or no tree of n leaves
  is_left = (word & RIGHT_CHILD) == 0u;
  split = clustered ? parent : is_left ? pos : pos - 1u;
  me = id;
#else
  if (l == 0u && r == n - 1u) return false;
  split = is_left ? r : l - 1u;
  me = is_left ? l : r;
#endif
  return true;
}

// The second child at the split, whose sibling's exchange word is
// `other` (a refit's: the sibling's node; a build's: its far end): merges
// the sibling's box from the nodes (behind the caller's fence), writes the
// parent and makes it this invocation's node.
void join(uint other) {
#ifdef LBVH_REFIT
  uint sibling = other;
#else
  uint lft = is_left ? l : other, rgt = is_left ? other : r;
  uint a = lft == split ? n - 1u + split : split;
  uint b = rgt == split + 1u ? n + split : split + 1u;
  uint sibling = is_left ? b : a;
#endif
  lo = min(lo, uintBitsToFloat(NODE_LO(sibling).xyz));
  hi = max(hi, uintBitsToFloat(NODE_HI(sibling).xyz));
#ifdef LBVH_REFIT
  id = parent;
  // whole words (the links are the ones there): no sector written in part
  STORE_NODE(id, lo, is_left ? me : sibling, hi, is_left ? sibling : me);
#else
  l = lft;
  r = rgt;
  // the parent's own index, by which child of its parent it is (the
  // root's prefixes are both -1: not a left child, index l = 0)
  is_left = prefix_at(r) > prefix_at(l - 1u);
  id = is_left ? r : l;
  STORE_NODE(id, lo, a, hi, b);
  PARENT(a) = id;
  PARENT(b) = id | RIGHT_CHILD;
  if (l == 0u && r == n - 1u) PARENT(0u) = EMPTY;
#endif
}

void main() {
  n = lbvh_count();
  uint lid = gl_LocalInvocationID.x;
  base = group_index() * WG_SIZE;
  uint k = base + lid;
  id = n - 1u + k;
  s_slot[lid] = EMPTY;
#ifdef LBVH_REFIT
  s_up[lid] = k < n && n >= 2u ? PARENT(id) : EMPTY;
  s_up[WG_SIZE + lid] = k + 1u < n ? PARENT(k) : EMPTY;
  clustered = n >= 2u && PARENT(0u) == CLUSTERED_ROOT;
#else
  if (n == 1u && k == 0u) PARENT(0u) = EMPTY; // the single leaf is the root
  s_delta[lid + 1u] = lbvh_prefix(k, n);
  if (lid == 0u) s_delta[0] = lbvh_prefix(base - 1u, n);
  l = k;
  r = k;
#endif
  if (k < n) {
    lo = uintBitsToFloat(NODE_LO(id).xyz);
    hi = uintBitsToFloat(NODE_HI(id).xyz);
  }
  barrier();
  bool climbing = n >= 2u && k < n;
  uint last = climbing ? min(base + WG_SIZE, n) - 1u : 0u; // the group's last leaf
  if (climbing) {
#ifndef LBVH_REFIT
    is_left = s_delta[lid + 1u] > s_delta[lid];
#endif
    climbing = find_parent();
  }
  bool in_global = false, waiting = false;
  uint local_steps = min(WG_SIZE, n);
  for (uint step = 0u; climbing && step < local_steps; step++) {
    if (split < base || split >= last || clustered) { // a parent spanning other groups' leaves
      in_global = true;
      break;
    }
    groupMemoryBarrier(); // this node is written before the slot says so
    uint other = atomicExchange(s_slot[split - base], me);
    if (other == EMPTY) {
      waiting = true;
      break;
    }
    groupMemoryBarrier();
    join(other);
    climbing = find_parent();
  }
  barrier();
  // the first child at a split is settled unless its sibling never came
  if (waiting) in_global = s_slot[split - base] == me;
  if (!in_global) return;
#ifdef LBVH_REFIT
  // a quality build's paths: up to CLUSTER_LANES merges a radix level
  uint depth = min(clustered ? MAX_DEPTH * CLUSTER_LANES : MAX_DEPTH, n);
#else
  uint depth = min(MAX_DEPTH, n);
#endif
  for (uint step = 0u; step < depth && split < n - 1u; step++) { // (refit: a broken tree)
    memoryBarrierBuffer(); // this node is written before the slot says so
    uint other = atomicExchange(SLOT(split), me);
    if (other == EMPTY) return;
    memoryBarrierBuffer();
    join(other);
    if (!find_parent()) return;
  }
}
