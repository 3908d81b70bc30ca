// Shared by every stage. The C side prepends `#version 430` and the
// constants (WG_SIZE, TILE, RADIX_BITS, B_*, LOC_*, ...) as #defines: the
// names src/gl/contract.h lists and the forms src/gl/prelude.c writes.

layout(local_size_x = WG_SIZE) in;

// Per-invocation arrays (ITEMS keys) must stay in registers: ask NVIDIA's
// compiler to unroll their loops (other compilers ignore the pragma).
#pragma optionNV(unroll all)

// Work groups are launched as a 2-D grid when one dimension's limit is too
// small (65535 on many drivers); this is the linear group index.
uint group_index() {
  return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

// a / b rounded up, without overflow near 2^32.
uint div_up(uint a, uint b) { return a / b + (a % b != 0u ? 1u : 0u); }

// Which block scan a program gets: the global scan (scan_blocks) always
// uses the Blelloch up/down sweep of the design; the 4-way splits (and
// tile_counts' scan of a tile's digit starts, WITH_TILE_SCAN) use the one
// BLOCK_SCAN picks (0 Blelloch, 1 raking, 2 subgroups), measured faster.
#if (defined(WITH_SPLIT) || defined(WITH_TILE_SCAN)) && BLOCK_SCAN != 0
#define SPLIT_SCAN BLOCK_SCAN
#else
#define SPLIT_SCAN 0
#endif

// Index of this invocation in the order that tile slots are owned and
// scanned. With subgroups it follows the subgroup layout (a permutation of
// the local index when subgroups are whole), so that a subgroup scan plus
// one pass over subgroup totals is a scan in this order.
uint scan_index() {
#if SPLIT_SCAN == 2
  return gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
#else
  return gl_LocalInvocationID.x;
#endif
}

#ifdef SCAN_T

// The second level of a two-level block scan: `before` = the sum of the
// first `upto` of `count` partial totals in shared array `totals`, `all` =
// the sum of all of them. (A macro: GLSL copies array arguments.)
#define SUM_TOTALS(totals, count, upto, before, all)                           \
  for (uint i_ = 0u; i_ < (count); i_++) {                                     \
    SCAN_T t_ = totals[i_];                                                    \
    if (i_ < (upto)) before += t_;                                             \
    all += t_;                                                                 \
  }
// block_exclusive_scan: an exclusive scan of one value per invocation over
// the work group, with the total. Must be reached by the whole work group;
// the caller passes a barrier between two calls (s_scan is reused).
#if SPLIT_SCAN == 2
// GL_KHR_shader_subgroup fast path: scan inside each subgroup, then the
// subgroups' totals (lane i holds subgroup i's) are scanned by a subgroup
// scan in every subgroup. One barrier.
#define NUM_SUBGROUPS (WG_SIZE / SUBGROUP_SIZE)
shared SCAN_T s_scan[NUM_SUBGROUPS];

SCAN_T block_exclusive_scan(SCAN_T v, out SCAN_T total) {
  SCAN_T incl = subgroupInclusiveAdd(v);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) s_scan[gl_SubgroupID] = incl;
  barrier();
  if (NUM_SUBGROUPS <= SUBGROUP_SIZE) {
    SCAN_T t = gl_SubgroupInvocationID < NUM_SUBGROUPS ? s_scan[gl_SubgroupInvocationID] : SCAN_T(0);
    SCAN_T sums = subgroupInclusiveAdd(t);
    total = subgroupBroadcast(sums, min(NUM_SUBGROUPS, SUBGROUP_SIZE) - 1u);
    return subgroupShuffle(sums - t, gl_SubgroupID) + incl - v;
  }
  SCAN_T before = SCAN_T(0);
  SCAN_T all = SCAN_T(0);
  SUM_TOTALS(s_scan, NUM_SUBGROUPS, gl_SubgroupID, before, all)
  total = all;
  return before + incl - v;
}
#elif SPLIT_SCAN == 1
// Two-level raking exclusive scan of one value per invocation: WG_SIZE /
// RAKE_SEG rakers each scan RAKE_SEG consecutive values serially, then every
// invocation adds the totals of the segments before its own. Two barriers
// instead of the 2 log2(WG_SIZE) + 3 of the up/down sweep below. One padding slot
// per segment keeps the rakers on different banks.
#define RAKE_SEG 16u
#define RAKES (WG_SIZE / RAKE_SEG)
shared SCAN_T s_scan[WG_SIZE + RAKES];
shared SCAN_T s_rake[RAKES];

