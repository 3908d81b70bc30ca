// Stage 3: global scatter. Each work group moves its digit-grouped tile to
// the scanned bucket offsets: a key at tile slot i with bucket d goes to
// counts[d * num_tiles + tile] + (i - first slot of d in the tile). Keys of
// one bucket are consecutive in the tile, so the writes are coalesced runs.

layout(std430, binding = B_KEYS) writeonly buffer Keys { KEY_T keys[]; };
layout(std430, binding = B_TILE_KEYS) readonly buffer TileKeys { KEY_T tile_keys[]; };
layout(std430, binding = B_COUNTS) readonly buffer Counts { uint counts[]; };
#if HAS_VALUES
layout(std430, binding = B_VALUES) writeonly buffer Values { uint values[]; };
layout(std430, binding = B_TILE_VALUES) readonly buffer TileValues { uint tile_values[]; };
#endif

layout(location = LOC_SHIFT) uniform uint u_shift;
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits;

#if STAGED
// The tile's keys, read once (src/gl/prelude.c: where they fit in shared memory).
shared KEY_T s_keys[TILE];
#define TILE_KEY(i) s_keys[i]
#else
#define TILE_KEY(i) tile_keys[base + (i)]
#endif
shared uint s_first[BUCKETS];

void main() {
  uint tile = group_index();
  uint tile_n = keys_in_tile(tile);
  if (tile_n == 0u || pass_skipped(u_shift, u_digit_bits)) return; // see local_shuffle
  uint lid = gl_LocalInvocationID.x;
  uint base = tile * TILE;
  uint mask = (1u << u_digit_bits) - 1u;

#if STAGED
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) s_keys[i] = tile_keys[base + i];
  }
  barrier();
#endif
  // The first slot of each bucket present in the tile is where the digit changes.
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) {
      uint d = key_digit(sort_key(TILE_KEY(i)), u_shift, mask);
      if (i == 0u || key_digit(sort_key(TILE_KEY(i - 1u)), u_shift, mask) != d) s_first[d] = i;
    }
  }
  barrier();
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) {
      KEY_T key = TILE_KEY(i);
      uint d = key_digit(sort_key(key), u_shift, mask);
      uint dst = counts[d * u_num_tiles + tile] + (i - s_first[d]);
      keys[dst] = key;
#if HAS_VALUES
      values[dst] = tile_values[base + i];
#endif
    }
  }
}
