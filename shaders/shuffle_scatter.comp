// Reduce-then-scan plan, stage 3: the local shuffle and the global scatter
// in one kernel. Each work group ranks its tile of the pass's input by the
// digit with the same stable 4-way splits as local_shuffle, then moves every
// key (and value) from the input to its place in the output:
// counts[d * columns + column] (scanned) + (slot - first slot of d), on
// GPUs through shared memory (MOVE_SHARED). The tile never goes through
// scratch memory, so a pass reads and writes each key once (plus the count
// kernel's read, which GPUs at radix_bits 2 make only in the first pass:
// NEXT_COUNTS); input and output alternate.
// The keys and the tile's bucket offsets are read first, together, so that
// a work group waits on global memory once before ranking. Each invocation
// reads the ITEMS consecutive slots it owns in the splits, and ranks the
// first split from registers (measured on the H200 against coalesced loads
// written to shared memory first: 16M pairs 1% faster at radix_bits 8 and
// 6% at radix_bits 2, 64M pairs 2% and 5%).

layout(std430, binding = B_KEYS) readonly buffer Keys { KEY_T keys[]; };
layout(std430, binding = B_KEYS) readonly buffer KeysVec { OWNED_VEC_T keys_vec[]; }; // LOAD_OWNED_KEYS
layout(std430, binding = B_TILE_KEYS) writeonly buffer OutKeys { KEY_T out_keys[]; };
layout(std430, binding = B_TILE_KEYS) writeonly buffer OutKeysVec { OWNED_VEC_T out_keys_vec[]; };
layout(std430, binding = B_COUNTS) readonly buffer Counts { uint counts[]; };
#if HAS_VALUES
layout(std430, binding = B_VALUES) readonly buffer Values { uint values[]; };
layout(std430, binding = B_TILE_VALUES) writeonly buffer OutValues { uint out_values[]; };
layout(std430, binding = B_VALUES) readonly buffer ValuesVec { WORD_VEC_T values_vec[]; };
layout(std430, binding = B_TILE_VALUES) writeonly buffer OutValuesVec { WORD_VEC_T out_values_vec[]; };
// The invocation's own ITEMS consecutive values, as LOAD_OWNED_KEYS its keys.
#define LOAD_OWNED_VALUES(dst, tile, own)                                      \
  LOAD_OWNED(dst, values_vec, values, WORD_VEC_T, WORD_VEC, VEC_ELEM, 0u, tile, own)
#endif

layout(location = LOC_SHIFT) uniform uint u_shift;
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits;
// Where the scan left level 1, the scanned totals of level 0's blocks (the
// scan stops short of adding them to level 0), or NO_BLOCK_SUMS.
layout(location = LOC_BLOCK_SUMS) uniform uint u_block_sums;
// Nonzero: the scan left those totals unscanned too (few of them, at most
// FOLD_SUMS): each block's offset is the sum of the totals before it. One
// dispatch fewer per pass.
layout(location = LOC_SUMS_RAW) uniform uint u_sums_raw;
#if TILE_STARTS
// radix_bits 4 and 8: where tile_counts left each tile's first slot of
// each digit (radix_bits 8: 16M pairs 1.7% faster on the H200, 1M 4.7% on
// llvmpipe: context.c).
layout(location = LOC_TILE_STARTS) uniform uint u_tile_starts;
#endif

