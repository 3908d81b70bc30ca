// LBVH, Morton codes: each primitive's centroid, normalised to the cube
// over the scene box's longest side (cubic cells: a thin axis gets fewer of
// them, and the tree's boxes follow the scene's shape; BENCHMARKS.md, "Tree
// quality"), quantised to 2^10 (or 2^21) cells per axis and interleaved, x
// in the lowest bit, for the first lbvh_count() primitives (the codes past
// it are left as they were). Optionally also the identity permutation for
// the sort's values.

layout(std430, binding = B_CODES) writeonly buffer Codes { CODE_T codes[]; };
layout(std430, binding = B_INDICES) writeonly buffer Indices { uint indices[]; };

layout(location = LOC_BOX_MIN) uniform vec3 u_box_min;
layout(location = LOC_BOX_MAX) uniform vec3 u_box_max;
layout(location = LOC_BOX_FROM_GPU) uniform uint u_box_from_gpu;
layout(location = LOC_WRITE_INDICES) uniform uint u_write_indices;

#if MORTON_BITS == 63
uvec2 interleave(uvec3 q) {
  uvec2 m = uvec2(0u);
  for (uint b = 0u; b < 21u; b++)
    for (uint c = 0u; c < 3u; c++) {
      uint bit = 3u * b + c, v = (q[c] >> b) & 1u;
      if (bit < 32u) m.x |= v << bit;
      else m.y |= v << (bit - 32u);
    }
  return m;
}
#else
uint spread(uint x) { // 10 bits to every third bit
  x &= 0x3FFu;
  x = (x | (x << 16)) & 0x030000FFu;
  x = (x | (x << 8)) & 0x0300F00Fu;
  x = (x | (x << 4)) & 0x030C30C3u;
  x = (x | (x << 2)) & 0x09249249u;
  return x;
}
uint interleave(uvec3 q) { return spread(q.x) | (spread(q.y) << 1) | (spread(q.z) << 2); }
#endif

void main() {
  vec3 lo = u_box_min, hi = u_box_max;
  if (u_box_from_gpu != 0u) {
    for (uint c = 0u; c < 3u; c++) {
      lo[c] = uintBitsToFloat(unordered_bits(lbvh_state[c]));
      hi[c] = uintBitsToFloat(unordered_bits(lbvh_state[3u + c]));
    }
  }
  vec3 extent = hi - lo;
  float side = max(extent.x, max(extent.y, extent.z)); // the cube's
  uint n = lbvh_count();
  uint base = group_index() * SCAN_TILE;
  for (uint j = 0u; j < SCAN_ITEMS; j++) {
    uint i = base + j * WG_SIZE + gl_LocalInvocationID.x;
    if (i >= n) continue;
    vec3 centre = (bounds[2u * i].xyz + bounds[2u * i + 1u].xyz) * 0.5;
    uvec3 q;
    for (uint c = 0u; c < 3u; c++) {
      float t = side > 0.0 ? clamp((centre[c] - lo[c]) / side, 0.0, 1.0) : 0.0;
      q[c] = uint(min(t * CELLS, CELLS - 1.0));
    }
    codes[i] = interleave(q);
    if (u_write_indices != 0u) indices[i] = i;
  }
}
