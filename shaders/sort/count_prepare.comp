// GPU-driven count (glradix_sort_desc.count_buffer): one invocation reads
// the caller's count, which C copied to where every stage reads it
// (sort_count()), clamps it to the capacity and writes the tile stages'
// indirect dispatch, folded into a 2-D grid like the C side's dispatches.
// No read-back.

layout(location = LOC_CAPACITY) uniform uint u_capacity;
layout(location = LOC_GROUP_LIMIT) uniform uint u_group_limit; // work groups in x

void write_grid(uint slot, uint groups) {
  uint x = min(groups, u_group_limit);
  skip[slot] = x;
  skip[slot + 1u] = x == 0u ? 0u : div_up(groups, x);
  skip[slot + 2u] = 1u;
}

void main() {
  if (gl_LocalInvocationID.x != 0u) return;
  uint count = min(skip[SKIP_COUNT_SLOT], u_capacity);
  uint tiles = div_up(count, TILE);
  skip[SKIP_COUNT_SLOT] = count;
  write_grid(SKIP_COUNT_SLOT + 1u, tiles);
  write_grid(SKIP_COUNT_SLOT + 4u, div_up(tiles, COUNT_TILES));
}
