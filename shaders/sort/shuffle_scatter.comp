// Reduce-then-scan plan, stage 3: the local shuffle and the global scatter
// in one kernel. Each work group ranks its tile of the pass's input by the
// digit with the same stable 4-way splits as local_shuffle, then moves every
// key (and value) from the input to its place in the output:
// counts[d * columns + column] (scanned) + (slot - first slot of d), on
// GPUs through shared memory (MOVE_SHARED). The tile never goes through
// scratch memory, so a pass reads and writes each key once (plus the count
// kernel's read, which GPUs at radix_bits 2 make only in the first pass:
// NEXT_COUNTS); input and output alternate.
// main() runs named steps: load the tile, start counting the next pass,
// the tile's destinations, then either copy a skipped pass's tile or rank
// it (first split, bucket starts, other splits) and store its keys and
// values, counting the next pass's digits. The program's form (forms.c)
// chooses, by #if, which steps and which variant of a step run.

layout(std430, binding = B_KEYS) readonly buffer Keys { KEY_T keys[]; };
layout(std430, binding = B_KEYS) readonly buffer KeysVec { OWNED_VEC_T keys_vec[]; }; // LOAD_OWNED_KEYS
layout(std430, binding = B_TILE_KEYS) writeonly buffer OutKeys { KEY_T out_keys[]; };
layout(std430, binding = B_TILE_KEYS) writeonly buffer OutKeysVec { OWNED_VEC_T out_keys_vec[]; };
#if LOOK_BACK
// The single-pass plan's digit offsets and tiles' status words, which
// other work groups write while this one reads them.
layout(std430, binding = B_COUNTS) coherent volatile buffer Counts { uint counts[]; };
#else
layout(std430, binding = B_COUNTS) readonly buffer Counts { uint counts[]; };
#endif
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
// each digit, so that bucket_starts_from_words need not search the tile
// (forms.c).
layout(location = LOC_TILE_STARTS) uniform uint u_tile_starts;
#endif

// Each bucket's offset in the output, then less its first slot in the tile.
shared uint s_dest[BUCKETS];

// Where the key of sorted slot `slot`, whose word (digit << 16 | slot in
// the tile) is `word`, goes in the output.
uint destination(uint word, uint slot) { return s_dest[word >> 16] + slot; }

#if NEXT_COUNTS && COLUMN_SHIFT != 0
#error "NEXT_COUNTS adds up a column per tile (forms.c)"
#endif
#if NEXT_COUNTS
// GPUs, radix_bits 2 (forms.c): the next pass's tile counts, gathered
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

// Adds the group's counts to the next pass's, after a barrier; `tile` is
// where every key of a copied tile (a skipped pass) went. Whole work group.
void publish_next(bool copied, uint tile) {
  barrier();
  for (uint x = gl_LocalInvocationID.x; x < BUCKETS * 2u * BUCKETS; x += WG_SIZE) {
    uint c = s_next[x], pair = x / BUCKETS;
    uint next_tile = copied ? tile : s_first_tile[pair >> 1] + (pair & 1u);
    if (c != 0u) atomicAdd(next_counts[u_next_counts + (x % BUCKETS) * u_num_tiles + next_tile], c);
  }
}

// Count next, a copied tile (a skipped pass): every key stays in its tile.
// Whole work group.
void count_next_copied(KEY_T loaded[ITEMS], uint own, uint tile_n, uint tile) {
  barrier(); // s_next is zero
  for (uint j = 0u; j < ITEMS; j++)
    if (own + j < tile_n) count_next(loaded[j], 0u);
  publish_next(true, tile);
}
#endif

#if MOVE_SHARED == 2 && KEY_WORDS != 1
#error "MOVE_SHARED 2 moves 32-bit keys only (forms.c)"
#endif
#if VALUES_AT != 0 && MOVE_SHARED == 0
#error "VALUES_AT goes with MOVE_SHARED (forms.c)"
#endif
#if KEY_SPLIT && HAS_VALUES
#error "KEY_SPLIT moves keys without values (forms.c)"
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
// GPUs' subgroup path (forms.c). Nonzero n: groups 0 to n - 1 take tiles
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

