// Reduce-then-scan plan, stage 1: each work group counts the digits of its
// GROUP_TILES tiles of the pass's input (no data moves; the loads of all of
// them in flight at once) and writes them bucket-major,
// counts[bucket * columns + column] (common.glsl's count_column: with
// COLUMN_SHIFT, the sum of the group's tiles), for the scan. With u_gather_key_bits set
// (the first pass), it also gathers which key bits vary, for pass skipping
// (WITH_KEY_BITS in common.glsl), saving a read of the keys. GPUs at
// radix_bits 2 run it in the first pass only (shuffle_scatter's NEXT_COUNTS).
// main() runs named steps: zero the scan's level 1, load the keys, clear
// the counters, count the group's keys (gathering their varying bits),
// write the counts and, with TILE_STARTS, each tile's digit starts. The
// program's form (forms.c) chooses, by #if, which variant of a step runs:
// where the keys are read (CPU_RASTERIZER) and how they are counted
// (COUNT_ROWS).

layout(std430, binding = B_KEYS) readonly buffer Keys { KEY_T keys[]; };
layout(std430, binding = B_COUNTS) writeonly buffer Counts { uint counts[]; };

layout(location = LOC_SHIFT) uniform uint u_shift;
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits;
layout(location = LOC_GATHER_KEY_BITS) uniform uint u_gather_key_bits; // nonzero: gather key bits
// Where the scan that follows adds up its block totals (its level 1, which
// must start at zero: scan_blocks' u_chain 2), or NO_BLOCK_SUMS; group 0
// zeroes the u_zero_sums_length words there.
layout(location = LOC_ZERO_SUMS) uniform uint u_zero_sums;
layout(location = LOC_ZERO_SUMS_LENGTH) uniform uint u_zero_sums_length;
#if TILE_STARTS
layout(location = LOC_TILE_STARTS) uniform uint u_tile_starts;
#endif
// Small grids count one tile per group (ONE_TILE, a program of its own:
// as a uniform, the tile count slowed large grids).
// Large grids' groups write one count column for their tiles with
// COLUMN_SHIFT (common.glsl), as constants here: computed from
// u_num_tiles, they made this stage slower on a GPU, by our reading
// through the registers of a kernel that holds two tiles' keys (the cause
// was not isolated).
#ifdef ONE_TILE
#define GROUP_TILES 1u
#define GROUP_COLUMNS 1u
#else
#define GROUP_TILES COUNT_TILES
#define GROUP_COLUMNS (COUNT_TILES >> uint(COLUMN_SHIFT))
#endif
#define COLUMN_TILES (GROUP_TILES / GROUP_COLUMNS)

#if COUNT_ROWS && COLUMN_SHIFT != 0
#error "COUNT_ROWS writes a column per tile (forms.c)"
#endif
#if COUNT_ROWS
// CPU rasterizers count in a row of 8-bit counters per invocation (4 to a
// word; an invocation counts ITEMS < 256 keys of a tile, as the splits'
// counters also need), with plain adds: llvmpipe runs a shared atomicAdd as
// a locked add per lane. The rows are summed after a barrier. forms.c
// chooses this where the rows fit in shared memory.
// Invocation lid's word w of its row for tile t is s_rows[(t * ROW_WORDS +
// w) * WG_SIZE + lid].
#define ROW_WORDS ((BUCKETS + 3u) / 4u)
shared uint s_rows[GROUP_TILES * ROW_WORDS * WG_SIZE];
#if TILE_STARTS
shared uint s_tile_counts[GROUP_TILES * BUCKETS]; // the group's tiles' counts, then starts
#endif

// Clear: zeroes the invocation's rows.
void clear_counts(uint lid) {
  for (uint t = 0u; t < GROUP_TILES; t++)
    for (uint w = 0u; w < ROW_WORDS; w++) s_rows[(t * ROW_WORDS + w) * WG_SIZE + lid] = 0u;
}

// Counts digit `d` of the group's tile `t` in invocation lid's row.
#define COUNT_DIGIT(t, d, lid)                                                 \
  s_rows[((t) * ROW_WORDS + ((d) >> 2)) * WG_SIZE + (lid)] += 1u << (((d) & 3u) << 3)

