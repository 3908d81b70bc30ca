// Shared by every stage. The C side prepends `#version 430` and the
// constants (WG_SIZE, TILE, RADIX_BITS, B_*, LOC_*, ...) as #defines.

layout(local_size_x = WG_SIZE) in;

// Work groups are launched as a 2-D grid when one dimension's limit is too
// small (65535 on many drivers); this is the linear group index.
uint group_index() {
  return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

#ifdef SCAN_T
// Work-efficient (Blelloch) exclusive scan of one value per invocation over
// the work group: up-sweep builds partial sums in place, down-sweep turns
// them into exclusive prefixes. Must be reached by the whole work group.
shared SCAN_T s_scan[WG_SIZE];
shared SCAN_T s_scan_total;

SCAN_T block_exclusive_scan(SCAN_T v, out SCAN_T total) {
  uint lid = gl_LocalInvocationID.x;
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
  barrier(); // s_scan may be reused right after
  return r;
}
#endif
