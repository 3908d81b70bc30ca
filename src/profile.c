/* Per-stage GPU timing (desc.profile): GL_TIMESTAMP query pairs, since
 * GL_TIME_ELAPSED reads about 1 ns for compute on llvmpipe. OpenGL ES has
 * them from GL_EXT_disjoint_timer_query only (glradix_create checks it). */
#include <string.h>

#include "glradix/lbvh.h"
#include "internal.h"

static void timestamp(glradix_context *ctx, GLuint *q) {
  if (*q == 0) ctx->gl.GenQueries(1, q);
  if (ctx->es) ctx->gl.QueryCounterEXT(*q, GL_TIMESTAMP_EXT);
  else ctx->gl.QueryCounter(*q, GL_TIMESTAMP);
}

static GLuint64 timestamp_result(glradix_context *ctx, GLuint q) {
  GLuint64 t = 0;
  if (ctx->es) ctx->gl.GetQueryObjectui64vEXT(q, GL_QUERY_RESULT_EXT, &t);
  else ctx->gl.GetQueryObjectui64v(q, GL_QUERY_RESULT, &t);
  return t;
}

/* Point 0 is the start of a pass, point s + 1 the end of stage s. */
void _glradix_profile_mark(glradix_context *ctx, unsigned pass, unsigned point) {
  if (!ctx->desc.profile || pass >= _GLRADIX_MAX_PASSES) return;
  timestamp(ctx, &ctx->queries[pass * (_GLRADIX_STAGES + 1) + point]);
  if (pass + 1 > ctx->profiled_passes) ctx->profiled_passes = pass + 1;
}

void _glradix_profile_lbvh_mark(glradix_context *ctx, unsigned point) {
  if (!ctx->desc.profile) return;
  timestamp(ctx, &ctx->lbvh_queries[point]);
  ctx->lbvh_profiled = point == _GLRADIX_LBVH_MARKS - 1;
}

void _glradix_profile_delete(glradix_context *ctx) {
  for (size_t i = 0; i < sizeof ctx->queries / sizeof ctx->queries[0]; i++)
    if (ctx->queries[i]) ctx->gl.DeleteQueries(1, &ctx->queries[i]);
  for (size_t i = 0; i < _GLRADIX_LBVH_MARKS; i++)
    if (ctx->lbvh_queries[i]) ctx->gl.DeleteQueries(1, &ctx->lbvh_queries[i]);
}

/* What both queries do around reading their timestamps: check ctx, out
 * and desc.profile; set aside the GL errors the caller left pending (its
 * own, status.c); fill `t` (read); write *out only if GL raised nothing. */
static glradix_status query(glradix_context *ctx, const char *fn,
                            void (*read)(glradix_context *, void *), void *t, void *out,
                            size_t size) {
  if (!ctx) return GLRADIX_ERROR_INVALID_ARGUMENT;
  if (!out || !ctx->desc.profile) {
    _glradix_log(&ctx->desc, "%s: %s", fn,
                 out ? "the context was created without desc.profile" : "out is NULL");
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  _glradix_gl_state pending;
  _glradix_take_gl_errors(ctx, &pending);
  read(ctx, t);
  glradix_status st = _glradix_gl_error(ctx, fn);
  _glradix_give_back_gl_errors(ctx, &pending);
  if (st == GLRADIX_OK) memcpy(out, t, size);
  return st;
}

/* The last sort's fallbacks (shuffle_scatter.comp counts them in the skip
 * buffer); the caller's copy-read binding is put back. */
static unsigned read_fallbacks(glradix_context *ctx) {
  GladGLContext *gl = &ctx->gl;
  GLint bound = 0;
  GLuint n = 0;
  const GLintptr at = (GLintptr)_GLRADIX_SKIP_FALLBACKS * 4;
  gl->GetIntegerv(GL_COPY_READ_BUFFER_BINDING, &bound);
  gl->MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  gl->BindBuffer(GL_COPY_READ_BUFFER, ctx->skip.name);
  if (!ctx->es) {
    gl->GetBufferSubData(GL_COPY_READ_BUFFER, at, 4, &n);
  } else {
    const GLuint *mapped = gl->MapBufferRange(GL_COPY_READ_BUFFER, at, 4, GL_MAP_READ_BIT);
    if (mapped) {
      n = *mapped;
      gl->UnmapBuffer(GL_COPY_READ_BUFFER);
    }
  }
  gl->BindBuffer(GL_COPY_READ_BUFFER, (GLuint)bound);
  return n;
}

static void read_stage_times(glradix_context *ctx, void *out) {
  glradix_stage_times *t = out;
  double *stage[_GLRADIX_STAGES] = {&t->tiles_ms, &t->scan_ms, &t->scatter_ms};
  GLuint64 first = 0, last = 0;
  for (unsigned p = 0; p < ctx->profiled_passes; p++) {
    GLuint64 ts[_GLRADIX_STAGES + 1];
    for (unsigned i = 0; i <= _GLRADIX_STAGES; i++)
      ts[i] = timestamp_result(ctx, ctx->queries[p * (_GLRADIX_STAGES + 1) + i]);
    for (unsigned s = 0; s < _GLRADIX_STAGES; s++) *stage[s] += (double)(ts[s + 1] - ts[s]) * 1e-6;
    if (p == 0) first = ts[0];
    last = ts[_GLRADIX_STAGES];
  }
  t->total_ms = (double)(last - first) * 1e-6;
  t->passes = ctx->profiled_passes;
  if (ctx->profiled_passes && ctx->skip.name) t->fallbacks = read_fallbacks(ctx);
}

glradix_status glradix_query_stage_times(glradix_context *ctx, glradix_stage_times *out) {
  glradix_stage_times t = {0};
  return query(ctx, "glradix_query_stage_times", read_stage_times, &t, out, sizeof t);
}

static void read_lbvh_times(glradix_context *ctx, void *out) {
  glradix_lbvh_times *t = out;
  if (!ctx->lbvh_profiled) return;
  GLuint64 ts[_GLRADIX_LBVH_MARKS];
  for (unsigned i = 0; i < _GLRADIX_LBVH_MARKS; i++) ts[i] = timestamp_result(ctx, ctx->lbvh_queries[i]);
  double *step[_GLRADIX_LBVH_MARKS - 1] = {&t->codes_ms, &t->sort_ms, &t->leaves_ms, &t->tree_ms};
  for (unsigned i = 0; i + 1 < _GLRADIX_LBVH_MARKS; i++) *step[i] = (double)(ts[i + 1] - ts[i]) * 1e-6;
  t->total_ms = (double)(ts[_GLRADIX_LBVH_MARKS - 1] - ts[0]) * 1e-6;
}

glradix_status glradix_query_lbvh_times(glradix_context *ctx, glradix_lbvh_times *out) {
  glradix_lbvh_times t = {0};
  return query(ctx, "glradix_query_lbvh_times", read_lbvh_times, &t, out, sizeof t);
}
