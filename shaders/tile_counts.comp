// Reduce-then-scan plan, stage 1: each work group counts the digits of its
// tile of the pass's input (no data moves) and writes them bucket-major,
// counts[bucket * num_tiles + tile], for the scan. With u_skip_bits set
// (the first pass), it also gathers which key bits vary, for pass skipping
// (see pass_skip_bits), saving a read of the keys.

#if (TUNE_VARIANT & 8) != 0
#define RESTRICT restrict
#else
#define RESTRICT
#endif
layout(std430, binding = B_KEYS) RESTRICT readonly buffer Keys { KEY_T keys[]; };
layout(std430, binding = B_COUNTS) RESTRICT writeonly buffer Counts { uint counts[]; };

layout(location = LOC_SHIFT) uniform uint u_shift;
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits;
layout(location = LOC_NUM_TILES) uniform uint u_num_tiles;
layout(location = LOC_PASS) uniform uint u_pass;
layout(location = LOC_SKIP_BITS) uniform uint u_skip_bits; // nonzero: gather key bits

shared uint s_counts[BUCKETS];

void main() {
  uint tile = group_index();
#if (TUNE_VARIANT & 1) != 0
  // Loads first: bounded by the bound range, not by the count read below.
  KEY_T pre[ITEMS];
  {
    uint len = uint(keys.length()), b0 = tile * TILE;
    for (uint j = 0u; j < ITEMS; j++) {
      uint i = b0 + j * WG_SIZE + gl_LocalInvocationID.x;
      pre[j] = i < len ? keys[i] : KEY_T(0u);
    }
  }
#endif
  // A skipped pass is copied by shuffle_scatter without counts.
  if (tile >= u_num_tiles || tile * TILE >= sort_count() || skip[SKIP_FLAGS + u_pass] != 0u)
    return;
  uint lid = gl_LocalInvocationID.x;
  uint base = tile * TILE;
  uint tile_n = min(sort_count() - base, TILE);
  uint mask = (1u << u_digit_bits) - 1u;
  for (uint b = lid; b < BUCKETS; b += WG_SIZE) s_counts[b] = 0u;
  clear_key_bits();
  barrier();
  KEY_T ones = KEY_T(0u), zeros = KEY_T(0u);
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) {
#if (TUNE_VARIANT & 1) != 0
      KEY_T key = sort_key(pre[j]);
#else
      KEY_T key = sort_key(keys[base + i]);
#endif
      ones |= key;
      zeros |= ~key;
      atomicAdd(s_counts[key_digit(key, u_shift, mask)], 1u);
    }
  }
  if (u_skip_bits != 0u) gather_key_bits(ones, zeros);
  barrier();
  for (uint b = lid; b < BUCKETS; b += WG_SIZE) counts[b * u_num_tiles + tile] = s_counts[b];
  if (u_skip_bits != 0u) publish_key_bits();
}