#if LOOK_BACK
// The single-pass plan's form (Onesweep: Adinets & Merrill 2022): the work
// group takes its tile by a ticket, so that every earlier tile's group has
// started; publishes the tile's digit counts; and finds each digit's keys
// in the earlier tiles by looking back at their published words, in place
// of a count stage and a scan. GL promises no forward progress between
// work groups, so no wait is unbounded (decoupled fallback: Smith, Levien
// & Owens, SPAA 2025): a look-back that has read a tile's word SPIN_LIMIT
// times without a count stops, and the group counts that tile's digits
// itself from its keys and publishes them with a compare-and-swap, so that
// whichever count comes first stands (both are the same). Test hooks
// (forms.h) force the fallback on every FORCE_FALLBACK-th tile looked at
// and keep every DELAY_TILES-th tile from publishing.
#if NEXT_COUNTS || TILE_STARTS || KEY_SPLIT || REVERSE_TILES
#error "the look-back form finds its tiles' starts itself (forms.c)"
#endif
layout(location = LOC_PASS_INDEX) uniform uint u_pass_index; // its digits follow earlier passes'
layout(location = LOC_STATUS) uniform uint u_status;         // its tiles' status words
layout(location = LOC_TICKET) uniform uint u_ticket;         // its ticket

shared uint s_tile;           // the tile this group ranks
shared uint s_stuck;          // look-back: 1 + the tile to count (fallback), 0 for none
shared uint s_start[BUCKETS]; // the tile's keys of each digit, then its first sorted slot of it

// Tiles a look-back lane reads at once, so that a walk over tiles that
// have published their own counts waits once a window.
#define LOOK_WINDOW 4u
// Digits per invocation where the look-back takes a digit per lane.
#define DIGIT_LANES ((BUCKETS + WG_SIZE - 1u) / WG_SIZE)

uint status_word(uint tile, uint d) { return u_status + tile * BUCKETS + d; }

// Ticket: tiles in the order work groups start. Whole work group.
uint take_ticket() {
  if (gl_LocalInvocationID.x == 0u) s_tile = atomicAdd(counts[u_ticket], 1u);
  barrier();
  return s_tile;
}

// The tile's keys of digit d, from the starts.
uint own_keys(uint d, uint tile_n) {
  return (d + 1u < BUCKETS ? s_start[d + 1u] : tile_n) - s_start[d];
}

// The test hook's tiles that publish nothing, as if they ran after every
// later tile: each later tile's look-back that reaches one must count it.
bool delayed(uint tile) { return DELAY_TILES != 0u && tile % DELAY_TILES == DELAY_TILES - 1u; }

// Publish, after a barrier, from the starts: each digit's count of this
// tile as the tile's own (AGGREGATE), or for the first tile as the sum up
// to it (INCLUSIVE).
void publish_counts(uint tile, uint tile_n) {
  if (delayed(tile)) return;
  uint kind = tile == 0u ? STATUS_INCLUSIVE : STATUS_AGGREGATE;
  for (uint d = gl_LocalInvocationID.x; d < BUCKETS; d += WG_SIZE)
    counts[status_word(tile, d)] = (own_keys(d, tile_n) << STATUS_SHIFT) | kind;
}

