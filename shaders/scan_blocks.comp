// Stage 2a: Blelloch scan, one level (needs SCAN_T = uint from the C side).
// Each work group scans SCAN_TILE counts of the level in place (exclusive)
// and writes the block's total to sums[block]; the next level scans those
// totals and scan_add adds them back.

layout(std430, binding = B_COUNTS) buffer Counts { uint data[]; };

layout(location = LOC_COUNT) uniform uint u_len;
layout(location = LOC_DATA_OFFSET) uniform uint u_data_offset;
layout(location = LOC_SUMS_OFFSET) uniform uint u_sums_offset;

void main() {
  uint block = group_index();
  if (block * SCAN_TILE >= u_len) return;
  uint lid = gl_LocalInvocationID.x;
  uint first = block * SCAN_TILE + scan_index() * SCAN_ITEMS;
  uint v[SCAN_ITEMS];
  uint sum = 0u;
  for (uint j = 0u; j < SCAN_ITEMS; j++) {
    uint i = first + j;
    v[j] = i < u_len ? data[u_data_offset + i] : 0u;
    sum += v[j];
  }
  uint total;
  uint run = block_exclusive_scan(sum, total);
  for (uint j = 0u; j < SCAN_ITEMS; j++) {
    uint i = first + j;
    if (i < u_len) data[u_data_offset + i] = run;
    run += v[j];
  }
  if (lid == 0u) data[u_sums_offset + block] = total;
}
