/* glradix-bench --lbvh --rays: closest-hit primary rays through the
 * installed GLSL traversal over the tree just built, timed on the GPU. */
#include <glad/gl.h>

#include "bench_rays.h"

#include "bench_buffers.h"
#include "bench_time.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glradix/lbvh.h>

/* The bench's side of the program, which follows the #defines and
 * glradix_lbvh_glsl() (the order lbvh.glsl's top asks for). The primitive is the leaf's own box,
 * solid, with a slab test per axis that takes an axis the ray does not move
 * along exactly (as the traversal's tests do). Miss distances: tmax, the
 * largest float, which GLSL ES need not have an infinity for. 8 x 8 pixels
 * a work group: neighbouring rays visit the same nodes. */
static const char *const RAYS_MAIN =
    "struct bench_box { vec4 lo; vec4 hi; };\n"
    "layout(std430, binding = 1) readonly buffer bench_bounds { bench_box bounds[]; };\n"
    "layout(std430, binding = 2) writeonly buffer bench_hits { uvec2 hits[]; };\n"
    "layout(location = 0) uniform vec3 u_eye;\n"
    "layout(location = 1) uniform vec3 u_fwd;\n"
    "layout(location = 2) uniform vec3 u_right;\n"
    "layout(location = 3) uniform vec3 u_up;\n"
    "layout(location = 4) uniform uint u_size;\n"
    "bool axis_slab(float o, float d, float lo, float hi, inout float enter, inout float leave) {\n"
    "  if (d == 0.0) return lo <= o && o <= hi;\n"
    "  float a = (lo - o) / d, b = (hi - o) / d;\n"
    "  enter = max(enter, min(a, b));\n"
    "  leave = min(leave, max(a, b));\n"
    "  return true;\n"
    "}\n"
    "float glradix_lbvh_ray_prim(uint prim, vec3 origin, vec3 dir, float tmin, float tmax) {\n"
    "  vec4 lo = bounds[prim].lo, hi = bounds[prim].hi;\n"
    "  float enter = tmin, leave = tmax;\n"
    "  bool in_slabs = axis_slab(origin.x, dir.x, lo.x, hi.x, enter, leave) &&\n"
    "                  axis_slab(origin.y, dir.y, lo.y, hi.y, enter, leave) &&\n"
    "                  axis_slab(origin.z, dir.z, lo.z, hi.z, enter, leave);\n"
    "  return in_slabs && enter <= leave ? enter : -1.0;\n"
    "}\n"
    "layout(local_size_x = 8, local_size_y = 8) in;\n"
    "void main() {\n"
    "  uvec2 p = gl_GlobalInvocationID.xy;\n"
    "  if (p.x >= u_size || p.y >= u_size) return;\n"
    "  vec2 s = (vec2(p) + 0.5) / float(u_size) * 2.0 - 1.0;\n"
    "  vec3 dir = normalize(u_fwd + s.x * u_right + s.y * u_up);\n"
    "  float t;\n"
    "  uint prim = glradix_lbvh_closest_hit(u_eye, dir, 0.0, 3.4028235e38, t);\n"
    "  hits[p.y * u_size + p.x] = uvec2(prim, floatBitsToUint(t));\n"
    "}\n";

#define FAR 3.4028235e38f /* the shader's tmax */

typedef struct camera {
  float eye[3], fwd[3], right[3], up[3]; /* right and up scaled by tan(fov / 2) */
} camera;

static void normalize3(float *v) {
  const float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int c = 0; c < 3; ++c) v[c] /= l;
}

/* Outside the scene's bounding sphere (at 1.83 radii from its centre),
 * above one corner, looking at the centre with a 45-degree view. At 0.7 of
 * the distance at which the sphere would just fill the view, the scene
 * fills most of the image: 60% of the rays meet the mesh's terrain, 84% the
 * cube of 1M random boxes, so that the figure is mostly rays that hit,
 * with some background and silhouette edges. */
