// Pass skipping, step 2 (one work group): a pass whose digit is the same
// for every key would leave them where they are: flag it, so that its
// local_shuffle and global_scatter return at once. Flags start zeroed.

void main() {
  for (uint i = gl_LocalInvocationID.x; i < SKIP_FLAGS; i += WG_SIZE)
    if (skip[i] == sort_count()) skip[SKIP_FLAGS + i / BUCKETS] = 1u;
}
