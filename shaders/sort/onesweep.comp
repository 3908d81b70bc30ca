// Single-pass plan, one dispatch per digit (Onesweep: Adinets & Merrill
// 2022). Each work group takes its tile by a ticket, so that every earlier
// tile's group has started; ranks the tile by the pass's digit; publishes
// its digit counts; finds each digit's count in the earlier tiles by
// looking back at their published words; and moves every key (and value)
// from the pass's input to its place in the output: the digit's offset
// (digit_counts and the scan) + the earlier tiles' keys of it + its rank
// in the tile.
// GL promises no forward progress between work groups, so no wait is
// unbounded (decoupled fallback: Smith, Levien & Owens, SPAA 2025): a
// look-back that has read a tile's word SPIN_LIMIT times without a count
// stops, and the group counts that tile's digits itself from its keys and
// publishes them with a compare-and-swap, so that whichever count comes
// first stands (both are the same). Test hooks (forms.h) force the
// fallback on every FORCE_FALLBACK-th tile looked at, and make every
// DELAY_TILES-th tile publish late.
// main() runs named steps: take a ticket, load the tile, copy it (a
// skipped pass) or rank it, publish its counts, find its digits' starts,
// look back, publish its sums, store. RANK_BALLOT (GL_KHR_shader_subgroup)
// ranks all the digit's bits at once by subgroup ballots; elsewhere the
// design's 4-way splits rank it.

layout(std430, binding = B_KEYS) readonly buffer Keys { KEY_T keys[]; };
layout(std430, binding = B_TILE_KEYS) writeonly buffer OutKeys { KEY_T out_keys[]; };
// The digit offsets and the tiles' status words, which other work groups
// write while this one reads them.
layout(std430, binding = B_COUNTS) coherent volatile buffer Status { uint status[]; };
#if HAS_VALUES
layout(std430, binding = B_VALUES) readonly buffer Values { uint values[]; };
layout(std430, binding = B_TILE_VALUES) writeonly buffer OutValues { uint out_values[]; };
#endif

layout(location = LOC_SHIFT) uniform uint u_shift;
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits;
layout(location = LOC_PASS_INDEX) uniform uint u_pass_index;
layout(location = LOC_STATUS) uniform uint u_status;
layout(location = LOC_TICKET) uniform uint u_ticket;

shared uint s_tile;          // the tile this group ranks
shared uint s_own[BUCKETS];  // the tile's keys of each digit, then its first sorted slot of it
shared uint s_dest[BUCKETS]; // where sorted slot i of digit d goes: s_dest[d] + i
shared uint s_stuck;         // look-back: 1 + the tile to count (fallback), 0 for none

// Tiles a look-back lane reads at once.
#define LOOK_WINDOW 8u
// Digits per invocation where the look-back takes a digit per lane.
#define DIGIT_LANES ((BUCKETS + WG_SIZE - 1u) / WG_SIZE)

uint status_word(uint tile, uint d) { return u_status + tile * BUCKETS + d; }

// Take a ticket: tiles in the order groups start. Whole work group.
uint take_ticket() {
  if (gl_LocalInvocationID.x == 0u) s_tile = atomicAdd(status[u_ticket], 1u);
  barrier();
  return s_tile;
}

// Copy (a skipped pass: every key has the same digit): the tile stays where it is.
void copy_tile(uint tile, uint tile_n) {
  for (uint j = 0u; j < ITEMS; j++) {
    uint slot = j * WG_SIZE + gl_LocalInvocationID.x;
    if (slot < tile_n) {
      out_keys[tile * TILE + slot] = keys[tile * TILE + slot];
#if HAS_VALUES
      out_values[tile * TILE + slot] = values[tile * TILE + slot];
#endif
    }
  }
}


// Starts: s_own's counts become the tile's first sorted slot of each
// digit, an exclusive scan. Padding past the count takes the largest digit
// and sorts last, so the valid keys' slots come first. Whole work group.
void digit_starts() {
  barrier(); // s_own is complete and published
  uint first = scan_index() * DIGIT_LANES, sum = 0u;
  for (uint k = 0u; k < DIGIT_LANES; k++)
    if (first + k < BUCKETS) sum += s_own[first + k];
  uvec2 total;
  uint run = block_exclusive_scan(uvec2(sum, 0u), total).x;
  for (uint k = 0u; k < DIGIT_LANES; k++)
    if (first + k < BUCKETS) {
      uint own = s_own[first + k];
      s_own[first + k] = run;
      run += own;
    }
}

