/* glradix-bench: keys of the non-uint32 key types, and their CPU check. */
#ifndef GLRADIX_BENCH_TYPED_KEYS_H
#define GLRADIX_BENCH_TYPED_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include <glradix/glradix.h>

/* 32-bit words per key. */
unsigned typed_words(glradix_key_type type);
/* "uint32", "int32", "float32", "uint64". */
const char *typed_name(glradix_key_type type);
/* n keys (n * typed_words words): uint64 uniform over key_bits bits, int32
 * any bits, float32 finite values of both signs (and some -0/+0). */
void typed_make(uint32_t *words, uint32_t n, glradix_key_type type, unsigned key_bits);
/* Checks an ascending sort of bits [0, key_bits) of `in` against a stable
 * qsort with C comparisons (int32_t, float total order, uint64_t); out_vals
 * (if not NULL) must be the input indices. 0 and a reason on failure. */
int typed_check(glradix_key_type type, unsigned key_bits, const uint32_t *in,
                const uint32_t *out, const uint32_t *out_vals, uint32_t n, char *why, size_t len);

#endif