#if EARLY_COUNTS
// Early counts (GPUs): the tile's digit counts from the loaded keys, before
// the splits, so that they are published while the tile is ranked and
// later tiles' look-backs find them; then s_start's counts become starts,
// an exclusive scan (padding, the largest digit, sorts last).
void count_early(KEY_T loaded[ITEMS], uint own, uint tile_n, uint mask) {
  for (uint d = gl_LocalInvocationID.x; d < BUCKETS; d += WG_SIZE) s_start[d] = 0u;
  barrier();
  for (uint j = 0u; j < ITEMS; j++)
    if (own + j < tile_n) atomicAdd(s_start[key_digit(sort_key(loaded[j]), u_shift, mask)], 1u);
  barrier();
  uint first = scan_index() * DIGIT_LANES, sum = 0u;
  for (uint k = 0u; k < DIGIT_LANES; k++)
    if (first + k < BUCKETS) sum += s_start[first + k];
  uvec2 total;
  uint run = block_exclusive_scan(uvec2(sum, 0u), total).x;
  for (uint k = 0u; k < DIGIT_LANES; k++)
    if (first + k < BUCKETS) {
      uint c = s_start[first + k];
      s_start[first + k] = run;
      run += c;
    }
  barrier();
}
#else
// Starts (CPU rasterizers, where shared atomics cost), from the sorted
// (digit << 16 | slot) words: where the digit changes, and every absent
// digit between the two sides starts there too (own_keys is 0 for it).
// Each invocation reads its own consecutive slots and the one before them.
void starts_from_words(uint own, uint tile_n) {
  uint next_digit = own == 0u ? 0u : (s_work[padded(own - 1u)] >> 16) + 1u;
  for (uint j = 0u; j <= ITEMS; j++) {
    uint i = own + j;
    if (i > tile_n || (j == ITEMS && i != tile_n)) break;
    uint last = i == tile_n ? BUCKETS - 1u : s_work[padded(i)] >> 16; // past the end: every digit left
    for (uint x = next_digit; x <= last; x++) s_start[x] = i;
    next_digit = last + 1u;
  }
  barrier();
}
#endif

// Fallback: tile k's count of each digit, from its keys, into s_dest
// (free until the look-back ends). Whole work group.
void count_tile(uint k, uint mask) {
  for (uint d = gl_LocalInvocationID.x; d < BUCKETS; d += WG_SIZE) s_dest[d] = 0u;
  barrier();
  uint n = keys_in_tile(k);
  for (uint j = 0u; j < ITEMS; j++) {
    uint slot = j * WG_SIZE + gl_LocalInvocationID.x;
    if (slot < n) atomicAdd(s_dest[key_digit(sort_key(keys[k * TILE + slot]), u_shift, mask)], 1u);
  }
  barrier();
}

// The test hook: the look-back takes every FORCE_FALLBACK-th tile for one
// not yet published, and falls back at once.
bool forced(uint k) { return FORCE_FALLBACK != 0u && k % FORCE_FALLBACK == 0u; }

