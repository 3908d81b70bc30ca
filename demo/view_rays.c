/*
 * View 3: the scene ray-traced through an LBVH, one primary ray per pixel
 * from view 2's camera, by a compute shader built on the traversal the
 * library installs for applications' shaders (glradix/lbvh.glsl, the text
 * of glradix_lbvh_glsl()), so that the tree is seen doing its job.
 *
 * Primitives: a sphere of radius DEMO_RAY_RADIUS around each of the
 * scene's points (a point's own box has no size: rays all but never meet it),
 * in a tree of their own: glradix_lbvh_build over the spheres' boxes. The
 * primitive test (glradix_lbvh_ray_prim) is the exact ray-sphere test, so
 * the balls are spheres, not boxes.
 *
 * Shading: the hit sphere's colour is its Morton code on view 2's ramp, lit
 * by a directional light through its normal; a shadow ray
 * (glradix_lbvh_any_hit, which stops at the first sphere it meets) darkens
 * what the light cannot see, on the spheres and on a floor under the scene
 * (a plane in the shader, not in the tree), where the clusters' shadows show
 * that the any-hit rays find the spheres too.
 *
 * An OBJ scene (--obj) traces its triangles instead (DEMO_TRIANGLES: the
 * two-sided Moller-Trumbore test, the face's normal), in the tree of the
 * triangles' boxes.
 *
 * The shader writes an RGBA8 texture (and each pixel's hit: sphere and
 * distance), which is blitted to the framebuffer. A trace runs only when the
 * camera or the size changes; otherwise the last image is drawn again.
 * view_rays_check compares pixels of the last trace with a brute-force
 * closest hit over every sphere on the CPU (the headless run's test).
 */
#include "demo.h"
#include <glradix/lbvh.h>

#include <cglm/cglm.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* World units: the scene spans about [-1.2, 1.2] on each axis and puts 16
 * points on each small sphere of radius 0.01 to 0.06 (scene.c), about 0.02
 * apart, so balls of this radius close the spheres' surfaces up. */
#define DEMO_RAY_RADIUS 0.012f

/* Follows "#version", the #defines and glradix_lbvh_glsl(), as lbvh.glsl's
 * top asks. Rays are unit length, so t is a distance. */