SCAN_T block_exclusive_scan(SCAN_T v, out SCAN_T total) {
  uint lid = scan_index();
  uint seg = lid / RAKE_SEG;
  s_scan[lid + seg] = v;
  barrier();
  if (lid < RAKES) {
    uint first = lid * (RAKE_SEG + 1u);
    SCAN_T run = SCAN_T(0);
    for (uint i = 0u; i < RAKE_SEG; i++) {
      SCAN_T x = s_scan[first + i];
      s_scan[first + i] = run;
      run += x;
    }
    s_rake[lid] = run;
  }
  barrier();
  SCAN_T before = SCAN_T(0);
  SCAN_T all = SCAN_T(0);
  SUM_TOTALS(s_rake, RAKES, seg, before, all)
  total = all;
  return s_scan[lid + seg] + before;
}
#else
// Work-efficient (Blelloch) exclusive scan of one value per invocation over
// the work group: up-sweep builds partial sums in place, down-sweep turns
// them into exclusive prefixes. Must be reached by the whole work group.
shared SCAN_T s_scan[WG_SIZE];
shared SCAN_T s_scan_total;

SCAN_T block_exclusive_scan(SCAN_T v, out SCAN_T total) {
  uint lid = scan_index();
  s_scan[lid] = v;
  barrier();
  for (uint d = 1u; d < WG_SIZE; d <<= 1) {
    uint i = (lid + 1u) * (d << 1) - 1u;
    if (i < WG_SIZE) s_scan[i] += s_scan[i - d];
    barrier();
  }
  if (lid == 0u) {
    s_scan_total = s_scan[WG_SIZE - 1u];
    s_scan[WG_SIZE - 1u] = SCAN_T(0);
  }
  barrier();
  for (uint d = WG_SIZE >> 1; d > 0u; d >>= 1) {
    uint i = (lid + 1u) * (d << 1) - 1u;
    if (i < WG_SIZE) {
      SCAN_T left = s_scan[i - d];
      s_scan[i - d] = s_scan[i];
      s_scan[i] += left;
    }
    barrier();
  }
  total = s_scan_total;
  SCAN_T r = s_scan[lid];
  barrier(); // not needed by the callers' rule above; kept as the scan was measured
  return r;
}
#endif
#endif

// Slots each invocation owns in the splits: ITEMS, or, in tile_sort on CPU
// rasterizers (DYNAMIC_ITEMS), as few as `count` keys need (main calls
// SIZE_OWNED_ITEMS first), so that a small count does not rank a whole
// padded tile.
#if defined(DYNAMIC_ITEMS) && DYNAMIC_ITEMS
uint owned_items = ITEMS;
#define OWNED_ITEMS owned_items
#define SIZE_OWNED_ITEMS(count) owned_items = clamp(div_up(count, WG_SIZE), 1u, ITEMS)
#else
#define OWNED_ITEMS ITEMS
#define SIZE_OWNED_ITEMS(count)
#endif

#ifdef WITH_SPLIT
// One stable 4-way split of a tile, in three steps, so that the 2-bit
// sub-digits are recomputed from the keys rather than held in arrays
// (registers are what limits resident work groups):
//   uint mine = 0u; for each owned key: mine += split_one(d);
//   uvec2 next = split_start(mine, first); // block scan: a barrier after every read
//   for each owned key, in slot order: slot = split_take(next, d);
// An invocation owns ITEMS consecutive slots in scan_index() order. Its own
// counts are 8 bits per sub-digit (ITEMS < 256); slots are 16 bits (a tile
// holds at most 65535 keys): x = {0, 1}, y = {2, 3}. Shifts and selects
// rather than indexing by digit keep everything in registers.
uint split_one(uint d) { return 1u << (d << 3); }