// A skipped pass's copy where an invocation's ITEMS own slots are no whole
// uvec4s (GPUs' wide tiles, 10 keys an invocation): the work group copies
// the tile a uvec4 at a time, neighbours' vectors side by side, reading it
// again (COPY_BY_GROUP, programs.c).
#if COPY_BY_GROUP
layout(std430, binding = B_KEYS) readonly buffer KeysVec4 { uvec4 keys_vec4[]; };
layout(std430, binding = B_TILE_KEYS) writeonly buffer OutKeysVec4 { uvec4 out_keys_vec4[]; };
#if HAS_VALUES
layout(std430, binding = B_VALUES) readonly buffer ValuesVec4 { uvec4 values_vec4[]; };
layout(std430, binding = B_TILE_VALUES) writeonly buffer OutValuesVec4 { uvec4 out_values_vec4[]; };
#endif
// Copies `count` words from word `first` (a multiple of 4) of `src` to
// `dst`, through their uvec4 views src4 and dst4 where whole vectors lie in
// the count and both bound ranges. Whole work group; at most ITEMS / 4 + 1
// turns an invocation.
#define COPY_WORDS(src4, src, dst4, dst, first, count)                         \
  for (uint v_ = gl_LocalInvocationID.x; 4u * v_ < (count); v_ += WG_SIZE) {    \
    uint w_ = (first) + 4u * v_;                                                \
    if (4u * v_ + 4u <= (count) && (w_ >> 2) < uint(src4.length()) &&          \
        (w_ >> 2) < uint(dst4.length())) {                                      \
      dst4[w_ >> 2] = src4[w_ >> 2];                                            \
    } else {                                                                    \
      for (uint c_ = 0u; c_ < 4u && 4u * v_ + c_ < (count); c_++) dst[w_ + c_] = src[w_ + c_]; \
    }                                                                           \
  }
#endif

// Each bucket's offset in the output, then less its first slot in the tile.
shared uint s_dest[BUCKETS];

// Where the key of sorted slot `slot`, whose word (digit << 16 | slot in
// the tile) is `word`, goes in the output.
uint destination(uint word, uint slot) { return s_dest[word >> 16] + slot; }

#if NEXT_COUNTS && COLUMN_SHIFT != 0
#error "NEXT_COUNTS adds up a column per tile (context.c)"
#endif
#if NEXT_COUNTS
// GPUs, radix_bits 2 (context.c): the next pass's tile counts, gathered
// from the keys as they move instead of by a tile_counts dispatch that
// reads them all again. A tile's keys of one digit go to consecutive
// places of the output, so into at most two of the next pass's tiles: the
// group counts each (digit, which of the two, next digit) in shared memory,
// then adds each count to the next pass's level 0 with one global atomic.
layout(std430, binding = B_COUNTS) buffer NextCounts { uint next_counts[]; };
layout(location = LOC_NEXT_SHIFT) uniform uint u_next_shift; // NO_NEXT: the last pass
layout(location = LOC_NEXT_BITS) uniform uint u_next_bits;
layout(location = LOC_NEXT_COUNTS) uniform uint u_next_counts; // that level 0's uint offset
shared uint s_next[BUCKETS * 2u * BUCKETS];
shared uint s_first_tile[BUCKETS]; // the next pass's tile of each bucket's first key

// s_next's pair of the key of sorted slot `slot`, word `word`: its digit
// * 2 + which of the digit's two next-pass tiles it goes to.
uint next_pair(uint word, uint slot) {
  uint d = word >> 16;
  return d * 2u + destination(word, slot) / TILE - s_first_tile[d];
}

// Counts the key whose order key (sort_key) is `order` in s_next's pair `pair`.
void count_next_order(KEY_T order, uint pair) {
  uint next_digit = key_digit(order, u_next_shift, (1u << u_next_bits) - 1u);
  atomicAdd(s_next[pair * BUCKETS + next_digit], 1u);
}

// Counts `key` in s_next's pair `pair`.
void count_next(KEY_T key, uint pair) { count_next_order(sort_key(key), pair); }

// Adds the group's counts to the next pass's; `tile` is where every key of
// a copied tile (a skipped pass) went. Whole work group, after a barrier.
void publish_next(bool copied, uint tile) {
  for (uint x = gl_LocalInvocationID.x; x < BUCKETS * 2u * BUCKETS; x += WG_SIZE) {
    uint c = s_next[x], pair = x / BUCKETS;
    uint next_tile = copied ? tile : s_first_tile[pair >> 1] + (pair & 1u);
    if (c != 0u) atomicAdd(next_counts[u_next_counts + (x % BUCKETS) * u_num_tiles + next_tile], c);
  }
}
#endif

