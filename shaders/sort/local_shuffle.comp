// Stage 1: block-local shuffle (needs SCAN_T = uvec2 from the C side).
// Each work group sorts one tile of TILE keys by the pass's digit with
// successive stable 4-way splits of one (digit, slot) word per key in shared
// memory (s_work, common.glsl), then writes the keys (and values) to scratch
// in that order, fetched once from global memory the group has just read
// (cached), and its bucket counts bucket-major:
// counts[bucket * num_tiles + tile]. Shared memory per tile stays small,
// which keeps many groups resident per multiprocessor. With u_gather_key_bits set
// (the first pass), it also gathers which key bits vary, for pass skipping.

layout(std430, binding = B_KEYS) readonly buffer Keys { KEY_T keys[]; };
layout(std430, binding = B_TILE_KEYS) writeonly buffer TileKeys { KEY_T tile_keys[]; };
layout(std430, binding = B_COUNTS) writeonly buffer Counts { uint counts[]; };
#if HAS_VALUES
layout(std430, binding = B_VALUES) readonly buffer Values { uint values[]; };
layout(std430, binding = B_TILE_VALUES) writeonly buffer TileValues { uint tile_values[]; };
#endif

layout(location = LOC_SHIFT) uniform uint u_shift;
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits;
layout(location = LOC_GATHER_KEY_BITS) uniform uint u_gather_key_bits; // nonzero: gather key bits

shared uint s_hist[BUCKETS];

void main() {
  uint tile = group_index();
  KEY_T loaded[ITEMS];
  LOAD_TILE_KEYS(loaded, tile);
  // The whole group leaves: the grid overshoots, or every key has the same
  // digit in this pass (pass skipping), which would leave them where they are.
  uint tile_n = keys_in_tile(tile);
  // The first pass gathers the bits pass_skipped reads, and is never skipped here.
  if (tile_n == 0u || (u_gather_key_bits == 0u && pass_skipped(u_shift, u_digit_bits))) return;
  uint lid = gl_LocalInvocationID.x;
  uint base = tile * TILE;
  uint mask = (1u << u_digit_bits) - 1u;

  for (uint b = lid; b < BUCKETS; b += WG_SIZE) s_hist[b] = 0u;
  clear_key_bits();
  // Coalesced load. Padding past the end takes the largest digit and starts
  // last, so stable splits keep it at the tile's end.
  KEY_T ones = KEY_T(0u), zeros = KEY_T(0u);
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    KEY_T key = i < tile_n ? sort_key(loaded[j]) : KEY_MAX;
    if (i < tile_n) {
      ones |= key;
      zeros |= ~key;
    }
    s_work[padded(i)] = (key_digit(key, u_shift, mask) << 16) | i;
  }
  barrier();
  if (u_gather_key_bits != 0u) gather_key_bits(ones, zeros);

  split_work_words(0u, u_digit_bits);

  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) { // padding sits at the end of the tile
      uint w = s_work[padded(i)];
      uint from = base + (w & 0xFFFFu);
      atomicAdd(s_hist[w >> 16], 1u);
      tile_keys[base + i] = keys[from];
#if HAS_VALUES
      tile_values[base + i] = values[from];
#endif
    }
  }
  barrier();
  for (uint b = lid; b < BUCKETS; b += WG_SIZE) counts[b * u_num_tiles + tile] = s_hist[b];
  if (u_gather_key_bits != 0u) publish_key_bits();
}