// This invocation's first slot for each sub-digit: the sub-digit's start in
// the tile plus the keys of earlier invocations. `first`: the starts alone.
uvec2 split_start(uint mine, out uvec2 first) {
  uvec2 wide = uvec2((mine & 0xFFu) | ((mine & 0xFF00u) << 8),
                     ((mine >> 16) & 0xFFu) | ((mine >> 8) & 0xFF0000u));
  uvec2 total;
  uvec2 before = block_exclusive_scan(wide, total);
  uint c0 = total.x & 0xFFFFu, c01 = c0 + (total.x >> 16), c012 = c01 + (total.y & 0xFFFFu);
  first = uvec2(c0 << 16, c01 | (c012 << 16));
  return before + first;
}

// Sub-digit d's field of split_start's slots.
uint split_field(uvec2 slots, uint d) {
  return ((d < 2u ? slots.x : slots.y) >> ((d & 1u) << 4)) & 0xFFFFu;
}

// The slot of this invocation's next key of sub-digit d; moves d's field on.
// A field never carries into its neighbour: it ends at most at TILE. (Built
// on split_field, radix_bits 8's portable path was slower, so it keeps its
// own form.)
uint split_take(inout uvec2 next, uint d) {
  uint shift = (d & 1u) << 4;
  bool low = d < 2u;
  uint slot = ((low ? next.x : next.y) >> shift) & 0xFFFFu;
  uint step = 1u << shift;
  next += low ? uvec2(step, 0u) : uvec2(0u, step);
  return slot;
}
#endif

// IEEE total order of float bits as an unsigned order: negatives flipped
// below the positives (-0 < +0), NaNs outermost by sign.
uint ordered_bits(uint k) { return (k & 0x80000000u) != 0u ? ~k : k | 0x80000000u; }
uint unordered_bits(uint t) { return (t & 0x80000000u) != 0u ? t & 0x7FFFFFFFu : ~t; }

#ifdef WITH_SKIP
// The sort's small state buffer: which key bits vary (pass_skipped), then
// the number of keys (written by C, or by count_prepare from the caller's
// count buffer) and the tile stages' indirect dispatch.
layout(std430, binding = B_SKIP) buffer Skip { uint skip[]; };

uint sort_count() { return skip[SKIP_COUNT_SLOT]; }
#endif

// Bits [shift, shift + width) of a 64-bit number (low word first), width
// <= 8, as mask.
uint digit64(uvec2 k, uint shift, uint mask) {
  if (shift >= 32u) return (k.y >> (shift - 32u)) & mask;
  if (shift == 0u) return k.x & mask;
  return ((k.x >> shift) | (k.y << (32u - shift))) & mask;
}

#ifdef WITH_SKIP
// Whether the pass over sort-key bits [shift, shift + bits) leaves the keys
// where they are: none of those bits varies between keys (pass skipping;
// the first pass's tile stage gathered skip[0..3], and a sort that skips
// no pass sets them all). Its tile stages return at once, and
// shuffle_scatter copies.
bool pass_skipped(uint shift, uint bits) {
#if KEY_WORDS == 2
  uvec2 mixed = uvec2(skip[0] & skip[2], skip[1] & skip[3]);
  return digit64(mixed, shift, (1u << bits) - 1u) == 0u;
#else // 32-bit keys gather words 0 and 2 only
  return ((skip[0] & skip[2]) >> shift & ((1u << bits) - 1u)) == 0u;
#endif
}
#endif

#ifdef WITH_KEYS
// A key is KEY_WORDS 32-bit words: uint, or uvec2 (a uint64 in memory, low
// word first). The order the sort follows is that of sort_key(key) as an
// unsigned number; the caller's keys keep their values. KEY_* bits from C.
layout(location = LOC_KEY_MODE) uniform uint u_key_mode;

#if KEY_WORDS == 2
#define KEY_T uvec2
#define KEY_MAX uvec2(0xFFFFFFFFu)

KEY_T sort_key(KEY_T k) { return (u_key_mode & KEY_DESCENDING) != 0u ? ~k : k; }
KEY_T unsort_key(KEY_T t) { return sort_key(t); }

uint key_digit(KEY_T k, uint shift, uint mask) { return digit64(k, shift, mask); }
uint key_word(KEY_T k, uint w) { return k[w]; }
#else
#define KEY_T uint
#define KEY_MAX 0xFFFFFFFFu

uint key_digit(KEY_T k, uint shift, uint mask) { return (k >> shift) & mask; }
uint key_word(KEY_T k, uint w) { return k; }

