/* Depth-sorted alpha blending: a million splats drawn back to front, sorted
 * by view depth on the GPU every frame with no read-back. Each frame a
 * compute shader writes every particle's view depth (float32 key) and index
 * (uint32 value), glradix_sort orders the pairs farthest first, and the
 * vertex shader fetches the particles through the sorted indices. The
 * camera orbits, so the order changes each frame; the window title shows
 * the sort's GPU time (a GL_TIME_ELAPSED query around glradix_sort).
 * --headless renders a few frames offscreen (EGL, no window) and checks the
 * last frame's sort on the CPU; the tests run it.
 *   depth_sort [--n N (default 1M)] [--frames F (then quit; 3 headless)]
 *              [--headless [--out FILE.ppm (the last frame)]]
 *   cc depth_sort.c $(pkg-config --cflags --libs glradix glfw3) -lm  */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLAD_GL_IMPLEMENTATION /* the application's own loader (any will do) */
#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <glradix/glradix.h>
#include <glradix/headless.h>

static GladGLContext gl;

/* View depth = distance along the view direction. `precise` keeps the GPU
 * from fusing or reordering the float operations, so that it computes what
 * the CPU check does. */
static const char *key_cs =
    "#version 430\n"
    "layout(local_size_x = 256) in;\n"
    "layout(std430, binding = 0) readonly buffer P { vec4 particles[]; };\n"
    "layout(std430, binding = 1) writeonly buffer K { float keys[]; };\n"
    "layout(std430, binding = 2) writeonly buffer V { uint values[]; };\n"
    "uniform vec3 eye, forward;\n"
    "uniform uint count;\n"
    "void main() {\n"
    "  uint i = gl_GlobalInvocationID.x;\n"
    "  if (i >= count) return;\n"
    "  vec3 p = particles[i].xyz;\n"
    "  precise float d = (p.x - eye.x) * forward.x + (p.y - eye.y) * forward.y\n"
    "                  + (p.z - eye.z) * forward.z;\n"
    "  keys[i] = d;\n"
    "  values[i] = i;\n"
    "}\n";
static const char *draw_vs =
    "#version 430\n"
    "layout(std430, binding = 0) readonly buffer P { vec4 particles[]; };\n"
    "layout(std430, binding = 2) readonly buffer V { uint order[]; };\n"
    "uniform mat4 view_proj;\n"
    "uniform float point_scale;\n"
    "out vec4 color;\n"
    "void main() {\n"
    "  vec4 p = particles[order[gl_VertexID]]; /* the i-th farthest */\n"
    "  gl_Position = view_proj * vec4(p.xyz, 1.0);\n"
    "  gl_PointSize = clamp(point_scale / gl_Position.w, 1.0, 64.0);\n"
    "  color = vec4(mix(vec3(1.0, 0.75, 0.35), vec3(0.2, 0.45, 1.0), p.w), 0.3);\n"
    "}\n";
static const char *draw_fs =
    "#version 430\n"
    "in vec4 color;\n"
    "out vec4 frag;\n"
    "void main() {\n"
    "  vec2 c = gl_PointCoord * 2.0 - 1.0;\n"
    "  float r2 = dot(c, c);\n"
    "  if (r2 > 1.0) discard;\n"
    "  frag = vec4(color.rgb, color.a * (1.0 - r2)); /* soft round splat */\n"
    "}\n";

typedef struct { float eye[3], forward[3]; } camera;

typedef struct {
  uint32_t n;
  float *pos; /* xyz, w = colour parameter; kept for the CPU check */
  GLuint particles, keys, values, key_prog, draw_prog, vao;
  glradix_context *ctx;
} app;

static int fail(const char *what) { fprintf(stderr, "depth_sort: %s\n", what); return 0; }
static void log_line(void *user, const char *line) { (void)user; fail(line); }

