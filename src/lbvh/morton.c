/* LBVH step 1 (shaders/lbvh/scene_box.comp + morton_codes.comp): the scene box,
 * given or reduced on the GPU, and a Morton code per primitive centroid;
 * glradix_morton_codes. Also the LBVH state buffer that every LBVH program
 * reads its count from (_glradix_lbvh_state). */
#include <math.h>

#include "glradix/lbvh.h"
#include "internal.h"

glradix_status _glradix_morton_check(glradix_context *ctx, const char *fn, GLuint bounds,
                                     uint32_t count, unsigned morton_bits, int has_box,
                                     const float *box_min, const float *box_max) {
  glradix_status st = _glradix_check_size(ctx, fn, "bounds", count, (uint64_t)count * 32u);
  if (st != GLRADIX_OK) return st;
  if (morton_bits != 0 && morton_bits != 30 && morton_bits != 63) {
    _glradix_log(&ctx->desc, "%s: morton_bits %u is not 0, 30 or 63", fn, morton_bits);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  if (has_box)
    for (int c = 0; c < 3; c++)
      if (!isfinite(box_min[c]) || !isfinite(box_max[c]) || box_min[c] > box_max[c]) {
        _glradix_log(&ctx->desc, "%s: scene box axis %d [%g, %g] is not a finite range", fn, c,
                     (double)box_min[c], (double)box_max[c]);
        return GLRADIX_ERROR_INVALID_ARGUMENT;
      }
  return _glradix_check_buffer(ctx, fn, bounds, "bounds", (uint64_t)count * 32u);
}

glradix_status _glradix_lbvh_state(glradix_context *ctx, GLuint count, GLuint count_buffer,
                                   size_t count_offset, bool box_start) {
  glradix_status st = _glradix_ensure_buffer(ctx, &ctx->lbvh_state,
                                             _GLRADIX_LBVH_STATE_WORDS * sizeof(GLuint),
                                             "allocating the LBVH state");
  if (st != GLRADIX_OK) return st;
  /* the box's min.xyz at the largest ordered value, max.xyz at the smallest */
  GLuint words[_GLRADIX_LBVH_STATE_WORDS] = {~0u, ~0u, ~0u, 0u, 0u, 0u, 0u, 0u};
  words[_GLRADIX_LBVH_COUNT_SLOT] = count;
  const GLuint first = box_start ? 0u : _GLRADIX_LBVH_COUNT_SLOT;
  _glradix_write_words(ctx, ctx->lbvh_state.name, first, _GLRADIX_LBVH_COUNT_SLOT + 1 - first,
                       words + first);
  /* a copy after the write, as the sort's count_prepare does it: no
   * storage binding of the caller's buffer at an unaligned offset */
  if (count_buffer != 0)
    _glradix_copy(ctx, count_buffer, (GLintptr)count_offset, ctx->lbvh_state.name,
                  (GLintptr)_GLRADIX_LBVH_COUNT_SLOT * 4, 4);
  return GLRADIX_OK;
}

/* The box over the first lbvh_count() bounds, from the start
 * _glradix_lbvh_state set. */
static void scene_box(glradix_context *ctx, const _glradix_morton_job *job) {
  GladGLContext *gl = &ctx->gl;
  gl->UseProgram(ctx->programs[_GLRADIX_SET_BASE][_GLRADIX_PROG_SCENE_BOX]);
  _glradix_bind(ctx, _GLRADIX_B_BOUNDS, job->bounds, (uint64_t)job->count * 32u);
  _glradix_bind(ctx, _GLRADIX_B_BOX, ctx->lbvh_state.name, 0);
  gl->Uniform1ui(_GLRADIX_LOC_COUNT, job->count);
  _glradix_dispatch(ctx, _glradix_div_up(job->count, ctx->forms.scan_tile));
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

static void morton_codes(glradix_context *ctx, const _glradix_morton_job *job) {
  GladGLContext *gl = &ctx->gl;
  gl->UseProgram(ctx->programs[_GLRADIX_SET_BASE][job->morton_bits == 63
                                                      ? _GLRADIX_PROG_MORTON_63
                                                      : _GLRADIX_PROG_MORTON_30]);
  _glradix_bind(ctx, _GLRADIX_B_BOUNDS, job->bounds, (uint64_t)job->count * 32u);
  _glradix_bind(ctx, _GLRADIX_B_BOX, ctx->lbvh_state.name, 0);
  const uint64_t code_bytes = (uint64_t)job->count * (job->morton_bits == 63 ? 8u : 4u);
  _glradix_bind(ctx, _GLRADIX_B_CODES, job->codes, code_bytes);
  if (job->indices) _glradix_bind(ctx, _GLRADIX_B_INDICES, job->indices, (uint64_t)job->count * 4u);
  else _glradix_bind(ctx, _GLRADIX_B_INDICES, job->codes, code_bytes);
  gl->Uniform1ui(_GLRADIX_LOC_COUNT, job->count);
  gl->Uniform3fv(_GLRADIX_LOC_BOX_MIN, 1, job->box_min);
  gl->Uniform3fv(_GLRADIX_LOC_BOX_MAX, 1, job->box_max);
  gl->Uniform1ui(_GLRADIX_LOC_BOX_FROM_GPU, !job->box_given);
  gl->Uniform1ui(_GLRADIX_LOC_WRITE_INDICES, job->indices != 0);
  _glradix_dispatch(ctx, _glradix_div_up(job->count, ctx->forms.scan_tile));
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

glradix_status _glradix_check_morton_programs(glradix_context *ctx, const char *fn,
                                              unsigned morton_bits, int has_box) {
  const _glradix_program programs[] = {
      morton_bits == 63 ? _GLRADIX_PROG_MORTON_63 : _GLRADIX_PROG_MORTON_30,
      _GLRADIX_PROG_SCENE_BOX};
  glradix_status st = _glradix_build_lbvh_programs(ctx);
  if (st != GLRADIX_OK) return st;
  return _glradix_check_programs(ctx, fn, programs, has_box ? 1 : 2);
}

glradix_status _glradix_morton(glradix_context *ctx, const _glradix_morton_job *job) {
  if (!_glradix_groups_fit(ctx, _glradix_div_up(job->count, ctx->forms.scan_tile))) {
    _glradix_log(&ctx->desc, "morton codes: count %u exceeds this context's limits", job->count);
    return GLRADIX_ERROR_TOO_LARGE;
  }
  glradix_status st = _glradix_lbvh_state(ctx, job->count, job->count_buffer,
                                          job->count_offset, !job->box_given);
  if (st != GLRADIX_OK) return st;
  if (!job->box_given) scene_box(ctx, job);
  morton_codes(ctx, job);
  return GLRADIX_OK;
}

_glradix_morton_job _glradix_morton_job_make(GLuint bounds, uint32_t count, unsigned morton_bits,
                                             int has_box, const float box_min[3],
                                             const float box_max[3], GLuint codes,
                                             GLuint indices) {
  _glradix_morton_job job = {bounds, codes, indices, count, 0, 0, morton_bits ? morton_bits : 30,
                             has_box != 0, {0}, {0}};
  for (int c = 0; c < 3; c++) {
    job.box_min[c] = box_min[c];
    job.box_max[c] = box_max[c];
  }
  return job;
}

glradix_status glradix_morton_codes(glradix_context *ctx, const glradix_morton_desc *desc) {
  const char *fn = "glradix_morton_codes";
  _glradix_gl_state saved;
  glradix_status entered = _glradix_enter(ctx, fn, desc, &saved);
  if (entered != GLRADIX_OK) return entered;
  unsigned bits = desc->morton_bits ? desc->morton_bits : 30;
  glradix_status st = _glradix_morton_check(ctx, fn, desc->bounds, desc->count, desc->morton_bits,
                                            desc->has_scene_box, desc->scene_min, desc->scene_max);
  if (st == GLRADIX_OK)
    st = _glradix_check_buffer(ctx, fn, desc->codes, "codes",
                               (uint64_t)desc->count * (bits == 63 ? 8u : 4u));
  if (st == GLRADIX_OK) st = _glradix_check_distinct(ctx, fn, desc->codes, "codes", desc->bounds, "bounds");
  if (st == GLRADIX_OK)
    st = _glradix_check_word(ctx, fn, desc->count_buffer, desc->count_offset, "count_buffer");
  if (st == GLRADIX_OK && desc->count > 0)
    st = _glradix_check_morton_programs(ctx, fn, bits, desc->has_scene_box);
  if (st == GLRADIX_OK && desc->count > 0) {
    _glradix_morton_job job =
        _glradix_morton_job_make(desc->bounds, desc->count, desc->morton_bits, desc->has_scene_box,
                                 desc->scene_min, desc->scene_max, desc->codes, 0);
    job.count_buffer = desc->count_buffer;
    job.count_offset = desc->count_offset;
    st = _glradix_morton(ctx, &job);
  }
  return _glradix_end(ctx, fn, st, &saved);
}
