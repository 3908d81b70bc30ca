/* Whether a size fits a context's limits, known from the public API and
 * the context's GL_MAX_SHADER_STORAGE_BLOCK_SIZE: the bench's default
 * sizes skip those that do not, as glradix would refuse them with
 * GLRADIX_ERROR_TOO_LARGE. */
#ifndef GLRADIX_BENCH_FIT_H
#define GLRADIX_BENCH_FIT_H

#include <stdint.h>

#include <glradix/glradix.h>

/* Whether glradix_sort takes n keys of `type` (with values when `pairs`)
 * on ctx: the keys within one storage block of max_block bytes, and the
 * scratch within the context's limits (glradix_scratch_bytes). */
int bench_fit_sort(const glradix_context *ctx, int64_t max_block, uint32_t n,
                   glradix_key_type type, int pairs);

/* Whether glradix_lbvh_build takes n primitives with morton_bits codes:
 * the bounds and the nodes within one storage block, and the sort of n
 * (code, index) pairs. */
int bench_fit_lbvh(const glradix_context *ctx, int64_t max_block, uint32_t n,
                   unsigned morton_bits);

#endif
