// LBVH, topology (Karras 2012): one invocation per node. Internal node i
// finds the range of sorted codes it covers and its split from the lengths
// of common prefixes (equal codes compare by their sorted index, as if
// augmented with it), then links its two children. Leaf k (node n - 1 + k)
// takes primitive indices[k] and its box. Parents go to `parents` for refit.
// n = lbvh_count() primitives (a GPU count: the nodes from 2n - 1 on, and
// all of them for n = 0, are left as they were).
// A dispatch covers every node, or with u_leaves_only the leaves (node
// n - 1 + invocation: n is on the GPU), and writes the leaves
// of the u_window_size primitives from u_prim_window only: lbvh.c dispatches
// the leaves again for each further window, so that the random reads of
// the bounds stay within one window at a time (on the H200, reads spread
// over all of them took this kernel 23 ms at 16M boxes, against 3.3 ms
// at 12M, and 176 ms at 24M: 16M builds took 30.2 ms against 11.5 ms in
// windows, 24M 191 ms against 18.0 ms).

layout(std430, binding = B_CODES) readonly buffer Codes { CODE_T codes[]; };
layout(std430, binding = B_INDICES) readonly buffer Indices { uint indices[]; };
layout(std430, binding = B_NODES) writeonly buffer Nodes { Node nodes[]; };
layout(std430, binding = B_PARENTS) writeonly buffer Parents { uint parents[]; };

layout(location = LOC_LEAVES_ONLY) uniform uint u_leaves_only;
layout(location = LOC_PRIM_WINDOW) uniform uint u_prim_window;
layout(location = LOC_WINDOW_SIZE) uniform uint u_window_size;

int clz(CODE_T x) {
#if MORTON_BITS == 63
  return x.y != 0u ? 31 - findMSB(x.y) : 63 - findMSB(x.x);
#else
  return 31 - findMSB(x);
#endif
}

// Common prefix length of sorted keys i and j; -1 outside [0, n).
int delta(int i, int j, uint n) {
  if (j < 0 || j >= int(n)) return -1;
  CODE_T a = codes[i], b = codes[j];
  if (a == b) return CODE_LEN + (31 - findMSB(uint(i ^ j)));
  return clz(a ^ b);
}

void main() {
  uint at = group_index() * WG_SIZE + gl_LocalInvocationID.x;
  uint n = lbvh_count();
  if (n == 0u) return;
  uint id = u_leaves_only != 0u ? n - 1u + at : at;
  if (id >= 2u * n - 1u) return;
  if (id >= n - 1u) {
    uint prim = indices[id - (n - 1u)];
    if (prim - u_prim_window >= u_window_size) return; // another window's (wraps below it)
    nodes[id] = Node(bounds[2u * prim].xyz, prim, bounds[2u * prim + 1u].xyz, 0xFFFFFFFFu);
    return;
  }
  int i = int(id);
  int d = delta(i, i + 1, n) - delta(i, i - 1, n) > 0 ? 1 : -1;
  int dmin = delta(i, i - d, n);
  int lmax = 2; // bounded: doubles at most log2(n) + 1 times
  while (delta(i, i + lmax * d, n) > dmin) lmax *= 2;
  int l = 0;
  for (int t = lmax / 2; t >= 1; t /= 2)
    if (delta(i, i + (l + t) * d, n) > dmin) l += t;
  int j = i + l * d;
  int dnode = delta(i, j, n);
  int s = 0;
  int t = l;
  do {
    t = (t + 1) / 2;
    if (delta(i, i + (s + t) * d, n) > dnode) s += t;
  } while (t > 1);
  int gamma = i + s * d + min(d, 0);
  uint left = min(i, j) == gamma ? n - 1u + uint(gamma) : uint(gamma);
  uint right = max(i, j) == gamma + 1 ? n + uint(gamma) : uint(gamma + 1);
  nodes[id].a = left;
  nodes[id].b = right;
  parents[left] = id;
  parents[right] = id;
}
