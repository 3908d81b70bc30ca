/* glradix-bench --verify: sort results checked against the CPU. */
#include "bench_verify.h"

#include "typed_keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CPU reference: LSD radix sort of keys, 8 bits per pass over [0, key_bits). */
void bench_cpu_sort(uint32_t *keys, uint32_t *tmp, uint32_t n, unsigned key_bits) {
  uint32_t *src = keys, *dst = tmp;
  for (unsigned shift = 0; shift < key_bits; shift += 8) {
    size_t count[256] = {0};
    for (uint32_t i = 0; i < n; ++i) ++count[(src[i] >> shift) & 0xff];
    size_t sum = 0;
    for (int d = 0; d < 256; ++d) {
      size_t c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (uint32_t i = 0; i < n; ++i) dst[count[(src[i] >> shift) & 0xff]++] = src[i];
    uint32_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != keys) memcpy(keys, src, (size_t)n * sizeof *keys);
}

/* Checks out_keys (and out_vals, if not NULL) against the input; on failure
 * writes the first problem to why and returns 0. */
int bench_check_u32(const uint32_t *in_keys, const uint32_t *ref_sorted,
                    const uint32_t *out_keys, const uint32_t *out_vals, uint32_t n, char *why,
                    size_t len) {
  for (uint32_t i = 1; i < n; ++i)
    if (out_keys[i - 1] > out_keys[i]) {
      snprintf(why, len, "not sorted: key[%u] = 0x%08x > key[%u] = 0x%08x", i - 1,
               out_keys[i - 1], i, out_keys[i]);
      return 0;
    }
  for (uint32_t i = 0; i < n; ++i)
    if (out_keys[i] != ref_sorted[i]) {
      snprintf(why, len,
               "keys are not a permutation of the input: key[%u] = 0x%08x, expected 0x%08x", i,
               out_keys[i], ref_sorted[i]);
      return 0;
    }
  if (!out_vals) return 1;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t v = out_vals[i];
    if (v >= n) {
      snprintf(why, len, "value[%u] = %u is not an input index (n = %u)", i, v, n);
      return 0;
    }
    if (in_keys[v] != out_keys[i]) {
      snprintf(why, len, "value[%u] = %u does not map back: input key[%u] = 0x%08x, sorted key 0x%08x",
               i, v, v, in_keys[v], out_keys[i]);
      return 0;
    }
    if (i > 0 && out_keys[i - 1] == out_keys[i] && out_vals[i - 1] >= v) {
      snprintf(why, len, "not stable: equal keys 0x%08x at %u and %u carry values %u and %u",
               out_keys[i], i - 1, i, out_vals[i - 1], v);
      return 0;
    }
  }
  return 1;
}

int bench_check_u32_unstable(const uint32_t *in_keys, const uint32_t *ref_sorted,
                             const uint32_t *out_keys, const uint32_t *out_vals, uint32_t n,
                             char *why, size_t len) {
  if (!bench_check_u32(in_keys, ref_sorted, out_keys, NULL, n, why, len)) return 0;
  if (!out_vals) return 1;
  /* one bit per input index: each must come out once */
  uint8_t *seen = calloc((size_t)n / 8 + 1, 1);
  if (!seen) {
    snprintf(why, len, "out of host memory");
    return 0;
  }
  int ok = 1;
  for (uint32_t i = 0; i < n && ok; ++i) {
    const uint32_t v = out_vals[i];
    if (v >= n) {
      snprintf(why, len, "value[%u] = %u is not an input index (n = %u)", i, v, n);
      ok = 0;
    } else if (seen[v / 8] & (1u << (v % 8))) {
      snprintf(why, len, "value[%u] = %u comes out twice: not a permutation", i, v);
      ok = 0;
    } else if (in_keys[v] != out_keys[i]) {
      snprintf(why, len,
               "value[%u] = %u does not map back: input key[%u] = 0x%08x, sorted key 0x%08x", i,
               v, v, in_keys[v], out_keys[i]);
      ok = 0;
    }
    if (ok) seen[v / 8] |= (uint8_t)(1u << (v % 8));
  }
  free(seen);
  return ok;
}

int bench_check(glradix_key_type type, unsigned key_bits, const uint32_t *in,
                const uint32_t *out_keys, const uint32_t *out_vals, uint32_t n, char *why,
                size_t len) {
  if (type != GLRADIX_KEY_UINT32)
    return typed_check(type, key_bits, in, out_keys, out_vals, n, why, len);
  uint32_t *ref = malloc(((size_t)n + 1) * sizeof *ref);
  uint32_t *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
  int ok = ref && tmp;
  if (!ok) {
    snprintf(why, len, "out of host memory");
  } else {
    memcpy(ref, in, (size_t)n * sizeof *ref);
    bench_cpu_sort(ref, tmp, n, key_bits);
    ok = bench_check_u32(in, ref, out_keys, out_vals, n, why, len);
  }
  free(ref);
  free(tmp);
  return ok;
}