// Look back, one digit per lane (DIGIT_LANES an invocation, in registers):
// from the tile before this one down, add each tile's own count until a
// sum up to a tile ends it; a tile with no word after SPIN_LIMIT reads of
// it stops the lane. Then, if some lane stopped, the group counts the
// latest such tile itself (count_tile), publishes that with a
// compare-and-swap where nothing stands yet, and goes on. Every round either ends every
// lane or settles one tile for good, and a lane reads at most SPIN_LIMIT
// words a round past the tiles it settles: the loops are bounded (and
// short on llvmpipe, which cuts long ones).
// Then it publishes each digit's sum up to this tile (INCLUSIVE) and sets
// where its sorted slots go: the digit's offset in the pass (the scan of
// every pass's counts runs on, so less the keys of the earlier passes) +
// the earlier tiles' keys of it - its first slot here. Whole work group.
void look_back(uint tile, uint tile_n, uint mask) {
  uint lid = gl_LocalInvocationID.x;
  uint excl[DIGIT_LANES], next[DIGIT_LANES]; // next: 1 + the next tile to read, 0 when done
  for (uint k = 0u; k < DIGIT_LANES; k++) {
    excl[k] = 0u;
    next[k] = tile;
  }
  for (;;) {
    if (lid == 0u) s_stuck = 0u;
    barrier();
    for (uint k = 0u; k < DIGIT_LANES; k++) {
      uint d = lid + k * WG_SIZE, spins = 0u;
      while (d < BUCKETS && next[k] != 0u) {
        // the next tile's word alone until it is there, then it and the
        // LOOK_WINDOW - 1 before it at once
        uint at = next[k] - 1u;
        if (forced(at) || (counts[status_word(at, d)] & 3u) == 0u) {
          spins++;
          if (forced(at) || spins > SPIN_LIMIT) {
            atomicMax(s_stuck, next[k]);
            break;
          }
          continue;
        }
        uint words[LOOK_WINDOW];
        for (uint w = 0u; w < LOOK_WINDOW; w++)
          words[w] = w >= next[k] || forced(at - w) ? 0u : counts[status_word(at - w, d)];
        uint w = 0u;
        for (; w < LOOK_WINDOW && w < next[k]; w++) {
          if ((words[w] & 3u) == 0u) break;
          excl[k] += words[w] >> STATUS_SHIFT;
          if ((words[w] & 3u) == STATUS_INCLUSIVE) break;
        }
        bool inclusive = w < LOOK_WINDOW && w < next[k] && (words[w] & 3u) == STATUS_INCLUSIVE;
        next[k] = inclusive ? 0u : next[k] - w;
      }
    }
    barrier();
    uint stuck = s_stuck;
    if (stuck == 0u) break;
    count_tile(stuck - 1u, mask);
    for (uint k = 0u; k < DIGIT_LANES; k++) {
      uint d = lid + k * WG_SIZE;
      if (d < BUCKETS && next[k] == stuck) {
        uint counted = s_dest[d];
        uint was = atomicCompSwap(counts[status_word(stuck - 1u, d)], 0u,
                                  (counted << STATUS_SHIFT) | STATUS_AGGREGATE);
        bool inclusive = (was & 3u) == STATUS_INCLUSIVE;
        excl[k] += inclusive ? was >> STATUS_SHIFT : counted;
        next[k] = inclusive ? 0u : stuck - 1u;
      }
    }
    if (lid == 0u) atomicAdd(skip[SKIP_FALLBACKS], 1u);
    barrier();
  }
  uint before = u_pass_index * sort_count();
  for (uint k = 0u; k < DIGIT_LANES; k++) {
    uint d = lid + k * WG_SIZE;
    if (d < BUCKETS) {
      uint sum = excl[k] + own_keys(d, tile_n);
      if (!delayed(tile)) counts[status_word(tile, d)] = (sum << STATUS_SHIFT) | STATUS_INCLUSIVE;
      s_dest[d] = counts[u_pass_index * BUCKETS + d] - before + excl[k] - s_start[d];
    }
  }
  barrier();
}
#endif

// The steps of main(), in the order it runs them.

// Load: the keys (and, VALUES_AT 1, the values, so that their loads wait
// with the keys': forms.c) are read first, with the tile's bucket
// offsets (tile_destinations), so that a work group waits on global memory
// once before ranking; each invocation reads the ITEMS consecutive slots it
// owns in the splits and ranks the first split from registers (faster on a
// GPU than coalesced loads written to shared memory first: BENCHMARKS.md,
// "Measured choices").
// `mine` stays unset unless VALUES_AT is 1: a later step loads the values.
// A macro, as LOAD_OWNED is: with the keys returned by a function (an out
// parameter or its result), NVIDIA's driver compiled the KEY_SPLIT forms
// to different code and Mesa's program binaries of them grew by half.
#if HAS_VALUES && VALUES_AT == 1
#define LOAD_TILE(loaded, mine, tile, own)                                     \
  LOAD_OWNED_KEYS(loaded, tile, own);                                          \
  LOAD_OWNED_VALUES(mine, tile, own)
#else
#define LOAD_TILE(loaded, mine, tile, own) LOAD_OWNED_KEYS(loaded, tile, own)
#endif

// Count next, its start: whether this group counts the next pass's digits
// (NEXT_COUNTS, and neither the last pass nor one before a skipped pass),
// with its counters zeroed if so, here so that the splits' barriers order
// the zeroing before any count.
bool start_next_counts() {
#if NEXT_COUNTS
  bool counting = u_next_shift != NO_NEXT && !pass_skipped(u_next_shift, u_next_bits);
  if (counting)
    for (uint x = gl_LocalInvocationID.x; x < BUCKETS * 2u * BUCKETS; x += WG_SIZE) s_next[x] = 0u;
  return counting;
#else
  return false;
#endif
}

