// Single-pass plan, first step: each work group counts the digits of every
// pass over DIGIT_TILES tiles of the keys, once, and adds them to the
// sort's digit counts, counts[pass * BUCKETS + digit], which the scan then
// turns into each pass's digit offsets (shuffle_scatter.comp's look-back
// form). With u_gather_key_bits it also gathers which key bits vary, for
// pass skipping (WITH_KEY_BITS in common.glsl), in the same read of the
// keys.

layout(std430, binding = B_KEYS) readonly buffer Keys { KEY_T keys[]; };
layout(std430, binding = B_COUNTS) buffer Counts { uint counts[]; };

// The whole range as one pass: its lowest bit and its width.
layout(location = LOC_SHIFT) uniform uint u_shift;
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits;
layout(location = LOC_GATHER_KEY_BITS) uniform uint u_gather_key_bits;

// At most 64 bits in passes of RADIX_BITS.
#define MAX_PASSES (64u / RADIX_BITS)
shared uint s_digits[MAX_PASSES * BUCKETS];

void main() {
  uint lid = gl_LocalInvocationID.x;
  uint passes = div_up(u_digit_bits, RADIX_BITS);
  for (uint x = lid; x < passes * BUCKETS; x += WG_SIZE) s_digits[x] = 0u;
  clear_key_bits();
  barrier();
  KEY_T ones = KEY_T(0u), zeros = KEY_T(0u);
  for (uint t = 0u; t < DIGIT_TILES; t++) {
    uint tile = group_index() * DIGIT_TILES + t, tile_n = keys_in_tile(tile);
    for (uint j = 0u; j < ITEMS; j++) {
      uint slot = j * WG_SIZE + lid;
      if (slot >= tile_n) break;
      KEY_T order = sort_key(keys[tile * TILE + slot]);
      ones |= order;
      zeros |= ~order;
      for (uint p = 0u; p < passes; p++) {
        uint shift = u_shift + p * RADIX_BITS;
        uint bits = min(RADIX_BITS, u_shift + u_digit_bits - shift);
        atomicAdd(s_digits[p * BUCKETS + key_digit(order, shift, (1u << bits) - 1u)], 1u);
      }
    }
  }
  if (u_gather_key_bits != 0u) gather_key_bits(ones, zeros);
  barrier();
  for (uint x = lid; x < passes * BUCKETS; x += WG_SIZE)
    if (s_digits[x] != 0u) atomicAdd(counts[x], s_digits[x]);
  if (u_gather_key_bits != 0u) publish_key_bits();
}