static GLuint program(GLenum type1, const char *src1, GLenum type2, const char *src2) {
  GLuint p = gl.CreateProgram();
  GLint ok = 0;
  char log[2048];
  for (int k = 0; k < 2 && (k == 0 || src2); ++k) {
    GLuint sh = gl.CreateShader(k ? type2 : type1);
    gl.ShaderSource(sh, 1, k ? &src2 : &src1, NULL);
    gl.CompileShader(sh);
    gl.GetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) gl.GetShaderInfoLog(sh, sizeof log, NULL, log), fail(log);
    gl.AttachShader(p, sh);
    gl.DeleteShader(sh); /* deleted with the program */
  }
  gl.LinkProgram(p);
  gl.GetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) gl.GetProgramInfoLog(p, sizeof log, NULL, log), fail(log);
  return ok ? p : 0;
}

static GLuint buffer(size_t bytes, const void *data) {
  GLuint b;
  gl.GenBuffers(1, &b);
  gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, b);
  gl.BufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, data, GL_DYNAMIC_COPY);
  return b;
}

/* A spiral galaxy: two arms in a thin disk, from a seeded LCG (the same every run). */
static float rnd(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return (float)(*s >> 8) / 16777216.0f; }
static void make_particles(float *pos, uint32_t n) {
  uint32_t s = 1;
  for (uint32_t i = 0; i < n; ++i) {
    float r = 0.05f + 0.95f * rnd(&s) * rnd(&s);
    float a = (float)(i % 2) * 3.1416f + 4.0f * r + (rnd(&s) + rnd(&s) - 1.0f) * 0.5f;
    pos[4 * i + 0] = r * cosf(a);
    pos[4 * i + 1] = (rnd(&s) + rnd(&s) - 1.0f) * 0.08f * (1.2f - r);
    pos[4 * i + 2] = r * sinf(a);
    pos[4 * i + 3] = r;
  }
}

static camera camera_at(double t) {
  double az = 0.4 * t, el = 0.45 + 0.3 * sin(0.25 * t), d = 1.9;
  camera c;
  double e[3] = {d * cos(el) * cos(az), d * sin(el), d * cos(el) * sin(az)};
  for (int k = 0; k < 3; ++k) c.eye[k] = (float)e[k], c.forward[k] = (float)(-e[k] / d);
  return c; /* looks at the origin */
}

/* The same float operations, in the same order, as the key shader. */
static float cpu_depth(const camera *c, const float *p, float *magnitude) {
  float x = (p[0] - c->eye[0]) * c->forward[0], y = (p[1] - c->eye[1]) * c->forward[1];
  float z = (p[2] - c->eye[2]) * c->forward[2];
  *magnitude = fabsf(x) + fabsf(y) + fabsf(z);
  return x + y + z;
}

/* perspective(45 degrees, aspect, 0.05, 20) * look_at(eye, eye + forward, +y), column-major */
static void view_proj(const camera *c, float aspect, float m[16]) {
  const float *f = c->forward, *e = c->eye;
  float s[3] = {-f[2], 0.0f, f[0]}; /* forward x up */
  float sl = sqrtf(s[0] * s[0] + s[2] * s[2]);
  s[0] /= sl, s[2] /= sl;
  float u[3] = {s[1] * f[2] - s[2] * f[1], s[2] * f[0] - s[0] * f[2], s[0] * f[1] - s[1] * f[0]};
  float rows[3][4] = {{s[0], s[1], s[2], 0}, {u[0], u[1], u[2], 0}, {f[0], f[1], f[2], 0}};
  for (int r = 0; r < 3; ++r) rows[r][3] = -(rows[r][0] * e[0] + rows[r][1] * e[1] + rows[r][2] * e[2]);
  float a = 1.0f / tanf(0.3927f), zn = 0.05f, zf = 20.0f;
  for (int col = 0; col < 4; ++col) {
    m[4 * col + 0] = a / aspect * rows[0][col];
    m[4 * col + 1] = a * rows[1][col];
    m[4 * col + 2] = (zf + zn) / (zf - zn) * rows[2][col] - (col == 3 ? 2 * zf * zn / (zf - zn) : 0);
    m[4 * col + 3] = rows[2][col]; /* clip w = view depth */
  }
}

