// Reduce-then-scan plan, stage 3: the local shuffle and the global scatter
// in one kernel. Each work group ranks its tile of the pass's input by the
// digit with the same stable 4-way splits as local_shuffle, then moves every
// key (and value) straight from the input to its place in the output:
// counts[d * num_tiles + tile] (scanned) + (slot - first slot of d). The
// tile never goes through scratch memory, so a pass reads and writes each
// key once (plus the count kernel's read); input and output alternate.
// The keys and the tile's bucket offsets are read first, together, so that
// a work group waits on global memory once before ranking. Each invocation
// reads the ITEMS consecutive slots it owns in the splits, and ranks the
// first split from registers (measured on the H200 against coalesced loads
// written to shared memory first: 16M pairs 1% faster at radix_bits 8 and
// 6% at radix_bits 2, 64M pairs 2% and 5%).

layout(std430, binding = B_KEYS) readonly buffer Keys { KEY_T keys[]; };
layout(std430, binding = B_KEYS) readonly buffer KeysVec { OWNED_VEC_T keys_vec[]; }; // LOAD_OWNED_KEYS
layout(std430, binding = B_TILE_KEYS) writeonly buffer OutKeys { KEY_T out_keys[]; };
layout(std430, binding = B_COUNTS) readonly buffer Counts { uint counts[]; };
#if HAS_VALUES
layout(std430, binding = B_VALUES) readonly buffer Values { uint values[]; };
layout(std430, binding = B_TILE_VALUES) writeonly buffer OutValues { uint out_values[]; };
#endif

layout(location = LOC_SHIFT) uniform uint u_shift;
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits;
layout(location = LOC_PASS) uniform uint u_pass;
// Where the scan left level 1, the scanned totals of level 0's blocks (the
// scan stops short of adding them to level 0), or NO_BLOCK_SUMS.
layout(location = LOC_BLOCK_SUMS) uniform uint u_block_sums;
// Nonzero: the scan left those totals unscanned too (few of them, at most
// FOLD_SUMS): each block's offset is the sum of the totals before it. One
// dispatch fewer per pass.
layout(location = LOC_SUMS_RAW) uniform uint u_sums_raw;

// Each bucket's offset in the output, then less its first slot in the tile.
shared uint s_dest[BUCKETS];

// What level 0's block `block` adds to its block-local scan.
uint block_offset(uint block) {
  if (u_block_sums == NO_BLOCK_SUMS) return 0u;
  if (u_sums_raw == 0u) return counts[u_block_sums + block];
  uint sum = 0u;
  for (uint k = 0u; k < min(block, FOLD_SUMS); k++) sum += counts[u_block_sums + k];
  return sum;
}

void main() {
  uint tile = group_index();
  KEY_T loaded[ITEMS];
  uint own = scan_index() * ITEMS;
  LOAD_OWNED_KEYS(loaded, tile, own);
  if (tile < u_num_tiles)
    for (uint b = gl_LocalInvocationID.x; b < BUCKETS; b += WG_SIZE) {
      uint at = b * u_num_tiles + tile;
      s_dest[b] = counts[at] + block_offset(at / SCAN_TILE);
    }
  uint tile_n = keys_in_tile(tile);
  if (tile_n == 0u) return;
  uint lid = gl_LocalInvocationID.x;
  uint base = tile * TILE;
  uint mask = (1u << u_digit_bits) - 1u;
  if (skip[SKIP_FLAGS + u_pass] != 0u) {
    // Every key has the same digit: the pass is the identity, but its output
    // is the other buffer. Copy the tile.
    for (uint j = 0u; j < ITEMS; j++) {
      uint i = own + j;
      if (i < tile_n) {
        out_keys[base + i] = loaded[j];
#if HAS_VALUES
        out_values[base + i] = values[base + i];
#endif
      }
    }
    return;
  }
  // Padding past the end takes the largest digit and starts last, so stable
  // splits keep it at the tile's end.
  uint digits[ITEMS];
  for (uint j = 0u; j < ITEMS; j++)
    digits[j] = key_digit(own + j < tile_n ? sort_key(loaded[j]) : KEY_MAX, u_shift, mask);
  split_digits(digits, own);
  split_work_words(2u, u_digit_bits);

  // The first slot of each bucket present in the tile is where the digit
  // changes; one invocation finds it. Each reads its own consecutive slots
  // (and the one before them), so every word is read once (measured on the
  // H200 against a strided loop reading two words per slot: 16M pairs 1%
  // faster at radix_bits 8, 3% at radix_bits 2).
  uint before = own == 0u ? 0xFFFFFFFFu : s_work[padded(own - 1u)] >> 16;
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = own + j;
    uint d = s_work[padded(i)] >> 16;
    if (i < tile_n && d != before) s_dest[d] -= i;
    before = d;
  }
  barrier();
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) {
      uint w = s_work[padded(i)];
      uint d = w >> 16;
      uint from = base + (w & 0xFFFFu);
      uint to = s_dest[d] + i;
      out_keys[to] = keys[from];
#if HAS_VALUES
      out_values[to] = values[from];
#endif
    }
  }
}
