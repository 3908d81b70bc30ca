/* Single-pass plan, one dispatch per pass (shaders/sort/onesweep.comp):
 * each work group takes a tile by its ticket, ranks it, finds its digits'
 * places by looking back at the earlier tiles' counts (counting a tile
 * itself where one is late) and moves it from the pass's input to its
 * output. One work group per tile. */
#include "internal.h"

void _glradix_onesweep(glradix_context *ctx, const _glradix_pass *pass, GLuint status,
                       GLuint ticket) {
  _glradix_use_pass(ctx, pass->pairs ? _GLRADIX_PROG_ONESWEEP_PAIRS : _GLRADIX_PROG_ONESWEEP, pass);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_PASS_INDEX, pass->index);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_STATUS, status);
  ctx->gl.Uniform1ui(_GLRADIX_LOC_TICKET, ticket);
  _glradix_dispatch_tiles(ctx, pass, false);
}
