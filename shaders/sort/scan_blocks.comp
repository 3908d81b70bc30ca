// Stage 2a: Blelloch scan, one level (needs SCAN_T = uint from the C side).
// Each work group scans SCAN_TILE values of the level (exclusive, or
// inclusive when asked) from `input` into `output` (the same buffer for an
// in-place scan: each invocation reads its values before writing them) and
// writes the block's total to sums[block]; the next level scans those totals
// and scan_add adds them back.

layout(std430, binding = B_SCAN_IN) buffer Input { uint input_data[]; };
layout(std430, binding = B_SCAN_OUT) buffer Output { uint output_data[]; };
// coherent: with u_chain, the last group reads the other groups' totals.
layout(std430, binding = B_SCAN_SUMS) coherent buffer Sums { uint sums[]; };

layout(location = LOC_COUNT) uniform uint u_len;
layout(location = LOC_IN_OFFSET) uniform uint u_in_offset;
layout(location = LOC_SUMS_OFFSET) uniform uint u_sums_offset;
layout(location = LOC_OUT_OFFSET) uniform uint u_out_offset;
layout(location = LOC_INCLUSIVE) uniform uint u_inclusive;
// 1 when the block totals fit one block, which is then the last level: the
// last group to finish scans them too (exclusive, in place, their total
// after them), saving that level's dispatch. No group waits for another: a
// ticket counter (skip[SKIP_TICKET], left at zero) picks the one that
// finishes last, as lbvh_refit picks the second child's parent.
// 2 when there are at most WG_SIZE totals and their entries are zero (the
// sort's tile_counts zeroes them): each group adds its total to the entries
// of the blocks after it, which leaves the same exclusive prefixes (but no
// total after them) with no step after the last group.
layout(location = LOC_CHAIN) uniform uint u_chain;
// Nonzero: zero the input after reading it (the sort's next-pass counts,
// shuffle_scatter's NEXT_COUNTS, are added up by atomics into zeros).
layout(location = LOC_ZERO_INPUT) uniform uint u_zero_input;
// Group 0 zeroes u_zero_next_length (at most WG_SIZE) words of sums from
// u_zero_next: the sort's level 1 of the next pass, for u_chain 2 there
// (sort.c: with NEXT_COUNTS no count stage runs between the passes).
layout(location = LOC_ZERO_NEXT) uniform uint u_zero_next;
layout(location = LOC_ZERO_NEXT_LENGTH) uniform uint u_zero_next_length;

shared uint s_last;

// Scans the `len` values of src[src_off + i] from `start`, SCAN_ITEMS per
// invocation from start + scan_index() * SCAN_ITEMS, into dst[dst_off + i]:
// each value's exclusive (or, with `incl`, inclusive) prefix; `total`
// receives the sum. Whole work group; a barrier between two uses. A macro:
// GLSL functions cannot take a buffer.
#define SCAN_RUN(src, src_off, dst, dst_off, start, len, incl, total)          \
  {                                                                            \
    uint first_ = (start) + scan_index() * SCAN_ITEMS;                         \
    uint v_[SCAN_ITEMS];                                                       \
    uint sum_ = 0u;                                                            \
    for (uint j_ = 0u; j_ < SCAN_ITEMS; j_++) {                                \
      uint i_ = first_ + j_;                                                   \
      v_[j_] = i_ < (len) ? src[(src_off) + i_] : 0u;                          \
      sum_ += v_[j_];                                                          \
    }                                                                          \
    uint run_ = block_exclusive_scan(sum_, total);                             \
    for (uint j_ = 0u; j_ < SCAN_ITEMS; j_++) {                                \
      uint i_ = first_ + j_;                                                   \
      uint next_ = run_ + v_[j_];                                              \
      if (i_ < (len)) dst[(dst_off) + i_] = (incl) ? next_ : run_;             \
      run_ = next_;                                                            \
    }                                                                          \
  }

void main() {
  uint block = group_index();
  if (block * SCAN_TILE >= u_len) return;
  uint lid = gl_LocalInvocationID.x;
  if (block == 0u && lid < u_zero_next_length) sums[u_zero_next + lid] = 0u;
  uint total;
  SCAN_RUN(input_data, u_in_offset, output_data, u_out_offset, block * SCAN_TILE, u_len,
           u_inclusive != 0u, total)
  if (u_zero_input != 0u)
    for (uint j = 0u; j < SCAN_ITEMS; j++) {
      uint i = block * SCAN_TILE + scan_index() * SCAN_ITEMS + j;
      if (i < u_len) input_data[u_in_offset + i] = 0u;
    }
  uint blocks = div_up(u_len, SCAN_TILE);
  if (u_chain == 2u) {
    uint later = block + 1u + lid;
    if (later < blocks) atomicAdd(sums[u_sums_offset + later], total);
    return;
  }
  if (lid == 0u) sums[u_sums_offset + block] = total;
  if (u_chain == 0u) return;
  if (lid == 0u) {
    memoryBarrierBuffer(); // the total is visible before the ticket
    s_last = atomicAdd(skip[SKIP_TICKET], 1u) == blocks - 1u ? 1u : 0u;
  }
  barrier(); // also separates the two block scans
  if (s_last == 0u) return;
  memoryBarrierBuffer();
  SCAN_RUN(sums, u_sums_offset, sums, u_sums_offset, 0u, blocks, false, total)
  if (lid == 0u) {
    sums[u_sums_offset + blocks] = total;
    skip[SKIP_TICKET] = 0u;
  }
}
