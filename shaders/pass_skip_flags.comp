// Pass skipping, step 2 (one work group): a pass whose digit is the same
// for every key would leave them where they are: flag it, so that its
// local_shuffle and global_scatter return at once. Flags start zeroed.

layout(std430, binding = B_SKIP) buffer Skip { uint skip[]; };

layout(location = LOC_COUNT) uniform uint u_count;

void main() {
  for (uint i = gl_LocalInvocationID.x; i < SKIP_FLAGS; i += WG_SIZE)
    if (skip[i] == u_count) skip[SKIP_FLAGS + i / BUCKETS] = 1u;
}
