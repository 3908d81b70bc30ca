/* The GLSL traversal (include/glradix/lbvh.glsl, glradix_lbvh_glsl()):
 * trees built with glradix_lbvh_build over boxes as primitives, queried
 * from a compute shader (closest hit, any hit, box overlap) and checked
 * against brute force over every primitive on the CPU, in double.
 *
 * Exact scenes (coordinates on a grid of halves, ray directions of 0 and
 * +-1/2, 1, 2) make every distance exact in float, so the answers must
 * match bit for bit, ties included: faces shared by many boxes give equal
 * distances everywhere. Random scenes allow the float error of the slab
 * test, but fail on a miss where the CPU hits clearly, a hit farther than
 * the CPU's clear best, or a wrong pick among identical boxes. Deep trees
 * (Morton codes 0, 1, 3, 7, ... and many duplicates) make the traversal's
 * stack hold more than 64 nodes. Rays parallel to axes, origins inside and
 * on boxes, zero-size and flat boxes, one and two primitives, both code
 * widths. The text itself: equal to the installed file, and compiled in
 * the ways the file's top describes (each query alone, definitions ahead
 * of it, twice, in a fragment shader, the binding missing). */
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glradix/lbvh.h"

/* ---- scenes ------------------------------------------------------------------ */

typedef struct box { /* as the build reads bounds: min, .w, max, .w */
  float lo[4];
  float hi[4];
} box;

typedef struct ray { /* as the shader reads it */
  float o[3];
  float tmin;
  float d[3];
  float tmax;
} ray;

typedef struct query { /* a box query and how many calls it allows */
  float lo[3];
  uint32_t limit; /* box_hit calls allowed (UINT32_MAX: all) */
  float hi[3];
  uint32_t pad;
} query;

typedef struct scene {
  char name[96];
  unsigned bits;     /* Morton code width: 30 or 63 */
  int exact;         /* every distance exact in float: answers compared bit for bit */
  int has_scene_box; /* 0: the build computes it */
  float scene_lo, scene_hi;
  size_t n, n_rays, n_queries;
  box *prims;
  ray *rays;
  query *queries;
} scene;

static float frand(uint64_t *st, float lo, float hi) { /* uniform, 24 bits */
  return lo + (hi - lo) * (float)(test_rng_next(st) >> 40) * (1.0f / 16777216.0f);
}
static uint32_t urand(uint64_t *st, uint32_t n) { return (uint32_t)(test_rng_next(st) % n); }
static float half_steps(uint64_t *st, int lo, int hi) { /* a multiple of 0.5 in [lo, hi] / 2 */
  return 0.5f * (float)(lo + (int)urand(st, (uint32_t)(hi - lo + 1)));
}

static void scene_alloc(scene *s, size_t n, size_t n_rays, size_t n_queries) {
  s->n = n;
  s->n_rays = n_rays;
  s->n_queries = n_queries;
  s->prims = calloc(n, sizeof *s->prims);
  s->rays = calloc(n_rays ? n_rays : 1, sizeof *s->rays);
  s->queries = calloc(n_queries ? n_queries : 1, sizeof *s->queries);
  ck_assert(s->prims && s->rays && s->queries);
}

static void scene_free(scene *s) {
  free(s->prims);
  free(s->rays);
  free(s->queries);
}

static void set_box(box *b, const float lo[3], const float hi[3]) {
  for (int c = 0; c < 3; c++) {
    b->lo[c] = lo[c];
    b->hi[c] = hi[c];
  }
  b->lo[3] = b->hi[3] = 99.0f; /* ignored by the build */
}

static void set_query(scene *s, size_t q, const float lo[3], const float hi[3], uint32_t limit) {
  for (int c = 0; c < 3; c++) {
    s->queries[q].lo[c] = lo[c];
    s->queries[q].hi[c] = hi[c];
  }
  s->queries[q].limit = limit;
}

/* A call limit: mostly none, now and then 1..4 calls (the callback's false). */
static uint32_t some_limit(uint64_t *st) {
  return urand(st, 5) == 0 ? 1 + urand(st, 4) : UINT32_MAX;
}

/* Exact scene: boxes with corners on the half grid of [0, 13], a third of
 * them copies of earlier ones, many of zero size or flat, some hollow (see
 * TEST_PRIMS); rays from the half grid of [-2, 14], from boxes' corners and
 * centres, with direction components from {0, +-1/2, +-1, +-2}; box
 * queries on the half grid. */