uint sort_key(uint k) {
  if ((u_key_mode & KEY_FLOAT) != 0u) {
    k = ordered_bits(k);
  } else if ((u_key_mode & KEY_SIGNED) != 0u) {
    k ^= 0x80000000u; // two's complement: negatives first
  }
  return (u_key_mode & KEY_DESCENDING) != 0u ? ~k : k;
}

uint unsort_key(uint t) {
  if ((u_key_mode & KEY_DESCENDING) != 0u) t = ~t;
  if ((u_key_mode & KEY_FLOAT) != 0u) return unordered_bits(t);
  if ((u_key_mode & KEY_SIGNED) != 0u) return t ^ 0x80000000u;
  return t;
}
#endif

// The tile stages' grid: one work group per tile of TILE keys (of the
// capacity; the count may be smaller).
layout(location = LOC_NUM_TILES) uniform uint u_num_tiles;

// The number of keys in `tile`: TILE, fewer in the last, 0 past the count or
// past the grid (folded into 2-D it overshoots). Checking u_num_tiles first
// keeps tile * TILE below 2^32.
uint keys_in_tile(uint tile) {
  if (tile >= u_num_tiles || tile * TILE >= sort_count()) return 0u;
  return min(sort_count() - tile * TILE, TILE);
}

// The reduce-then-scan plan's bucket-major counts, counts[bucket *
// count_columns() + column]: a column per tile, or on large grids (GPUs at
// radix_bits 4 and 8) per 2^COLUMN_SHIFT tiles, the tiles of one
// tile_counts group, which halves what the scan reads and writes. C's
// _glradix_count_columns and _glradix_large_grid must agree. Shifts of uniforms: no registers.
uint column_shift() { return u_num_tiles > SMALL_GRID ? uint(COLUMN_SHIFT) : 0u; }
uint count_column(uint tile) { return tile >> column_shift(); }
uint count_columns() { return count_column(u_num_tiles + (1u << column_shift()) - 1u); }

// Reads this invocation's ITEMS keys of tile `tile` (slots lid, lid +
// WG_SIZE, ...) into the array `dst`, bounded by the bound range of `keys`
// (never less than the count) rather than by the count: the loads start
// without waiting for the count's own read, which shortens each work
// group's chain of waits (BENCHMARKS.md, "Measured choices"). A macro:
// GLSL copies array arguments.
#define LOAD_TILE_KEYS(dst, tile)                                              \
  for (uint j_ = 0u; j_ < ITEMS; j_++) {                                       \
    uint i_ = (tile) * TILE + j_ * WG_SIZE + gl_LocalInvocationID.x;           \
    dst[j_] = i_ < uint(keys.length()) ? keys[i_] : KEY_T(0u);                 \
  }
// The same, but the ITEMS consecutive slots from `own` that the invocation
// owns in the 4-way splits (split_digits), so that the first split ranks
// the keys straight from registers. They are read a vector at a time
// (`per` elements of `vec_t`, `elem` picks one), through a vector view of
// the same binding that the stage declares (faster than one key at a time:
// BENCHMARKS.md, "Measured choices"); a vector that straddles the
// end of the bound range is read element by element. ITEMS is even
// (forms.c); ITEMS_BY_4 (ITEMS is a multiple of 4) comes from C, since
// #if cannot portably do arithmetic on ITEMS's 8u.
#define LOAD_OWNED(dst, vecs, scalars, vec_t, per, elem, zero, tile, own)     \
  for (uint q_ = 0u; q_ < ITEMS / (per); q_++) {                               \
    uint at_ = ((tile) * TILE + (own)) / (per) + q_;                           \
    if (at_ < uint(vecs.length())) {                                           \
      vec_t v_ = vecs[at_];                                                    \
      for (uint c_ = 0u; c_ < (per); c_++) dst[(per) * q_ + c_] = elem(v_, c_); \
    } else {                                                                   \
      for (uint c_ = 0u; c_ < (per); c_++) {                                   \
        uint i_ = (per) * at_ + c_;                                            \
        dst[(per) * q_ + c_] = i_ < uint(scalars.length()) ? scalars[i_] : (zero); \
      }                                                                        \
    }                                                                          \
  }
