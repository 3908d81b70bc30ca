// LBVH quality build (H-PLOC: Benthin, Meister, Barczak, Mohan & Bittner,
// HPG 2024). The bottom-up climb of lbvh_tree.comp over the sorted codes'
// radix tree, but a range of leaves is not made one internal node: it
// keeps up to HALF clusters (subtrees), and when both children of a range
// are done, a warp of CLUSTER_LANES invocations merges their clusters by
// nearest neighbour (PLOC: mutual nearest neighbours under the surface
// area of their union) until HALF are left, or one at the root. The
// nodes follow no leaf range: an internal node takes the next index
// counting down from n - 2, so the last, the root, is 0.
// A range of at most HALF leaves holds its leaves as its clusters; a
// larger one writes its HALF clusters at its first leaf's place in
// `clusters` (the sorted indices, dead after lbvh_leaves), so a range of
// size s holds min(s, HALF) of them and no count is stored.
// A warp is a work group of CLUSTER_LANES invocations, kept in step by
// barriers (subgroup warps, several a group, ran slower: BENCHMARKS.md,
// "Tried and dropped"). Nothing waits on another work group: the second
// child to arrive at a range goes on, as in lbvh_tree.comp.
// n = lbvh_count() primitives; the leaves' boxes are already in the nodes,
// the exchange slots hold EMPTY and the node counter is 0.

layout(std430, binding = B_INDICES) coherent buffer Clusters { uint clusters[]; };
layout(std430, binding = B_PARENTS) coherent buffer Slots { uint slots[]; };
layout(std430, binding = B_NODES) coherent buffer Nodes { uvec4 nodes[]; };

const uint LANES = CLUSTER_LANES;
const uint HALF = CLUSTER_LANES / 2u;

// the area without fused multiply-adds, so that every driver (and the
// tests' CPU reference) picks the same neighbours
#if !defined(GL_ES) || defined(GL_OES_gpu_shader5)
#define PRECISE precise
#else
#define PRECISE
#endif

// The warp's clusters while it merges a range (lane i holds cluster i),
// and its queue of ranges to merge.
shared vec3 s_lo[LANES];
shared vec3 s_hi[LANES];
shared uint s_id[LANES];
shared uint s_nn[LANES];
shared uvec2 s_key[LANES]; // a cluster's pair with its neighbour: area bits, pair
shared uvec3 s_range[LANES]; // first leaf, split, last leaf
shared uint s_queue[LANES];
shared uint s_queued;
shared uint s_live;
shared uint s_mutual;  // bit i: cluster i merges with a later one
shared uint s_removed; // bit j: cluster j merged into an earlier one

uint n;
uint lane;

// The nearest of cluster i's neighbours within CLUSTER_RADIUS places: the
// least surface area of the union, ties to the lower pair, so that the
// least pair of all is mutual and every round merges. The area's float
// bits compare as uints, NaN and negative areas too (a total order).
uvec2 nearest(uint i, uint count, out uint best) {
  uint best_d = 0xFFFFFFFFu, best_pair = 0xFFFFFFFFu;
  best = i;
  uint from = i > CLUSTER_RADIUS ? i - CLUSTER_RADIUS : 0u;
  uint to = min(i + CLUSTER_RADIUS, count - 1u);
  for (uint j = from; j <= to; j++) {
    if (j == i) continue;
    uint a = min(i, j), b = max(i, j);
    PRECISE vec3 e = max(s_hi[a], s_hi[b]) - min(s_lo[a], s_lo[b]);
    PRECISE float area = (e.x * e.y + e.y * e.z) + e.z * e.x;
    uint d = floatBitsToUint(area), pair = a * LANES + b;
    if (d < best_d || (d == best_d && pair < best_pair)) {
      best = j;
      best_d = d;
      best_pair = pair;
    }
  }
  return uvec2(best_d, best_pair);
}

bool key_less(uvec2 a, uvec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }

// The warp merges range [first, last] (its children split after `split`)
// down to HALF clusters, or one at the root, and writes them at `first`.
// Called by the whole warp; returns behind a barrier.
void merge(uvec3 range) {
  uint first = range.x, split = range.y, last = range.z;
  uint left = split - first + 1u, right = last - split;
  uint from_left = min(left, HALF);
  uint count = from_left + min(right, HALF);
  uint target = first == 0u && last == n - 1u ? 1u : HALF;
  uint id = 0u;
  vec3 lo = vec3(0.0), hi = vec3(0.0);
  if (lane < count) {
    bool in_left = lane < from_left;
    uint pos = in_left ? first + lane : split + 1u + (lane - from_left);
    id = (in_left ? left : right) <= HALF ? n - 1u + pos : clusters[pos];
    lo = uintBitsToFloat(NODE_LO(id).xyz);
    hi = uintBitsToFloat(NODE_HI(id).xyz);
  }
  s_lo[lane] = lo;
  s_hi[lane] = hi;
  s_id[lane] = id;
  barrier();
  // each round merges at least one pair: at most count - 1 rounds
  uint rounds = count;
  for (uint round = 0u; round < rounds && count > target; round++) {
    uint nn = lane;
    uvec2 key = uvec2(0xFFFFFFFFu);
    if (lane < count) key = nearest(lane, count, nn);
    s_nn[lane] = nn;
    s_key[lane] = key;
    barrier();
    bool mutual = lane < nn && nn < count && s_nn[nn] == lane;
    if (mutual) atomicOr(s_mutual, 1u << lane);
    barrier();
    // the count - target closest mutual pairs merge, so exactly target
    // are left (the rest may pair better in the next round)
    uint closer = 0u;
    for (uint m = mutual ? s_mutual : 0u; m != 0u; m &= m - 1u)
      if (key_less(s_key[uint(findLSB(m))], key)) closer++;
    if (mutual && closer < count - target) {
      uint node = n - 2u - atomicAdd(lbvh_state[LBVH_NODE_SLOT], 1u);
      uint other = s_id[nn];
      lo = min(lo, s_lo[nn]);
      hi = max(hi, s_hi[nn]);
      STORE_NODE(node, lo, id, hi, other);
      PARENT(id) = node;
      PARENT(other) = node | RIGHT_CHILD;
      id = node;
      atomicOr(s_removed, 1u << nn);
    }
    barrier();
    uint removed = s_removed;
    if (lane < count && (removed >> lane & 1u) == 0u) { // compacted, in order
      uint to = lane - uint(bitCount(removed & ((1u << lane) - 1u)));
      s_lo[to] = lo;
      s_hi[to] = hi;
      s_id[to] = id;
    }
    count -= uint(bitCount(removed));
    barrier();
    lo = s_lo[lane];
    hi = s_hi[lane];
    id = s_id[lane];
    if (lane == 0u) {
      s_mutual = 0u;
      s_removed = 0u;
    }
  }
  if (lane < count) clusters[first + lane] = id;
  if (target == 1u && lane == 0u) PARENT(id) = CLUSTERED_ROOT;
  memoryBarrierBuffer(); // the clusters and nodes are written before a slot says so
  barrier();
}

void main() {
  n = lbvh_count();
  lane = gl_LocalInvocationID.x;
  uint k = group_index() * LANES + lane;
  if (n == 1u && k == 0u) PARENT(0u) = CLUSTERED_ROOT; // the single leaf is the root
  bool climbing = n >= 2u && k < n;
  uint l = k, r = k; // this invocation's range of leaves
  if (lane == 0u) {
    s_queued = 0u;
    s_live = 0u;
    s_mutual = 0u;
    s_removed = 0u;
  }
  barrier();
  // one radix level a step (MAX_DEPTH: common.glsl)
  uint levels = min(MAX_DEPTH, n) + 1u;
  for (uint level = 0u; level < levels; level++) {
    if (climbing) {
      bool is_left = lbvh_prefix(r, n) > lbvh_prefix(l - 1u, n);
      uint split = is_left ? r : l - 1u;
      memoryBarrierBuffer();
      uint other = atomicExchange(slots[split], is_left ? l : r);
      if (other == EMPTY) {
        climbing = false; // the sibling goes on
      } else {
        memoryBarrierBuffer();
        if (is_left) r = other;
        else l = other;
        bool root = l == 0u && r == n - 1u;
        if (root || r - l >= HALF) { // more than HALF leaves: merge
          s_queue[atomicAdd(s_queued, 1u)] = lane;
          s_range[lane] = uvec3(l, split, r);
        }
        if (root) climbing = false;
      }
    }
    if (climbing) atomicAdd(s_live, 1u);
    barrier();
    uint queued = s_queued;
    bool live = s_live != 0u;
    barrier(); // read by every lane before lane 0 clears them
    // a merge of one range by the whole warp (ranges merged in the same
    // step are disjoint)
    for (uint q = 0u; q < queued; q++) merge(s_range[s_queue[q]]);
    if (lane == 0u) {
      s_queued = 0u;
      s_live = 0u;
    }
    barrier();
    if (!live) break;
  }
}