static const char *rays_cs =
    "layout(local_size_x = 8, local_size_y = 8) in;\n"
    "layout(std430, binding = 1) readonly buffer Prims { vec4 prims[]; }; /* see below */\n"
    "layout(std430, binding = 2) readonly buffer Codes { uint codes[]; };\n"
    "layout(std430, binding = 3) writeonly buffer Hits { uvec2 hits[]; };  /* sphere, t bits */\n"
    "layout(rgba8, binding = 0) writeonly uniform image2D image;\n"
    "uniform vec3 eye, fwd, right, up; /* right, up: the image's half-extents at distance 1 */\n"
    "uniform ivec2 size;\n"
    "uniform vec3 light;               /* towards the light, unit */\n"
    "uniform vec4 floor_box;           /* the floor: x and z range, at height floor_y */\n"
    "uniform float floor_y;\n"
    "uniform float offset;             /* a shadow ray's start off a triangle */\n"
    "#ifdef DEMO_TRIANGLES\n"
    "/* prims: three vertices a triangle. Moller-Trumbore, both faces; a miss\n"
    " * is -1, which the traversal drops as it drops distances outside\n"
    " * [tmin, tmax]. */\n"
    "float glradix_lbvh_ray_prim(uint prim, vec3 origin, vec3 dir, float tmin, float tmax) {\n"
    "  vec3 a = prims[3u * prim].xyz;\n"
    "  vec3 e1 = prims[3u * prim + 1u].xyz - a, e2 = prims[3u * prim + 2u].xyz - a;\n"
    "  vec3 p = cross(dir, e2);\n"
    "  float det = dot(e1, p);\n"
    "  if (det == 0.0) return -1.0;\n"
    "  vec3 s = origin - a, q = cross(s, e1);\n"
    "  float u = dot(s, p) / det, v = dot(dir, q) / det;\n"
    "  if (u < 0.0 || v < 0.0 || u + v > 1.0) return -1.0;\n"
    "  return dot(e2, q) / det;\n"
    "}\n"
    "vec3 prim_normal(uint prim, vec3 at, vec3 dir) {\n"
    "  vec3 a = prims[3u * prim].xyz;\n"
    "  vec3 n = normalize(cross(prims[3u * prim + 1u].xyz - a, prims[3u * prim + 2u].xyz - a));\n"
    "  return dot(n, dir) > 0.0 ? -n : n;\n"
    "}\n"
    "vec3 shadow_from(uint prim, vec3 at, vec3 n) { return at + n * offset; }\n"
    "#else\n"
    "/* prims: centre and radius a sphere. The ray's entry into the sphere, or\n"
    " * its exit from inside; distances outside [tmin, tmax] are the\n"
    " * traversal's to drop. From the closest approach (Haines et al., Ray\n"
    " * Tracing Gems ch. 7), which keeps the precision that b^2 - c loses on\n"
    " * small spheres far away. */\n"
    "float glradix_lbvh_ray_prim(uint prim, vec3 origin, vec3 dir, float tmin, float tmax) {\n"
    "  vec4 s = prims[prim];\n"
    "  vec3 f = origin - s.xyz;\n"
    "  float b = -dot(f, dir);\n"
    "  vec3 l = f + b * dir;\n"
    "  float disc = s.w * s.w - dot(l, l);\n"
    "  if (disc < 0.0) return -1.0;\n"
    "  float q = sqrt(disc);\n"
    "  return b - q >= tmin ? b - q : b + q;\n"
    "}\n"
    "vec3 prim_normal(uint prim, vec3 at, vec3 dir) { return normalize(at - prims[prim].xyz); }\n"
    "/* off the surface along the normal, so the shadow ray leaves its own sphere */\n"
    "vec3 shadow_from(uint prim, vec3 at, vec3 n) { return prims[prim].xyz + n * (prims[prim].w * 1.01); }\n"
    "#endif\n"
    "vec3 ramp(float t) { return 0.5 + 0.5 * cos(6.2831853 * (0.8 * t + vec3(0.0, 0.33, 0.67))); }\n"
    "void main() {\n"
    "  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
    "  if (p.x >= size.x || p.y >= size.y) return;\n"
    "  vec2 s = (vec2(p) + 0.5) / vec2(size) * 2.0 - 1.0;\n"
    "  vec3 dir = normalize(fwd + s.x * right + s.y * up);\n"
    "  float t;\n"
    "  uint prim = glradix_lbvh_closest_hit(eye, dir, 0.0, 3.4028235e38, t);\n"
    "  hits[p.y * size.x + p.x] = uvec2(prim, floatBitsToUint(t));\n"
    "  vec3 colour = mix(vec3(0.05, 0.05, 0.07), vec3(0.10, 0.11, 0.15), s.y * 0.5 + 0.5);\n"
    "  if (prim != GLRADIX_LBVH_MISS) {\n"
    "    vec3 n = prim_normal(prim, eye + t * dir, dir);\n"
    "    vec3 at = shadow_from(prim, eye + t * dir, n);\n"
    "    float lit = max(dot(n, light), 0.0);\n"
    "    if (lit > 0.0 && glradix_lbvh_any_hit(at, light, 0.0, 3.4028235e38)) lit = 0.0;\n"
    "    colour = ramp(float(codes[prim]) / 1073741824.0) * (0.3 + 0.15 * n.y + 0.7 * lit);\n"
    "  } else if (dir.y < 0.0) {\n"
    "    float tf = (floor_y - eye.y) / dir.y;\n"
    "    vec3 at = eye + tf * dir;\n"
    "    if (tf > 0.0 && all(greaterThanEqual(at.xz, floor_box.xy)) &&\n"
    "        all(lessThanEqual(at.xz, floor_box.zw))) {\n"
    "      vec2 c = floor(at.xz * 5.0);\n"
    "      float tone = mod(c.x + c.y, 2.0) == 0.0 ? 0.34 : 0.28;\n"
    "      bool shade = glradix_lbvh_any_hit(at, light, 0.0, 3.4028235e38);\n"
    "      colour = vec3(tone) * (shade ? 0.45 : 1.0);\n"
    "    }\n"
    "  }\n"
    "  imageStore(image, p, vec4(colour, 1.0));\n"
    "}\n";