static void make_camera(const float *b, uint32_t n, camera *cam) {
  float lo[3], hi[3], centre[3], r2 = 0.0f, v[3] = {0.6f, 0.9f, 0.8f};
  for (int c = 0; c < 3; ++c) {
    lo[c] = b[c];
    hi[c] = b[4 + c];
  }
  for (uint32_t i = 1; i < n; ++i)
    for (int c = 0; c < 3; ++c) {
      lo[c] = fminf(lo[c], b[8 * (size_t)i + c]);
      hi[c] = fmaxf(hi[c], b[8 * (size_t)i + 4 + c]);
    }
  for (int c = 0; c < 3; ++c) {
    centre[c] = 0.5f * (lo[c] + hi[c]);
    r2 += 0.25f * (hi[c] - lo[c]) * (hi[c] - lo[c]);
  }
  const float tan_half = 0.41421356f, radius = r2 > 0.0f ? sqrtf(r2) : 1.0f;
  const float dist = 0.7f * radius / 0.38268343f; /* sin(22.5 degrees) */
  normalize3(v);
  for (int c = 0; c < 3; ++c) {
    cam->eye[c] = centre[c] + dist * v[c];
    cam->fwd[c] = -v[c];
  }
  /* right = fwd x (0, 1, 0), up = right x fwd */
  float right[3] = {-cam->fwd[2], 0.0f, cam->fwd[0]};
  normalize3(right);
  const float up[3] = {right[1] * cam->fwd[2] - right[2] * cam->fwd[1],
                       right[2] * cam->fwd[0] - right[0] * cam->fwd[2],
                       right[0] * cam->fwd[1] - right[1] * cam->fwd[0]};
  for (int c = 0; c < 3; ++c) {
    cam->right[c] = right[c] * tan_half;
    cam->up[c] = up[c] * tan_half;
  }
}

/* Pixel (x, y)'s ray as the shader makes it (in float, in the same order). */
static void pixel_ray(const camera *cam, uint32_t size, uint32_t x, uint32_t y, float *d) {
  const float sx = ((float)x + 0.5f) / (float)size * 2.0f - 1.0f;
  const float sy = ((float)y + 0.5f) / (float)size * 2.0f - 1.0f;
  for (int c = 0; c < 3; ++c) d[c] = cam->fwd[c] + sx * cam->right[c] + sy * cam->up[c];
  normalize3(d);
}

/* The solid box against the ray over [0, FAR], in double: the ray is inside
 * it for t in [*enter, *leave] (none where enter > leave). */
static void cpu_slab(const float *box, const float *o, const float *d, double *enter,
                     double *leave) {
  double e = 0.0, l = FAR;
  for (int c = 0; c < 3; ++c) {
    if (d[c] == 0.0f) {
      if (o[c] < box[c] || o[c] > box[4 + c]) l = -INFINITY;
      continue;
    }
    const double t0 = ((double)box[c] - o[c]) / d[c], t1 = ((double)box[4 + c] - o[c]) / d[c];
    e = fmax(e, fmin(t0, t1));
    l = fmin(l, fmax(t0, t1));
  }
  *enter = e;
  *leave = l;
}

/* The float tolerance of tests/test_lbvh_trace.c's random scenes (the slab
 * test's rounding), which covers the CPU's and the GPU's rays differing in
 * the last bits too. */
static double tolerance(double t) { return 1e-3 + 1e-4 * fabs(t); }

/* Boxes the ray meets at the same distances (a mesh's two triangles of a
 * cell can have one box). */
static int same_box(const float *p, const float *q) {
  for (int c = 0; c < 3; ++c)
    if (p[c] != q[c] || p[4 + c] != q[4 + c]) return 0;
  return 1;
}

/* Checks one ray's closest hit (prim, t) against every box, as the
 * traversal's tests check solid boxes: a miss only where the CPU hits
 * nothing clearly (a clear hit: an interval longer than the tolerance); a
 * hit on a box the CPU's ray meets, at its entry distance, no farther than
 * the nearest clear hit, and of the lowest index among identical boxes.
 * 1 if right, 0 and a reason if not. */