// The reverse: writes the invocation's ITEMS consecutive slots from `own`
// of tile `tile` from `src`, those below `count` only, a vector at a time
// (`pack` makes the vector of `per` elements of src from the k-th).
#define STORE_OWNED(src, vecs, scalars, per, pack, tile, own, count)          \
  for (uint q_ = 0u; q_ < ITEMS / (per); q_++) {                               \
    uint first_ = (own) + (per) * q_;                                          \
    if (first_ + (per) <= (count)) {                                           \
      vecs[((tile) * TILE + first_) / (per)] = pack(src, (per) * q_);          \
    } else {                                                                   \
      for (uint c_ = 0u; c_ < (per); c_++)                                     \
        if (first_ + c_ < (count)) scalars[(tile) * TILE + first_ + c_] = src[(per) * q_ + c_]; \
    }                                                                          \
  }
#define VEC_ELEM(v, c) v[c]
#if ITEMS_BY_4
#define WORD_VEC 4u
#define WORD_VEC_T uvec4
#define WORD_PACK(a, k) uvec4(a[k], a[(k) + 1u], a[(k) + 2u], a[(k) + 3u])
#else
#define WORD_VEC 2u
#define WORD_VEC_T uvec2
#define WORD_PACK(a, k) uvec2(a[k], a[(k) + 1u])
#endif
#if KEY_WORDS == 2
#define OWNED_VEC 2u
#define OWNED_VEC_T uvec4
#define OWNED_VEC_KEY(v, c) uvec2(v[2u * (c)], v[2u * (c) + 1u])
#define OWNED_PACK(a, k) uvec4(a[k], a[(k) + 1u])
#else
#define OWNED_VEC WORD_VEC
#define OWNED_VEC_T WORD_VEC_T
#define OWNED_VEC_KEY VEC_ELEM
#define OWNED_PACK WORD_PACK
#endif
// keys_vec: the stage's OWNED_VEC_T view of B_KEYS
#define LOAD_OWNED_KEYS(dst, tile, own)                                        \
  LOAD_OWNED(dst, keys_vec, keys, OWNED_VEC_T, OWNED_VEC, OWNED_VEC_KEY, KEY_T(0u), tile, own)
#endif

#ifdef WITH_KEY_BITS
// Pass skipping: which bits of the sort keys vary. Word w of every key is
// ORed into skip[w], its complement into skip[2 + w]; a bit set in both
// varies, and a pass none of whose digit bits vary would leave the keys
// where they are (pass_skip_flags). Each invocation ORs its keys in
// registers; the work group gathers them in KEY_BIT_LANES words per slot
// (fewer invocations contend for one) and adds 2 KEY_WORDS global atomics.
#define KEY_BIT_LANES 32u
shared uint s_key_bits[4u * KEY_BIT_LANES];

// Zeroes the gathering words; the caller passes a barrier before gathering.
void clear_key_bits() {
  for (uint i = gl_LocalInvocationID.x; i < 4u * KEY_BIT_LANES; i += WG_SIZE) s_key_bits[i] = 0u;
}

// `ones`: the OR of this invocation's sort keys, `zeros`: of their complements.
void gather_key_bits(KEY_T ones, KEY_T zeros) {
  uint lane = gl_LocalInvocationID.x % KEY_BIT_LANES;
  for (uint w = 0u; w < uint(KEY_WORDS); w++) {
    atomicOr(s_key_bits[w * KEY_BIT_LANES + lane], key_word(ones, w));
    atomicOr(s_key_bits[(2u + w) * KEY_BIT_LANES + lane], key_word(zeros, w));
  }
}

// After a barrier: adds this work group's bits to the sort's.
void publish_key_bits() {
  uint slot = gl_LocalInvocationID.x;
  if (slot < 4u) {
    uint bits = 0u;
    for (uint l = 0u; l < KEY_BIT_LANES; l++) bits |= s_key_bits[slot * KEY_BIT_LANES + l];
    if (bits != 0u) atomicOr(skip[slot], bits);
  }
}
#endif

#ifdef WITH_COMPACT
// Stream compaction: which input elements are kept.
layout(std430, binding = B_COMPACT_IN) readonly buffer CompactInput { uint input_data[]; };
layout(std430, binding = B_COMPACT_FLAGS) readonly buffer CompactFlags { uint flags[]; };
layout(location = LOC_USE_FLAGS) uniform uint u_use_flags;