/* One frame: keys on the GPU, the sort (timed by `query`), the draw. With
 * `unsorted`, the keys are also read back before the sort, for the check. */
static glradix_status frame(app *a, const camera *c, int w, int h, GLuint query, float *unsorted) {
  gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, a->particles);
  gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, a->keys);
  gl.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, a->values);
  gl.UseProgram(a->key_prog);
  gl.Uniform3fv(gl.GetUniformLocation(a->key_prog, "eye"), 1, c->eye);
  gl.Uniform3fv(gl.GetUniformLocation(a->key_prog, "forward"), 1, c->forward);
  gl.Uniform1ui(gl.GetUniformLocation(a->key_prog, "count"), a->n);
  gl.DispatchCompute((a->n + 255) / 256, 1, 1);
  if (unsorted) {
    gl.MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, a->keys);
    gl.GetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)a->n * 4, unsorted);
  }

  /* glradix_sort starts with the barrier the dispatch above needs, and ends
   * with the one the draw needs; it restores the SSBO bindings it uses. */
  glradix_sort_desc s = {0};
  s.keys = a->keys;
  s.values = a->values;
  s.count = a->n;
  s.key_type = GLRADIX_KEY_FLOAT32;
  s.descending = 1; /* farthest first: drawn first */
  gl.BeginQuery(GL_TIME_ELAPSED, query);
  glradix_status st = glradix_sort(a->ctx, &s);
  gl.EndQuery(GL_TIME_ELAPSED);

  float m[16];
  gl.Viewport(0, 0, w, h);
  gl.ClearColor(0.02f, 0.02f, 0.05f, 1.0f);
  gl.Clear(GL_COLOR_BUFFER_BIT);
  gl.Enable(GL_BLEND); /* no depth test: the order does the hiding */
  gl.BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  gl.Enable(GL_PROGRAM_POINT_SIZE);
  gl.UseProgram(a->draw_prog);
  view_proj(c, h > 0 ? (float)w / (float)h : 1.0f, m);
  gl.UniformMatrix4fv(gl.GetUniformLocation(a->draw_prog, "view_proj"), 1, GL_FALSE, m);
  gl.Uniform1f(gl.GetUniformLocation(a->draw_prog, "point_scale"), (float)h * 0.004f);
  gl.BindVertexArray(a->vao); /* empty: the vertex shader reads the SSBOs */
  gl.DrawArrays(GL_POINTS, 0, (GLsizei)a->n);
  return st;
}

static double query_ms(GLuint q) {
  GLuint64 ns = 0;
  gl.GetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
  return (double)ns / 1e6;
}

/* The sorted pairs must be a stable descending sort of the keys the shader
 * wrote (compared bit for bit), and those keys the CPU's depths. */
static int verify(const app *a, const camera *c, const float *unsorted, const float *keys,
                  const uint32_t *values) {
  unsigned char *seen = calloc(a->n, 1);
  uint32_t exact = 0, at = 0;
  const char *err = seen ? NULL : "out of memory";
  for (uint32_t i = 0; i < a->n && !err; ++i) {
    uint32_t v = values[i];
    at = i; /* where a failure is */
    if (v >= a->n || seen[v]++) err = "values are not a permutation of 0..n-1";
    else if (memcmp(&keys[i], &unsorted[v], sizeof(float)) != 0) err = "a key did not move with its value";
    else if (i > 0 && keys[i - 1] < keys[i]) err = "keys are not in descending order";
    else if (i > 0 && keys[i - 1] == keys[i] && values[i - 1] > v) err = "equal keys out of input order";
  }
  for (uint32_t i = 0; i < a->n && !err; ++i) {
    float mag, d = cpu_depth(c, &a->pos[4 * i], &mag);
    at = i;
    /* a driver that fuses or reorders anyway is off by a few roundings */
    if (fabsf(unsorted[i] - d) > 4.0f * FLT_EPSILON * mag) err = "a key is not the particle's depth";
    exact += memcmp(&unsorted[i], &d, sizeof d) == 0;
  }
  if (err) fprintf(stderr, "depth_sort: check FAILED at index %u: %s\n", at, err);
  else printf("depth_sort: verified %u pairs, farthest first; %u keys bit-equal to the CPU's depth\n", a->n, exact);
  free(seen);
  return !err;
}