static GLuint prog, prims_buf, codes_buf, nodes_buf, hits_buf, tex, fbo, query[2];
/* the CPU check's copy: n x (centre, radius), or n x 3 vertices (x, y, z, 0) */
static float *prims;
static int triangles; /* an OBJ scene's */
static uint32_t n;
static vec3 centre;
static float radius, floor_y, floor_box[4];
static int tex_w, tex_h;
static double trace_ms;
/* the last trace's camera (dist -1: none yet), and its rays in the
 * shader's terms, which the CPU check makes again */
static demo_camera last_cam = {0.0f, 0.0f, -1.0f};
static float eye[3], fwd[3], right[3], up[3];

static GLuint compute_program(void) {
  const char *src[] = {"#version 430 core\n",
                       "#define GLRADIX_LBVH_BINDING 0\n#define GLRADIX_LBVH_RAY\n",
                       triangles ? "#define DEMO_TRIANGLES\n" : "", glradix_lbvh_glsl(), rays_cs};
  return demo_compute_program("ray", 5, src);
}

static size_t prim_floats(void) { return triangles ? 12 : 4; }

/* Primitive i's box (8 floats) from prims. */
static void prim_box(uint32_t i, float *b) {
  const float *p = prims + i * prim_floats();
  for (int a = 0; a < 3; ++a) {
    if (triangles) {
      b[a] = fminf(p[a], fminf(p[4 + a], p[8 + a]));
      b[4 + a] = fmaxf(p[a], fmaxf(p[4 + a], p[8 + a]));
    } else {
      b[a] = p[a] - p[3];
      b[4 + a] = p[a] + p[3];
    }
  }
  b[3] = b[7] = 0.0f;
}

int view_rays_init(const demo_scene *s, glradix_loadfunc load) {
  glradix_desc d = {0};
  glradix_context *ctx = NULL;
  glradix_lbvh_desc ld = {0};
  glradix_status e;
  GLuint bounds_buf;
  float *bounds;
  n = s->n;
  triangles = s->tris != NULL;
  prims = malloc((size_t)n * prim_floats() * sizeof *prims);
  bounds = malloc((size_t)n * 8 * sizeof *bounds);
  if (!prims || !bounds) {
    free(bounds);
    return 0;
  }
  for (uint32_t i = 0; i < n; ++i) {
    const float *p = s->bounds + (size_t)i * 8; /* min == max: the point */
    float *sp = prims + (size_t)i * prim_floats();
    if (triangles) {
      memcpy(sp, s->tris + (size_t)i * 12, 12 * sizeof *sp);
    } else {
      memcpy(sp, p, 3 * sizeof *sp);
      sp[3] = DEMO_RAY_RADIUS;
    }
    prim_box(i, bounds + (size_t)i * 8);
  }
  d.load = load;
  d.log = demo_log;
  if ((e = glradix_create(&d, &ctx)) != GLRADIX_OK) goto fail;
  bounds_buf = demo_buffer(bounds, (size_t)n * 32);
  free(bounds);
  bounds = NULL;
  nodes_buf = demo_buffer(NULL, glradix_lbvh_nodes_bytes(n));
  ld.bounds = bounds_buf;
  ld.count = n;
  ld.nodes = nodes_buf;
  e = glradix_lbvh_build(ctx, &ld);
  glradix_destroy(ctx);
  gl.DeleteBuffers(1, &bounds_buf); /* the leaves keep the boxes; the shader reads prims */
  if (e != GLRADIX_OK) goto fail;
  prims_buf = demo_buffer(prims, (size_t)n * prim_floats() * sizeof *prims);
  codes_buf = demo_buffer(s->codes, (size_t)n * 4);
  if (!(prog = compute_program())) return 0;
  gl.GenFramebuffers(1, &fbo);
  gl.GenQueries(2, query);
  for (int a = 0; a < 3; ++a) centre[a] = 0.5f * (s->lo[a] + s->hi[a]);
  radius = 0.5f * glm_vec3_distance((float *)s->lo, (float *)s->hi);
  if (radius <= 0.0f) radius = 1.0f;
  /* the floor: a little below the lowest point, a margin wider than the scene */
  floor_y = s->lo[1] - 0.1f * radius;
  floor_box[0] = s->lo[0] - 0.4f * radius;
  floor_box[1] = s->lo[2] - 0.4f * radius;
  floor_box[2] = s->hi[0] + 0.4f * radius;
  floor_box[3] = s->hi[2] + 0.4f * radius;
  return 1;
fail:
  free(bounds);
  fprintf(stderr, "glradix-demo: LBVH build (%s) failed: %s\n",
          triangles ? "triangles" : "spheres", glradix_status_string(e));
  return 0;
}

