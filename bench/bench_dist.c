/* glradix-bench --dist: key distributions for every key type.
 * Every distribution but uniform draws "rank" values u below 2^D (D: the
 * key bits, or 32 for int32 and float32) and maps them onto the key type
 * in order, so that sorted ranks give sorted keys of any type. */
#include "bench_dist.h"

#include "typed_keys.h"

#include <string.h>

static const char *const names[BENCH_DIST_COUNT] = {
    "uniform", "sorted", "reverse", "nearly_sorted", "morton", "few_unique", "all_equal"};

uint64_t bench_mix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

const char *bench_dist_name(bench_dist d) { return d < BENCH_DIST_COUNT ? names[d] : "?"; }

int bench_dist_parse(const char *s, bench_dist *out, size_t *count) {
  *count = 0;
  if (!s || !*s) return -1;
  if (strcmp(s, "all") == 0) {
    for (int d = 0; d < BENCH_DIST_COUNT; ++d) out[(*count)++] = (bench_dist)d;
    return 0;
  }
  for (const char *p = s;;) {
    const size_t len = strcspn(p, ",");
    int found = -1;
    for (int d = 0; d < BENCH_DIST_COUNT; ++d)
      if (strlen(names[d]) == len && strncmp(p, names[d], len) == 0) found = d;
    for (size_t k = 0; k < *count && found >= 0; ++k)
      if (out[k] == (bench_dist)found) found = -1;
    if (found < 0) return -1;
    out[(*count)++] = (bench_dist)found;
    if (!p[len]) return 0;
    p += len + 1;
  }
}

/* Keys uniform over key_bits bits; the same n and key_bits give the same keys. */
static void make_uint32(uint32_t *keys, uint32_t n, unsigned key_bits) {
  uint64_t state = 0x676c7261646978ull ^ ((uint64_t)key_bits << 32) ^ n;
  const uint32_t mask = key_bits >= 32 ? 0xffffffffu : ((1u << key_bits) - 1u);
  for (uint32_t i = 0; i < n; ++i) keys[i] = (uint32_t)(bench_mix64(&state) >> 32) & mask;
}

/* Rank u (below 2^32 for int32 and float32) as key i of `type`, in order:
 * int32 from INT32_MIN up, float32 over the finite values from -FLT_MAX to
 * FLT_MAX (-0 before +0). */
static void put(uint32_t *words, uint32_t i, glradix_key_type type, uint64_t u) {
  if (type == GLRADIX_KEY_UINT64) {
    words[2 * (size_t)i] = (uint32_t)u;
    words[2 * (size_t)i + 1] = (uint32_t)(u >> 32);
  } else if (type == GLRADIX_KEY_INT32) {
    words[i] = (uint32_t)u ^ 0x80000000u;
  } else if (type == GLRADIX_KEY_FLOAT32) {
    const uint64_t v = (u * 0xFF000000ull) >> 32; /* 0 .. 2 x 0x7F800000 - 1 */
    words[i] = v < 0x7F800000u ? 0x80000000u | (uint32_t)(0x7F7FFFFFu - v)
                               : (uint32_t)(v - 0x7F800000u);
  } else {
    words[i] = (uint32_t)u;
  }
}

/* Rank i of n ascending ranks below 2^D: evenly spaced steps with a random
 * offset in each, or plain even spacing where n exceeds 2^D. */
static uint64_t sorted_rank(uint32_t i, uint32_t n, unsigned D, uint64_t step, uint64_t r) {
  return step ? (uint64_t)i * step + r % step : ((uint64_t)i << D) / n;
}

/* Spreads the low 21 bits of x to every third bit. */
static uint64_t spread3(uint64_t x) {
  x &= 0x1fffffull;
  x = (x | x << 32) & 0x1f00000000ffffull;
  x = (x | x << 16) & 0x1f0000ff0000ffull;
  x = (x | x << 8) & 0x100f00f00f00f00full;
  x = (x | x << 4) & 0x10c30c30c30c30c3ull;
  x = (x | x << 2) & 0x1249249249249249ull;
  return x;
}

static double unit(uint64_t *s) { return (double)(bench_mix64(s) >> 11) * 0x1p-53; }