#if MOVE_SHARED == 2 && KEY_WORDS != 1
#error "MOVE_SHARED 2 moves 32-bit keys only (programs.c)"
#endif
#if VALUES_AT != 0 && MOVE_SHARED == 0
#error "VALUES_AT goes with MOVE_SHARED (programs.c)"
#endif
#if MOVE_SHARED
// The tile's words in sorted order, for the invocation's slots `sorted`
// (its words of s_work after the splits: digit << 16 | slot in the tile),
// given its own slots' words `mine` in tile order, through s_work. Must be
// reached by the whole work group; s_work's words are overwritten.
uint[ITEMS] sorted_words(uint mine[ITEMS], uint sorted[ITEMS]) {
  uint own = scan_index() * ITEMS;
  barrier(); // every invocation has read what s_work held
  for (uint j = 0u; j < ITEMS; j++) s_work[padded(own + j)] = mine[j];
  barrier();
  uint words[ITEMS];
  for (uint j = 0u; j < ITEMS; j++) words[j] = s_work[padded(sorted[j] & 0xFFFFu)];
  return words;
}
#endif

// What level 0's block `block` adds to its block-local scan.
uint block_offset(uint block) {
  if (u_block_sums == NO_BLOCK_SUMS) return 0u;
  if (u_sums_raw == 0u) return counts[u_block_sums + block];
  uint sum = 0u;
  for (uint k = 0u; k < min(block, FOLD_SUMS); k++) sum += counts[u_block_sums + k];
  return sum;
}

#if REVERSE_TILES
// GPUs' subgroup path (context.c). Nonzero n: groups 0 to n - 1 take tiles
// n - 1 down to 0 (the C side, shuffle_scatter.c, decides per pass), so
// that the first groups load the keys that the count stage read last,
// meant to be still in the GPU's cache (the time was measured, the hits
// were not: shuffle_scatter.c).
layout(location = LOC_REVERSE_FROM) uniform uint u_reverse_from;
#endif

// The tile this work group ranks and moves.
uint pass_tile() {
  uint g = group_index();
#if REVERSE_TILES
  return g < u_reverse_from ? u_reverse_from - 1u - g : g;
#else
  return g;
#endif
}

