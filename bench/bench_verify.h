/* glradix-bench --verify: sort results checked against the CPU. */
#ifndef GLRADIX_BENCH_VERIFY_H
#define GLRADIX_BENCH_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include <glradix/glradix.h>

/* CPU reference: LSD radix sort of uint32 keys, 8 bits per pass over [0, key_bits). */
void bench_cpu_sort(uint32_t *keys, uint32_t *tmp, uint32_t n, unsigned key_bits);

/* Checks uint32 out_keys (and out_vals, if not NULL: the input indices)
 * against the input and its CPU-sorted copy; on failure writes the first
 * problem to why and returns 0. */
int bench_check_u32(const uint32_t *in_keys, const uint32_t *ref_sorted,
                    const uint32_t *out_keys, const uint32_t *out_vals, uint32_t n, char *why,
                    size_t len);

/* bench_check_u32 for a sort that is not stable (bench_bitonic.h): the
 * values must be a permutation of the input indices, each carrying its
 * input key, in any order among equal keys. 0 and a reason also when out
 * of host memory. */
int bench_check_u32_unstable(const uint32_t *in_keys, const uint32_t *ref_sorted,
                             const uint32_t *out_keys, const uint32_t *out_vals, uint32_t n,
                             char *why, size_t len);

/* Checks a sort of n keys of any type (typed_check for the others); 1 if
 * right, 0 and a reason if wrong or out of host memory. */
int bench_check(glradix_key_type type, unsigned key_bits, const uint32_t *in,
                const uint32_t *out_keys, const uint32_t *out_vals, uint32_t n, char *why,
                size_t len);

#endif
