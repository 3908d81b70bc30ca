// LBVH leaves: leaf k (node n - 1 + k) takes primitive indices[k] and its
// box, for the u_window_size primitives from u_prim_window only: lbvh.c
// dispatches it once per window, so that the random reads of the bounds
// stay within one window at a time (H200, 16M boxes: this step took 32.4
// ms in one window, 1.36 ms in windows of 4M). Each invocation looks at
// LEAF_ITEMS consecutive leaves. n = lbvh_count() primitives (a GPU count:
// the nodes from 2n - 1 on are left as they were).

layout(std430, binding = B_INDICES) readonly buffer Indices { uint indices[]; };
layout(std430, binding = B_NODES) writeonly buffer Nodes { uvec4 nodes[]; };

layout(location = LOC_PRIM_WINDOW) uniform uint u_prim_window;
layout(location = LOC_WINDOW_SIZE) uniform uint u_window_size;

void main() {
  uint first = (group_index() * WG_SIZE + gl_LocalInvocationID.x) * LEAF_ITEMS;
  uint n = lbvh_count();
  for (uint i = 0u; i < LEAF_ITEMS; i++) {
    uint k = first + i;
    if (k >= n) return;
    uint prim = indices[k];
    if (prim - u_prim_window >= u_window_size) continue; // another window's (wraps below it)
    STORE_NODE(n - 1u + k, bounds[2u * prim].xyz, prim, bounds[2u * prim + 1u].xyz, 0xFFFFFFFFu);
  }
}