// Write counts, the rows' form: each invocation sums words of the rows, two
// 16-bit fields at a time, and writes a column per tile; with TILE_STARTS
// it keeps the sums in s_tile_counts for write_tile_starts.
void write_counts(uint first_tile, uint lid) {
  for (uint x = lid; x < GROUP_TILES * ROW_WORDS; x += WG_SIZE) {
    uint tile = first_tile + x / ROW_WORDS, b = (x % ROW_WORDS) * 4u;
    uint even = 0u, odd = 0u; // buckets b and b + 2, b + 1 and b + 3
    for (uint r = 0u; r < WG_SIZE; r++) {
      uint v = s_rows[x * WG_SIZE + r];
      even += v & 0x00FF00FFu;
      odd += (v >> 8) & 0x00FF00FFu;
    }
    uint sums[4] = uint[4](even & 0xFFFFu, odd & 0xFFFFu, even >> 16, odd >> 16);
    if (tile < u_num_tiles)
      for (uint k = 0u; k < 4u && b + k < BUCKETS; k++) counts[(b + k) * u_num_tiles + tile] = sums[k];
#if TILE_STARTS
    for (uint k = 0u; k < 4u && b + k < BUCKETS; k++)
      s_tile_counts[(x / ROW_WORDS) * BUCKETS + b + k] = sums[k];
#endif
  }
}

#if TILE_STARTS
// Tile starts, the rows' form (CPU rasterizers, radix_bits 4 and 8): each
// tile's digit starts, as write_tile_starts' other form gives them; one
// invocation per tile sums its counts in order, because llvmpipe runs a
// block scan's shared accesses lane by lane. Whole work group.
void write_tile_starts(uint first_tile, uint lid) {
  barrier();
  if (lid < GROUP_TILES) {
    uint run = 0u;
    for (uint b = 0u; b < BUCKETS; b++) {
      uint c = s_tile_counts[lid * BUCKETS + b];
      s_tile_counts[lid * BUCKETS + b] = run;
      run += c;
    }
  }
  barrier();
  for (uint x = lid; x < GROUP_TILES * BUCKETS; x += WG_SIZE) {
    uint tile = first_tile + x / BUCKETS;
    if (tile < u_num_tiles) counts[u_tile_starts + tile * BUCKETS + x % BUCKETS] = s_tile_counts[x];
  }
}
#endif
#else
// Each tile's counts, COUNT_STRIDE apart: write_counts reads tile t's
// bucket b in lane GROUP_TILES * b + t, on distinct banks.
#define COUNT_STRIDE (BUCKETS + 32u / GROUP_TILES)
shared uint s_counts[GROUP_TILES * COUNT_STRIDE];

// Clear: zeroes the group's shared counters.
void clear_counts(uint lid) {
  for (uint b = lid; b < GROUP_TILES * COUNT_STRIDE; b += WG_SIZE) s_counts[b] = 0u;
}

// Counts digit `d` of the group's tile `t` with a shared atomic.
#define COUNT_DIGIT(t, d, lid) atomicAdd(s_counts[(t) * COUNT_STRIDE + (d)], 1u)

// Write counts, the shared counters' form: neighbouring invocations write
// the group's tiles of one bucket, which are neighbours in memory
// (faster on a GPU than one tile at a time: BENCHMARKS.md, "Measured
// choices"). A column's count is the sum of its
// tiles' counts.
void write_counts(uint first_tile, uint lid) {
  uint columns = count_columns();
  for (uint x = lid; x < GROUP_COLUMNS * BUCKETS; x += WG_SIZE) {
    uint c = x % GROUP_COLUMNS, b = x / GROUP_COLUMNS, tile = first_tile + c * COLUMN_TILES;
    uint sum = 0u;
    for (uint k = 0u; k < COLUMN_TILES; k++) sum += s_counts[(c * COLUMN_TILES + k) * COUNT_STRIDE + b];
    if (tile < u_num_tiles) counts[b * columns + group_index() * GROUP_COLUMNS + c] = sum;
  }
}

#if TILE_STARTS
// Tile starts, the shared counters' form (GPUs, radix_bits 4 and 8:
// forms.c): each tile's first sorted slot of each digit (the sum of its
// counts of smaller digits), tile-major at u_tile_starts, so that
// shuffle_scatter need not find them in its ranked tile (a read of the
// tile's words and a barrier). The group's tiles are scanned together, 16
// bits each: a tile holds fewer than 65536 keys (forms.c: at most two
// tiles, and an invocation per bucket). Whole work group.
void write_tile_starts(uint first_tile, uint lid) {
  uint b = scan_index(), both = 0u, unused;
  for (uint t = 0u; t < GROUP_TILES; t++)
    if (b < BUCKETS) both |= s_counts[t * COUNT_STRIDE + b] << (16u * t);
  uint starts = block_exclusive_scan(both, unused);
  for (uint t = 0u; t < GROUP_TILES; t++) {
    uint tile = first_tile + t, start = (starts >> (16u * t)) & 0xFFFFu;
    // The second tile of a column: less the first tile's keys of the digit,
    // which the column's offset covers and come before its own (a "start"
    // that may wrap below zero; shuffle_scatter subtracts it).
    if (t % COLUMN_TILES != 0u) start -= both & 0xFFFFu;
    if (b < BUCKETS && tile < u_num_tiles) counts[u_tile_starts + tile * BUCKETS + b] = start;
  }
}
#endif
#endif