static int check_ray(const float *b, uint32_t n, const float *o, const float *d, uint32_t prim,
                     float t, char *why, size_t len) {
  uint32_t clear = GLRADIX_LBVH_LEAF;
  double clear_t = INFINITY, e, l;
  for (uint32_t p = 0; p < n; ++p) {
    cpu_slab(&b[8 * (size_t)p], o, d, &e, &l);
    if (l - e > tolerance(e) && e < clear_t) {
      clear_t = e;
      clear = p;
    }
  }
  if (prim == GLRADIX_LBVH_LEAF) {
    if (clear != GLRADIX_LBVH_LEAF)
      snprintf(why, len, "a miss, but the CPU hits box %u clearly at %.9g", clear, clear_t);
    else if (t != FAR)
      snprintf(why, len, "a miss with t %.9g, not tmax", (double)t);
    else
      return 1;
    return 0;
  }
  if (prim >= n) {
    snprintf(why, len, "hit %u, out of range", prim);
    return 0;
  }
  cpu_slab(&b[8 * (size_t)prim], o, d, &e, &l);
  if (l - e < -tolerance(e))
    snprintf(why, len, "hit box %u at %.9g, which the CPU misses (%.9g > %.9g)", prim, (double)t,
             e, l);
  else if (fabs((double)t - e) > tolerance(e))
    snprintf(why, len, "hit box %u at %.9g, the CPU enters it at %.9g", prim, (double)t, e);
  else if (clear != GLRADIX_LBVH_LEAF && e > clear_t + tolerance(clear_t))
    snprintf(why, len, "hit box %u at %.9g, farther than the CPU's %u at %.9g", prim, e, clear,
             clear_t);
  else {
    for (uint32_t q = 0; q < prim; ++q) /* identical boxes tie: the lowest index wins */
      if (same_box(&b[8 * (size_t)q], &b[8 * (size_t)prim])) {
        snprintf(why, len, "hit box %u, but box %u is the same and has a lower index", prim, q);
        return 0;
      }
    return 1;
  }
  return 0;
}

typedef struct trace {
  GladGLContext *gl;
  GLuint program, bounds, nodes, hits, groups;
} trace;

static int dispatch(void *arg) {
  const trace *t = arg;
  GladGLContext *gl = t->gl;
  gl->UseProgram(t->program);
  gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, t->nodes);
  gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, t->bounds);
  gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, t->hits);
  gl->DispatchCompute(t->groups, t->groups, 1);
  return 0;
}

/* The traversal's program: the version line (bench_program's), the
 * configuration, the installed text, then the bench's code. */
static GLuint rays_program(GladGLContext *gl) {
  const char *glsl = glradix_lbvh_glsl();
  const size_t a = strlen(glsl), b = strlen(RAYS_MAIN);
  char *source = malloc(a + b + 1);
  if (!source) return 0;
  snprintf(source, a + b + 1, "%s%s", glsl, RAYS_MAIN);
  const GLuint program =
      bench_program(gl, "#define GLRADIX_LBVH_BINDING 0\n#define GLRADIX_LBVH_RAY\n", source,
                    "rays (lbvh.glsl)");
  free(source);
  return program;
}

