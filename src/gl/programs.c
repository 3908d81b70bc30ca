/* The program table (contract.h) -> GL programs: each program's prelude
 * (prelude.c), common.glsl and its stage's file, compiled and linked per set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "shaders_gen.h"

/* What the builder takes from the program table (contract.h). */
typedef struct program_source {
  const char *name;   /* the stage's shader file, for logs */
  const char *source; /* embedded text of shaders/<part>/<name>.comp */
  bool keys;          /* reads keys: KEY64 builds it for 64-bit keys */
  _glradix_built built;
} program_source;

#define SOURCE_ROW(program, shader, values, keys, built, uniforms, blocks, parts)            \
  [_GLRADIX_PROG_##program] = {#shader, _glradix_shader_##shader, keys, _GLRADIX_BUILT_##built},
static const program_source SOURCES[_GLRADIX_PROG_COUNT] = {_GLRADIX_PROGRAMS(SOURCE_ROW)};
#undef SOURCE_ROW

/* The table's BLOCKS, without and with the per-tile form NEXT_COUNTS,
 * which its expressions read. */
#define BLOCKS_ROW(program, shader, values, keys, built, uniforms, blocks, parts)            \
  [_GLRADIX_PROG_##program] = (blocks),
#define NEXT_COUNTS 0
static const GLint BLOCKS[_GLRADIX_PROG_COUNT] = {_GLRADIX_PROGRAMS(BLOCKS_ROW)};
#undef NEXT_COUNTS
#define NEXT_COUNTS 1
static const GLint BLOCKS_NEXT_COUNTS[_GLRADIX_PROG_COUNT] = {_GLRADIX_PROGRAMS(BLOCKS_ROW)};
#undef NEXT_COUNTS
#undef BLOCKS_ROW

const GLint *_glradix_program_blocks(const _glradix_forms *forms) {
  return _glradix_next_counts(forms) ? BLOCKS_NEXT_COUNTS : BLOCKS;
}

/* Sends the driver's info log to the logger as one line. */
static void log_info_log(glradix_context *ctx, const char *stage, GLuint object, int is_program) {
  GladGLContext *gl = &ctx->gl;
  GLint len = 0;
  if (is_program) gl->GetProgramiv(object, GL_INFO_LOG_LENGTH, &len);
  else gl->GetShaderiv(object, GL_INFO_LOG_LENGTH, &len);
  char *text = len > 0 ? malloc((size_t)len) : NULL;
  if (!text) {
    _glradix_log(&ctx->desc, "glradix: %s: %s failed (no driver log)", stage,
                 is_program ? "link" : "compile");
    return;
  }
  if (is_program) gl->GetProgramInfoLog(object, len, NULL, text);
  else gl->GetShaderInfoLog(object, len, NULL, text);
  /* The logger takes one line per problem: the driver's line breaks become
   * '|', its trailing blanks are dropped. */
  size_t end = 0;
  while (end < (size_t)len && text[end] != '\0') end++;
  while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r' || text[end - 1] == ' '))
    end--;
  text[end] = '\0';
  for (char *c = text; *c; c++)
    if (*c == '\n' || *c == '\r') *c = '|';
  _glradix_log(&ctx->desc, "glradix: %s.comp: %s failed; driver log: %s", stage,
               is_program ? "link" : "compile", text);
  free(text);
}

/* tests/shader_sources.sh: the program's whole source goes to
 * <dir>/<stage>_<program>_<set>.comp, and nothing is compiled. */
static glradix_status dump_source(const char *dir, _glradix_program p, _glradix_set set,
                                  const char *prelude) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s_%d_%d.comp", dir, SOURCES[p].name, (int)p, (int)set);
  FILE *f = fopen(path, "w");
  if (!f) return GLRADIX_ERROR_INVALID_ARGUMENT;
  fprintf(f, "%s#line 1 1\n%s#line 1 2\n%s", prelude, _glradix_shader_common, SOURCES[p].source);
  return fclose(f) == 0 ? GLRADIX_OK : GLRADIX_ERROR_INVALID_ARGUMENT;
}

/* A linked program's active storage blocks against the table's count:
 * more means the table is wrong, and the limit check with it (a glradix
 * bug, SHADER); with the tests' exact_blocks, any difference fails too. */
static glradix_status check_active_blocks(glradix_context *ctx, _glradix_program p,
                                          GLuint program, GLint declared) {
  GLint active = 0;
  ctx->gl.GetProgramInterfaceiv(program, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &active);
  if (active <= declared && (!ctx->hooks.exact_blocks || active == declared)) return GLRADIX_OK;
  _glradix_log(&ctx->desc, "glradix: %s.comp: %d shader storage blocks active, %d in "
               "src/gl/contract.h", SOURCES[p].name, (int)active, (int)declared);
  return GLRADIX_ERROR_SHADER;
}

/* Builds program `p` of `set` into *out; one whose storage blocks are
 * above the context's limit is left unbuilt (*out 0), for
 * _glradix_check_programs to refuse the calls that need it, since its link
 * would fail. */
static glradix_status build_one(glradix_context *ctx, _glradix_program p, _glradix_set set,
                                GLuint *out) {
  GladGLContext *gl = &ctx->gl;
  const program_source *src = &SOURCES[p];
  const GLint blocks = _glradix_program_blocks(&ctx->forms)[p];
  *out = 0;
  if (blocks > ctx->max_blocks && !ctx->hooks.dump_dir) return GLRADIX_OK;
  char *prelude = _glradix_prelude(ctx, p, set);
  if (!prelude) {
    _glradix_log(&ctx->desc, "glradix: %s.comp: out of memory for its source", src->name);
    return GLRADIX_ERROR_OUT_OF_MEMORY;
  }
  if (ctx->hooks.dump_dir) {
    glradix_status st = dump_source(ctx->hooks.dump_dir, p, set, prelude);
    free(prelude);
    return st;
  }
  /* #line keeps driver messages pointing at lines of the original files:
   * source string 1 is common.glsl, 2 the stage's own file. */
  const GLchar *parts[] = {prelude, "#line 1 1\n", _glradix_shader_common, "#line 1 2\n",
                           src->source};
  GLuint shader = gl->CreateShader(GL_COMPUTE_SHADER);
  gl->ShaderSource(shader, (GLsizei)(sizeof parts / sizeof parts[0]), parts, NULL);
  free(prelude);
  gl->CompileShader(shader);
  GLint ok = 0;
  gl->GetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    log_info_log(ctx, src->name, shader, 0);
    gl->DeleteShader(shader);
    return GLRADIX_ERROR_SHADER;
  }
  GLuint program = gl->CreateProgram();
  gl->AttachShader(program, shader);
  gl->LinkProgram(program);
  gl->DeleteShader(shader); /* flagged; freed with the program */
  gl->GetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    log_info_log(ctx, src->name, program, 1);
    gl->DeleteProgram(program);
    return GLRADIX_ERROR_SHADER;
  }
  glradix_status st = check_active_blocks(ctx, p, program, blocks);
  if (st != GLRADIX_OK) {
    gl->DeleteProgram(program);
    return st;
  }
  *out = program;
  return _glradix_gl_error(ctx, "building programs");
}

