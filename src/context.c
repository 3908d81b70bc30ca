/* glradix_create / glradix_destroy: validate the desc, load GL, read the
 * limits, choose the forms and plan, build the programs, allocate the
 * sort state; each step a function below, in that order. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sort/plan.h"

/* The one place where zero fields of a glradix_desc become defaults. */
static glradix_desc desc_defaults(const glradix_desc *in) {
  glradix_desc d = *in;
  if (d.radix_bits == 0) d.radix_bits = GLRADIX_DEFAULT_RADIX_BITS;
  if (d.plan == GLRADIX_PLAN_DEFAULT) d.plan = GLRADIX_PLAN_REDUCE_THEN_SCAN;
  return d;
}

/* glradix_apiproc and GLADapiproc are the same type, void (*)(void): no cast,
 * so that a change to either fails to compile here. */
static GLADapiproc load_proc(void *user, const char *name) {
  const glradix_context *ctx = user;
  return ctx->desc.load(name);
}

/* Whether the current context is OpenGL ES, whose GL_VERSION reads
 * "OpenGL ES 3.1 ..."; -1 when GL_VERSION is unreadable (no current
 * context, or no GL at all). */
static int current_is_es(const glradix_desc *desc) {
  PFNGLGETSTRINGPROC get_string = (PFNGLGETSTRINGPROC)desc->load("glGetString");
  const char *version = get_string ? (const char *)get_string(GL_VERSION) : NULL;
  if (!version) return -1;
  return strncmp(version, "OpenGL ES", 9) == 0 ? 1 : 0;
}

/* Whether the renderer is a CPU rasterizer, which gets shapes and program
 * forms of its own. */
static bool cpu_rasterizer(const char *renderer) {
  return renderer && (strstr(renderer, "llvmpipe") || strstr(renderer, "softpipe"));
}

/* The subgroup fast path needs arithmetic, ballot (subgroupBroadcast) and
 * shuffle subgroup operations in compute shaders (common.glsl's block
 * scan); forms.c also wants work groups of whole subgroups. */
static GLuint usable_subgroup_size(glradix_context *ctx) {
  GladGLContext *gl = &ctx->gl;
  if (ctx->desc.disable_subgroups || !gl->KHR_shader_subgroup) return 0;
  GLint size = 0, stages = 0, features = 0;
  gl->GetIntegerv(GL_SUBGROUP_SIZE_KHR, &size);
  gl->GetIntegerv(GL_SUBGROUP_SUPPORTED_STAGES_KHR, &stages);
  gl->GetIntegerv(GL_SUBGROUP_SUPPORTED_FEATURES_KHR, &features);
  GLint need = GL_SUBGROUP_FEATURE_BASIC_BIT_KHR | GL_SUBGROUP_FEATURE_ARITHMETIC_BIT_KHR |
               GL_SUBGROUP_FEATURE_BALLOT_BIT_KHR | GL_SUBGROUP_FEATURE_SHUFFLE_BIT_KHR;
  if (size <= 0 || !(stages & GL_COMPUTE_SHADER_BIT) || (features & need) != need) return 0;
  return (GLuint)size;
}