static void exact_scene(scene *s, size_t n, unsigned bits, uint64_t seed) {
  uint64_t st = seed;
  scene_alloc(s, n, 320, 64);
  snprintf(s->name, sizeof s->name, "exact scene n %zu bits %u seed %llu", n, bits,
           (unsigned long long)seed);
  s->bits = bits;
  s->exact = 1;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && urand(&st, 3) == 0) {
      s->prims[i] = s->prims[urand(&st, (uint32_t)i)];
      continue;
    }
    float lo[3], hi[3];
    for (int c = 0; c < 3; c++) {
      lo[c] = half_steps(&st, 0, 20);
      hi[c] = lo[c] + (urand(&st, 3) == 0 ? 0.0f : half_steps(&st, 0, 6));
    }
    set_box(&s->prims[i], lo, hi);
    if (urand(&st, 3) == 0) s->prims[i].lo[3] = 1.0f; /* hollow */
  }
  static const float steps[] = {0.0f, 0.0f, 0.5f, -0.5f, 1.0f, -1.0f, 2.0f, -2.0f};
  static const float tmins[] = {0.0f, 0.0f, 0.5f, 1.0f};
  const float tmaxs[] = {INFINITY, INFINITY, 3.0f, 8.5f, 100.0f};
  for (size_t i = 0; i < s->n_rays; i++) {
    ray *r = &s->rays[i];
    for (int c = 0; c < 3; c++) {
      r->o[c] = half_steps(&st, -4, 28);
      r->d[c] = steps[urand(&st, 8)];
    }
    if (i % 4 == 1 && n) { /* from a box's corner */
      const box *b = &s->prims[urand(&st, (uint32_t)n)];
      for (int c = 0; c < 3; c++) r->o[c] = urand(&st, 2) ? b->lo[c] : b->hi[c];
    }
    if (i % 4 == 2) { /* along one axis */
      int axis = (int)urand(&st, 3);
      for (int c = 0; c < 3; c++) r->d[c] = c == axis ? (urand(&st, 2) ? 1.0f : -1.0f) : 0.0f;
    }
    r->tmin = tmins[urand(&st, 4)];
    r->tmax = tmaxs[urand(&st, 5)];
    if (i % 8 == 5 && n) { /* from a box's centre, a short way: a hollow one hits past tmax */
      const box *b = &s->prims[urand(&st, (uint32_t)n)];
      for (int c = 0; c < 3; c++) r->o[c] = 0.5f * (b->lo[c] + b->hi[c]);
      r->tmin = 0.0f;
      r->tmax = 0.25f * (float)(1 + urand(&st, 4));
    }
  }
  for (size_t q = 0; q < s->n_queries; q++) {
    float lo[3], hi[3];
    for (int c = 0; c < 3; c++) {
      lo[c] = half_steps(&st, -2, 26);
      hi[c] = lo[c] + (urand(&st, 4) == 0 ? 0.0f : half_steps(&st, 0, 8));
    }
    if (q % 8 == 3 && n) { /* exactly a primitive's box: touching counts */
      const box *b = &s->prims[urand(&st, (uint32_t)n)];
      memcpy(lo, b->lo, sizeof lo);
      memcpy(hi, b->hi, sizeof hi);
    }
    if (q == 0) { /* everything */
      for (int c = 0; c < 3; c++) {
        lo[c] = -1.0f;
        hi[c] = 20.0f;
      }
    }
    set_query(s, q, lo, hi, q == 0 ? UINT32_MAX : some_limit(&st));
  }
}

/* Random scene: boxes of random floats in [-20, 26], a quarter of them
 * copies of three templates (a box, a point, a flat box), points and flat
 * boxes; rays from anywhere, from inside boxes and aimed at boxes' centres
 * (along an axis, or not), some with components zeroed; segments (tmax 1). */
static void random_scene(scene *s, size_t n, unsigned bits, uint64_t seed) {
  uint64_t st = seed;
  scene_alloc(s, n, 192, 48);
  snprintf(s->name, sizeof s->name, "random scene n %zu bits %u seed %llu", n, bits,
           (unsigned long long)seed);
  s->bits = bits;
  box templates[3];
  for (int t = 0; t < 3; t++) {
    float lo[3], hi[3];
    for (int c = 0; c < 3; c++) {
      lo[c] = frand(&st, -20.0f, 20.0f);
      hi[c] = lo[c] + (t == 1 || (t == 2 && c == 1) ? 0.0f : frand(&st, 0.5f, 4.0f));
    }
    set_box(&templates[t], lo, hi);
  }
  for (size_t i = 0; i < n; i++) {
    uint32_t kind = urand(&st, 8);
    if (kind < 2) {
      s->prims[i] = templates[urand(&st, 3)];
      continue;
    }
    float lo[3], hi[3];
    int flat = kind == 3 ? (int)urand(&st, 3) : -1;
    for (int c = 0; c < 3; c++) {
      lo[c] = frand(&st, -20.0f, 20.0f);
      hi[c] = lo[c] + (kind == 2 || c == flat ? 0.0f : frand(&st, 0.0f, 6.0f));
    }
    set_box(&s->prims[i], lo, hi);
  }
  for (size_t i = 0; i < s->n_rays; i++) {
    ray *r = &s->rays[i];
    const box *b = &s->prims[urand(&st, (uint32_t)n)];
    float centre[3];
    for (int c = 0; c < 3; c++) {
      centre[c] = 0.5f * (b->lo[c] + b->hi[c]);
      r->o[c] = frand(&st, -25.0f, 30.0f);
      r->d[c] = frand(&st, -1.0f, 1.0f);
      if (fabsf(r->d[c]) < 0.05f || urand(&st, 4) == 0) r->d[c] = 0.0f;
    }
    r->tmin = urand(&st, 4) == 0 ? 0.5f : 0.0f;
    r->tmax = urand(&st, 2) ? INFINITY : frand(&st, 5.0f, 60.0f);
    switch (i % 6) {
    case 1: /* from inside (the centre of) a box */
      memcpy(r->o, centre, sizeof centre);
      break;
    case 2: { /* at a centre along an axis (exact: the other axes are still) */
      int axis = (int)urand(&st, 3);
      float back = frand(&st, 1.0f, 30.0f);
      for (int c = 0; c < 3; c++) {
        r->o[c] = centre[c] - (c == axis ? back : 0.0f);
        r->d[c] = c == axis ? 1.0f : 0.0f;
      }
      break;
    }
    case 3: /* a segment to a centre */
    case 4: /* a segment to anywhere */
      for (int c = 0; c < 3; c++)
        r->d[c] = (i % 6 == 3 ? centre[c] : frand(&st, -25.0f, 30.0f)) - r->o[c];
      r->tmin = 0.0f;
      r->tmax = 1.0f;
      break;
    case 5: /* at a centre, any direction */
      for (int c = 0; c < 3; c++) r->d[c] = centre[c] - r->o[c];
      break;
    default:
      break;
    }
    if (i == 7) memset(r->d, 0, sizeof r->d); /* still: the boxes around the origin */
  }
  for (size_t q = 0; q < s->n_queries; q++) {
    float lo[3], hi[3];
    for (int c = 0; c < 3; c++) {
      lo[c] = frand(&st, -25.0f, 26.0f);
      hi[c] = lo[c] + (q % 5 == 4 ? 0.0f : frand(&st, 0.0f, 12.0f));
    }
    if (q % 7 == 3) { /* exactly a primitive's box, the templates too */
      const box *b = &s->prims[urand(&st, (uint32_t)n)];
      memcpy(lo, b->lo, sizeof lo);
      memcpy(hi, b->hi, sizeof hi);
    }
    set_query(s, q, lo, hi, some_limit(&st));
  }
}

