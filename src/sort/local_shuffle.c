/* Stage 1 (shaders/sort/local_shuffle.comp): sort each tile by the pass's digit
 * in shared memory and count its buckets. One work group per tile. With
 * key_bits (first pass only) it also gathers which key bits vary, for pass
 * skipping, in the same read of the keys. */
#include "internal.h"

void _glradix_local_shuffle(glradix_context *ctx, const _glradix_pass *pass, bool key_bits) {
  _glradix_use_pass(ctx, pass->pairs ? _GLRADIX_PROG_LOCAL_SHUFFLE_PAIRS
                                     : _GLRADIX_PROG_LOCAL_SHUFFLE, pass);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_GATHER_KEY_BITS, key_bits ? 1u : 0u);
  _glradix_dispatch_tiles(ctx, pass, false);
}