/* Step 1: what glradix_create refuses with nothing allocated yet. */
static glradix_status validate_desc(const glradix_desc *desc, glradix_context **out) {
  if (out) *out = NULL;
  if (!desc || !out) {
    if (desc) _glradix_log(desc, "glradix_create: out is NULL");
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  if (!desc->load) {
    _glradix_log(desc, "glradix_create: desc->load is NULL (pass e.g. glfwGetProcAddress)");
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  if ((unsigned)desc->plan > (unsigned)GLRADIX_PLAN_ONESWEEP) {
    _glradix_log(desc, "glradix_create: plan %d is not a glradix_plan", (int)desc->plan);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  if ((unsigned)desc->memory > (unsigned)GLRADIX_MEMORY_GL) {
    _glradix_log(desc, "glradix_create: memory %d is not a glradix_memory", (int)desc->memory);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  if (desc->radix_bits != 0 && desc->radix_bits != 2 && desc->radix_bits != 4 &&
      desc->radix_bits != 8) {
    _glradix_log(desc, "glradix_create: radix_bits %u is not 0, 2, 4 or 8", desc->radix_bits);
    return GLRADIX_ERROR_INVALID_ARGUMENT;
  }
  return GLRADIX_OK;
}

/* Step 2: the context on the host, its desc's defaults filled in; hooks
 * NULL changes nothing. */
static glradix_status new_context(const glradix_desc *desc, const _glradix_test_hooks *hooks,
                                  glradix_context **out) {
  glradix_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx) {
    _glradix_log(desc, "glradix_create: out of host memory");
    return GLRADIX_ERROR_OUT_OF_MEMORY;
  }
  ctx->desc = desc_defaults(desc);
  const _glradix_test_hooks none = _GLRADIX_TEST_HOOKS_NONE;
  ctx->hooks = hooks ? *hooks : none;
  *out = ctx;
  return GLRADIX_OK;
}

/* Step 3: glad's GL or ES entry points for the current context, which must
 * offer compute shaders (and ES the timer queries desc.profile needs). */
static glradix_status load_gl(glradix_context *ctx) {
  const glradix_desc *desc = &ctx->desc;
  /* GL_VERSION picks glad's GL or ES loader; glad reads it again: 0 means
   * no current context (or no GL at all). */
  const int es = current_is_es(desc);
  int version = es < 0   ? 0
                : es > 0 ? _glradix_load_gles(&ctx->gl, load_proc, ctx)
                         : gladLoadGLContextUserPtr(&ctx->gl, load_proc, ctx);
  ctx->es = es > 0;
  if (version == 0) {
    _glradix_log(desc, "glradix_create: no current GL context (GL_VERSION unreadable)");
    return GLRADIX_ERROR_UNSUPPORTED;
  }
  if (ctx->es ? !ctx->gl.ES_VERSION_3_1 : !ctx->gl.VERSION_4_3) {
    _glradix_log(desc, "glradix_create: OpenGL %s%d.%d is current; %s (compute shaders) needed",
                 ctx->es ? "ES " : "", GLAD_VERSION_MAJOR(version), GLAD_VERSION_MINOR(version),
                 ctx->es ? "ES 3.1" : "4.3");
    return GLRADIX_ERROR_UNSUPPORTED;
  }
  if (desc->profile && ctx->es && !ctx->gl.EXT_disjoint_timer_query) {
    _glradix_log(desc, "glradix_create: desc.profile needs GL_EXT_disjoint_timer_query on "
                 "OpenGL ES, which this context lacks");
    return GLRADIX_ERROR_UNSUPPORTED;
  }
  return GLRADIX_OK;
}

/* Step 4: every call saves the indexed storage bindings the library uses
 * and every sort binds the last of them, so a context with fewer is
 * refused here, where nothing has saved them yet (OpenGL ES 3.1
 * promises 4). */
static glradix_status check_bindings(glradix_context *ctx) {
  GLint bindings = 0;
  ctx->gl.GetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &bindings);
  if (ctx->hooks.max_bindings) bindings = ctx->hooks.max_bindings;
  if (bindings >= _GLRADIX_BINDINGS) return GLRADIX_OK;
  _glradix_log(&ctx->desc, "glradix_create: GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS is %d; glradix "
               "binds shader storage buffers at points 0 to %d", (int)bindings,
               _GLRADIX_BINDINGS - 1);
  return GLRADIX_ERROR_UNSUPPORTED;
}

/* Step 5: the driver's limits, those the context keeps and, in `limits`,
 * those the forms are chosen from. */
static glradix_status read_limits(glradix_context *ctx, _glradix_limits *limits) {
  GladGLContext *gl = &ctx->gl;
  GLint count[2] = {0, 0};
  gl->GetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &count[0]);
  gl->GetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 1, &count[1]);
  gl->GetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &ctx->max_ssbo_bytes);
  GLint max_shared = 0;
  memset(limits, 0, sizeof *limits);
  gl->GetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &max_shared);
  gl->GetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &limits->max_invocations);
  limits->max_shared = max_shared;
  limits->cpu_rasterizer = cpu_rasterizer((const char *)gl->GetString(GL_RENDERER));
  limits->subgroup_size = usable_subgroup_size(ctx);
  /* A compute program's blocks count against both limits. */
  GLint blocks = 0, combined = 0;
  gl->GetIntegerv(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &blocks);
  gl->GetIntegerv(GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS, &combined);
  if (ctx->hooks.max_blocks) blocks = ctx->hooks.max_blocks;
  ctx->max_blocks = combined < blocks ? combined : blocks;
  ctx->max_blocks_name = combined < blocks ? "GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS"
                                           : "GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS";
  for (int i = 0; i < 2; i++) {
    GLuint limit = count[i] > 0 ? (GLuint)count[i] : 65535u;
    if (i == 0 && ctx->desc.dispatch_limit != 0 && ctx->desc.dispatch_limit < limit)
      limit = ctx->desc.dispatch_limit;
    ctx->group_limit[i] = limit;
  }
  return _glradix_gl_error(ctx, "reading GL limits");
}

