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
// Nonzero when the block totals fit one block, which is then the last level:
// the last group to finish scans them too (exclusive, in place, their total
// after them), saving that level's dispatch. No group waits for another: a
// ticket counter (skip[TICKET_SLOT], left at zero) picks the one that
// finishes last, as lbvh_refit picks the second child's parent.
layout(location = LOC_CHAIN) uniform uint u_chain;

shared uint s_last;

void main() {
  uint block = group_index();
  if (block * SCAN_TILE >= u_len) return;
  uint lid = gl_LocalInvocationID.x;
  uint first = block * SCAN_TILE + scan_index() * SCAN_ITEMS;
  uint v[SCAN_ITEMS];
  uint sum = 0u;
  for (uint j = 0u; j < SCAN_ITEMS; j++) {
    uint i = first + j;
    v[j] = i < u_len ? input_data[u_in_offset + i] : 0u;
    sum += v[j];
  }
  uint total;
  uint run = block_exclusive_scan(sum, total);
  for (uint j = 0u; j < SCAN_ITEMS; j++) {
    uint i = first + j;
    uint next = run + v[j];
    if (i < u_len) output_data[u_out_offset + i] = u_inclusive != 0u ? next : run;
    run = next;
  }
  if (lid == 0u) sums[u_sums_offset + block] = total;
  if (u_chain == 0u) return;
  uint blocks = (u_len + SCAN_TILE - 1u) / SCAN_TILE;
  if (lid == 0u) {
    memoryBarrierBuffer(); // the total is visible before the ticket
    s_last = atomicAdd(skip[TICKET_SLOT], 1u) == blocks - 1u ? 1u : 0u;
  }
  barrier(); // also separates the two block scans
  if (s_last == 0u) return;
  memoryBarrierBuffer();
  uint first_sum = scan_index() * SCAN_ITEMS;
  sum = 0u;
  for (uint j = 0u; j < SCAN_ITEMS; j++) {
    uint i = first_sum + j;
    v[j] = i < blocks ? sums[u_sums_offset + i] : 0u;
    sum += v[j];
  }
  run = block_exclusive_scan(sum, total);
  for (uint j = 0u; j < SCAN_ITEMS; j++) {
    uint i = first_sum + j;
    if (i < blocks) sums[u_sums_offset + i] = run;
    run += v[j];
  }
  if (lid == 0u) {
    sums[u_sums_offset + blocks] = total;
    skip[TICKET_SLOT] = 0u;
  }
}