/* A Morton code of `axis_bits` bits per axis for a point near one of 8
 * centres (each axis a sum of three uniforms, spread 0.02 a side), as the
 * codes of a scene's clustered primitives. */
static uint64_t clustered_code(uint64_t *s, const double *centre, unsigned axis_bits) {
  const double *c = &centre[3 * (bench_mix64(s) >> 61)];
  uint64_t code = 0;
  for (int a = 0; a < 3; ++a) {
    double x = c[a] + 0.02 * (unit(s) + unit(s) + unit(s) - 1.5);
    x = x < 0 ? 0 : x >= 1 ? 1 : x;
    uint64_t q = (uint64_t)(x * (double)(1ull << axis_bits));
    if (q >> axis_bits) q = (1ull << axis_bits) - 1;
    code |= spread3(q) << (2 - a);
  }
  return code;
}

void bench_dist_make(uint32_t *words, uint32_t n, glradix_key_type type, unsigned key_bits,
                     bench_dist d, uint64_t seed) {
  if (d == BENCH_DIST_UNIFORM) {
    if (type == GLRADIX_KEY_UINT32) make_uint32(words, n, key_bits);
    else typed_make(words, n, type, key_bits);
    return;
  }
  const unsigned D = type == GLRADIX_KEY_UINT32 || type == GLRADIX_KEY_UINT64 ? key_bits : 32;
  const uint64_t max = D >= 64 ? ~0ull : (1ull << D) - 1;
  const unsigned kw = typed_words(type);
  uint64_t s = seed ^ 0x64697374ull ^ ((uint64_t)d << 56) ^ ((uint64_t)type << 48) ^
               ((uint64_t)key_bits << 40) ^ n;
  const uint64_t step = n ? max / n : 0;
  switch (d) {
  case BENCH_DIST_SORTED:
  case BENCH_DIST_NEARLY_SORTED:
    for (uint32_t i = 0; i < n; ++i)
      put(words, i, type, sorted_rank(i, n, D, step, bench_mix64(&s)));
    break;
  case BENCH_DIST_REVERSE:
    for (uint32_t i = 0; i < n; ++i)
      put(words, n - 1 - i, type, sorted_rank(i, n, D, step, bench_mix64(&s)));
    break;
  case BENCH_DIST_MORTON: {
    /* 30-bit codes (24 for 24-bit keys), 63-bit for 64-bit keys; int32 and
     * float32 keys take the codes' order across their whole range. */
    const unsigned axis_bits = D >= 63 ? 21 : D / 3 < 10 ? D / 3 : 10;
    const int signed_type = type == GLRADIX_KEY_INT32 || type == GLRADIX_KEY_FLOAT32;
    const unsigned shift = signed_type ? D - 3 * axis_bits : 0;
    double centre[8 * 3]; /* x, y, z of each */
    for (int c = 0; c < 8 * 3; ++c) centre[c] = 0.1 + 0.8 * unit(&s);
    for (uint32_t i = 0; i < n; ++i)
      put(words, i, type, clustered_code(&s, centre, axis_bits) << shift);
    break;
  }
  case BENCH_DIST_FEW_UNIQUE: {
    uint64_t value[16];
    for (int v = 0; v < 16; ++v) value[v] = bench_mix64(&s) & max;
    for (uint32_t i = 0; i < n; ++i) put(words, i, type, value[bench_mix64(&s) >> 60]);
    break;
  }
  default: {
    const uint64_t value = bench_mix64(&s) & max;
    for (uint32_t i = 0; i < n; ++i) put(words, i, type, value);
    break;
  }
  }
  if (d != BENCH_DIST_NEARLY_SORTED) return;
  /* Each swap moves two keys: n / 200 swaps leave about 1% out of place. */
  for (uint32_t k = 0; k < n / 200 + (n > 1); ++k) {
    const uint32_t a = (uint32_t)(bench_mix64(&s) % n), b = (uint32_t)(bench_mix64(&s) % n);
    for (unsigned w = 0; w < kw; ++w) {
      const uint32_t t = words[(size_t)a * kw + w];
      words[(size_t)a * kw + w] = words[(size_t)b * kw + w];
      words[(size_t)b * kw + w] = t;
    }
  }
}
