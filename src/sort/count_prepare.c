/* The sort's state on the GPU before its first pass (shaders/sort/
 * count_prepare.comp): the key bits that pass skipping gathers, the count
 * either written from the CPU or copied in from the caller's count buffer,
 * clamped to the capacity, with the tile stages' indirect dispatch, the
 * scan's ticket at zero, and (for a sort) its fallbacks at zero. */
#include "internal.h"

void _glradix_count_prepare(glradix_context *ctx, const _glradix_pass *pass, GLuint count_buffer,
                            size_t count_offset, bool skip, bool keep_fallbacks) {
  GladGLContext *gl = &ctx->gl;
  /* The whole skip buffer in one write (fill_words.c): which key bits vary (pass_skipped),
   * zero for the first pass's tile stage to gather them or all of them for
   * no skipping; the count (or 0 until count_prepare.comp reads the
   * caller's); the grids and the ticket. */
  GLuint words[_GLRADIX_SKIP_WORDS] = {0};
  for (unsigned i = 0; i < _GLRADIX_SKIP_KEY_BIT_WORDS; i++) words[i] = skip ? 0u : 0xFFFFFFFFu;
  words[_GLRADIX_SKIP_COUNT_SLOT] = count_buffer ? 0u : pass->count;
  _glradix_write_words(ctx, ctx->skip.name, 0,
                       keep_fallbacks ? _GLRADIX_SKIP_FALLBACKS : _GLRADIX_SKIP_WORDS, words);
  if (count_buffer != 0) {
    /* The caller's count word, copied into the count slot (after the
     * write's barrier): bound as a storage block it would
     * need an offset aligned to GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT,
     * or a range from 0 that may pass GL_MAX_SHADER_STORAGE_BLOCK_SIZE. */
    _glradix_copy(ctx, count_buffer, (GLintptr)count_offset, ctx->skip.name,
                  (GLintptr)_GLRADIX_SKIP_COUNT_SLOT * 4, 4);
    gl->UseProgram(_glradix_program_name(ctx, _GLRADIX_PROG_COUNT_PREPARE, pass->set));
    _glradix_bind(ctx, _GLRADIX_B_SKIP, ctx->skip.name, 0);
    gl->Uniform1ui(_GLRADIX_LOC_CAPACITY, pass->count);
    gl->Uniform1ui(_GLRADIX_LOC_GROUP_LIMIT, ctx->group_limit[0]);
    _glradix_dispatch(ctx, 1);
    gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
  }
}
