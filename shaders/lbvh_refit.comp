// LBVH, boxes bottom-up: one invocation per leaf walks towards the root.
// At each node an atomic counter tells the two children apart: the first to
// arrive stops, the second (which then sees its sibling's box) writes the
// union and continues. Nothing waits on another invocation. The counters
// follow the 2 * u_capacity - 1 parents, for a tree of n = lbvh_count()
// <= u_capacity primitives.

layout(std430, binding = B_NODES) coherent buffer Nodes { Node nodes[]; };
layout(std430, binding = B_PARENTS) coherent buffer Parents { uint parents[]; }; // then counters

void main() {
  uint n = lbvh_count();
  uint counters = 2u * u_capacity - 1u;
  uint k = group_index() * WG_SIZE + gl_LocalInvocationID.x;
  if (n < 2u || k >= n) return;
  uint node = parents[n - 1u + k];
  // At most one step per level. Prefix lengths grow down the tree, and
  // equal codes extend them by index bits: at most 64 + 32 levels for the
  // widest (63-bit) codes. This program serves both widths, so the bound
  // is the wide one, not CODE_LEN + 32.
  for (uint step = 0u; step < 96u && node != 0xFFFFFFFFu; step++) {
    memoryBarrierBuffer(); // this child's box is written before the counter says so
    if (atomicAdd(parents[counters + node], 1u) == 0u) return;
    memoryBarrierBuffer();
    Node l = nodes[nodes[node].a], r = nodes[nodes[node].b];
    nodes[node].min = min(l.min, r.min);
    nodes[node].max = max(l.max, r.max);
    node = parents[node];
  }
}