// Zero the scan's level 1: group 0 zeroes the words at u_zero_sums, where
// the scan that follows adds up its block totals from zero.
void zero_scan_sums(uint first_tile) {
  if (first_tile == 0u && u_zero_sums != NO_BLOCK_SUMS)
    for (uint x = gl_LocalInvocationID.x; x < u_zero_sums_length; x += WG_SIZE) counts[u_zero_sums + x] = 0u;
}

// Whether the group has nothing to count: no keys, or a skipped pass,
// which shuffle_scatter copies without counts (the first pass gathers the
// bits pass_skipped reads, and is never skipped here).
bool nothing_to_count(uint first_tile) {
  return keys_in_tile(first_tile) == 0u ||
         (u_gather_key_bits == 0u && pass_skipped(u_shift, u_digit_bits));
}


// Load: where the keys of the group's tiles are read is the program's
// form; LOAD_GROUP_KEYS loads them, GROUP_KEY(loaded, first_tile, t, j,
// lid) is the key of slot j * WG_SIZE + lid of the group's tile t.
#if CPU_RASTERIZER
// CPU rasterizers read each key where they count it: llvmpipe would index
// an array of loaded keys lane by lane, which slowed its count stage.
#define LOAD_GROUP_KEYS(loaded, first_tile)
#define GROUP_KEY(loaded, first_tile, t, j, lid) keys[((first_tile) + (t)) * TILE + (j) * WG_SIZE + (lid)]
#else
// GPUs load all the group's keys first, ahead of the count's own reads,
// so that the group waits on memory once.
#define LOAD_GROUP_KEYS(loaded, first_tile)                                    \
  KEY_T loaded[GROUP_TILES][ITEMS];                                            \
  for (uint t_ = 0u; t_ < GROUP_TILES; t_++) LOAD_TILE_KEYS(loaded[t_], (first_tile) + t_)
#define GROUP_KEY(loaded, first_tile, t, j, lid) loaded[t][j]
#endif

// Count: each of the group's keys is counted in its tile's counters
// (COUNT_DIGIT, by its order key), and the bits that vary among the order
// keys gathered (u_gather_key_bits). A macro, as LOAD_GROUP_KEYS is: as a
// function's argument, GLSL copies the array of loaded keys; and the
// per-key step stays inline, as a function with inout arguments made
// NVIDIA's count stage slower (BENCHMARKS.md, "Tried and dropped").
#define COUNT_GROUP_KEYS(loaded, first_tile, lid, mask)                        \
  {                                                                            \
    KEY_T ones_ = KEY_T(0u), zeros_ = KEY_T(0u);                               \
    for (uint t_ = 0u; t_ < GROUP_TILES; t_++) {                               \
      uint tile_n_ = keys_in_tile((first_tile) + t_);                          \
      for (uint j_ = 0u; j_ < ITEMS; j_++)                                     \
        if (j_ * WG_SIZE + (lid) < tile_n_) {                                  \
          KEY_T key_ = sort_key(GROUP_KEY(loaded, first_tile, t_, j_, lid));   \
          ones_ |= key_;                                                       \
          zeros_ |= ~key_;                                                     \
          uint d_ = key_digit(key_, u_shift, mask);                            \
          COUNT_DIGIT(t_, d_, lid);                                            \
        }                                                                      \
    }                                                                          \
    if (u_gather_key_bits != 0u) gather_key_bits(ones_, zeros_);               \
  }

void main() {
  uint first_tile = group_index() * GROUP_TILES;
  zero_scan_sums(first_tile);
  LOAD_GROUP_KEYS(loaded, first_tile);
  if (nothing_to_count(first_tile)) return;
  uint lid = gl_LocalInvocationID.x;
  uint mask = (1u << u_digit_bits) - 1u;
  clear_counts(lid);
  clear_key_bits();
  barrier();
  COUNT_GROUP_KEYS(loaded, first_tile, lid, mask);
  barrier();
  write_counts(first_tile, lid);
#if TILE_STARTS
  write_tile_starts(first_tile, lid);
#endif
  if (u_gather_key_bits != 0u) publish_key_bits();
}
