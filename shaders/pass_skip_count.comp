// Pass skipping, step 1: one read of the keys counts the digits of every
// pass at once: skip[pass * BUCKETS + digit] (global atomics, after a
// shared-memory histogram per work group).

layout(std430, binding = B_KEYS) readonly buffer Keys { KEY_T keys[]; };

layout(location = LOC_SHIFT) uniform uint u_shift;           // begin_bit
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits; // end_bit - begin_bit
layout(location = LOC_NUM_TILES) uniform uint u_num_tiles;

shared uint s_count[SKIP_FLAGS];

void main() {
  uint tile = group_index();
  if (tile >= u_num_tiles || tile * TILE >= sort_count()) return;
  uint lid = gl_LocalInvocationID.x;
  uint base = tile * TILE;
  uint tile_n = min(sort_count() - base, TILE);
  uint passes = (u_digit_bits + RADIX_BITS - 1u) / RADIX_BITS;

  for (uint i = lid; i < passes * BUCKETS; i += WG_SIZE) s_count[i] = 0u;
  barrier();
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) {
      KEY_T key = sort_key(keys[base + i]);
      for (uint p = 0u; p < passes; p++) {
        uint width = min(RADIX_BITS, u_digit_bits - p * RADIX_BITS);
        uint d = key_digit(key, u_shift + p * RADIX_BITS, (1u << width) - 1u);
        atomicAdd(s_count[p * BUCKETS + d], 1u);
      }
    }
  }
  barrier();
  for (uint i = lid; i < passes * BUCKETS; i += WG_SIZE)
    if (s_count[i] != 0u) atomicAdd(skip[i], s_count[i]);
}