/* View 2's camera (view_bvh_draw: glm_lookat, a 45-degree glm_perspective)
 * as a ray generator: pixel (x, y), rows bottom first as GL stores them,
 * looks along fwd + sx * right + sy * up, sx and sy in [-1, 1]. */
static void camera_rays(const demo_camera *cam, int w, int h) {
  const float yaw = glm_rad(cam->yaw), pitch = glm_rad(cam->pitch);
  const float dist = cam->dist * radius, tan_half = tanf(glm_rad(22.5f));
  vec3 world_up = {0.0f, 1.0f, 0.0f}, f, r, u;
  eye[0] = centre[0] + dist * cosf(pitch) * sinf(yaw);
  eye[1] = centre[1] + dist * sinf(pitch);
  eye[2] = centre[2] + dist * cosf(pitch) * cosf(yaw);
  glm_vec3_sub(centre, eye, f);
  glm_vec3_normalize(f);
  glm_vec3_crossn(f, world_up, r);
  glm_vec3_cross(r, f, u);
  for (int a = 0; a < 3; ++a) {
    fwd[a] = f[a];
    right[a] = r[a] * tan_half * (float)w / (float)h;
    up[a] = u[a] * tan_half;
  }
}

static void trace(const demo_camera *cam, int w, int h) {
  if (w != tex_w || h != tex_h) {
    gl.DeleteTextures(1, &tex);
    gl.GenTextures(1, &tex);
    gl.BindTexture(GL_TEXTURE_2D, tex);
    gl.TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
    gl.BindTexture(GL_TEXTURE_2D, 0);
    gl.BindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    gl.FramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    gl.DeleteBuffers(1, &hits_buf);
    hits_buf = demo_buffer(NULL, (size_t)w * (size_t)h * 8);
    tex_w = w;
    tex_h = h;
  }
  camera_rays(cam, w, h);
  gl.UseProgram(prog);
  gl.Uniform3fv(gl.GetUniformLocation(prog, "eye"), 1, eye);
  gl.Uniform3fv(gl.GetUniformLocation(prog, "fwd"), 1, fwd);
  gl.Uniform3fv(gl.GetUniformLocation(prog, "right"), 1, right);
  gl.Uniform3fv(gl.GetUniformLocation(prog, "up"), 1, up);
  gl.Uniform2i(gl.GetUniformLocation(prog, "size"), w, h);
  {
    vec3 light = {0.35f, 1.0f, 0.25f};
    glm_vec3_normalize(light);
    gl.Uniform3fv(gl.GetUniformLocation(prog, "light"), 1, light);
  }
  gl.Uniform4fv(gl.GetUniformLocation(prog, "floor_box"), 1, floor_box);
  gl.Uniform1f(gl.GetUniformLocation(prog, "floor_y"), floor_y);
  gl.Uniform1f(gl.GetUniformLocation(prog, "offset"), 1e-4f * radius);
  gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, nodes_buf);
  gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, prims_buf);
  gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, codes_buf);
  gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, hits_buf);
  gl.BindImageTexture(0, tex, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  /* a GL_TIMESTAMP pair: llvmpipe's GL_TIME_ELAPSED query around a lone
   * dispatch gave the time since the machine booted */
  gl.QueryCounter(query[0], GL_TIMESTAMP);
  gl.DispatchCompute((GLuint)(w + 7) / 8, (GLuint)(h + 7) / 8, 1);
  gl.QueryCounter(query[1], GL_TIMESTAMP);
  /* the blit reads the image; the check reads the hits back */
  gl.MemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  for (GLuint i = 0; i < 4; ++i) gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, i, 0);
  gl.UseProgram(0);
  {
    GLuint64 t0 = 0, t1 = 0; /* waits: traces are rare, only when the camera moves */
    gl.GetQueryObjectui64v(query[0], GL_QUERY_RESULT, &t0);
    gl.GetQueryObjectui64v(query[1], GL_QUERY_RESULT, &t1);
    trace_ms = (double)(t1 - t0) * 1e-6;
  }
  last_cam = *cam;
}