// Destinations: each bucket's offset in the output (s_dest), read before
// the group waits on the keys; less the tile's first slot of the bucket
// from the tile starts (TILE_STARTS), or later from the ranking
// (bucket_starts_from_split, bucket_starts_from_words).
void tile_destinations(uint tile) {
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
}

// Copy (a skipped pass, in which every key has the same digit: the pass is
// the identity, but its output is the other buffer): the invocation stores
// its own slots a vector at a time, because copied a key at a time, 8
// slots apart across invocations, a skipped pass's scatter stage took a
// GPU longer than a sorted pass's; this way a sort with a skipped pass
// takes less time. Sorted passes do not pay for this branch: with it
// compiled out they were no faster on a GPU. Copying the group's uvec4s
// side by side instead, where an invocation's slots are no whole uvec4s
// (GPUs' wide tiles), sped sorts that skip a pass but slowed sorts that
// skip nothing, so it is not done (BENCHMARKS.md, "Measured choices",
// "Tried and dropped"). Without VALUES_AT 1 the values are loaded here.
void copy_skipped_tile(uint tile, uint own, uint tile_n, KEY_T loaded[ITEMS], uint mine[ITEMS],
                       bool counting) {
  STORE_OWNED(loaded, out_keys_vec, out_keys, OWNED_VEC, OWNED_PACK, tile, own, tile_n);
#if HAS_VALUES && VALUES_AT != 1
  LOAD_OWNED_VALUES(mine, tile, own);
#endif
#if HAS_VALUES
  STORE_OWNED(mine, out_values_vec, out_values, WORD_VEC, WORD_PACK, tile, own, tile_n);
#endif
#if NEXT_COUNTS
  if (counting) count_next_copied(loaded, own, tile_n, tile);
#endif
}

// Rank, the first split: each key's digit, from registers (LOAD_TILE);
// padding past the end takes the largest digit and starts last, so that
// stable splits keep it at the tile's end. Declares `first`, the tile's
// first slot of each sub-digit. KEY_SPLIT (32-bit keys without values) has
// the splits move the order keys themselves through s_work (sort_key; the
// padding's sorts last), so that no (digit, slot) words are read back and
// no keys move by them (faster on a GPU at radix_bits 2; with values moved
// the same way once the keys are, pairs were slower at 16M and 64M, so
// they keep the words; radix_bits 4 and 8: forms.c): the order keys replace the keys in `loaded`. A
// macro, as LOAD_TILE: in a function (`loaded` by value or inout),
// NVIDIA's driver compiled the KEY_SPLIT forms to different code, Mesa's
// program binaries of them doubled and its uint64 forms changed.
#if KEY_SPLIT
#define RANK_FIRST_SPLIT(first, loaded, own, tile_n, mask)                     \
  uint digits[ITEMS];                                                          \
  for (uint j = 0u; j < ITEMS; j++) {                                          \
    KEY_T order = own + j < tile_n ? sort_key(loaded[j]) : KEY_MAX;            \
    loaded[j] = order;                                                         \
    digits[j] = key_digit(order, u_shift, mask);                               \
  }                                                                            \
  uvec2 first = split_digits_keys(digits, loaded)
#else
#define RANK_FIRST_SPLIT(first, loaded, own, tile_n, mask)                     \
  uint digits[ITEMS];                                                          \
  for (uint j = 0u; j < ITEMS; j++) {                                          \
    KEY_T order = own + j < tile_n ? sort_key(loaded[j]) : KEY_MAX;            \
    digits[j] = key_digit(order, u_shift, mask);                               \
  }                                                                            \
  uvec2 first = split_digits(digits, own)
#endif