// Without flags: the float value is > 0, decided on the bits (sign clear,
// not +0, not NaN), because drivers may flush denormals to zero in float
// compares (NVIDIA does): 1.4e-45 is > 0 on every driver.
bool positive_float_bits(uint b) { return b != 0u && b <= 0x7F800000u; }

bool kept(uint i) {
  return u_use_flags != 0u ? flags[i] != 0u : positive_float_bits(input_data[i]);
}
#endif

#ifdef WITH_LBVH
// Primitive bounds (vec4 min, vec4 max per primitive; .w ignored) and the
// LBVH state: the scene box as ordered_bits() of min.xyz, max.xyz (for
// atomicMin/Max), then the number of primitives, which C writes there or
// copies from the caller's count buffer (a uniform cannot carry a GPU
// count). Every LBVH program's count uniform is the capacity, which
// lbvh_count() clamps it to.
layout(std430, binding = B_BOUNDS) readonly buffer Bounds { vec4 bounds[]; };
layout(std430, binding = B_BOX) buffer LbvhState { uint lbvh_state[]; };
layout(location = LOC_COUNT) uniform uint u_capacity;

uint lbvh_count() { return min(lbvh_state[LBVH_COUNT_SLOT], u_capacity); }

#if MORTON_BITS == 63
#define CODE_T uvec2
#define CODE_LEN 64
#define CELLS 2097152.0
#else
#define CODE_T uint
#define CODE_LEN 32
#define CELLS 1024.0
#endif

// glradix_lbvh_node (lbvh.h) as two uvec4 words of a `uvec4 nodes[]`
// block: (min.xyz, a) and (max.xyz, b), float bits as uint, so that a node
// moves in two 16-byte loads or stores.
#define NODE_LO(i) nodes[2u * (i)]
#define NODE_HI(i) nodes[2u * (i) + 1u]
#define STORE_NODE(i, lo, a, hi, b)                                            \
  NODE_LO(i) = uvec4(floatBitsToUint(lo), (a));                                \
  NODE_HI(i) = uvec4(floatBitsToUint(hi), (b))
// Each node's parent word, kept by the build after the 2 * capacity - 1
// nodes, four to a uvec4 (glradix_lbvh_nodes_bytes): the parent's index,
// with RIGHT_CHILD set for a right child (internal nodes are below 2^31);
// the root's is EMPTY, or CLUSTERED_ROOT in a quality build's tree.
#define PARENT(i) nodes[2u * (2u * u_capacity - 1u) + ((i) >> 2u)][(i) & 3u]
// Each leaf's primitive, kept after the parent words (capacity words, four
// to a uvec4): a refit reads 4 bytes a leaf there instead of a node word.
#define LEAF_PRIM(k) nodes[2u * (2u * u_capacity - 1u) + (2u * u_capacity + 2u) / 4u + ((k) >> 2u)][(k) & 3u]
#define RIGHT_CHILD 0x80000000u

// The bottom-up passes (lbvh_tree.comp, lbvh_cluster.comp): an exchange
// slot no child has reached, and the bound on a climb. A path from a leaf
// to the root of the radix tree has at most CODE_LEN + 32 nodes (prefix
// lengths grow down the tree, by index bits below equal codes), and fewer
// than n: min(MAX_DEPTH, n) bounds both widths' climbs, so no loop grows
// with n. The loops' bounds depend on n so that NVIDIA's compiler, which
// this file asks to unroll every loop, cannot unroll them: with constant
// bounds its compile of lbvh_tree.comp did not finish.
const uint EMPTY = 0xFFFFFFFFu;
const uint MAX_DEPTH = 96u;

#ifdef WITH_PREFIX
// The sorted codes, and the common prefix length of sorted keys i and
// i + 1 of n, -1 past either end (i = 0xFFFFFFFF is the one before 0);
// equal codes compare by their sorted index, as if augmented with it.
layout(std430, binding = B_CODES) readonly buffer Codes { CODE_T codes[]; };

int clz(CODE_T x) {
#if MORTON_BITS == 63
  return x.y != 0u ? 31 - findMSB(x.y) : 63 - findMSB(x.x);
#else
  return 31 - findMSB(x);
#endif
}

