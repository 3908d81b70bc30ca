/* Stage 3 (shaders/sort/global_scatter.comp): move each shuffled tile's keys (and
 * values) to their scanned global places. One work group per tile. */
#include "internal.h"

void _glradix_global_scatter(glradix_context *ctx, const _glradix_pass *pass) {
  _glradix_use_pass(ctx, pass->pairs ? _GLRADIX_PROG_GLOBAL_SCATTER_PAIRS
                                     : _GLRADIX_PROG_GLOBAL_SCATTER, pass);
  _glradix_dispatch_tiles(ctx, pass, false);
}