int view_rays_draw(const demo_camera *cam, int w, int h) {
  GLint read_fb = 0;
  const int again = w != tex_w || h != tex_h || cam->yaw != last_cam.yaw ||
                    cam->pitch != last_cam.pitch || cam->dist != last_cam.dist;
  /* the caller's read framebuffer is put back (the headless run reads its
   * pixels from it), and trace binds this view's to attach a new image */
  gl.GetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fb);
  if (again) trace(cam, w, h);
  gl.BindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  gl.BlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  gl.BindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)read_fb);
  return again;
}

void view_rays_describe(char *out, size_t size) {
  snprintf(out, size,
           "%dx%d rays through the LBVH of %u %s (closest hit, any-hit shadow rays): "
           "%.1f ms",
           tex_w, tex_h, n, triangles ? "triangles" : "spheres", trace_ms);
}

/* ---- the CPU check ------------------------------------------------------- */

/* Distances compared within 1e-4 of (the scene's radius + t) world units:
 * the built-in scene is about 2.4 units wide and 5 away, where the GPU's
 * and the CPU's floats differ by about 1e-6; a ball is 0.024 wide. */
static double tolerance(double t) { return 1e-4 * (radius + fabs(t)); }

/* Pixel (x, y)'s ray as the shader makes it, in float. */
static void pixel_ray(int x, int y, float *d) {
  const float sx = ((float)x + 0.5f) / (float)tex_w * 2.0f - 1.0f;
  const float sy = ((float)y + 0.5f) / (float)tex_h * 2.0f - 1.0f;
  for (int a = 0; a < 3; ++a) d[a] = fwd[a] + sx * right[a] + sy * up[a];
  glm_vec3_normalize(d);
}

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void cross3(const double *a, const double *b, double *c) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

/* The ray against triangle i, in double: *enter the distance to its plane
 * where the ray meets it (infinite if it runs parallel), *inside how far
 * inside its edges that point lies, in world units (negative: outside). */
