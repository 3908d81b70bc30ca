// LBVH, scene box: min and max over all primitive bounds, as ordered float
// bits, over the first lbvh_count() primitives: each work group reduces its
// share, then merges it with atomics. The C side starts the box at (+max,
// -min).

// The group's six extremes, one per invocation each, reduced as a tree:
// six shared atomics per primitive on the same six words serialise on
// CPU rasterizers (BENCHMARKS.md, "LBVH").
shared uint s_box[6u * WG_SIZE];

void main() {
  uint lid = gl_LocalInvocationID.x;
  uint n = lbvh_count();
  uint box[6] = uint[6](0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0u, 0u, 0u);
  uint base = group_index() * SCAN_TILE;
  for (uint j = 0u; j < SCAN_ITEMS; j++) {
    uint i = base + j * WG_SIZE + lid;
    if (i >= n) continue;
    vec3 lo = bounds[2u * i].xyz, hi = bounds[2u * i + 1u].xyz;
    for (uint c = 0u; c < 3u; c++) {
      box[c] = min(box[c], ordered_bits(floatBitsToUint(lo[c])));
      box[3u + c] = max(box[3u + c], ordered_bits(floatBitsToUint(hi[c])));
    }
  }
  for (uint c = 0u; c < 6u; c++) s_box[c * WG_SIZE + lid] = box[c];
  barrier();
  for (uint half_n = WG_SIZE / 2u; half_n > 0u; half_n /= 2u) {
    if (lid < half_n) {
      for (uint c = 0u; c < 3u; c++) {
        uint at = c * WG_SIZE + lid;
        s_box[at] = min(s_box[at], s_box[at + half_n]);
        at += 3u * WG_SIZE;
        s_box[at] = max(s_box[at], s_box[at + half_n]);
      }
    }
    barrier();
  }
  if (lid < 3u) atomicMin(lbvh_state[lid], s_box[lid * WG_SIZE]);
  else if (lid < 6u) atomicMax(lbvh_state[lid], s_box[lid * WG_SIZE]);
}