/* A deep tree: Morton codes 0 and 2^(k+1) - 1 for k = 0 .. bits-1, so that
 * every level of the tree splits the largest code off; each nonzero code
 * twice (a large box and a point, so both children of a level are internal
 * nodes that a query enters), code 0 `dups` times (a balanced subtree more
 * at the bottom). Centroids at cell centres q + 0.5 of a scene box [0,
 * 2^per_axis]^3 with one cell per unit (exact); the large boxes reach past
 * the diagonal, so that diagonal rays and large queries meet both children
 * on every level and the stack fills; the coordinates are multiples of 1/2
 * below 2^23, so every distance is exact. */
static void deep_scene(scene *s, unsigned bits, size_t dups, uint64_t seed) {
  const unsigned per_axis = bits == 63 ? 21 : 10;
  uint64_t st = seed;
  const size_t n = 2 * bits + dups;
  scene_alloc(s, n, 128, 32);
  snprintf(s->name, sizeof s->name, "deep tree bits %u (%zu primitives)", bits, n);
  s->bits = bits;
  s->exact = 1;
  s->has_scene_box = 1;
  s->scene_lo = 0.0f;
  s->scene_hi = (float)(1u << per_axis);
  size_t i = 0;
  for (unsigned k = 0; k <= bits; k++) {
    uint64_t code = k == bits ? 0 : (UINT64_C(2) << k) - 1;
    uint32_t q[3] = {0, 0, 0};
    for (unsigned p = 0; p < bits; p++) /* code bit p is bit p / 3 of axis p % 3 */
      if (code >> p & 1u) q[p % 3] |= 1u << (p / 3);
    float centre[3], reach = 0.0f;
    for (int c = 0; c < 3; c++) {
      centre[c] = (float)q[c] + 0.5f;
      reach = fmaxf(reach, centre[c]);
    }
    size_t copies = k == bits ? dups : 2;
    for (size_t j = 0; j < copies; j++, i++) {
      float lo[3], hi[3], half = j % 2 ? 0.0f : (k == bits ? 0.25f : reach + 1.0f);
      for (int c = 0; c < 3; c++) {
        lo[c] = centre[c] - half;
        hi[c] = centre[c] + half;
      }
      set_box(&s->prims[i], lo, hi);
    }
  }
  ck_assert_uint_eq(i, n);
  static const float steps[] = {0.0f, 0.5f, 1.0f, 2.0f};
  for (size_t r = 0; r < s->n_rays; r++) {
    ray *y = &s->rays[r];
    const box *b = &s->prims[urand(&st, (uint32_t)n)];
    y->tmin = 0.0f;
    y->tmax = INFINITY;
    for (int c = 0; c < 3; c++) {
      y->o[c] = -1.0f - half_steps(&st, 0, 4);
      y->d[c] = r % 2 ? 1.0f : steps[urand(&st, 4)]; /* the diagonal, or near it */
    }
    if (r % 4 == 2) { /* along an axis at a box's centre (ties among the copies) */
      int axis = (int)urand(&st, 3);
      for (int c = 0; c < 3; c++) {
        float centre = 0.5f * (b->lo[c] + b->hi[c]);
        y->o[c] = c == axis ? -3.0f : centre;
        y->d[c] = c == axis ? 1.0f : 0.0f;
      }
    }
  }
  for (size_t q = 0; q < s->n_queries; q++) {
    float lo[3], hi[3];
    for (int c = 0; c < 3; c++) {
      lo[c] = q == 0 ? -1.0f : half_steps(&st, -2, 16);
      hi[c] = q == 0 ? 2.0f * s->scene_hi : lo[c] + half_steps(&st, 0, 64);
    }
    set_query(s, q, lo, hi, q == 0 ? UINT32_MAX : some_limit(&st));
  }
}

/* ---- the shader -------------------------------------------------------------- */

