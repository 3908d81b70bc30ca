// Reduce-then-scan plan, stage 1: each work group counts the digits of its
// tile of the pass's input (no data moves) and writes them bucket-major,
// counts[bucket * num_tiles + tile], for the scan.

layout(std430, binding = B_KEYS) readonly buffer Keys { KEY_T keys[]; };
layout(std430, binding = B_COUNTS) writeonly buffer Counts { uint counts[]; };

layout(location = LOC_SHIFT) uniform uint u_shift;
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits;
layout(location = LOC_NUM_TILES) uniform uint u_num_tiles;
layout(location = LOC_PASS) uniform uint u_pass;

shared uint s_hist[BUCKETS];

void main() {
  uint tile = group_index();
  // A skipped pass is copied by shuffle_scatter without counts.
  if (tile >= u_num_tiles || tile * TILE >= sort_count() || skip[SKIP_FLAGS + u_pass] != 0u)
    return;
  uint lid = gl_LocalInvocationID.x;
  uint base = tile * TILE;
  uint tile_n = min(sort_count() - base, TILE);
  uint mask = (1u << u_digit_bits) - 1u;
  for (uint b = lid; b < BUCKETS; b += WG_SIZE) s_hist[b] = 0u;
  barrier();
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) atomicAdd(s_hist[key_digit(sort_key(keys[base + i]), u_shift, mask)], 1u);
  }
  barrier();
  for (uint b = lid; b < BUCKETS; b += WG_SIZE) counts[b * u_num_tiles + tile] = s_hist[b];
}
