// LBVH, scene box: min and max over all primitive bounds, as ordered float
// bits, merged with atomics (each work group reduces its share in shared
// memory first), over the first lbvh_count() primitives. The C side starts
// the box at (+max, -min).

shared uint s_box[6];

void main() {
  uint lid = gl_LocalInvocationID.x;
  uint n = lbvh_count();
  if (lid < 6u) s_box[lid] = lid < 3u ? 0xFFFFFFFFu : 0u;
  barrier();
  uint base = group_index() * SCAN_TILE;
  for (uint j = 0u; j < SCAN_ITEMS; j++) {
    uint i = base + j * WG_SIZE + lid;
    if (i >= n) continue;
    vec3 lo = bounds[2u * i].xyz, hi = bounds[2u * i + 1u].xyz;
    for (uint c = 0u; c < 3u; c++) {
      atomicMin(s_box[c], ordered_bits(floatBitsToUint(lo[c])));
      atomicMax(s_box[3u + c], ordered_bits(floatBitsToUint(hi[c])));
    }
  }
  barrier();
  if (lid < 3u) atomicMin(lbvh_state[lid], s_box[lid]);
  else if (lid < 6u) atomicMax(lbvh_state[lid], s_box[lid]);
}