/* The test's half: box primitives read from the bounds, solid or, where
 * the bounds' lo.w is 1 (the build ignores .w), hollow (only the faces:
 * from inside, the ray hits where it leaves), with a slab test of their own
 * (per axis, no vectors, so that it shares no code with the traversal's)
 * that returns hits past tmax too (values outside [tmin, tmax], which the
 * traversal must drop; a hollow box can hit past tmax although the ray
 * enters its box within it); the box callback records into a bit mask per
 * query. The definitions carry no precision: a compute shader's defaults
 * are highp on OpenGL ES, as the prototypes are. */
static const char *const TEST_PRIMS =
    "struct Box { vec4 lo; vec4 hi; };\n"
    "layout(std430, binding = 1) readonly buffer Bounds { Box bounds[]; };\n"
    "layout(std430, binding = 5) buffer Masks { uint masks[]; };\n"
    "layout(location = 0) uniform uint u_rays;\n"
    "layout(location = 1) uniform uint u_queries;\n"
    "layout(location = 2) uniform uint u_words;\n"
    "uint g_query, g_calls, g_limit;\n"
    "bool axis_slab(float o, float d, float lo, float hi, inout float enter, inout float leave) {\n"
    "  if (d == 0.0) return lo <= o && o <= hi;\n"
    "  float inv = 1.0 / d;\n"
    "  float a = (lo - o) * inv, b = (hi - o) * inv;\n"
    "  enter = max(enter, min(a, b));\n"
    "  leave = min(leave, max(a, b));\n"
    "  return true;\n"
    "}\n"
    "float glradix_lbvh_ray_prim(uint prim, vec3 origin, vec3 dir, float tmin, float tmax) {\n"
    "  vec4 lo = bounds[prim].lo, hi = bounds[prim].hi;\n"
    "  float enter = -3.4e38, leave = 3.4e38;\n"
    "  bool in_slabs = axis_slab(origin.x, dir.x, lo.x, hi.x, enter, leave) &&\n"
    "                  axis_slab(origin.y, dir.y, lo.y, hi.y, enter, leave) &&\n"
    "                  axis_slab(origin.z, dir.z, lo.z, hi.z, enter, leave);\n"
    "  if (!in_slabs || enter > leave) return -1.0;\n"
    "  if (lo.w == 1.0) return enter >= tmin ? enter : leave < 3.4e38 ? leave : -1.0;\n"
    "  enter = max(enter, tmin);\n"
    "  return enter <= leave ? enter : -1.0;\n"
    "}\n"
    "bool glradix_lbvh_box_hit(uint prim) {\n"
    "  g_calls++;\n"
    "  atomicOr(masks[g_query * u_words + prim / 32u], 1u << (prim % 32u));\n"
    "  return g_calls < g_limit;\n"
    "}\n";

/* One invocation a ray (closest hit and any hit) or a box query. */
static const char *const TEST_MAIN_BODY =
    "layout(local_size_x = 32) in;\n"
    "struct Ray { vec4 o; vec4 d; };\n"
    "layout(std430, binding = 3) readonly buffer Rays { Ray rays[]; };\n"
    "struct Query { vec3 lo; uint limit; vec3 hi; uint pad; };\n"
    "layout(std430, binding = 4) readonly buffer Queries { Query queries[]; };\n"
    "layout(std430, binding = 0) writeonly buffer Out { uint res[]; };\n"
    "void main() {\n"
    "  uint i = gl_GlobalInvocationID.x;\n"
    "  if (i < u_rays) {\n"
    "    Ray r = rays[i];\n"
    "    float t = -7.0;\n"
    "    uint p = glradix_lbvh_closest_hit(r.o.xyz, r.d.xyz, r.o.w, r.d.w, t);\n"
    "    bool any_hit = glradix_lbvh_any_hit(r.o.xyz, r.d.xyz, r.o.w, r.d.w);\n"
    "    res[4u * i] = p;\n"
    "    res[4u * i + 1u] = floatBitsToUint(t);\n"
    "    res[4u * i + 2u] = any_hit ? 1u : 0u;\n"
    "  } else if (i < u_rays + u_queries) {\n"
    "    uint q = i - u_rays;\n"
    "    g_query = q;\n"
    "    g_calls = 0u;\n"
    "    g_limit = queries[q].limit;\n"
    "    uint count = glradix_lbvh_box_query(queries[q].lo, queries[q].hi);\n"
    "    res[4u * i] = count;\n"
    "    res[4u * i + 1u] = g_calls;\n"
    "  }\n"
    "}\n";

static const char *version_line(void) {
  return test_es() ? "#version 310 es\n" : "#version 430\n";
}

/* Compiles (and, for compute, links) a shader of `count` strings; returns
 * the program (0 for other stages, or on failure) and the status and log. */
static GLuint compile_strings(GLenum stage, const char *const *strings, int count, int *ok,
                              char *log, size_t log_size) {
  GLuint sh = tg_gl.CreateShader(stage);
  tg_gl.ShaderSource(sh, count, strings, NULL);
  tg_gl.CompileShader(sh);
  GLint status = 0;
  tg_gl.GetShaderiv(sh, GL_COMPILE_STATUS, &status);
  log[0] = '\0';
  tg_gl.GetShaderInfoLog(sh, (GLsizei)log_size, NULL, log);
  *ok = status != 0;
  GLuint prog = 0;
  if (status && stage == GL_COMPUTE_SHADER) {
    prog = tg_gl.CreateProgram();
    tg_gl.AttachShader(prog, sh);
    tg_gl.LinkProgram(prog);
    tg_gl.GetProgramiv(prog, GL_LINK_STATUS, &status);
    if (!status) {
      tg_gl.GetProgramInfoLog(prog, (GLsizei)log_size, NULL, log);
      tg_gl.DeleteProgram(prog);
      prog = 0;
      *ok = 0;
    }
  }
  tg_gl.DeleteShader(sh);
  return prog;
}