#if !TILE_STARTS
// Bucket starts, radix_bits 2: one split sorts the tile, so its totals
// `first` are where each bucket starts in it (padding, the largest digit,
// comes last), which spares the search of bucket_starts_from_words (a
// read of the tile's words and a barrier, slower on a GPU and on
// llvmpipe). The caller passes a barrier
// before s_dest is read.
void bucket_starts_from_split(uvec2 first, uint lid) {
  if (BUCKETS == 4u && lid < BUCKETS) s_dest[lid] -= split_field(first, lid);
}
#endif

// Rank, the other splits (none at radix_bits 2), after the caller's
// barrier: KEY_SPLIT's split_work_keys moves the order keys and takes each
// bucket's start from TILE_STARTS (forms.c: KEY_SPLIT needs them), the
// others sort (digit << 16 | slot) words.
void rank_other_splits() {
#if KEY_SPLIT
  if (BUCKETS > 4u) split_work_keys(u_shift + 2u, u_shift + u_digit_bits); // radix_bits 2: one split
#else
  split_work_words(2u, u_digit_bits);
#endif
}

#if !TILE_STARTS && !KEY_SPLIT
// Bucket starts, wider digits without TILE_STARTS: the first slot of each
// bucket present in the tile is where the digit changes, and one
// invocation finds it; each reads its own consecutive slots (and the one
// before them), so that every word is read once (a strided loop reading
// two words per slot was slower on a GPU).
void bucket_starts_from_words(uint own, uint tile_n) {
  if (BUCKETS > 4u) {
    uint before = own == 0u ? 0xFFFFFFFFu : s_work[padded(own - 1u)] >> 16;
    for (uint j = 0u; j < ITEMS; j++) {
      uint i = own + j;
      uint d = s_work[padded(i)] >> 16;
      if (i < tile_n && d != before) s_dest[d] -= i;
      before = d;
    }
    barrier();
  }
}
#endif

// Store: invocation lid stores the keys (and values) of sorted slots lid,
// lid + WG_SIZE, ..., so that stores to one bucket are consecutive. The
// program's form picks one of four ways of moving them, once: STORE_TILE
// names its function (store_split_keys, store_held_keys,
// store_gathered_keys or store_gathered_slots).
#if KEY_SPLIT
#if NEXT_COUNTS
// Count next, KEY_SPLIT: the order keys as they were stored, after the stores.
void count_next_split(uint moved_keys[ITEMS], uint lid, uint tile_n, uint mask) {
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid, d = key_digit(moved_keys[j], u_shift, mask);
    if (i < tile_n) count_next_order(moved_keys[j], d * 2u + (s_dest[d] + i) / TILE - s_first_tile[d]);
  }
}
#endif

// ... KEY_SPLIT: the keys are s_work's order keys; counted for the next
// pass after the stores.
void store_split_keys(uint lid, uint tile_n, uint mask, bool counting) {
  uint moved_keys[ITEMS]; // order keys
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    moved_keys[j] = s_work[padded(i)];
    if (i < tile_n) out_keys[s_dest[key_digit(moved_keys[j], u_shift, mask)] + i] = unsort_key(moved_keys[j]);
  }
#if NEXT_COUNTS
  if (counting) count_next_split(moved_keys, lid, tile_n, mask);
#endif
}
#define STORE_TILE(tile, own, lid, base, tile_n, mask, loaded, mine, counting)  \
  store_split_keys(lid, tile_n, mask, counting)
#elif MOVE_SHARED
// ... GPUs: the values (read as vectors of the invocation's own slots,
// when VALUES_AT says), and with MOVE_SHARED 2 the 32-bit keys it still
// holds, go through s_work to the invocations that move them, instead of
// being gathered from global memory by slot (faster on a GPU on the
// subgroup path); holding the keys slowed the portable path, so it moves
// only the values this way: see forms.c and BENCHMARKS.md, "Measured
// choices".

// The words of the invocation's sorted slots: digit << 16 | slot in the tile.
uint[ITEMS] sorted_slots(uint lid) {
  uint sorted[ITEMS];
  for (uint j = 0u; j < ITEMS; j++) sorted[j] = s_work[padded(j * WG_SIZE + lid)];
  return sorted;
}