/* Step 6: the programs' forms (forms.c), from the limits and the hooks. */
static void choose_forms(glradix_context *ctx, const _glradix_limits *limits) {
  _glradix_test_hooks hooks = ctx->hooks;
  if (ctx->desc.disable_subgroups) hooks.subgroup_size = 0;
  _glradix_forms_choose(&ctx->forms, ctx->desc.radix_bits, limits, &hooks);
}

/* Step 7: the plan, from the programs' storage blocks (no program need
 * be built to know them); `desc` is the caller's. The default is the
 * forms' plan where its pair programs fit, else the next that fits:
 * reduce-then-scan's pairs need 10 or 11 blocks (GL 4.3 promises 8, ES
 * 3.1 4), scan-then-propagate's 6, so a context between them sorts pairs
 * the slower way, not not at all. The single-pass plan, asked for or the
 * forms', gives way the same way, said once in the log; the design's
 * plans asked for stay, and a call that needs a program above the limit
 * says so. */
static void choose_plan(glradix_context *ctx, const glradix_desc *desc) {
  glradix_plan wanted = desc->plan == GLRADIX_PLAN_DEFAULT ? ctx->forms.plan : desc->plan;
  if (desc->plan != GLRADIX_PLAN_DEFAULT && wanted != GLRADIX_PLAN_ONESWEEP) return;
  ctx->desc.plan = _glradix_plan_default(_glradix_program_blocks(&ctx->forms), ctx->max_blocks, wanted);
  if (wanted == GLRADIX_PLAN_ONESWEEP && ctx->desc.plan != wanted)
    _glradix_log(&ctx->desc,
                 "glradix_create: the single-pass plan's sorts of pairs need more storage "
                 "blocks than %s %d: sorts take plan %d",
                 ctx->max_blocks_name, (int)ctx->max_blocks, (int)ctx->desc.plan);
}

/* Step 7b: the programs create builds: what any sort of the context's
 * plan runs, what every sort runs (step 8) and the scan; the other plans'
 * (inspection's among them) and compaction's are built by the first call
 * that needs them, so that a create compiles about a quarter fewer. */
static void choose_programs(glradix_context *ctx) {
  static const _glradix_program always[] = {
      _GLRADIX_PROG_COUNT_PREPARE, _GLRADIX_PROG_TILE_SORT, _GLRADIX_PROG_TILE_SORT_PAIRS,
      _GLRADIX_PROG_FILL_WORDS, _GLRADIX_PROG_SCAN_BLOCKS, _GLRADIX_PROG_SCAN_ADD};
  uint64_t mask = 0;
  for (size_t k = 0; k < sizeof always / sizeof always[0]; k++) mask |= (uint64_t)1 << always[k];
  for (int pairs = 0; pairs < 2; pairs++) {
    _glradix_program programs[_GLRADIX_PROG_COUNT];
    const size_t n = _glradix_plan_programs_any(ctx->desc.plan, pairs != 0, programs);
    for (size_t k = 0; k < n; k++) mask |= (uint64_t)1 << programs[k];
  }
  ctx->eager_programs = mask;
}

/* Step 8: what every sort runs (a one-tile sort: the count's program,
 * tile_sort and the fills of the library's scratch): a context too small
 * for them is refused here, the others by the first call that needs a
 * program they leave out. */
static glradix_status check_every_sort(glradix_context *ctx) {
  static const _glradix_program every_sort[] = {
      _GLRADIX_PROG_COUNT_PREPARE, _GLRADIX_PROG_TILE_SORT, _GLRADIX_PROG_FILL_WORDS};
  return _glradix_check_programs(ctx, "glradix_create", every_sort,
                                 sizeof every_sort / sizeof every_sort[0]);
}