static void cpu_triangle(uint32_t i, const float *d, double *enter, double *inside) {
  const float *t = prims + (size_t)i * 12;
  double e1[3], e2[3], e3[3], s[3], dd[3], p[3], q[3], nrm[3];
  for (int a = 0; a < 3; ++a) {
    e1[a] = (double)t[4 + a] - t[a];
    e2[a] = (double)t[8 + a] - t[a];
    e3[a] = (double)t[8 + a] - t[4 + a];
    s[a] = (double)eye[a] - t[a];
    dd[a] = d[a];
  }
  cross3(dd, e2, p);
  const double det = dot3(e1, p);
  cross3(e1, e2, nrm);
  const double area2 = sqrt(dot3(nrm, nrm));
  if (det == 0.0 || area2 == 0.0) {
    *enter = INFINITY;
    *inside = -INFINITY;
    return;
  }
  cross3(s, e1, q);
  const double u = dot3(s, p) / det, v = dot3(dd, q) / det;
  *enter = dot3(e2, q) / det;
  /* each barycentric weight times the height over the edge it faces */
  const double h1 = u * area2 / sqrt(dot3(e2, e2)), h2 = v * area2 / sqrt(dot3(e1, e1));
  const double h0 = (1.0 - u - v) * area2 / sqrt(dot3(e3, e3));
  *inside = fmin(h0, fmin(h1, h2));
}

/* The ray against primitive i, in double: for a sphere *enter its entry
 * distance (the closest approach where it passes by) and *inside how far
 * inside the silhouette it passes (negative: outside); a triangle's as
 * cpu_triangle says. */
static void cpu_prim(uint32_t i, const float *d, double *enter, double *inside) {
  if (triangles) {
    cpu_triangle(i, d, enter, inside);
    return;
  }
  const float *s = prims + (size_t)i * 4;
  double f[3], b = 0.0, l2 = 0.0;
  for (int a = 0; a < 3; ++a) {
    f[a] = (double)eye[a] - s[a];
    b -= f[a] * d[a];
  }
  for (int a = 0; a < 3; ++a) {
    const double l = f[a] + b * d[a];
    l2 += l * l;
  }
  const double disc = (double)s[3] * s[3] - l2;
  *enter = b - (disc > 0.0 ? sqrt(disc) : 0.0);
  *inside = s[3] - sqrt(l2);
}

/* 1 if pixel (x, y)'s hit is the CPU's, else 0 and why. A hit must be on a
 * sphere the CPU's ray meets (or passes within the tolerance), at its entry,
 * and no farther than the nearest sphere the CPU's ray clearly enters; a
 * miss only where the CPU's ray clearly enters none. */
static int check_pixel(const uint32_t *hits, int x, int y, int *hit, char *why, size_t size) {
  const uint32_t *h = hits + 2 * ((size_t)y * (size_t)tex_w + (size_t)x);
  float d[3], t;
  double e, in, clear_t = INFINITY;
  uint32_t clear = GLRADIX_LBVH_LEAF;
  memcpy(&t, &h[1], sizeof t);
  pixel_ray(x, y, d);
  for (uint32_t i = 0; i < n; ++i) {
    cpu_prim(i, d, &e, &in);
    if (e > 0.0 && in > tolerance(e) && e < clear_t) {
      clear_t = e;
      clear = i;
    }
  }
  *hit = h[0] != GLRADIX_LBVH_LEAF;
  if (!*hit) {
    if (clear == GLRADIX_LBVH_LEAF) return 1;
    snprintf(why, size, "pixel (%d, %d): a miss, the CPU hits sphere %u at %.6f", x, y, clear,
             clear_t);
    return 0;
  }
  if (h[0] >= n) {
    snprintf(why, size, "pixel (%d, %d): sphere %u out of range", x, y, h[0]);
    return 0;
  }
  cpu_prim(h[0], d, &e, &in);
  if (in < -tolerance(e) || fabs((double)t - e) > tolerance(e) ||
      (clear != GLRADIX_LBVH_LEAF && e > clear_t + tolerance(clear_t))) {
    snprintf(why, size,
             "pixel (%d, %d): sphere %u at %.6f; the CPU enters it at %.6f (%.2g inside), "
             "its nearest clear hit sphere %u at %.6f",
             x, y, h[0], (double)t, e, in, clear, clear_t);
    return 0;
  }
  return 1;
}

typedef struct tally {
  int checked, hits, bad;
} tally;

