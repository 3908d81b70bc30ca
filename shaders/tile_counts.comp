// Reduce-then-scan plan, stage 1: each work group counts the digits of its
// tile of the pass's input (no data moves) and writes them bucket-major,
// counts[bucket * num_tiles + tile], for the scan. With u_skip_bits set
// (the first pass), it also counts the digits of every pass for pass
// skipping (see pass_skip_count), saving a read of the keys.

layout(std430, binding = B_KEYS) readonly buffer Keys { KEY_T keys[]; };
layout(std430, binding = B_COUNTS) writeonly buffer Counts { uint counts[]; };

layout(location = LOC_SHIFT) uniform uint u_shift;
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits;
layout(location = LOC_NUM_TILES) uniform uint u_num_tiles;
layout(location = LOC_PASS) uniform uint u_pass;
layout(location = LOC_SKIP_BITS) uniform uint u_skip_bits; // 0, or end_bit - begin_bit

void main() {
  uint tile = group_index();
  // A skipped pass is copied by shuffle_scatter without counts.
  if (tile >= u_num_tiles || tile * TILE >= sort_count() || skip[SKIP_FLAGS + u_pass] != 0u)
    return;
  uint lid = gl_LocalInvocationID.x;
  uint base = tile * TILE;
  uint tile_n = min(sort_count() - base, TILE);
  uint mask = (1u << u_digit_bits) - 1u;
  // This pass's histogram is s_pass_counts[0, BUCKETS): with u_skip_bits,
  // it is pass 0's part of the all-pass counts.
  clear_pass_counts(max(pass_total(u_skip_bits), 1u) * BUCKETS);
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) {
      KEY_T key = sort_key(keys[base + i]);
      if (u_skip_bits != 0u) count_key_passes(key, u_shift, u_skip_bits);
      else atomicAdd(s_pass_counts[key_digit(key, u_shift, mask)], 1u);
    }
  }
  barrier();
  for (uint b = lid; b < BUCKETS; b += WG_SIZE) counts[b * u_num_tiles + tile] = s_pass_counts[b];
  if (u_skip_bits != 0u) publish_pass_counts(u_skip_bits);
}