void main() {
  uint tile = pass_tile();
  KEY_T loaded[ITEMS];
  uint own = scan_index() * ITEMS;
  LOAD_OWNED_KEYS(loaded, tile, own);
#if HAS_VALUES && VALUES_AT == 1
  // The values too, so that their loads wait with the keys' (programs.c).
  uint mine[ITEMS];
  LOAD_OWNED_VALUES(mine, tile, own);
#endif
#if NEXT_COUNTS
  // Whether this group counts the next pass's digits (not the last pass,
  // nor before a skipped one); the splits' barriers order the zeroing.
  bool counting = u_next_shift != NO_NEXT && !pass_skipped(u_next_shift, u_next_bits);
  if (counting)
    for (uint x = gl_LocalInvocationID.x; x < BUCKETS * 2u * BUCKETS; x += WG_SIZE) s_next[x] = 0u;
#endif
  if (tile < u_num_tiles)
    for (uint b = gl_LocalInvocationID.x; b < BUCKETS; b += WG_SIZE) {
      // With COLUMN_SHIFT, the column's offset of b, plus (through the tile
      // starts) the column's earlier tiles' keys of b.
      uint at = b * count_columns() + count_column(tile);
      s_dest[b] = counts[at] + block_offset(at / SCAN_TILE);
#if NEXT_COUNTS
      s_first_tile[b] = s_dest[b] / TILE;
#endif
#if TILE_STARTS
      s_dest[b] -= counts[u_tile_starts + tile * BUCKETS + b];
#endif
    }
  uint tile_n = keys_in_tile(tile);
  if (tile_n == 0u) return;
  uint lid = gl_LocalInvocationID.x;
  uint base = tile * TILE;
  uint mask = (1u << u_digit_bits) - 1u;
  if (pass_skipped(u_shift, u_digit_bits)) {
    // Every key has the same digit: the pass is the identity, but its output
    // is the other buffer. Copy the tile, the invocation's own slots a
    // vector at a time (or, COPY_BY_GROUP, the group's uvec4s side by
    // side). Copied a key at a time, 8 slots apart across
    // invocations, a skipped pass's scatter stage took the H200 0.31 ms at
    // 16M pairs, a sorted pass's 0.19 ms; this way 24-bit keys sorted on 32
    // bits (one pass of four skipped) went from 1.076 to 0.835 ms.
    // Sorted passes do not pay for this branch: with it compiled out
    // they ran up to 7% slower on the H200 (session 24).
#if COPY_BY_GROUP
    COPY_WORDS(keys_vec4, keys, out_keys_vec4, out_keys, tile * TILE, tile_n);
#if HAS_VALUES
    COPY_WORDS(values_vec4, values, out_values_vec4, out_values, tile * TILE, tile_n);
#endif
#else
    STORE_OWNED(loaded, out_keys_vec, out_keys, OWNED_VEC, OWNED_PACK, tile, own, tile_n);
#if HAS_VALUES
#if VALUES_AT != 1
    uint mine[ITEMS];
    LOAD_OWNED_VALUES(mine, tile, own);
#endif
    STORE_OWNED(mine, out_values_vec, out_values, WORD_VEC, WORD_PACK, tile, own, tile_n);
#endif
#endif
#if NEXT_COUNTS
    if (counting) { // every key stays in its tile
      barrier(); // s_next is zero
      for (uint j = 0u; j < ITEMS; j++)
        if (own + j < tile_n) count_next(loaded[j], 0u);
      barrier();
      publish_next(true, tile);
    }
#endif
    return;
  }
  // Padding past the end takes the largest digit and starts last, so stable
  // splits keep it at the tile's end.
  uint digits[ITEMS];
  for (uint j = 0u; j < ITEMS; j++) {
    KEY_T order = own + j < tile_n ? sort_key(loaded[j]) : KEY_MAX;
#if KEY_SPLIT
    loaded[j] = order;
#endif
    digits[j] = key_digit(order, u_shift, mask);
  }
#if KEY_SPLIT
  // 32-bit keys without values: the splits move the keys themselves
  // through s_work, as order keys (sort_key; the padding's sorts last), so
  // that no (digit, slot) words are read back and no keys move by them
  // (measured on the H200, 30-bit keys, radix_bits 2: 16M 1.456 -> 1.379
  // ms, 64M 5.00 -> 4.66, 1M 0.247 -> 0.239; with values moved the same way
  // after the keys, pairs were 0.5-2.2% slower at 16M and 64M, so they
  // keep the words; radix_bits 4 and 8: programs.c). split_digits_keys
  // is the first split, split_work_keys does the others, and the moves
  // take each bucket's start from TILE_STARTS (programs.c: KEY_SPLIT
  // needs them).
  uvec2 first = split_digits_keys(digits, loaded);
#else
  uvec2 first = split_digits(digits, own);
#endif
#if !TILE_STARTS
  // radix_bits 2: one split sorts the tile, and its totals are where each
  // bucket starts in it (padding, the largest digit, comes last). Against
  // the search below (a read of the tile's words and a barrier), measured
  // with 30-bit pairs: H200 16M 1.879 -> 1.819 ms, portable path 2.037 ->
  // 1.943-1.962, 1M and 64M 1-2.5% faster; llvmpipe 1M 171 -> 155 ms.
  if (BUCKETS == 4u && lid < BUCKETS) s_dest[lid] -= split_field(first, lid);
#endif
  barrier();
#if KEY_SPLIT
  if (BUCKETS > 4u) split_work_keys(u_shift + 2u, u_shift + u_digit_bits); // radix_bits 2: one split
  // Invocation lid stores sorted slots lid, lid + WG_SIZE, ..., so that
  // stores to one bucket are consecutive.
  uint moved_keys[ITEMS]; // order keys
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    moved_keys[j] = s_work[padded(i)];
    if (i < tile_n) out_keys[s_dest[key_digit(moved_keys[j], u_shift, mask)] + i] = unsort_key(moved_keys[j]);
  }
#if NEXT_COUNTS
  if (counting)
    for (uint j = 0u; j < ITEMS; j++) {
      uint i = j * WG_SIZE + lid, d = key_digit(moved_keys[j], u_shift, mask);
      if (i < tile_n) count_next_order(moved_keys[j], d * 2u + (s_dest[d] + i) / TILE - s_first_tile[d]);
    }
#endif
#else
  split_work_words(2u, u_digit_bits);