/* Whether a set has program `i` (the table's KEYS and BUILT): BASE every
 * one; KEY64 the ones that read keys; WIDE the ones whose tile a
 * reduce-then-scan sort's grid follows, the scan's being tile-free. */
static bool in_set(_glradix_set set, int i) {
  switch (set) {
  case _GLRADIX_SET_KEY64:
    return SOURCES[i].keys;
  case _GLRADIX_SET_WIDE:
    return SOURCES[i].built == _GLRADIX_BUILT_WIDE;
  default:
    return true;
  }
}

glradix_status _glradix_build_programs(glradix_context *ctx, _glradix_set set) {
  if (ctx->hooks.dump_dir && set == _GLRADIX_SET_BASE) /* the other sets too */
    for (int other = _GLRADIX_SET_KEY64; other < _GLRADIX_SETS; other++) {
      if (other == _GLRADIX_SET_WIDE && !ctx->forms.wide_tile) continue;
      glradix_status st = _glradix_build_programs(ctx, (_glradix_set)other);
      if (st != GLRADIX_OK) return st;
    }
  GLuint *programs = ctx->programs[set];
  ctx->sets_built |= 1u << set;
  for (int i = 0; i < _GLRADIX_PROG_COUNT; i++) {
    if (programs[i] || !in_set(set, i)) continue;
    /* the LBVH's programs wait for an LBVH call: sorts never run them, and
     * a context that never builds a tree compiles 8 programs fewer */
    if (SOURCES[i].built == _GLRADIX_BUILT_LBVH && !ctx->lbvh_programs && !ctx->hooks.dump_dir)
      continue;
    /* the quality build's, and the other plans' and compaction's, wait for
     * a call that needs them (_glradix_check_programs): a context sorts by
     * one plan */
    if (SOURCES[i].built != _GLRADIX_BUILT_LBVH && !(ctx->eager_programs >> i & 1u) &&
        !ctx->hooks.dump_dir)
      continue;
    glradix_status st = build_one(ctx, (_glradix_program)i, set, &programs[i]);
    if (st != GLRADIX_OK) {
      /* glradix_create fails and leaves nothing; a failed LBVH program
       * leaves the context's others working */
      if (set == _GLRADIX_SET_BASE && !ctx->lbvh_programs) _glradix_delete_programs(ctx);
      return st;
    }
  }
  return GLRADIX_OK;
}

