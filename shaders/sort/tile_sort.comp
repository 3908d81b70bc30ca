// Small inputs (count <= TILE; needs SCAN_T = uvec2): one work group sorts
// the whole input in place by every 2-bit digit of [shift, shift +
// digit_bits) in turn, with the same stable 4-way split as local_shuffle.
// One dispatch instead of three stages per pass.

#if STAGED
#define MOVED_IN_PLACE
#else
// The keys and values move in place in global memory: other invocations of
// the work group read what one wrote.
#define MOVED_IN_PLACE coherent
#endif
layout(std430, binding = B_KEYS) MOVED_IN_PLACE buffer Keys { KEY_T keys[]; };
#if HAS_VALUES
layout(std430, binding = B_VALUES) MOVED_IN_PLACE buffer Values { uint values[]; };
#endif

layout(location = LOC_SHIFT) uniform uint u_shift;
layout(location = LOC_DIGIT_BITS) uniform uint u_digit_bits;

#if STAGED
// The tile's keys and values fit in shared memory (src/gl/prelude.c): they are
// split there, 2 bits at a time.
shared KEY_T s_keys[TILE + TILE / 32u];
#if HAS_VALUES
shared uint s_values[TILE + TILE / 32u];
#endif

void main() {
  SIZE_OWNED_ITEMS(sort_count());
  uint lid = gl_LocalInvocationID.x;
  // Keys are held as sort_key() values. Padding past the end is all ones:
  // the largest digit in every split, so it stays behind the real keys.
  for (uint j = 0u; j < OWNED_ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    bool live = i < sort_count();
    s_keys[padded(i)] = live ? sort_key(keys[i]) : KEY_MAX; // kept in sort order
#if HAS_VALUES
    s_values[padded(i)] = live ? values[i] : 0u;
#endif
  }
  barrier();

  uint own = scan_index() * OWNED_ITEMS;
  uint end = u_shift + u_digit_bits;
  for (uint bit = u_shift; bit < end; bit += 2u) {
    uint mask = end - bit >= 2u ? 3u : 1u;
    KEY_T k[ITEMS];
#if HAS_VALUES
    uint v[ITEMS];
#endif
    uint mine = 0u;
    for (uint j = 0u; j < OWNED_ITEMS; j++) {
      k[j] = s_keys[padded(own + j)];
#if HAS_VALUES
      v[j] = s_values[padded(own + j)];
#endif
      mine += split_one(key_digit(k[j], bit, mask));
    }
    uvec2 first;
    uvec2 next = split_start(mine, first); // its barrier follows every read of s_keys, s_values
    for (uint j = 0u; j < OWNED_ITEMS; j++) {
      uint slot = split_take(next, key_digit(k[j], bit, mask));
      s_keys[padded(slot)] = k[j];
#if HAS_VALUES
      s_values[padded(slot)] = v[j];
#endif
    }
    barrier();
  }

  for (uint j = 0u; j < OWNED_ITEMS; j++) {
    uint i = j * WG_SIZE + lid;
    if (i < sort_count()) {
      keys[i] = unsort_key(s_keys[padded(i)]);
#if HAS_VALUES
      values[i] = s_values[padded(i)];
#endif
    }
  }
}
#else
// They do not (llvmpipe's 7168-key tiles in 32 KB): up to 8 bits at a
// time, (digit, slot) words are split in shared memory as in
// shuffle_scatter, then every invocation reads the keys and values its
// ranks take and, after a barrier, writes them back in rank order.
void main() {
  SIZE_OWNED_ITEMS(sort_count());
  uint lid = gl_LocalInvocationID.x;
  uint own = scan_index() * OWNED_ITEMS;
  uint n = sort_count();
  uint end = u_shift + u_digit_bits;
  for (uint shift = u_shift; shift < end; shift += 8u) {
    uint bits = min(end - shift, 8u);
    uint mask = (1u << bits) - 1u;
    // Padding past the count takes the largest digit, so it stays last.
    uint digits[ITEMS];
    for (uint j = 0u; j < OWNED_ITEMS; j++)
      digits[j] = own + j < n ? key_digit(sort_key(keys[own + j]), shift, mask) : mask;
    split_digits(digits, own);
    barrier();
    split_work_words(2u, bits);
    KEY_T k[ITEMS];
#if HAS_VALUES
    uint v[ITEMS];
#endif
    for (uint j = 0u; j < OWNED_ITEMS; j++) {
      uint i = j * WG_SIZE + lid;
      uint from = s_work[padded(i)] & 0xFFFFu;
      if (i < n) {
        k[j] = keys[from];
#if HAS_VALUES
        v[j] = values[from];
#endif
      }
    }
    memoryBarrierBuffer();
    barrier();
    for (uint j = 0u; j < OWNED_ITEMS; j++) {
      uint i = j * WG_SIZE + lid;
      if (i < n) {
        keys[i] = k[j];
#if HAS_VALUES
        values[i] = v[j];
#endif
      }
    }
    memoryBarrierBuffer();
    barrier();
  }
}
#endif