int lbvh_prefix(uint i, uint n) {
  if (i >= n - 1u) return -1;
  CODE_T a = codes[i], b = codes[i + 1u];
  if (a == b) return CODE_LEN + 31 - findMSB(i ^ (i + 1u));
  return clz(a ^ b);
}
#endif
#endif

// Shared-memory index with one padding word per 32, so that an invocation's
// ITEMS consecutive slots fall on distinct banks across its neighbours.
uint padded(uint i) { return i + (i >> 5); }

#ifdef WITH_SHUFFLE
// The tile being ranked, one word per key: (digit << 16) | slot in the
// loaded tile. One padding word per 32 (padded()) keeps each invocation's
// ITEMS consecutive words on distinct banks.
shared uint s_work[TILE + TILE / 32u];

// Successive stable 4-way splits of s_work from bit `low` up to `high`:
// the sub-digit of word w at `bit` is (w >> bit) & MASK, MASK an
// expression of `bit` computed once per split. The caller filled s_work and
// passed a barrier; so does this on return. Each invocation owns ITEMS
// consecutive slots in scan_index() order, so ranks follow tile order. (A
// macro, so that the words keep a constant mask: a function taking it
// once per split was slower, if within the noise, and the keys' mask
// computed per key slower again: BENCHMARKS.md, "Measured choices".)
#define SPLIT_WORK(low, high, MASK)                                            \
  {                                                                            \
    uint own_ = scan_index() * OWNED_ITEMS;                                    \
    for (uint bit = (low); bit < (high); bit += 2u) {                          \
      uint sub_ = (MASK);                                                      \
      uint w[ITEMS];                                                           \
      uint mine = 0u;                                                          \
      for (uint j = 0u; j < OWNED_ITEMS; j++) {                                \
        w[j] = s_work[padded(own_ + j)];                                       \
        mine += split_one((w[j] >> bit) & sub_);                               \
      }                                                                        \
      uvec2 first;                                                             \
      uvec2 next = split_start(mine, first); /* its barrier follows every read of s_work */ \
      for (uint j = 0u; j < OWNED_ITEMS; j++)                                  \
        s_work[padded(split_take(next, (w[j] >> bit) & sub_))] = w[j];         \
      barrier();                                                               \
    }                                                                          \
  }

// Sorts s_work's words, (digit << 16) | slot, stably by the digit,
// digit_bits wide, from first_bit.
void split_work_words(uint first_bit, uint digit_bits) {
  SPLIT_WORK(16u + first_bit, 16u + digit_bits, 3u)
}

// Sorts s_work's keys (shuffle_scatter's KEY_SPLIT) stably by bits [low,
// high); the last split of an odd range takes one bit.
void split_work_keys(uint low, uint high) {
  SPLIT_WORK(low, high, high - bit == 1u ? 1u : 3u)
}

// The first split (sub-digit bits 0-1) of a tile whose invocations hold
// their own ITEMS consecutive slots, from `own` = scan_index() * ITEMS, in
// registers: their digits in `digits`. It writes the split's words to
// s_work directly, saving the write of the unsplit words, a barrier and
// their read back. Returns the tile's first slot of each sub-digit
// (split_field); the caller passes a barrier, then split_work_words(2u,
// ...) or split_work_keys goes on. SPLIT_FIRST's WORD_J is what slot j's
// key leaves in s_work (a macro, as SPLIT_WORK).
#define SPLIT_FIRST(digits, WORD_J)                                            \
  {                                                                            \
    uint mine = 0u;                                                            \
    for (uint j = 0u; j < OWNED_ITEMS; j++) mine += split_one(digits[j] & 3u); \
    uvec2 first;                                                               \
    uvec2 next = split_start(mine, first);                                     \
    for (uint j = 0u; j < OWNED_ITEMS; j++)                                    \
      s_work[padded(split_take(next, digits[j] & 3u))] = (WORD_J);             \
    return first;                                                              \
  }

// ... leaving (digit << 16) | slot words.
uvec2 split_digits(uint digits[ITEMS], uint own) { SPLIT_FIRST(digits, (digits[j] << 16) | (own + j)) }

// ... leaving the keys themselves (shuffle_scatter's KEY_SPLIT).
uvec2 split_digits_keys(uint digits[ITEMS], uint moved[ITEMS]) { SPLIT_FIRST(digits, moved[j]) }
#endif
