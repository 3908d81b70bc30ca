// Reduce-then-scan plan, stage 1: each work group counts the digits of its
// COUNT_TILES tiles of the pass's input (no data moves; the loads of all of
// them in flight at once) and writes them bucket-major,
// counts[bucket * num_tiles + tile], for the scan. With u_gather_key_bits set
// (the first pass), it also gathers which key bits vary, for pass skipping
// (WITH_KEY_BITS in common.glsl), saving a read of the keys.

layout(std430, binding = B_KEYS) readonly buffer Keys { KEY_T keys[]; };
layout(std430, binding = B_COUNTS) writeonly buffer Counts { uint counts[]; };

layout(location = LOC_SHIFT) uniform uint u_shift;
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits;
layout(location = LOC_PASS) uniform uint u_pass;
layout(location = LOC_GATHER_KEY_BITS) uniform uint u_gather_key_bits; // nonzero: gather key bits

shared uint s_counts[COUNT_TILES * BUCKETS];

// With at most 4 buckets (radix_bits 2) shared atomics on 4 words would
// queue behind each other: each invocation counts in registers, 8 bits a
// bucket, and the group adds those up 16 bits a bucket, bucket pairs
// {0, 1} and {2, 3} in s_counts[tile * BUCKETS + {0, 1}] (a tile holds at
// most 65535 keys, so a field never carries into the next).
#define FEW_BUCKETS (COUNT_REGS != 0 && BUCKETS <= 4u)
#if FEW_BUCKETS
void add_packed_counts(uint t, uint mine) {
  uvec2 wide = uvec2((mine & 0xFFu) | ((mine & 0xFF00u) << 8),
                     ((mine >> 16) & 0xFFu) | ((mine >> 8) & 0xFF0000u));
#if BLOCK_SCAN == 2
  wide = subgroupAdd(wide);
  if (!subgroupElect()) return;
#endif
  if (wide.x != 0u) atomicAdd(s_counts[t * BUCKETS], wide.x);
  if (wide.y != 0u) atomicAdd(s_counts[t * BUCKETS + 1u], wide.y);
}
#endif

void main() {
  uint first_tile = group_index() * COUNT_TILES;
  KEY_T loaded[COUNT_TILES][ITEMS];
  for (uint t = 0u; t < COUNT_TILES; t++) LOAD_TILE_KEYS(loaded[t], first_tile + t);
  // A skipped pass is copied by shuffle_scatter without counts.
  if (keys_in_tile(first_tile) == 0u || skip[SKIP_FLAGS + u_pass] != 0u) return;
  uint lid = gl_LocalInvocationID.x;
  uint mask = (1u << u_digit_bits) - 1u;
  for (uint b = lid; b < COUNT_TILES * BUCKETS; b += WG_SIZE) s_counts[b] = 0u;
  clear_key_bits();
  barrier();
  KEY_T ones = KEY_T(0u), zeros = KEY_T(0u);
  for (uint t = 0u; t < COUNT_TILES; t++) {
    uint tile_n = keys_in_tile(first_tile + t);
    uint mine = 0u;
    for (uint j = 0u; j < ITEMS; j++) {
      if (j * WG_SIZE + lid < tile_n) {
        KEY_T key = sort_key(loaded[t][j]);
        ones |= key;
        zeros |= ~key;
#if FEW_BUCKETS
        mine += 1u << (key_digit(key, u_shift, mask) << 3);
#else
        atomicAdd(s_counts[t * BUCKETS + key_digit(key, u_shift, mask)], 1u);
#endif
      }
    }
#if FEW_BUCKETS
    add_packed_counts(t, mine);
#endif
  }
  if (u_gather_key_bits != 0u) gather_key_bits(ones, zeros);
  barrier();
  for (uint t = 0u; t < COUNT_TILES; t++) {
    uint tile = first_tile + t;
    if (tile < u_num_tiles)
      for (uint b = lid; b < BUCKETS; b += WG_SIZE) {
#if FEW_BUCKETS
        uint n = (s_counts[t * BUCKETS + (b >> 1)] >> ((b & 1u) << 4)) & 0xFFFFu;
#else
        uint n = s_counts[t * BUCKETS + b];
#endif
        counts[b * u_num_tiles + tile] = n;
      }
  }
  if (u_gather_key_bits != 0u) publish_key_bits();
}
