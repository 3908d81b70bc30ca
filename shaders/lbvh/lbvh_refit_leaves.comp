// LBVH refit of a built tree, first step: the leaves' new boxes. Leaf k
// (node n - 1 + k) keeps its primitive a and takes that primitive's box,
// for the u_window_size primitives from u_prim_window only (the leaves
// gather their bounds in windows, as lbvh_leaves.comp's do); the first
// window's dispatch copies the leaves' primitives to `prims`, so that the
// later ones read 4 bytes a leaf instead of a 16-byte node word. The parent
// links are the build's, kept after the nodes (lbvh_tree.comp reads them).
// A primitive out of range (a buffer that is no tree of lbvh_count()
// primitives) is skipped, so that nothing is read outside the bounds.

layout(std430, binding = B_NODES) buffer Nodes { uvec4 nodes[]; };
layout(std430, binding = B_INDICES) buffer Prims { uint prims[]; };

layout(location = LOC_PRIM_WINDOW) uniform uint u_prim_window;
layout(location = LOC_WINDOW_SIZE) uniform uint u_window_size;

void main() {
  uint k = group_index() * WG_SIZE + gl_LocalInvocationID.x;
  uint n = lbvh_count();
  if (k >= n) return;
  uint id = n - 1u + k; // node 0 when n is 1
  uint a;
  if (u_prim_window == 0u) {
    a = NODE_LO(id).w;
    prims[k] = a;
  } else {
    a = prims[k];
  }
  if (a >= n || a - u_prim_window >= u_window_size) return; // another window's (wraps below it)
  NODE_LO(id).xyz = floatBitsToUint(bounds[2u * a].xyz);
  NODE_HI(id).xyz = floatBitsToUint(bounds[2u * a + 1u].xyz);
}
