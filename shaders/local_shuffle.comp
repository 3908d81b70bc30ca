// Stage 1: block-local shuffle (needs SCAN_T = uvec2 from the C side).
// Each work group sorts one tile of TILE keys (and values) by the pass's
// digit with successive stable 4-way splits in shared memory, writes the tile
// back in that order and its bucket counts bucket-major:
// counts[bucket * num_tiles + tile].

layout(std430, binding = B_KEYS) readonly buffer Keys { uint keys[]; };
layout(std430, binding = B_TILE_KEYS) writeonly buffer TileKeys { uint tile_keys[]; };
layout(std430, binding = B_COUNTS) writeonly buffer Counts { uint counts[]; };
#if HAS_VALUES
layout(std430, binding = B_VALUES) readonly buffer Values { uint values[]; };
layout(std430, binding = B_TILE_VALUES) writeonly buffer TileValues { uint tile_values[]; };
#endif

layout(location = LOC_COUNT) uniform uint u_count;
layout(location = LOC_SHIFT) uniform uint u_shift;
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits;
layout(location = LOC_NUM_TILES) uniform uint u_num_tiles;

shared uint s_keys[TILE];
#if HAS_VALUES
shared uint s_values[TILE];
#endif
shared uint s_hist[BUCKETS];

void main() {
  uint tile = group_index();
  if (tile >= u_num_tiles) return; // the whole group leaves: the grid overshoots
  uint lid = gl_LocalInvocationID.x;
  uint base = tile * TILE;
  uint tile_n = min(u_count - base, TILE);
  uint mask = (1u << u_digit_bits) - 1u;

  for (uint b = lid; b < BUCKETS; b += WG_SIZE) s_hist[b] = 0u;
  // Coalesced load. Padding past the end is all ones: it has the largest
  // digit and starts last, so stable splits keep it at the tile's end.
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    bool live = i < tile_n;
    s_keys[i] = live ? keys[base + i] : 0xFFFFFFFFu;
#if HAS_VALUES
    s_values[i] = live ? values[base + i] : 0u;
#endif
  }
  barrier();

  // For the splits each invocation owns ITEMS consecutive slots, in the
  // order of the block scan, so ranks follow tile order and every split is stable.
  uint own = scan_index() * ITEMS;
  uint k[ITEMS];
#if HAS_VALUES
  uint v[ITEMS];
#endif
  for (uint j = 0u; j < ITEMS; j++) {
    k[j] = s_keys[own + j];
#if HAS_VALUES
    v[j] = s_values[own + j];
#endif
  }

  for (uint bit = 0u; bit < u_digit_bits; bit += 2u) {
    // This invocation's count of each 2-bit sub-digit, 16 bits per counter
    // (a tile holds at most 65535 keys): x = {0, 1}, y = {2, 3}.
    uvec2 mine = uvec2(0u);
    for (uint j = 0u; j < ITEMS; j++) {
      uint d = (((k[j] >> u_shift) & mask) >> bit) & 3u;
      mine += (d < 2u) ? uvec2(1u << (16u * d), 0u) : uvec2(0u, 1u << (16u * (d - 2u)));
    }
    uvec2 total;
    uvec2 before = block_exclusive_scan(mine, total);
    uint c0 = total.x & 0xFFFFu, c1 = total.x >> 16, c2 = total.y & 0xFFFFu;
    uvec4 next = uvec4(0u, c0, c0 + c1, c0 + c1 + c2) +
                 uvec4(before.x & 0xFFFFu, before.x >> 16, before.y & 0xFFFFu, before.y >> 16);
    // The scan ended on a barrier: nobody reads s_keys any more.
    for (uint j = 0u; j < ITEMS; j++) {
      uint d = (((k[j] >> u_shift) & mask) >> bit) & 3u;
      uint slot = next[d];
      next[d] = slot + 1u;
      s_keys[slot] = k[j];
#if HAS_VALUES
      s_values[slot] = v[j];
#endif
    }
    barrier();
    for (uint j = 0u; j < ITEMS; j++) {
      k[j] = s_keys[own + j];
#if HAS_VALUES
      v[j] = s_values[own + j];
#endif
    }
  }

  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    uint key = s_keys[i];
    if (i < tile_n) atomicAdd(s_hist[(key >> u_shift) & mask], 1u);
    tile_keys[base + i] = key;
#if HAS_VALUES
    tile_values[base + i] = s_values[i];
#endif
  }
  barrier();
  for (uint b = lid; b < BUCKETS; b += WG_SIZE) counts[b * u_num_tiles + tile] = s_hist[b];
}