// The values: VALUES_AT (forms.c) says where they are loaded into `mine`:
// 1 with the keys (LOAD_TILE); 2 once the sorted slots are read, so that
// their loads wait while the keys move (LOAD_VALUES_WHILE_KEYS_MOVE); 0
// once the keys are stored (LOAD_VALUES_ONCE_KEYS_STORED). STORE_VALUES
// moves them through s_work. Each names nothing where the form has no
// such step.
#if HAS_VALUES
// The values, `moved` in sorted_words' order.
void store_sorted_values(uint sorted[ITEMS], uint moved[ITEMS], uint lid, uint tile_n) {
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) out_values[destination(sorted[j], i)] = moved[j];
  }
}
#define STORE_VALUES(sorted, mine, lid, tile_n)                                \
  store_sorted_values(sorted, sorted_words(mine, sorted), lid, tile_n)
#else
#define STORE_VALUES(sorted, mine, lid, tile_n)
#endif
#if HAS_VALUES && VALUES_AT == 2
#define LOAD_VALUES_WHILE_KEYS_MOVE(mine, tile, own) LOAD_OWNED_VALUES(mine, tile, own)
#else
#define LOAD_VALUES_WHILE_KEYS_MOVE(mine, tile, own)
#endif
#if HAS_VALUES && VALUES_AT == 0
#define LOAD_VALUES_ONCE_KEYS_STORED(mine, tile, own) LOAD_OWNED_VALUES(mine, tile, own)
#else
#define LOAD_VALUES_ONCE_KEYS_STORED(mine, tile, own)
#endif

#if MOVE_SHARED == 2
#if NEXT_COUNTS
// Count next, the subgroup path: it holds its keys, so they are counted
// after the stores (faster on a GPU than counting in the store loop).
void count_next_held(KEY_T moved_keys[ITEMS], uint sorted[ITEMS], uint lid, uint tile_n) {
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) count_next(moved_keys[j], next_pair(sorted[j], i));
  }
}
#endif

// The keys the subgroup path holds, `moved` in sorted_words' order.
void store_sorted_keys(uint sorted[ITEMS], KEY_T moved[ITEMS], uint lid, uint tile_n) {
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) out_keys[destination(sorted[j], i)] = moved[j];
  }
}

// ... the subgroup path (MOVE_SHARED 2): the keys it holds go through
// s_work, then the values; counted for the next pass last.
void store_held_keys(uint tile, uint own, uint lid, uint tile_n, KEY_T loaded[ITEMS], uint mine[ITEMS],
                     bool counting) {
  uint sorted[ITEMS] = sorted_slots(lid);
  LOAD_VALUES_WHILE_KEYS_MOVE(mine, tile, own);
  KEY_T moved_keys[ITEMS] = sorted_words(loaded, sorted);
  store_sorted_keys(sorted, moved_keys, lid, tile_n);
  LOAD_VALUES_ONCE_KEYS_STORED(mine, tile, own);
  STORE_VALUES(sorted, mine, lid, tile_n);
#if NEXT_COUNTS
  if (counting) count_next_held(moved_keys, sorted, lid, tile_n);
#endif
}
#define STORE_TILE(tile, own, lid, base, tile_n, mask, loaded, mine, counting)  \
  store_held_keys(tile, own, lid, tile_n, loaded, mine, counting)
#else
// The portable path's keys, gathered by slot; with NEXT_COUNTS each is
// stored and counted in one loop, so that it is gathered once.
#if NEXT_COUNTS
void gather_sorted_keys(uint sorted[ITEMS], uint lid, uint base, uint tile_n, bool counting) {
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) {
      KEY_T key = keys[base + (sorted[j] & 0xFFFFu)];
      out_keys[destination(sorted[j], i)] = key;
      if (counting) count_next(key, next_pair(sorted[j], i));
    }
  }
}
#else
void gather_sorted_keys(uint sorted[ITEMS], uint lid, uint base, uint tile_n, bool counting) {
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) out_keys[destination(sorted[j], i)] = keys[base + (sorted[j] & 0xFFFFu)];
  }
}
#endif

