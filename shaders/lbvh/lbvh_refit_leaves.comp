// LBVH refit of a built tree, first step: the leaves' new boxes. Leaf k
// (node n - 1 + k) keeps its primitive, read from the build's kept words
// (LEAF_PRIM), and takes that primitive's box, for the u_window_size
// primitives from u_prim_window only (the leaves gather their bounds in
// windows, as lbvh_leaves.comp's do). Whole node words are stored, so that
// no 32-byte sector is written in part. The parent links are the build's,
// kept after the nodes (lbvh_tree.comp reads them).
// A primitive out of range (a buffer that is no tree of lbvh_count()
// primitives) is skipped, so that nothing is read outside the bounds.

layout(std430, binding = B_NODES) buffer Nodes { uvec4 nodes[]; };

layout(location = LOC_PRIM_WINDOW) uniform uint u_prim_window;
layout(location = LOC_WINDOW_SIZE) uniform uint u_window_size;

void main() {
  uint k = group_index() * WG_SIZE + gl_LocalInvocationID.x;
  uint n = lbvh_count();
  if (k >= n) return;
  uint a = LEAF_PRIM(k);
  if (a >= n || a - u_prim_window >= u_window_size) return; // another window's (wraps below it)
  STORE_NODE(n - 1u + k, bounds[2u * a].xyz, a, bounds[2u * a + 1u].xyz, 0xFFFFFFFFu); // node 0 when n is 1
}