int bench_rays_run(GladGLContext *gl, GLuint bounds, GLuint nodes, const float *b, uint32_t n,
                   uint32_t size, unsigned repeat, int verify, bench_rays_result *r) {
  const uint32_t rays = size * size;
  memset(r, 0, sizeof *r);
  r->size = size;
  camera cam;
  make_camera(b, n, &cam);
  trace t = {gl, rays_program(gl), bounds, nodes, 0, (size + 7) / 8};
  uint32_t *hits = malloc(2 * (size_t)rays * sizeof *hits);
  double *times = malloc(repeat * sizeof *times);
  GLuint q[2];
  int failed = !t.program || !hits || !times;
  if (failed) {
    fprintf(stderr, "glradix-bench: rays n = %u: %s\n", n,
            t.program ? "out of host memory" : "the traversal's program did not build");
    free(hits);
    free(times);
    gl->DeleteProgram(t.program);
    return 1;
  }
  gl->GenQueries(2, q);
  gl->GenBuffers(1, &t.hits);
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, t.hits);
  gl->BufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)rays * 8, NULL, GL_DYNAMIC_COPY);
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, 0);
  gl->UseProgram(t.program);
  gl->Uniform3fv(0, 1, cam.eye);
  gl->Uniform3fv(1, 1, cam.fwd);
  gl->Uniform3fv(2, 1, cam.right);
  gl->Uniform3fv(3, 1, cam.up);
  gl->Uniform1ui(4, size);
  bench_time_gpu(gl, q, dispatch, &t, repeat, times, &r->ms);
  gl->MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  bench_download(gl, t.hits, hits, 2 * rays);
  const GLenum err = gl->GetError();
  if (err != GL_NO_ERROR) {
    fprintf(stderr, "glradix-bench: rays n = %u: GL error 0x%04x\n", n, err);
    failed = 1;
  }
  uint32_t hit = 0;
  for (uint32_t i = 0; i < rays; ++i) hit += hits[2 * i] != GLRADIX_LBVH_LEAF;
  r->hit = (double)hit / rays;
  /* --verify: a grid of pixels over the whole image (every pixel of a small
   * one), the background's misses and the silhouettes' edges among them;
   * all of them, so that the line says how many disagree */
  const uint32_t grid = size < BENCH_RAYS_GRID ? size : BENCH_RAYS_GRID;
  const int read_back = !failed;
  for (uint32_t gy = 0; verify && read_back && gy < grid; ++gy)
    for (uint32_t gx = 0; gx < grid; ++gx) {
      const uint32_t x = (2 * gx + 1) * size / (2 * grid), y = (2 * gy + 1) * size / (2 * grid);
      const uint32_t *h = &hits[2 * ((size_t)y * size + x)];
      float d[3], tf;
      char why[192];
      memcpy(&tf, &h[1], sizeof tf);
      pixel_ray(&cam, size, x, y, d);
      ++r->checked;
      if (!check_ray(b, n, cam.eye, d, h[0], tf, why, sizeof why)) {
        if (r->bad++ < 5)
          fprintf(stderr, "glradix-bench: rays n = %u: pixel (%u, %u): %s\n", n, x, y, why);
        failed = 1;
      }
    }
  gl->UseProgram(0);
  for (GLuint i = 0; i < 3; ++i) gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, i, 0);
  gl->DeleteBuffers(1, &t.hits);
  gl->DeleteProgram(t.program);
  gl->DeleteQueries(2, q);
  free(hits);
  free(times);
  return failed;
}

void bench_rays_print(FILE *f, uint32_t n, const char *scene, const bench_rays_result *r) {
  const double rays = (double)r->size * r->size;
  fprintf(f, "rays: n=%u scene=%s rays=%.0f (%ux%u, closest hit, ray-box) ms=%.4f Mrays/s=%.2f "
             "hit=%.3f",
          n, scene, rays, r->size, r->size, r->ms, r->ms > 0 ? rays / r->ms / 1e3 : 0.0, r->hit);
  if (r->checked)
    fprintf(f, " verified %s (%u of %u rays against the CPU)", r->bad ? "NO" : "yes",
            r->checked - r->bad, r->checked);
  fputc('\n', f);
}

void bench_rays_csv(char *buf, size_t len, const bench_rays_result *r) {
  const double rays = (double)r->size * r->size;
  snprintf(buf, len, ",%.0f,%.4f,%.2f,%.4f", rays, r->ms, r->ms > 0 ? rays / r->ms / 1e3 : 0.0,
           r->hit);
}