static GLuint must_compile(const char *what, GLenum stage, const char *const *strings, int count) {
  int ok = 0;
  char log[2048];
  GLuint prog = compile_strings(stage, strings, count, &ok, log, sizeof log);
  ck_assert_msg(ok, "%s: did not compile: %s", what, log);
  return prog;
}

/* The test program, as the file's top tells users to assemble it. */
static GLuint trace_program(void) {
  const char *strings[] = {version_line(),
                           "#define GLRADIX_LBVH_BINDING 2\n#define GLRADIX_LBVH_RAY\n"
                           "#define GLRADIX_LBVH_BOX\n",
                           glradix_lbvh_glsl(), TEST_PRIMS, TEST_MAIN_BODY};
  return must_compile("the test program", GL_COMPUTE_SHADER, strings, 5);
}

/* ---- CPU references ---------------------------------------------------------- */

/* The closed box against the ray within [tmin, tmax], in double: *enter and
 * *leave bound the t inside (enter > leave: none; a still axis outside the
 * slab: -inf margin). */
static void cpu_slab(const box *b, const ray *r, double *enter, double *leave) {
  double e = r->tmin, l = r->tmax;
  for (int c = 0; c < 3; c++) {
    if (r->d[c] == 0.0f) {
      if (r->o[c] < b->lo[c] || r->o[c] > b->hi[c]) l = -INFINITY;
      continue;
    }
    double a = ((double)b->lo[c] - r->o[c]) / r->d[c], z = ((double)b->hi[c] - r->o[c]) / r->d[c];
    e = fmax(e, fmin(a, z));
    l = fmin(l, fmax(a, z));
  }
  *enter = e;
  *leave = l;
}

/* What the test's primitive function returns, in double (exact scenes:
 * the same as float): -1 for a miss. */
#define SHADER_BIG ((double)3.4e38f)
static double cpu_prim(const box *b, const ray *r) {
  double a = -SHADER_BIG, z = SHADER_BIG;
  for (int c = 0; c < 3; c++) {
    if (r->d[c] == 0.0f) {
      if (r->o[c] < b->lo[c] || r->o[c] > b->hi[c]) return -1.0;
      continue;
    }
    double t0 = ((double)b->lo[c] - r->o[c]) / r->d[c], t1 = ((double)b->hi[c] - r->o[c]) / r->d[c];
    a = fmax(a, fmin(t0, t1));
    z = fmin(z, fmax(t0, t1));
  }
  if (a > z) return -1.0;
  if (b->lo[3] == 1.0f) return a >= r->tmin ? a : z < SHADER_BIG ? z : -1.0; /* hollow */
  a = fmax(a, r->tmin);
  return a <= z ? a : -1.0;
}

static int same_box(const box *a, const box *b) {
  return memcmp(a->lo, b->lo, 3 * sizeof(float)) == 0 &&
         memcmp(a->hi, b->hi, 3 * sizeof(float)) == 0;
}

static int overlaps(const box *p, const query *q) {
  for (int c = 0; c < 3; c++)
    if (q->lo[c] > p->hi[c] || p->lo[c] > q->hi[c]) return 0;
  return 1;
}

/* Float tolerance of a random scene's distances: the slab test's rounding
 * of coordinates up to ~50 and directions down to 0.05, with room. */
static double tolerance(double t) { return 1e-3 + 1e-4 * fabs(t); }

static void describe_ray(char *out, size_t size, const scene *s, size_t i) {
  const ray *r = &s->rays[i];
  snprintf(out, size, "%s: ray %zu o (%.9g %.9g %.9g) d (%.9g %.9g %.9g) t [%.9g, %.9g]", s->name,
           i, (double)r->o[0], (double)r->o[1], (double)r->o[2], (double)r->d[0],
           (double)r->d[1], (double)r->d[2], (double)r->tmin, (double)r->tmax);
}