/* Step 9: the sort's small state buffer, for every count, and the scratch
 * for desc.max_count pairs. */
static glradix_status allocate_state(glradix_context *ctx) {
  glradix_status st = _glradix_ensure_buffer(ctx, &ctx->skip, (GLsizeiptr)_GLRADIX_SKIP_WORDS * 4,
                                             "allocating the sort state");
  if (st != GLRADIX_OK) return st;
  /* The scan's ticket (skip[SKIP_TICKET]) starts at zero: an upload into
   * the new buffer, which no dispatch has used yet. */
  static const GLuint zeros[_GLRADIX_SKIP_WORDS] = {0};
  _glradix_upload(ctx, ctx->skip.name, 0, (GLsizeiptr)sizeof zeros, zeros);
  if (ctx->desc.max_count > 0)
    st = _glradix_reserve(ctx, "glradix_create", ctx->desc.max_count, true, 1);
  return st;
}

/* Steps 3 to 9 on a new context: *out set on success; on failure the
 * context is freed, with whatever GL objects it made. */
static glradix_status setup_context(glradix_context *ctx, const glradix_desc *desc,
                                    glradix_context **out) {
  glradix_status st = load_gl(ctx);
  if (st == GLRADIX_OK) st = check_bindings(ctx);
  if (st != GLRADIX_OK) { /* no GL object yet, and perhaps no GL to delete one with */
    free(ctx);
    return st;
  }
  _glradix_gl_state saved;
  _glradix_begin(ctx, &saved);
  _glradix_limits limits;
  st = read_limits(ctx, &limits);
  if (st == GLRADIX_OK) {
    choose_forms(ctx, &limits);
    choose_plan(ctx, desc);
    choose_programs(ctx);
    st = _glradix_build_programs(ctx, _GLRADIX_SET_BASE);
  }
  if (st == GLRADIX_OK) st = check_every_sort(ctx);
  if (st == GLRADIX_OK) st = allocate_state(ctx);
  st = _glradix_end(ctx, "glradix_create", st, &saved);
  if (st != GLRADIX_OK) {
    glradix_destroy(ctx);
    return st;
  }
  *out = ctx;
  return GLRADIX_OK;
}

glradix_status glradix_create(const glradix_desc *desc, glradix_context **out) {
  glradix_context *ctx = NULL;
  glradix_status st = validate_desc(desc, out);
  if (st == GLRADIX_OK) st = new_context(desc, NULL, &ctx);
  return st == GLRADIX_OK ? setup_context(ctx, desc, out) : st;
}

/* The tests' entry (testing.h): glradix_create's steps with the hooks in
 * the context from step 2 on. */
glradix_status _glradix_create_for_tests(const glradix_desc *desc, const _glradix_test_hooks *hooks,
                                         glradix_context **out) {
  glradix_context *ctx = NULL;
  glradix_status st = validate_desc(desc, out);
  if (st == GLRADIX_OK) st = new_context(desc, hooks, &ctx);
  return st == GLRADIX_OK ? setup_context(ctx, desc, out) : st;
}

void glradix_destroy(glradix_context *ctx) {
  if (!ctx) return;
  _glradix_delete_programs(ctx);
  _glradix_profile_delete(ctx);
  _glradix_buffer *buffers[] = {&ctx->tile_keys, &ctx->tile_values, &ctx->counts, &ctx->skip,
                                &ctx->lbvh_codes, &ctx->lbvh_indices, &ctx->lbvh_parents,
                                &ctx->lbvh_state,
                                &ctx->host_keys, &ctx->host_values};
  for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; i++)
    _glradix_delete_scratch(ctx, buffers[i]);
  _glradix_memory_close(ctx);
  free(ctx);
}

unsigned glradix_tile_size(const glradix_context *ctx) { return ctx ? ctx->forms.tile : 0u; }

unsigned glradix_subgroup_size(const glradix_context *ctx) {
  return ctx ? ctx->forms.subgroup_size : 0u;
}

glradix_desc glradix_query_desc(const glradix_context *ctx) {
  glradix_desc none = {0};
  return ctx ? ctx->desc : none;
}
