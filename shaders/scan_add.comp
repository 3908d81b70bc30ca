// Stage 2b: adds each block's scanned total back to the block's counts.

layout(std430, binding = B_COUNTS) buffer Counts { uint data[]; };

layout(location = LOC_COUNT) uniform uint u_len;
layout(location = LOC_DATA_OFFSET) uniform uint u_data_offset;
layout(location = LOC_SUMS_OFFSET) uniform uint u_sums_offset;

void main() {
  uint block = group_index();
  if (block * SCAN_TILE >= u_len) return;
  uint add = data[u_sums_offset + block];
  for (uint j = 0u; j < SCAN_ITEMS; j++) {
    uint i = block * SCAN_TILE + j * WG_SIZE + gl_LocalInvocationID.x;
    if (i < u_len) data[u_data_offset + i] += add;
  }
}
