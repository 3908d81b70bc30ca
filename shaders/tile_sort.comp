// Small inputs (count <= TILE; needs SCAN_T = uvec2): one work group sorts
// the whole input in place by every 2-bit digit of [shift, shift +
// digit_bits) in turn, with the same stable 4-way split as local_shuffle.
// One dispatch instead of three stages per pass.

layout(std430, binding = B_KEYS) buffer Keys { KEY_T keys[]; };
#if HAS_VALUES
layout(std430, binding = B_VALUES) buffer Values { uint values[]; };
#endif

layout(location = LOC_SHIFT) uniform uint u_shift;
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits;

shared KEY_T s_keys[TILE + TILE / 32u];
#if HAS_VALUES
shared uint s_values[TILE + TILE / 32u];
#endif

void main() {
  uint lid = gl_LocalInvocationID.x;
  // Keys are held as sort_key() values. Padding past the end is all ones:
  // the largest digit in every split, so it stays behind the real keys.
  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    bool live = i < sort_count();
    s_keys[padded(i)] = live ? sort_key(keys[i]) : KEY_MAX; // kept in sort order
#if HAS_VALUES
    s_values[padded(i)] = live ? values[i] : 0u;
#endif
  }
  barrier();

  uint own = scan_index() * ITEMS;
  uint end = u_shift + u_digit_bits;
  for (uint bit = u_shift; bit < end; bit += 2u) {
    uint mask = end - bit >= 2u ? 3u : 1u;
    KEY_T k[ITEMS];
#if HAS_VALUES
    uint v[ITEMS];
#endif
    uint mine = 0u;
    for (uint j = 0u; j < ITEMS; j++) {
      k[j] = s_keys[padded(own + j)];
#if HAS_VALUES
      v[j] = s_values[padded(own + j)];
#endif
      mine += split_one(key_digit(k[j], bit, mask));
    }
    uvec2 next = split_start(mine); // its barrier follows every read of s_keys, s_values
    for (uint j = 0u; j < ITEMS; j++) {
      uint slot = split_take(next, key_digit(k[j], bit, mask));
      s_keys[padded(slot)] = k[j];
#if HAS_VALUES
      s_values[padded(slot)] = v[j];
#endif
    }
    barrier();
  }

  for (uint j = 0u; j < ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < sort_count()) {
      keys[i] = unsort_key(s_keys[padded(i)]);
#if HAS_VALUES
      values[i] = s_values[padded(i)];
#endif
    }
  }
}
