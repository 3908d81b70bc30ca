// LBVH leaves: leaf k (node n - 1 + k) takes primitive indices[k] and its
// box, for the u_window_size primitives from u_prim_window only: lbvh.c
// dispatches it once per window, so that the random reads of the bounds
// stay within one window at a time: random reads spread over more than
// about 128 MB slow down sharply (BENCHMARKS.md, "LBVH").
// The first window's dispatch also keeps each leaf's primitive for refits
// (LEAF_PRIM). n = lbvh_count() primitives (a GPU count: the nodes from
// 2n - 1 on are left as they were).

layout(std430, binding = B_INDICES) readonly buffer Indices { uint indices[]; };
layout(std430, binding = B_NODES) writeonly buffer Nodes { uvec4 nodes[]; };

layout(location = LOC_PRIM_WINDOW) uniform uint u_prim_window;
layout(location = LOC_WINDOW_SIZE) uniform uint u_window_size;

void main() {
  uint k = group_index() * WG_SIZE + gl_LocalInvocationID.x;
  uint n = lbvh_count();
  if (k >= n) return;
  uint prim = indices[k];
  if (u_prim_window == 0u) LEAF_PRIM(k) = prim;
  if (prim - u_prim_window >= u_window_size) return; // another window's (wraps below it)
  STORE_NODE(n - 1u + k, bounds[2u * prim].xyz, prim, bounds[2u * prim + 1u].xyz, 0xFFFFFFFFu);
}
