// GPU-driven count (glradix_sort_desc.count_buffer): one invocation reads
// the caller's count, clamps it to the capacity, stores it where every stage
// reads it (sort_count()) and writes the tile stages' indirect dispatch,
// folded into a 2-D grid like the C side's dispatches. No read-back.

layout(std430, binding = B_COUNT_IN) readonly buffer CountIn { uint count_in[]; };

layout(location = LOC_COUNT_WORD) uniform uint u_count_word; // count_offset / 4
layout(location = LOC_CAPACITY) uniform uint u_capacity;
layout(location = LOC_GROUP_LIMIT) uniform uint u_group_limit; // work groups in x

void main() {
  if (gl_LocalInvocationID.x != 0u) return;
  uint count = min(count_in[u_count_word], u_capacity);
  uint groups = count / TILE + (count % TILE != 0u ? 1u : 0u);
  uint x = min(groups, u_group_limit);
  skip[COUNT_SLOT] = count;
  skip[COUNT_SLOT + 1u] = x;
  skip[COUNT_SLOT + 2u] = x == 0u ? 0u : groups / x + (groups % x != 0u ? 1u : 0u);
  skip[COUNT_SLOT + 3u] = 1u;
}