glradix_status _glradix_build_lbvh_programs(glradix_context *ctx) {
  ctx->lbvh_programs = true;
  return _glradix_build_programs(ctx, _GLRADIX_SET_BASE);
}

glradix_status _glradix_check_programs(glradix_context *ctx, const char *fn,
                                       const _glradix_program *programs, size_t count) {
  for (size_t k = 0; k < count; k++) {
    const _glradix_program p = programs[k];
    const GLint need = _glradix_program_blocks(&ctx->forms)[p]; /* the same in every set */
    if (need <= ctx->max_blocks) continue;
    _glradix_log(&ctx->desc, "%s: %s.comp declares %d shader storage blocks; this context's %s "
                 "is %d", fn, SOURCES[p].name, (int)need, ctx->max_blocks_name,
                 (int)ctx->max_blocks);
    return GLRADIX_ERROR_UNSUPPORTED;
  }
  /* the ones create left for a call that needs them, in every set built */
  for (size_t k = 0; k < count; k++)
    for (int set = 0; set < _GLRADIX_SETS; set++) {
      GLuint *program = &ctx->programs[set][programs[k]];
      if (!(ctx->sets_built >> set & 1u) || *program || !in_set((_glradix_set)set, programs[k]))
        continue;
      glradix_status st = build_one(ctx, programs[k], (_glradix_set)set, program);
      if (st != GLRADIX_OK) return st;
    }
  return GLRADIX_OK;
}

GLuint _glradix_program_name(const glradix_context *ctx, _glradix_program program, _glradix_set set) {
  return ctx->programs[set][program] ? ctx->programs[set][program]
                                     : ctx->programs[_GLRADIX_SET_BASE][program];
}

void _glradix_delete_programs(glradix_context *ctx) {
  for (int set = 0; set < _GLRADIX_SETS; set++)
    for (int i = 0; i < _GLRADIX_PROG_COUNT; i++) {
      if (ctx->programs[set][i]) ctx->gl.DeleteProgram(ctx->programs[set][i]);
      ctx->programs[set][i] = 0;
    }
}