static void check_ray(const scene *s, size_t i, uint32_t prim, float t, uint32_t any) {
  const ray *r = &s->rays[i];
  char what[320];
  describe_ray(what, sizeof what, s, i);
  if (s->exact) {
    uint32_t best = GLRADIX_LBVH_LEAF;
    double best_t = INFINITY;
    for (size_t p = 0; p < s->n; p++) {
      double e = cpu_prim(&s->prims[p], r);
      if (e >= r->tmin && e <= r->tmax && e < best_t) { /* the lowest index of equal distances */
        best_t = e;
        best = (uint32_t)p;
      }
    }
    EXPECT_MSG(prim == best, "%s: closest hit %u at %.9g, the CPU's %u at %.9g", what, prim,
               (double)t, best, best_t);
    /* compared as floats: a slab's -0 is the CPU's 0 */
    float want = best == GLRADIX_LBVH_LEAF ? r->tmax : (float)best_t;
    EXPECT_MSG(t == want, "%s: hit %u at %.9g, the CPU's at %.9g", what, prim, (double)t,
               (double)want);
    EXPECT_MSG(any == (best != GLRADIX_LBVH_LEAF), "%s: any hit says %u, the CPU's closest %u",
               what, any, best);
    return;
  }
  /* solid boxes: a clear hit's interval is longer than the float error */
  uint32_t clear = GLRADIX_LBVH_LEAF;
  double clear_t = INFINITY;
  int possible = 0;
  for (size_t p = 0; p < s->n; p++) {
    double e, l;
    cpu_slab(&s->prims[p], r, &e, &l);
    if (l - e >= -tolerance(e)) possible = 1;
    if (l - e > tolerance(e) && e < clear_t) {
      clear_t = e;
      clear = (uint32_t)p;
    }
  }
  if (prim == GLRADIX_LBVH_LEAF) {
    EXPECT_MSG(clear == GLRADIX_LBVH_LEAF, "%s: a miss, but the CPU hits %u clearly at %.9g", what,
               clear, clear_t);
    EXPECT_MSG(t == r->tmax, "%s: a miss with t %.9g, not tmax", what, (double)t);
  } else {
    EXPECT_MSG(prim < s->n, "%s: hit %u, out of range", what, prim);
    double e, l;
    cpu_slab(&s->prims[prim], r, &e, &l);
    EXPECT_MSG(l - e >= -tolerance(e), "%s: hit %u at %.9g, which the CPU misses (%.9g > %.9g)",
               what, prim, (double)t, e, l);
    EXPECT_MSG(fabs((double)t - e) <= tolerance(e), "%s: hit %u at %.9g, the CPU says %.9g",
               what, prim, (double)t, e);
    EXPECT_MSG(clear == GLRADIX_LBVH_LEAF || e <= clear_t + tolerance(clear_t),
               "%s: hit %u at %.9g, farther than the CPU's %u at %.9g", what, prim, e, clear,
               clear_t);
    for (uint32_t q = 0; q < prim; q++) /* identical boxes tie: the lowest index */
      EXPECT_MSG(!same_box(&s->prims[q], &s->prims[prim]),
                 "%s: hit %u, but %u has the same box and a lower index", what, prim, q);
  }
  if (clear != GLRADIX_LBVH_LEAF)
    EXPECT_MSG(any == 1, "%s: any hit says no, the CPU hits %u clearly", what, clear);
  if (!possible) EXPECT_MSG(any == 0, "%s: any hit says yes, the CPU hits nothing", what);
}

static void check_query(const scene *s, size_t q, uint32_t count, uint32_t calls,
                        const uint32_t *mask) {
  const query *x = &s->queries[q];
  char what[320];
  snprintf(what, sizeof what, "%s: box query %zu (%.9g %.9g %.9g)-(%.9g %.9g %.9g) limit %u",
           s->name, q, (double)x->lo[0], (double)x->lo[1], (double)x->lo[2], (double)x->hi[0],
           (double)x->hi[1], (double)x->hi[2], x->limit);
  uint32_t want = 0, got = 0;
  for (size_t p = 0; p < s->n; p++) {
    int in = overlaps(&s->prims[p], x), seen = (int)(mask[p / 32] >> (p % 32) & 1u);
    want += (uint32_t)in;
    got += (uint32_t)seen;
    EXPECT_MSG(!seen || in, "%s: primitive %zu reported, its box does not overlap", what, p);
    EXPECT_MSG(seen || !in || x->limit != UINT32_MAX, "%s: primitive %zu overlaps, not reported",
               what, p);
  }
  uint32_t capped = want < x->limit ? want : x->limit;
  EXPECT_MSG(count == capped && calls == capped && got == capped,
             "%s: %u returned, %u calls, %u distinct primitives; the CPU finds %u", what, count,
             calls, got, want);
}

/* ---- running a scene ----------------------------------------------------------- */

static size_t node_depth(const glradix_lbvh_node *t, uint32_t node) {
  if (t[node].b == GLRADIX_LBVH_LEAF) return 0;
  size_t l = node_depth(t, t[node].a), r = node_depth(t, t[node].b);
  return 1 + (l > r ? l : r);
}

/* The most nodes the box query's stack holds for query q (it enters a and
 * keeps b when both children are internal and overlap). */
static size_t box_stack_peak(const glradix_lbvh_node *t, const query *q) {
  uint32_t stack[256];
  size_t sp = 0, peak = 0;
  uint32_t node = 0;
  for (;;) {
    const glradix_lbvh_node *x = &t[node];
    int ha = 0, hb = 0;
    for (int k = 0; k < 2; k++) {
      const glradix_lbvh_node *c = &t[k ? x->b : x->a];
      box b;
      set_box(&b, c->min, c->max);
      int h = c->b != GLRADIX_LBVH_LEAF && overlaps(&b, q);
      *(k ? &hb : &ha) = h;
    }
    if (ha && hb) {
      ck_assert_uint_lt(sp, 256);
      stack[sp++] = x->b;
      peak = sp > peak ? sp : peak;
      node = x->a;
    } else if (ha || hb) {
      node = ha ? x->a : x->b;
    } else if (sp) {
      node = stack[--sp];
    } else {
      return peak;
    }
  }
}

typedef struct tree_shape {
  size_t depth, box_stack; /* levels below the root; the box query 0's stack peak */
} tree_shape;

/* Builds the tree of s's primitives, runs every ray and box query in one
 * dispatch and checks each against the CPU. */