static int write_ppm(const char *path, const unsigned char *rgba, int w, int h) {
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  fprintf(f, "P6 %d %d 255\n", w, h);
  for (int y = h - 1; y >= 0; --y) /* GL rows go bottom up */
    for (int x = 0; x < w; ++x) fwrite(rgba + 4 * ((size_t)y * (size_t)w + (size_t)x), 1, 3, f);
  return fclose(f) == 0;
}

/* Offscreen frames; the last one is read back and checked. */
static int run_headless(app *a, long frames, const char *out) {
  enum { W = 640, H = 360 };
  GLuint fbo, rb, q;
  gl.GenRenderbuffers(1, &rb);
  gl.BindRenderbuffer(GL_RENDERBUFFER, rb);
  gl.RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
  gl.GenFramebuffers(1, &fbo);
  gl.BindFramebuffer(GL_FRAMEBUFFER, fbo);
  gl.FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  gl.GenQueries(1, &q);
  float *unsorted = malloc((size_t)a->n * 4), *keys = malloc((size_t)a->n * 4);
  uint32_t *values = malloc((size_t)a->n * 4);
  unsigned char *pixels = malloc((size_t)W * H * 4);
  int ok = unsorted && keys && values && pixels;
  for (long f = 0; f < frames && ok; ++f) {
    camera c = camera_at(0.5 * (double)f);
    int last = f == frames - 1;
    glradix_status st = frame(a, &c, W, H, q, last ? unsorted : NULL);
    printf("frame %ld: %s, sort %.2f ms (GPU)\n", f, glradix_status_string(st), query_ms(q));
    ok = st == GLRADIX_OK;
    if (ok && last) {
      gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, a->keys);
      gl.GetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)a->n * 4, keys);
      gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, a->values);
      gl.GetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)a->n * 4, values);
      ok = verify(a, &c, unsorted, keys, values);
      size_t lit = 0;
      gl.ReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
      for (size_t p = 0; p < (size_t)W * H; ++p) lit += pixels[4 * p + 2] > 64; /* background is 13 */
      if (ok && lit < (size_t)W * H / 100) ok = fail("the image is (nearly) empty");
      if (ok && out && !write_ppm(out, pixels, W, H)) ok = fail("cannot write the --out file");
    }
  }
  if (ok && gl.GetError() != GL_NO_ERROR) ok = fail("GL error");
  free(unsorted);
  free(keys);
  free(values);
  free(pixels);
  gl.DeleteQueries(1, &q);
  gl.DeleteFramebuffers(1, &fbo);
  gl.DeleteRenderbuffers(1, &rb);
  return ok;
}

static int run_window(app *a, GLFWwindow *win, long frames) {
  enum { RING = 4 }; /* read each query RING - 1 frames later: no stall */
  GLuint q[RING];
  double ms = 0.0, last = glfwGetTime();
  long shown = 0, f;
  gl.GenQueries(RING, q);
  for (f = 0; !glfwWindowShouldClose(win) && (frames == 0 || f < frames); ++f) {
    int w, h;
    glfwGetFramebufferSize(win, &w, &h);
    camera c = camera_at(glfwGetTime());
    if (frame(a, &c, w, h, q[f % RING], NULL) != GLRADIX_OK) break;
    if (f + 1 >= RING) ms = query_ms(q[(f + 1) % RING]);
    if (glfwGetTime() - last >= 0.5) {
      char title[128];
      snprintf(title, sizeof title, "depth_sort: %u splats, sort %.2f ms (GPU), %.0f fps", a->n, ms,
               (double)(f - shown) / (glfwGetTime() - last));
      glfwSetWindowTitle(win, title);
      last = glfwGetTime(), shown = f;
    }
    glfwSwapBuffers(win);
    glfwPollEvents();
  }
  gl.DeleteQueries(RING, q);
  return (frames == 0 || f == frames) && gl.GetError() == GL_NO_ERROR;
}

