// LBVH refit of a built tree, first step: the parent links, from the nodes
// themselves (glradix_lbvh_refit reads nothing a build left in scratch),
// and the leaves' new boxes. One invocation per node: internal node i
// writes itself as the parent of its children a and b; a leaf takes the box
// of its primitive a. lbvh_tree.comp then redoes the internal boxes
// bottom-up. The root's parent and the exchange slots are lbvh.c's fill.
// Dispatched over every node, then the leaves only, the leaves of the
// u_window_size primitives from u_prim_window only (the leaves gather
// their bounds in windows, as lbvh_leaves.comp's do). Links out of range (a
// buffer that is no tree of lbvh_count() primitives) are skipped, so that
// nothing is written outside the nodes and parents; nor is anything past
// that tree's 2n - 1 nodes.

layout(std430, binding = B_NODES) buffer Nodes { uvec4 nodes[]; };
layout(std430, binding = B_PARENTS) writeonly buffer Parents { uint parents[]; };
// The leaves' primitives, copied by the dispatch over every node, so that
// the leaves-only dispatches read 4 bytes a leaf instead of a 32-byte node.
layout(std430, binding = B_INDICES) buffer Prims { uint prims[]; };

layout(location = LOC_LEAVES_ONLY) uniform uint u_leaves_only;
layout(location = LOC_PRIM_WINDOW) uniform uint u_prim_window;
layout(location = LOC_WINDOW_SIZE) uniform uint u_window_size;

void main() {
  uint at = group_index() * WG_SIZE + gl_LocalInvocationID.x;
  uint n = lbvh_count();
  if (n == 0u) return;
  uint id = u_leaves_only != 0u ? n - 1u + at : at;
  uint total = 2u * n - 1u;
  if (id >= total) return;
  uint leaf = id - (n - 1u);
  uint a = u_leaves_only != 0u ? prims[leaf] : NODE_LO(id).w;
  if (id >= n - 1u) { // a leaf (node 0 when n is 1)
    if (u_leaves_only == 0u) prims[leaf] = a;
    if (a >= n || a - u_prim_window >= u_window_size) return; // another window's (wraps below it)
    NODE_LO(id).xyz = floatBitsToUint(bounds[2u * a].xyz);
    NODE_HI(id).xyz = floatBitsToUint(bounds[2u * a + 1u].xyz);
    return;
  }
  uint b = NODE_HI(id).w;
  if (a < total) parents[a] = id;
  if (b < total) parents[b] = id | RIGHT_CHILD;
}
