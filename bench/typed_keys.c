/* glradix-bench: keys of the non-uint32 key types, and their CPU check. */
#include "typed_keys.h"

#include "bench_dist.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned typed_words(glradix_key_type type) { return type == GLRADIX_KEY_UINT64 ? 2u : 1u; }

const char *typed_name(glradix_key_type type) {
  switch (type) {
  case GLRADIX_KEY_INT32: return "int32";
  case GLRADIX_KEY_FLOAT32: return "float32";
  case GLRADIX_KEY_UINT64: return "uint64";
  default: return "uint32";
  }
}

void typed_make(uint32_t *words, uint32_t n, glradix_key_type type, unsigned key_bits) {
  uint64_t state = 0x7479706564ull ^ ((uint64_t)type << 40) ^ ((uint64_t)key_bits << 32) ^ n;
  for (uint32_t i = 0; i < n; ++i) {
    uint64_t r = bench_mix64(&state);
    switch (type) {
    case GLRADIX_KEY_UINT64: {
      uint64_t k = key_bits >= 64 ? r : r & ((1ull << key_bits) - 1ull);
      words[2 * i] = (uint32_t)k;
      words[2 * i + 1] = (uint32_t)(k >> 32);
      break;
    }
    case GLRADIX_KEY_FLOAT32: {
      uint32_t bits = (uint32_t)r;
      if ((bits & 0x7F800000u) == 0x7F800000u) bits &= 0xBFFFFFFFu; /* no inf/NaN */
      if (r >> 60 == 0) bits &= 0x80000000u;                        /* some -0/+0 */
      words[i] = bits;
      break;
    }
    default: words[i] = (uint32_t)r; break;
    }
  }
}

static glradix_key_type g_type;
static unsigned g_bits;
static const uint32_t *g_in;

static uint64_t key_at(uint32_t i) {
  if (g_type != GLRADIX_KEY_UINT64) return g_in[i];
  uint64_t k = (uint64_t)g_in[2 * i] | ((uint64_t)g_in[2 * i + 1] << 32);
  return g_bits >= 64 ? k : k & ((1ull << g_bits) - 1ull);
}

static int cmp_index(const void *pa, const void *pb) {
  uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
  int c = 0;
  if (g_type == GLRADIX_KEY_INT32) {
    int32_t x = (int32_t)g_in[a], y = (int32_t)g_in[b];
    c = (x > y) - (x < y);
  } else if (g_type == GLRADIX_KEY_FLOAT32) {
    float x, y;
    memcpy(&x, &g_in[a], 4);
    memcpy(&y, &g_in[b], 4);
    c = (x > y) - (x < y);
    if (c == 0 && signbit(x) != signbit(y)) c = signbit(x) ? -1 : 1; /* -0 < +0 */
  } else {
    uint64_t x = key_at(a), y = key_at(b);
    c = (x > y) - (x < y);
  }
  return c != 0 ? c : (a > b) - (a < b);
}

int typed_check(glradix_key_type type, unsigned key_bits, const uint32_t *in,
                const uint32_t *out, const uint32_t *out_vals, uint32_t n, char *why, size_t len) {
  uint32_t *order = malloc((n ? n : 1) * sizeof *order);
  if (!order) {
    snprintf(why, len, "out of host memory");
    return 0;
  }
  for (uint32_t i = 0; i < n; ++i) order[i] = i;
  g_type = type;
  g_bits = key_bits;
  g_in = in;
  qsort(order, n, sizeof *order, cmp_index);
  const unsigned w = typed_words(type);
  int ok = 1;
  for (uint32_t i = 0; i < n && ok; ++i) {
    if (memcmp(&out[(size_t)i * w], &in[(size_t)order[i] * w], w * sizeof *out) != 0) {
      snprintf(why, len, "%s key[%u] differs from the CPU reference (input %u)",
               typed_name(type), i, order[i]);
      ok = 0;
    } else if (out_vals && out_vals[i] != order[i]) {
      snprintf(why, len, "value[%u] = %u, the CPU reference has %u (stability)", i, out_vals[i],
               order[i]);
      ok = 0;
    }
  }
  free(order);
  return ok;
}