// The tile's keys of digit d, from the starts.
uint own_keys(uint d, uint tile_n) { return (d + 1u < BUCKETS ? s_own[d + 1u] : tile_n) - s_own[d]; }

// Publish, after a barrier: each digit's count of this tile as the tile's
// own (AGGREGATE), or, for the first tile, as the sum up to it
// (INCLUSIVE). The DELAY_TILES hook's tiles publish no aggregate, so that
// later tiles must fall back.
void publish_counts(uint tile, uint tile_n) {
  if (DELAY_TILES != 0u && tile % DELAY_TILES == DELAY_TILES - 1u) return;
  uint kind = tile == 0u ? STATUS_INCLUSIVE : STATUS_AGGREGATE;
  for (uint d = gl_LocalInvocationID.x; d < BUCKETS; d += WG_SIZE)
    status[status_word(tile, d)] = (own_keys(d, tile_n) << STATUS_SHIFT) | kind;
}

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

// The test hook: the look-back treats every FORCE_FALLBACK-th tile as not
// yet published, and falls back at once.
bool forced(uint k) { return FORCE_FALLBACK != 0u && k % FORCE_FALLBACK == 0u; }

// Look back, one digit per lane (DIGIT_LANES an invocation, in
// registers): from the tile before this one down, add each tile's own
// count until a sum up to a tile ends it; a tile with no word after
// SPIN_LIMIT reads stops the lane. Then, if some lane stopped, the group
// counts the latest such tile itself (count_tile), publishes that with a
// compare-and-swap where nothing stands yet, and goes on. Every round
// either ends every lane or settles one tile for good, and a lane reads at
// most SPIN_LIMIT words a round past the tiles it settles: the loops are
// bounded (and short on llvmpipe, which cuts long ones).
// Then it publishes each digit's sum up to this tile (INCLUSIVE), after
// the DELAY_TILES hook's wait, and where its sorted slots go: the digit's
// offset in the pass (the scan of every pass's counts runs on, so less the
// keys of the earlier passes) + the earlier tiles' keys of it - its first
// slot here. Whole work group.
void look_back(uint tile, uint tile_n, uint mask) {
  uint lid = gl_LocalInvocationID.x;
  uint excl[DIGIT_LANES], next[DIGIT_LANES]; // 1 + the next tile to read, 0 when done
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
        // LOOK_WINDOW words at once, so that a walk over tiles that have
        // published their own counts only waits once a window
        uint words[LOOK_WINDOW];
        for (uint w = 0u; w < LOOK_WINDOW; w++) {
          uint at = next[k] - 1u - w;
          words[w] = w >= next[k] || forced(at) ? 0u : status[status_word(at, d)];
        }
        uint w = 0u;
        for (; w < LOOK_WINDOW && w < next[k]; w++) {
          if ((words[w] & 3u) == 0u) break;
          excl[k] += words[w] >> STATUS_SHIFT;
          if ((words[w] & 3u) == STATUS_INCLUSIVE) break;
        }
        if (w < LOOK_WINDOW && w < next[k] && (words[w] & 3u) == STATUS_INCLUSIVE) {
          next[k] = 0u;
          break;
        }
        next[k] -= w;
        if (next[k] == 0u || w > 0u) continue;
        spins++; // the window's first tile has no word yet
        if (forced(next[k] - 1u) || spins > SPIN_LIMIT) {
          atomicMax(s_stuck, next[k]);
          break;
        }
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
        uint was = atomicCompSwap(status[status_word(stuck - 1u, d)], 0u,
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
  if (DELAY_TILES != 0u && tile % DELAY_TILES == DELAY_TILES - 1u)
    for (uint i = 0u; i < 256u && status[u_ticket] != 0xFFFFFFFFu; i++) {}
  for (uint k = 0u; k < DIGIT_LANES; k++) {
    uint d = lid + k * WG_SIZE;
    if (d < BUCKETS) {
      uint sum = excl[k] + own_keys(d, tile_n);
      status[status_word(tile, d)] = (sum << STATUS_SHIFT) | STATUS_INCLUSIVE;
      s_dest[d] = status[u_pass_index * BUCKETS + d] - before + excl[k] - s_own[d];
    }
  }
  barrier();
}

#if RANK_BALLOT
// Ranking by ballots: subgroup g holds the tile's keys from g * SUBGROUP_SIZE
// * ITEMS, its lane l key j at j * SUBGROUP_SIZE + l from there (coalesced
// loads), and ranks each key j at once among the subgroup's keys of the
// same digit: the lanes whose ballots of every digit bit agree with its own.
// Each subgroup counts its digits in s_sg[subgroup * BUCKETS + digit].
#define NUM_SUBGROUPS_RANKED (WG_SIZE / SUBGROUP_SIZE)
shared uint s_sg[NUM_SUBGROUPS_RANKED * BUCKETS];

uint ballot_slot(uint j) {
  return gl_SubgroupID * (SUBGROUP_SIZE * ITEMS) + j * SUBGROUP_SIZE + gl_SubgroupInvocationID;
}

#define LOAD_BALLOT(dst, src, zero, tile)                                      \
  for (uint j_ = 0u; j_ < ITEMS; j_++) {                                       \
    uint i_ = (tile) * TILE + ballot_slot(j_);                                 \
    dst[j_] = i_ < uint(src.length()) ? src[i_] : (zero);                      \
  }

// A subgroup's lanes as bits: a uint where subgroups are at most 32
// lanes wide (NVIDIA's), else GL_KHR_shader_subgroup's uvec4.
#if BALLOT_WORD
#define LANES_T uint
#define BALLOT(b) subgroupBallot(b).x
#define LANES_COUNT(m) uint(bitCount(m))
#define LANES_BELOW(m) uint(bitCount((m) & gl_SubgroupLtMask.x))
#define LANES_FIRST(m) uint(findLSB(m))
#else
#define LANES_T uvec4
#define BALLOT(b) subgroupBallot(b)
#define LANES_COUNT(m) subgroupBallotBitCount(m)
#define LANES_BELOW(m) subgroupBallotExclusiveBitCount(m)
#define LANES_FIRST(m) subgroupBallotFindLSB(m)
#endif

// Each key's rank among the subgroup's keys of its digit before it; the
// subgroup's counts in s_sg. The lanes with a key of the same digit are
// those whose ballots of every digit bit agree with its own (the bits
// above u_digit_bits are 0 in every lane); the first of them adds their
// count to the subgroup's counter, and the shuffle of the count before
// orders its atomic before the next key's.
uint[ITEMS] ballot_ranks(uint digits[ITEMS]) {
  uint base = gl_SubgroupID * BUCKETS;
  for (uint d = gl_SubgroupInvocationID; d < BUCKETS; d += SUBGROUP_SIZE) s_sg[base + d] = 0u;
  subgroupMemoryBarrierShared();
  subgroupBarrier();
  LANES_T same[ITEMS]; // every key's match first: its ballots need no counter
  for (uint j = 0u; j < ITEMS; j++) {
    same[j] = BALLOT(true);
    for (uint b = 0u; b < RADIX_BITS; b++) {
      bool set = ((digits[j] >> b) & 1u) != 0u;
      LANES_T v = BALLOT(set);
      same[j] &= set ? v : ~v;
    }
  }
  uint ranks[ITEMS];
  for (uint j = 0u; j < ITEMS; j++) {
    uint below = LANES_BELOW(same[j]), before = 0u;
    if (below == 0u) before = atomicAdd(s_sg[base + digits[j]], LANES_COUNT(same[j]));
    ranks[j] = subgroupShuffle(before, LANES_FIRST(same[j])) + below;
  }
  return ranks;
}

// The subgroups' counts -> each subgroup's first rank of each digit, and
// the tile's valid keys of it in s_own (the padding, tile_n on, takes the
// largest digit, `mask`). Whole work group.
void ballot_counts(uint tile_n, uint mask) {
  barrier();
  for (uint d = gl_LocalInvocationID.x; d < BUCKETS; d += WG_SIZE) {
    uint run = 0u;
    for (uint g = 0u; g < NUM_SUBGROUPS_RANKED; g++) {
      uint c = s_sg[g * BUCKETS + d];
      s_sg[g * BUCKETS + d] = run;
      run += c;
    }
    s_own[d] = d == mask ? run - (TILE - tile_n) : run;
  }
}

// Moves ITEMS words of each invocation to sorted slot `sorted[j]` through
// s_work and returns those of sorted slots j * WG_SIZE + lid. Whole work group.
uint[ITEMS] through_shared(uint words[ITEMS], uint sorted[ITEMS]) {
  barrier();
  for (uint j = 0u; j < ITEMS; j++) s_work[sorted[j]] = words[j];
  barrier();
  uint moved[ITEMS];
  for (uint j = 0u; j < ITEMS; j++) moved[j] = s_work[j * WG_SIZE + gl_LocalInvocationID.x];
  return moved;
}
#endif

#if !RANK_BALLOT
// Starts, from the sorted (digit << 16 | slot) words of the 4-way splits:
// where the digit changes, and every absent digit between the two sides'
// starts there too (so own_keys is 0 for it). Each invocation reads its own
// consecutive slots and the one before them. Ends with a barrier.
void starts_from_words(uint own, uint tile_n) {
  uint before = own == 0u ? 0u : (s_work[padded(own - 1u)] >> 16) + 1u;
  for (uint j = 0u; j <= ITEMS; j++) {
    uint i = own + j;
    if (i > tile_n || (j == ITEMS && i != tile_n)) break;
    uint d = i == tile_n ? BUCKETS : s_work[padded(i)] >> 16; // past the end: every digit left
    for (uint x = before; x < d + (i == tile_n ? 0u : 1u); x++) s_own[x] = i;
    before = i == tile_n ? BUCKETS : d + 1u;
  }
  barrier();
}
#endif

void main() {
  uint lid = gl_LocalInvocationID.x;
  uint mask = (1u << u_digit_bits) - 1u;
  if (pass_skipped(u_shift, u_digit_bits)) {
    copy_tile(group_index(), keys_in_tile(group_index()));
    return;
  }
  uint tile = take_ticket(), tile_n = keys_in_tile(tile);
  if (tile_n == 0u) return;
#if RANK_BALLOT
  KEY_T loaded[ITEMS];
  LOAD_BALLOT(loaded, keys, KEY_T(0u), tile);
#if HAS_VALUES
  uint vals[ITEMS];
  LOAD_BALLOT(vals, values, 0u, tile);
#endif
  uint digits[ITEMS];
  for (uint j = 0u; j < ITEMS; j++)
    digits[j] = ballot_slot(j) < tile_n ? key_digit(sort_key(loaded[j]), u_shift, mask) : mask;
  uint ranks[ITEMS] = ballot_ranks(digits);
  ballot_counts(tile_n, mask);
  digit_starts();
  barrier();
  publish_counts(tile, tile_n);
  uint sorted[ITEMS];
  for (uint j = 0u; j < ITEMS; j++)
    sorted[j] = s_own[digits[j]] + s_sg[gl_SubgroupID * BUCKETS + digits[j]] + ranks[j];
#else
  uint own = scan_index() * ITEMS;
  uint digits[ITEMS];
  for (uint j = 0u; j < ITEMS; j++)
    digits[j] = own + j < tile_n ? key_digit(sort_key(keys[tile * TILE + own + j]), u_shift, mask) : mask;
  split_digits(digits, own);
  barrier();
  split_work_words(2u, u_digit_bits);
  starts_from_words(own, tile_n);
  publish_counts(tile, tile_n);
#endif
  look_back(tile, tile_n, mask);
#if RANK_BALLOT
#if KEY_WORDS == 2
  uint low[ITEMS], high[ITEMS];
  for (uint j = 0u; j < ITEMS; j++) {
    low[j] = loaded[j].x;
    high[j] = loaded[j].y;
  }
  low = through_shared(low, sorted);
  high = through_shared(high, sorted);
  KEY_T moved[ITEMS];
  for (uint j = 0u; j < ITEMS; j++) moved[j] = uvec2(low[j], high[j]);
#else
  KEY_T moved[ITEMS] = through_shared(loaded, sorted);
#endif
  uint dest[ITEMS];
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    dest[j] = s_dest[key_digit(sort_key(moved[j]), u_shift, mask)] + i;
    if (i < tile_n) out_keys[dest[j]] = moved[j];
  }
#if HAS_VALUES
  vals = through_shared(vals, sorted);
  for (uint j = 0u; j < ITEMS; j++)
    if (j * WG_SIZE + lid < tile_n) out_values[dest[j]] = vals[j];
#endif
#else
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < tile_n) {
      uint w = s_work[padded(i)];
      uint from = tile * TILE + (w & 0xFFFFu), to = s_dest[w >> 16] + i;
      out_keys[to] = keys[from];
#if HAS_VALUES
      out_values[to] = values[from];
#endif
    }
  }
#endif
}
