// Reduce-then-scan plan, stage 3: the local shuffle and the global scatter
// in one kernel. Each work group ranks its tile of the pass's input by the
// digit with the same stable 4-way splits as local_shuffle, then moves every
// key (and value) straight from the input to its place in the output:
// counts[d * num_tiles + tile] (scanned) + (slot - first slot of d). The
// tile never goes through scratch memory, so a pass reads and writes each
// key once (plus the count kernel's read); input and output alternate.

#if (TUNE_VARIANT & 8) != 0
#define RESTRICT restrict
#else
#define RESTRICT
#endif
layout(std430, binding = B_KEYS) RESTRICT readonly buffer Keys { KEY_T keys[]; };
layout(std430, binding = B_TILE_KEYS) RESTRICT writeonly buffer OutKeys { KEY_T out_keys[]; };
layout(std430, binding = B_COUNTS) RESTRICT readonly buffer Counts { uint counts[]; };
#if HAS_VALUES
layout(std430, binding = B_VALUES) RESTRICT readonly buffer Values { uint values[]; };
layout(std430, binding = B_TILE_VALUES) RESTRICT writeonly buffer OutValues { uint out_values[]; };
#endif

layout(location = LOC_SHIFT) uniform uint u_shift;
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits;
layout(location = LOC_NUM_TILES) uniform uint u_num_tiles;
layout(location = LOC_PASS) uniform uint u_pass;

shared uint s_first[BUCKETS];

void main() {
  uint tile = group_index();
#if (TUNE_VARIANT & 2) != 0
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
#if (TUNE_VARIANT & 32) != 0 && HAS_VALUES
  uint vacc = 0u;
  {
    uint len = uint(values.length()), b0 = tile * TILE;
    for (uint j = 0u; j < ITEMS; j++) {
      uint i = b0 + j * WG_SIZE + gl_LocalInvocationID.x;
      vacc ^= i < len ? values[i] : 0u;
    }
  }
#endif
  if (tile >= u_num_tiles || tile * TILE >= sort_count()) return;
  uint lid = gl_LocalInvocationID.x;
  uint base = tile * TILE;
  uint tile_n = min(sort_count() - base, TILE);
  if (skip[SKIP_FLAGS + u_pass] != 0u) {
    // Every key has the same digit: the pass is the identity, but its output
    // is the other buffer. Copy the tile.
    for (uint j = 0u; j < ITEMS; j++) {
      uint i = base + j * WG_SIZE + lid;
      if (i < sort_count()) {
        out_keys[i] = keys[i];
#if HAS_VALUES
        out_values[i] = values[i];
#endif
      }
    }
    return;
  }
  uint mask = (1u << u_digit_bits) - 1u;
  // Coalesced load. Padding past the end takes the largest digit and starts
  // last, so stable splits keep it at the tile's end.
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
#if (TUNE_VARIANT & 2) != 0
    KEY_T key = i < tile_n ? sort_key(pre[j]) : KEY_MAX;
#else
    KEY_T key = i < tile_n ? sort_key(keys[base + i]) : KEY_MAX;
#endif
    s_work[padded(i)] = (key_digit(key, u_shift, mask) << 16) | i;
  }
  barrier();
  split_work_words(u_digit_bits);
#if (TUNE_VARIANT & 32) != 0 && HAS_VALUES
  if (vacc == 0x9E3779B9u && u_pass == 0xFFFFu) s_first[0] = vacc; // keeps the prefetch
#endif

  // The first slot of each bucket present in the tile is where the digit changes.
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) {
      uint d = s_work[padded(i)] >> 16;
      if (i == 0u || (s_work[padded(i - 1u)] >> 16) != d) s_first[d] = i;
    }
  }
  barrier();
#if (TUNE_VARIANT & 4) != 0
  // Every load first, then every store: the moves' latencies overlap.
  uint to[ITEMS];
  KEY_T mk[ITEMS];
#if HAS_VALUES
  uint mv[ITEMS];
#endif
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    uint w = s_work[padded(min(i, TILE - 1u))];
    uint d = w >> 16;
    uint from = base + (w & 0xFFFFu);
    to[j] = i < tile_n ? counts[d * u_num_tiles + tile] + (i - s_first[d]) : 0xFFFFFFFFu;
    if (i < tile_n) {
      mk[j] = keys[from];
#if HAS_VALUES
      mv[j] = values[from];
#endif
    }
  }
  for (uint j = 0u; j < ITEMS; j++) {
    if (to[j] != 0xFFFFFFFFu) {
      out_keys[to[j]] = mk[j];
#if HAS_VALUES
      out_values[to[j]] = mv[j];
#endif
    }
  }
#else
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) {
      uint w = s_work[padded(i)];
      uint d = w >> 16;
      uint from = base + (w & 0xFFFFu);
      uint to = counts[d * u_num_tiles + tile] + (i - s_first[d]);
      out_keys[to] = keys[from];
#if HAS_VALUES
      out_values[to] = values[from];
#endif
    }
  }
#endif
}
