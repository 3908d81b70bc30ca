// Stream compaction, step 1: index[i] = 1 where input[i] is kept, else 0;
// the scan turns these into output positions.

layout(std430, binding = B_COMPACT_INDEX) writeonly buffer Index { uint index_data[]; };

layout(location = LOC_COUNT) uniform uint u_count;

void main() {
  uint base = group_index() * SCAN_TILE;
  for (uint j = 0u; j < SCAN_ITEMS; j++) {
    uint i = base + j * WG_SIZE + gl_LocalInvocationID.x;
    if (i < u_count) index_data[i] = kept(i) ? 1u : 0u;
  }
}