#if !TILE_STARTS
  if (BUCKETS > 4u) {
    // The first slot of each bucket present in the tile is where the digit
    // changes; one invocation finds it. Each reads its own consecutive slots
    // (and the one before them), so every word is read once (measured on the
    // H200 against a strided loop reading two words per slot: 16M pairs 1%
    // faster at radix_bits 8; radix_bits 2, which used it then, 3%).
    uint before = own == 0u ? 0xFFFFFFFFu : s_work[padded(own - 1u)] >> 16;
    for (uint j = 0u; j < ITEMS; j++) {
      uint i = own + j;
      uint d = s_work[padded(i)] >> 16;
      if (i < tile_n && d != before) s_dest[d] -= i;
      before = d;
    }
    barrier();
  }
#endif
  // Invocation lid moves the keys of sorted slots lid, lid + WG_SIZE, ...,
  // so that stores to one bucket are consecutive.
#if MOVE_SHARED
  // GPUs: the values (read as vectors of the invocation's own slots, when
  // VALUES_AT says), and with MOVE_SHARED 2 the 32-bit keys it still
  // holds, go through s_work to the invocations that move them, instead of
  // being gathered from global memory by slot (measured on the H200,
  // 30-bit pairs, subgroup path: 16M radix_bits 8 3.8% faster, 64M 4.3%,
  // 1M 2.6%; radix_bits 2 2%, 1%, 5%). Holding the keys cost the portable
  // path 34% at radix_bits 8, so it moves only the values this way (16M 1%
  // slower, 1M and 64M 1% faster, radix_bits 2 0-4% faster): see
  // programs.c.
  uint sorted[ITEMS]; // the words of its slots: digit << 16 | slot in the tile
  for (uint j = 0u; j < ITEMS; j++) sorted[j] = s_work[padded(j * WG_SIZE + lid)];
  // Stores `value_j` (an expression of j) for each of those slots in `out`.
#define STORE_SORTED(out, value_j)                                             \
  for (uint j = 0u; j < ITEMS; j++) {                                          \
    uint i = j * WG_SIZE + lid;                                                \
    if (i < tile_n) out[destination(sorted[j], i)] = value_j;                  \
  }
#if HAS_VALUES && VALUES_AT == 2
  // The values' loads wait while the keys move (programs.c).
  uint mine[ITEMS];
  LOAD_OWNED_VALUES(mine, tile, own);
#endif
#if MOVE_SHARED == 2
  uint moved_keys[ITEMS] = sorted_words(loaded, sorted);
#define MOVED_KEY(j) moved_keys[j]
#else
#define MOVED_KEY(j) keys[base + (sorted[j] & 0xFFFFu)]
#endif
#if NEXT_COUNTS && MOVE_SHARED != 2
  // Each key stored and counted in one loop: the portable path gathers it once.
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) {
      KEY_T key = MOVED_KEY(j);
      out_keys[destination(sorted[j], i)] = key;
      if (counting) count_next(key, next_pair(sorted[j], i));
    }
  }
#else
  STORE_SORTED(out_keys, MOVED_KEY(j))
#endif
#if HAS_VALUES
#if VALUES_AT == 0
  uint mine[ITEMS];
  LOAD_OWNED_VALUES(mine, tile, own);
#endif
  uint moved[ITEMS] = sorted_words(mine, sorted);
  STORE_SORTED(out_values, moved[j])
#endif
#else
  // CPU rasterizers: each key (and value) is read from global memory by
  // its slot (moving them through shared memory was 2x slower on llvmpipe).
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) {
      uint w = s_work[padded(i)];
      uint from = base + (w & 0xFFFFu);
      uint to = destination(w, i);
      out_keys[to] = keys[from];
#if HAS_VALUES
      out_values[to] = values[from];
#endif
#if NEXT_COUNTS
      if (counting) count_next(keys[from], next_pair(w, i));
#endif
    }
  }
#endif
#endif // KEY_SPLIT
#if NEXT_COUNTS
#if MOVE_SHARED == 2 && !KEY_SPLIT
  // The subgroup path holds its keys: counted after the stores (measured on
  // the H200 against counting in the store loop: radix_bits 2, 16M pairs
  // 1.921 -> 1.877 ms).
  if (counting)
    for (uint j = 0u; j < ITEMS; j++) {
      uint i = j * WG_SIZE + lid;
      if (i < tile_n) count_next(moved_keys[j], next_pair(sorted[j], i));
    }
#endif
  if (counting) {
    barrier();
    publish_next(false, tile);
  }
#endif
}