static tree_shape run_scene(GLuint prog, const scene *s) {
  tree_shape shape = {0, 0};
  const size_t n = s->n, words = (n + 31) / 32;
  const size_t node_words = glradix_lbvh_nodes_bytes((uint32_t)n) / 4;
  GLuint bounds = buf_create((const uint32_t *)s->prims, n * 8, n * 8);
  GLuint nodes = buf_create(NULL, 0, node_words);
  glradix_lbvh_desc d = {0};
  d.bounds = bounds;
  d.count = (uint32_t)n;
  d.morton_bits = s->bits;
  d.nodes = nodes;
  d.has_scene_box = s->has_scene_box;
  for (int c = 0; c < 3; c++) {
    d.scene_min[c] = s->scene_lo;
    d.scene_max[c] = s->scene_hi;
  }
  test_log_reset(&tg_log);
  glradix_status st = glradix_lbvh_build(tg_ctx, &d);
  ck_assert_msg(st == GLRADIX_OK && tg_log.count == 0, "%s: build: %s (%s)", s->name,
                glradix_status_string(st), tg_log.first);
  glradix_lbvh_node *tree = malloc(node_words * 4);
  ck_assert_ptr_nonnull(tree);
  buf_read(nodes, (uint32_t *)tree, node_words);
  shape.depth = node_depth(tree, 0);
  if (n > 1 && s->n_queries) shape.box_stack = box_stack_peak(tree, &s->queries[0]);
  free(tree);

  const size_t jobs = s->n_rays + s->n_queries;
  GLuint rays = buf_create((const uint32_t *)s->rays, s->n_rays * 8, s->n_rays * 8 + 8);
  GLuint queries = buf_create((const uint32_t *)s->queries, s->n_queries * 8,
                              s->n_queries * 8 + 8);
  GLuint out = buf_create(NULL, 0, 4 * jobs + 4);
  GLuint masks = buf_create(NULL, 0, s->n_queries * words + 4);
  const GLuint bindings[6] = {out, bounds, nodes, rays, queries, masks};
  for (GLuint b = 0; b < 6; b++) tg_gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, b, bindings[b]);
  tg_gl.UseProgram(prog);
  tg_gl.Uniform1ui(0, (GLuint)s->n_rays);
  tg_gl.Uniform1ui(1, (GLuint)s->n_queries);
  tg_gl.Uniform1ui(2, (GLuint)words);
  tg_gl.DispatchCompute((GLuint)((jobs + 31) / 32), 1, 1);
  tg_gl.MemoryBarrier(GL_ALL_BARRIER_BITS);
  expect_no_gl_error(s->name);

  uint32_t *res = test_alloc_u32(4 * jobs), *mask = test_alloc_u32(s->n_queries * words + 1);
  buf_read(out, res, 4 * jobs);
  buf_read(masks, mask, s->n_queries * words);
  for (size_t i = 0; i < s->n_rays; i++) {
    float t;
    memcpy(&t, &res[4 * i + 1], 4);
    check_ray(s, i, res[4 * i], t, res[4 * i + 2]);
  }
  for (size_t q = 0; q < s->n_queries; q++) {
    const uint32_t *r = &res[4 * (s->n_rays + q)];
    check_query(s, q, r[0], r[1], mask + q * words);
  }
  free(res);
  free(mask);
  const GLuint all[] = {bounds, nodes, rays, queries, out, masks};
  for (size_t b = 0; b < sizeof all / sizeof all[0]; b++) buf_delete(all[b]);
  return shape;
}

/* ---- cases ------------------------------------------------------------------- */

static GLuint g_prog; /* one compile per forked child */
static GLuint program(void) {
  if (!g_prog) g_prog = trace_program();
  return g_prog;
}

static const size_t exact_sizes[] = {1, 2, 3, 50, 2000};
#define N_EXACT (2 * sizeof exact_sizes / sizeof exact_sizes[0])
#define EXACT_PER 5

/* case k: size k / 2, 30- and 63-bit codes */
START_TEST(exact_scenes) {
  FOR_GROUP_CASES(k, EXACT_PER, N_EXACT) {
    scene s = {0};
    exact_scene(&s, exact_sizes[k / 2], k % 2 ? 63 : 30, 500 + (uint64_t)k);
    run_scene(program(), &s);
    scene_free(&s);
  }
}
END_TEST

static const size_t random_sizes[] = {1, 2, 700, 4000};
#define N_RANDOM (2 * sizeof random_sizes / sizeof random_sizes[0])
#define RANDOM_PER 4

START_TEST(random_scenes) {
  FOR_GROUP_CASES(k, RANDOM_PER, N_RANDOM) {
    scene s = {0};
    random_scene(&s, random_sizes[k / 2], k % 2 ? 63 : 30, 700 + (uint64_t)k);
    run_scene(program(), &s);
    scene_free(&s);
  }
}
END_TEST

/* 63-bit codes: deeper than 64 levels, and the whole-scene box query's
 * stack holds more than 64 nodes (a stack of 64 would lose some); 30-bit
 * codes: the deepest their chain of codes gives. */
START_TEST(deep_trees) {
  for (int k = 0; k < 2; k++) {
    unsigned bits = k ? 63 : 30;
    scene s = {0};
    deep_scene(&s, bits, 600, 77 + (uint64_t)k);
    tree_shape shape = run_scene(program(), &s);
    size_t want = bits == 63 ? 64 : 30;
    ck_assert_msg(shape.depth > want && shape.box_stack > want,
                  "%s: %zu levels deep, the box query's stack %zu: not past %zu", s.name,
                  shape.depth, shape.box_stack, want);
    scene_free(&s);
  }
}
END_TEST

/* ---- the text ------------------------------------------------------------------ */