static void check(const uint32_t *hits, int x, int y, tally *t) {
  char why[256];
  int hit = 0;
  if (!check_pixel(hits, x, y, &hit, why, sizeof why) && t->bad++ < 5)
    fprintf(stderr, "glradix-demo: rays: %s\n", why);
  t->hits += hit;
  ++t->checked;
}

int view_rays_check(char *line, size_t size) {
  const size_t pixels = (size_t)tex_w * (size_t)tex_h;
  uint32_t *hits = malloc(pixels * 8);
  tally grid = {0, 0, 0}, centres = {0, 0, 0};
  size_t image_hits = 0;
  if (!hits || tex_w <= 0) {
    free(hits);
    snprintf(line, size, "[rays] nothing traced to check: verified NO");
    return 0;
  }
  demo_read(hits_buf, hits, pixels * 8);
  for (size_t i = 0; i < pixels; ++i) image_hits += hits[2 * i] != GLRADIX_LBVH_LEAF;
  /* a 16 x 9 grid over the image: mostly the background's misses and the
   * clusters' edges ... */
  for (int gy = 0; gy < 9; ++gy)
    for (int gx = 0; gx < 16; ++gx) {
      const int x = (2 * gx + 1) * tex_w / 32, y = (2 * gy + 1) * tex_h / 18;
      check(hits, x, y, &grid);
    }
  /* ... and the pixels that 64 primitives' centres (their boxes') project
   * to: hits, on that primitive or on one in front of it */
  for (uint32_t k = 0; k < 64; ++k) {
    const uint32_t i = (uint32_t)(k * (uint64_t)n / 64);
    float s[8];
    prim_box(i, s); /* its centre: the sphere's, or the triangle's box's */
    double v[3], z = 0.0, sx = 0.0, sy = 0.0, r2 = 0.0, u2 = 0.0;
    for (int a = 0; a < 3; ++a) {
      v[a] = 0.5 * ((double)s[a] + s[4 + a]) - eye[a];
      z += v[a] * fwd[a];
      sx += v[a] * right[a];
      sy += v[a] * up[a];
      r2 += (double)right[a] * right[a];
      u2 += (double)up[a] * up[a];
    }
    if (z <= 0.0) continue;
    const int x = (int)floor((sx / (r2 * z) + 1.0) * 0.5 * tex_w);
    const int y = (int)floor((sy / (u2 * z) + 1.0) * 0.5 * tex_h);
    if (x < 0 || y < 0 || x >= tex_w || y >= tex_h) continue;
    check(hits, x, y, &centres);
  }
  free(hits);
  /* An image without primitives would pass the grid: most centres' pixels
   * must hit (all of them do while a pixel is smaller than a ball). */
  const int ok = !grid.bad && !centres.bad && centres.checked >= 32 &&
                 2 * centres.hits >= centres.checked;
  snprintf(line, size,
           "[rays] %.1f%% of the pixels hit; against a brute-force CPU closest hit: %d of a "
           "grid's pixels (%d hits), %d on primitives' centres (%d hits), %d wrong: verified %s",
           100.0 * (double)image_hits / (double)pixels, grid.checked, grid.hits,
           centres.checked, centres.hits, grid.bad + centres.bad, ok ? "yes" : "NO");
  return ok;
}

void view_rays_free(void) {
  gl.DeleteProgram(prog);
  gl.DeleteBuffers(1, &prims_buf);
  gl.DeleteBuffers(1, &codes_buf);
  gl.DeleteBuffers(1, &nodes_buf);
  gl.DeleteBuffers(1, &hits_buf);
  gl.DeleteTextures(1, &tex);
  gl.DeleteFramebuffers(1, &fbo);
  gl.DeleteQueries(2, query);
  free(prims);
  prims = NULL;
  prog = prims_buf = codes_buf = nodes_buf = hits_buf = tex = fbo = query[0] = query[1] = 0;
  tex_w = tex_h = 0;
}
