// Pass skipping, step 1 (scan-then-propagate plan; reduce-then-scan does
// this in its first tile_counts): one read of the keys counts the digits of
// every pass at once into skip[pass * BUCKETS + digit].

layout(std430, binding = B_KEYS) readonly buffer Keys { KEY_T keys[]; };

layout(location = LOC_SHIFT) uniform uint u_shift;           // begin_bit
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits; // end_bit - begin_bit
layout(location = LOC_NUM_TILES) uniform uint u_num_tiles;

void main() {
  uint tile = group_index();
  if (tile >= u_num_tiles || tile * TILE >= sort_count()) return;
  uint lid = gl_LocalInvocationID.x;
  uint base = tile * TILE;
  uint tile_n = min(sort_count() - base, TILE);
  clear_pass_counts(pass_total(u_digit_bits) * BUCKETS);
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) count_key_passes(sort_key(keys[base + i]), u_shift, u_digit_bits);
  }
  barrier();
  publish_pass_counts(u_digit_bits);
}