// ... the portable path (MOVE_SHARED 1): the keys are gathered by slot,
// then the values go through s_work.
void store_gathered_keys(uint tile, uint own, uint lid, uint base, uint tile_n, uint mine[ITEMS],
                         bool counting) {
  uint sorted[ITEMS] = sorted_slots(lid);
  LOAD_VALUES_WHILE_KEYS_MOVE(mine, tile, own);
  gather_sorted_keys(sorted, lid, base, tile_n, counting);
  LOAD_VALUES_ONCE_KEYS_STORED(mine, tile, own);
  STORE_VALUES(sorted, mine, lid, tile_n);
}
#define STORE_TILE(tile, own, lid, base, tile_n, mask, loaded, mine, counting)  \
  store_gathered_keys(tile, own, lid, base, tile_n, mine, counting)
#endif
#else
// ... CPU rasterizers: each key (and value) is read from global memory by
// its slot, because moving them through shared memory was slower on
// llvmpipe; each key stored and (NEXT_COUNTS) counted in one loop.
#if HAS_VALUES
#define GATHER_VALUE(from, to) out_values[to] = values[from]
#else
#define GATHER_VALUE(from, to)
#endif
void store_gathered_slots(uint lid, uint base, uint tile_n, bool counting) {
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) {
      uint w = s_work[padded(i)];
      uint from = base + (w & 0xFFFFu);
      uint to = destination(w, i);
      out_keys[to] = keys[from];
      GATHER_VALUE(from, to);
#if NEXT_COUNTS
      if (counting) count_next(keys[from], next_pair(w, i));
#endif
    }
  }
}
#define STORE_TILE(tile, own, lid, base, tile_n, mask, loaded, mine, counting)  \
  store_gathered_slots(lid, base, tile_n, counting)
#endif

void main() {
#if LOOK_BACK
  uint tile = pass_skipped(u_shift, u_digit_bits) ? group_index() : take_ticket();
#else
  uint tile = pass_tile();
#endif
  uint own = scan_index() * ITEMS;
  KEY_T loaded[ITEMS];
  uint mine[ITEMS]; // the values (HAS_VALUES), loaded where VALUES_AT says
  LOAD_TILE(loaded, mine, tile, own);
  bool counting = start_next_counts();
#if !LOOK_BACK
  tile_destinations(tile);
#endif
  uint tile_n = keys_in_tile(tile);
  if (tile_n == 0u) return;
  // Computed here and passed to the steps: computed in them, their shorter
  // lives changed the code NVIDIA's driver made of the portable path.
  uint lid = gl_LocalInvocationID.x;
  uint base = tile * TILE;
  uint mask = (1u << u_digit_bits) - 1u;
  if (pass_skipped(u_shift, u_digit_bits)) {
    copy_skipped_tile(tile, own, tile_n, loaded, mine, counting);
    return;
  }
#if LOOK_BACK && EARLY_COUNTS
  count_early(loaded, own, tile_n, mask);
  publish_counts(tile, tile_n);
#endif
  RANK_FIRST_SPLIT(first, loaded, own, tile_n, mask);
#if !TILE_STARTS && !LOOK_BACK
  bucket_starts_from_split(first, lid);
#endif
  barrier();
  rank_other_splits();
#if LOOK_BACK
#if !EARLY_COUNTS
  starts_from_words(own, tile_n);
  publish_counts(tile, tile_n);
#endif
  look_back(tile, tile_n, mask);
#elif !TILE_STARTS && !KEY_SPLIT
  bucket_starts_from_words(own, tile_n);
#endif
  STORE_TILE(tile, own, lid, base, tile_n, mask, loaded, mine, counting);
#if NEXT_COUNTS
  if (counting) publish_next(false, tile);
#endif
}