int main(int argc, char **argv) {
  long frames = 0, n = 1 << 20;
  int headless = 0, ok = 0;
  const char *out = NULL;
  for (int i = 1; i < argc; ++i) {
    char *end = NULL;
    if (!strcmp(argv[i], "--headless")) { headless = 1; continue; }
    if (!strcmp(argv[i], "--out") && i + 1 < argc) { out = argv[++i]; continue; }
    if (!strcmp(argv[i], "--n") && i + 1 < argc) n = strtol(argv[++i], &end, 10);
    else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = strtol(argv[++i], &end, 10);
    if (!end || *end || n < 1 || n > (1 << 23) || frames < 0) { /* n: the key dispatch fits in one row */
      fputs("usage: depth_sort [--n N] [--frames F] [--headless [--out FILE.ppm]]\n", stderr);
      return 2;
    }
  }
  if (headless && frames == 0) frames = 3;

  glradix_headless *hl = NULL;
  GLFWwindow *win = NULL;
  if (headless) {
    if (glradix_headless_create(&hl) != GLRADIX_OK) return !fail("no headless GL 4.3 context");
  } else {
    if (!glfwInit()) return !fail("glfwInit failed (no display? try --headless)");
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    win = glfwCreateWindow(1280, 720, "depth_sort", NULL, NULL);
    if (!win) {
      glfwTerminate();
      return !fail("no GL 4.3 core window");
    }
    glfwMakeContextCurrent(win);
    glfwSwapInterval(1);
  }
  glradix_loadfunc load = headless ? glradix_headless_load : glfwGetProcAddress;
  glradix_desc desc = {0};
  desc.load = load;
  desc.log = log_line; /* glradix says what went wrong, if anything does */
  app a = {0};
  a.n = (uint32_t)n;
  a.pos = malloc((size_t)n * 16);
  if (gladLoadGLContext(&gl, load) && a.pos && glradix_create(&desc, &a.ctx) == GLRADIX_OK) {
    make_particles(a.pos, a.n);
    a.particles = buffer((size_t)n * 16, a.pos);
    a.keys = buffer((size_t)n * 4, NULL);
    a.values = buffer((size_t)n * 4, NULL);
    a.key_prog = program(GL_COMPUTE_SHADER, key_cs, 0, NULL);
    a.draw_prog = program(GL_VERTEX_SHADER, draw_vs, GL_FRAGMENT_SHADER, draw_fs);
    gl.GenVertexArrays(1, &a.vao);
    /* scratch and programs now, so that frames allocate and compile nothing */
    glradix_sort_desc r = {0};
    r.keys = a.keys, r.values = a.values, r.count = a.n, r.key_type = GLRADIX_KEY_FLOAT32;
    if (a.key_prog && a.draw_prog && glradix_reserve(a.ctx, &r) == GLRADIX_OK)
      ok = headless ? run_headless(&a, frames, out) : run_window(&a, win, frames);
    else
      fail("setup failed");
  } else {
    fail("setup failed");
  }
  if (a.ctx) {
    GLuint bufs[3] = {a.particles, a.keys, a.values};
    gl.DeleteBuffers(3, bufs);
    gl.DeleteProgram(a.key_prog);
    gl.DeleteProgram(a.draw_prog);
    gl.DeleteVertexArrays(1, &a.vao);
    glradix_destroy(a.ctx);
  }
  free(a.pos);
  if (hl) glradix_headless_destroy(hl);
  if (win) glfwDestroyWindow(win), glfwTerminate();
  return ok ? 0 : 1;
}
