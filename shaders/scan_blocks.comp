// Stage 2a: Blelloch scan, one level (needs SCAN_T = uint from the C side).
// Each work group scans SCAN_TILE values of the level (exclusive, or
// inclusive when asked) from `input` into `output` (the same buffer for an
// in-place scan: each invocation reads its values before writing them) and
// writes the block's total to sums[block]; the next level scans those totals
// and scan_add adds them back.

layout(std430, binding = B_SCAN_IN) buffer Input { uint input_data[]; };
layout(std430, binding = B_SCAN_OUT) buffer Output { uint output_data[]; };
layout(std430, binding = B_SCAN_SUMS) buffer Sums { uint sums[]; };

layout(location = LOC_COUNT) uniform uint u_len;
layout(location = LOC_IN_OFFSET) uniform uint u_in_offset;
layout(location = LOC_SUMS_OFFSET) uniform uint u_sums_offset;
layout(location = LOC_OUT_OFFSET) uniform uint u_out_offset;
layout(location = LOC_INCLUSIVE) uniform uint u_inclusive;

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
}
