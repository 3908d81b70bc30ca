// Stream compaction, step 3: each kept element goes to its scanned
// position; with zero fill, positions from the total kept on get 0 (the two
// sets of writes never meet: kept elements land below the total).

layout(std430, binding = B_COMPACT_OUT) writeonly buffer Output { uint output_data[]; };
layout(std430, binding = B_COMPACT_INDEX) readonly buffer Index { uint index_data[]; };
layout(std430, binding = B_SCAN_SUMS) readonly buffer Sums { uint sums[]; };

layout(location = LOC_COUNT) uniform uint u_count;
layout(location = LOC_TOTAL_OFFSET) uniform uint u_total_offset; // in sums
layout(location = LOC_ZERO_FILL) uniform uint u_zero_fill;

void main() {
  uint base = group_index() * SCAN_TILE;
  uint total = sums[u_total_offset];
  for (uint j = 0u; j < SCAN_ITEMS; j++) {
    uint i = base + j * WG_SIZE + gl_LocalInvocationID.x;
    if (i >= u_count) continue;
    if (kept(i)) output_data[index_data[i]] = input_data[i];
    if (u_zero_fill != 0u && i >= total) output_data[i] = 0u;
  }
}