/* glradix_lbvh_glsl() is the installed file, byte for byte, and the same
 * pointer every time. */
START_TEST(text_is_the_file) {
  const char *text = glradix_lbvh_glsl();
  ck_assert_ptr_nonnull(text);
  ck_assert_ptr_eq(text, glradix_lbvh_glsl());
  FILE *f = fopen(GLRADIX_LBVH_GLSL_PATH, "rb");
  ck_assert_msg(f != NULL, "cannot open %s", GLRADIX_LBVH_GLSL_PATH);
  size_t len = strlen(text);
  char *file = malloc(len + 2);
  ck_assert_ptr_nonnull(file);
  size_t got = fread(file, 1, len + 1, f);
  fclose(f);
  ck_assert_msg(got == len && memcmp(file, text, len) == 0,
                "glradix_lbvh_glsl() (%zu bytes) is not %s (%zu bytes read)", len,
                GLRADIX_LBVH_GLSL_PATH, got);
  free(file);
}
END_TEST

/* The ways the file's top describes: no query (the struct and buffer
 * alone), each query alone, the definitions ahead of the text, the text
 * twice, a fragment shader with OpenGL ES's default precisions (none for
 * float), and the binding missing (an #error naming it). */
START_TEST(text_compiles) {
  const char *v = version_line(), *glsl = glradix_lbvh_glsl();
  const char *ray_defs =
      "highp float glradix_lbvh_ray_prim(highp uint prim, highp vec3 origin, highp vec3 dir,\n"
      "                                  highp float tmin, highp float tmax) {\n"
      "  return float(prim) + origin.x + dir.y + tmin + tmax;\n"
      "}\n";
  const char *box_defs = "bool glradix_lbvh_box_hit(highp uint prim) { return prim != 7u; }\n";
  const char *out_decl = "layout(std430, binding = 0) buffer Out { highp uint res[]; };\n";
  const char *comp = "layout(local_size_x = 1) in;\n";
  const char *main_none = "void main() { res[0] = glradix_lbvh_nodes[0].a; }\n";
  const char *main_ray =
      "void main() { highp float t; res[0] = glradix_lbvh_closest_hit(vec3(0.0), vec3(1.0), "
      "0.0, 1.0, t) + (glradix_lbvh_any_hit(vec3(0.0), vec3(1.0), 0.0, 1.0) ? 1u : 0u); }\n";
  const char *main_box = "void main() { res[0] = glradix_lbvh_box_query(vec3(0.0), vec3(1.0)); }\n";
  const char *bind = "#define GLRADIX_LBVH_BINDING 3\n";
  const char *def_ray = "#define GLRADIX_LBVH_RAY\n", *def_box = "#define GLRADIX_LBVH_BOX\n";
  struct {
    const char *what;
    const char *s[10];
  } progs[] = {
      {"no query", {v, comp, bind, glsl, out_decl, main_none}},
      {"rays alone", {v, comp, bind, def_ray, glsl, out_decl, ray_defs, main_ray}},
      {"boxes alone", {v, comp, bind, def_box, glsl, out_decl, box_defs, main_box}},
      {"definitions first", {v, comp, bind, def_ray, ray_defs, glsl, out_decl, main_ray}},
      {"the text twice", {v, comp, bind, def_box, glsl, glsl, out_decl, box_defs, main_box}},
  };
  for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
    int count = 0;
    while (count < 10 && progs[i].s[count]) count++;
    GLuint p = must_compile(progs[i].what, GL_COMPUTE_SHADER, progs[i].s, count);
    tg_gl.DeleteProgram(p);
  }
  /* a fragment shader, compiled only: every declaration must carry its precision */
  const char *frag[] = {v, bind, def_ray, def_box, glsl,
                        "layout(location = 0) out highp vec4 color;\n", ray_defs, box_defs,
                        "void main() { highp float t; color = vec4(float(glradix_lbvh_closest_hit("
                        "vec3(0.0), vec3(1.0), 0.0, 1.0, t)), t, float(glradix_lbvh_box_query("
                        "vec3(0.0), vec3(1.0))), 1.0); }\n"};
  must_compile("a fragment shader", GL_FRAGMENT_SHADER, frag, (int)(sizeof frag / sizeof *frag));
  const char *unbound[] = {v, comp, glsl, out_decl, main_none};
  int ok = 1;
  char log[2048];
  compile_strings(GL_COMPUTE_SHADER, unbound, (int)(sizeof unbound / sizeof *unbound), &ok, log,
                  sizeof log);
  ck_assert_msg(!ok && strstr(log, "GLRADIX_LBVH_BINDING") != NULL,
                "without GLRADIX_LBVH_BINDING: compiled %d, log: %s", ok, log);
  expect_no_gl_error("text compiles");
}
END_TEST

static Suite *trace_suite(void) {
  Suite *s = suite_create("lbvh_trace");
  TCase *tc = tcase_create("text");
  tcase_add_test(tc, text_is_the_file);
  suite_add_tcase(s, tc);
  tc = tcase_create("trace");
  tcase_add_checked_fixture(tc, ctx_setup_default, ctx_teardown);
  tcase_add_test(tc, text_compiles);
  tcase_add_loop_test(tc, exact_scenes, 0, CASE_GROUPS(N_EXACT, EXACT_PER));
  tcase_add_loop_test(tc, random_scenes, 0, CASE_GROUPS(N_RANDOM, RANDOM_PER));
  tcase_add_test(tc, deep_trees);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(trace_suite)
