// Pass skipping, step 2 (one work group): a pass none of whose digit bits
// vary between keys (see WITH_KEY_BITS in common.glsl) would leave them
// where they are: flag it, so that its tile stages return at once
// (shuffle_scatter copies). Flags start zeroed.

layout(location = LOC_SHIFT) uniform uint u_shift;           // begin_bit
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits; // end_bit - begin_bit

void main() {
  uint p = gl_LocalInvocationID.x;
  if (p * RADIX_BITS >= u_digit_bits) return;
  uvec2 mixed = uvec2(skip[0] & skip[2], skip[1] & skip[3]);
  uint width = min(RADIX_BITS, u_digit_bits - p * RADIX_BITS);
  if (digit64(mixed, u_shift + p * RADIX_BITS, (1u << width) - 1u) == 0u)
    skip[SKIP_FLAGS + p] = 1u;
}
