/* Whether a size fits a context's limits (bench_fit.h). */
#include "bench_fit.h"

#include <glradix/lbvh.h>

int bench_fit_sort(const glradix_context *ctx, int64_t max_block, uint32_t n,
                   glradix_key_type type, int pairs) {
  const uint64_t words = type == GLRADIX_KEY_UINT64 ? 2u : 1u;
  if ((uint64_t)n * 4u * words > (uint64_t)max_block) return 0;
  glradix_sort_desc d = {0};
  d.keys = 1;
  d.values = pairs ? 2 : 0;
  d.count = n;
  d.key_type = type;
  /* glradix_scratch_bytes is 0 both for a count beyond the limits and for
   * one tile or less, which needs no scratch. */
  return glradix_scratch_bytes(ctx, &d) != 0 || n <= glradix_tile_size(ctx);
}

int bench_fit_lbvh(const glradix_context *ctx, int64_t max_block, uint32_t n,
                   unsigned morton_bits) {
  const size_t nodes = glradix_lbvh_nodes_bytes(n);
  if ((uint64_t)n * 32u > (uint64_t)max_block || nodes == SIZE_MAX ||
      (uint64_t)nodes > (uint64_t)max_block)
    return 0;
  return bench_fit_sort(ctx, max_block, n,
                        morton_bits == 63 ? GLRADIX_KEY_UINT64 : GLRADIX_KEY_UINT32, 1);
}
