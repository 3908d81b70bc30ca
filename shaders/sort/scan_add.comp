// Stage 2b: adds each block's scanned total back to the block's values.

layout(std430, binding = B_SCAN_OUT) buffer Output { uint output_data[]; };
layout(std430, binding = B_SCAN_SUMS) readonly buffer Sums { uint sums[]; };

layout(location = LOC_COUNT) uniform uint u_len;
layout(location = LOC_SUMS_OFFSET) uniform uint u_sums_offset;
layout(location = LOC_OUT_OFFSET) uniform uint u_out_offset;

void main() {
  uint block = group_index();
  if (block * SCAN_TILE >= u_len) return;
  uint add = sums[u_sums_offset + block];
  for (uint j = 0u; j < SCAN_ITEMS; j++) {
    uint i = block * SCAN_TILE + j * WG_SIZE + gl_LocalInvocationID.x;
    if (i < u_len) output_data[u_out_offset + i] += add;
  }
}
