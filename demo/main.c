/*
 * glradix-demo: sorts the 30-bit Morton codes of 1M random points with
 * glradix_sort (codes as keys, point indices as values), checks the result on
 * the CPU and prints it. In a GLFW window (GL 4.3 core) it then clears to
 * green (verified) or red until the window is closed or --seconds pass;
 * --headless uses the library's EGL helper and opens no window.
 */
#define GLAD_GL_IMPLEMENTATION
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <cglm/cglm.h>

#include <glradix/glradix.h>
#ifdef GLRADIX_DEMO_HEADLESS
#include <glradix/headless.h>
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static GladGLContext gl;

static void usage(FILE *f) {
  fputs("usage: glradix-demo [--headless] [--seconds S] [--n N] [--help]\n"
        "  --headless   no window: EGL context from glradix_headless_create\n"
        "  --seconds S  close the window after S seconds (default: when closed)\n"
        "  --n N        number of points (default 1048576)\n",
        f);
}

/* glradix wants `void *(*)(const char *)`; GLFW returns a function pointer. */
static void *demo_glfw_load(const char *name) {
  union {
    GLFWglproc f;
    void *p;
  } u;
  u.f = glfwGetProcAddress(name);
  return u.p;
}

#ifdef GLRADIX_DEMO_HEADLESS
/* glad wants a function pointer; the headless loader returns void *. */
static GLADapiproc demo_headless_load(const char *name) {
  union {
    void *p;
    GLADapiproc f;
  } u;
  u.p = glradix_headless_load(name);
  return u.f;
}
#endif

static void glfw_error(int code, const char *message) {
  fprintf(stderr, "glradix-demo: GLFW error 0x%x: %s\n", code, message);
}

static void log_cb(void *user, const char *message) {
  (void)user;
  fprintf(stderr, "glradix: %s\n", message);
}

static uint64_t rng_state = 0x6d6f72746f6eull;
static float rand01(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (float)((z ^ (z >> 31)) >> 40) * (1.0f / 16777216.0f);
}

/* Spreads the low 10 bits of v so that two zero bits follow each one. */
static uint32_t expand_bits(uint32_t v) {
  v = (v * 0x00010001u) & 0xFF0000FFu;
  v = (v * 0x00000101u) & 0x0F00F00Fu;
  v = (v * 0x00000011u) & 0xC30C30C3u;
  v = (v * 0x00000005u) & 0x49249249u;
  return v;
}

/* 30-bit Morton code of a point in [0,1]^3. */
static uint32_t morton3(const vec3 p) {
  uint32_t q[3];
  for (int i = 0; i < 3; ++i) {
    float f = p[i] * 1024.0f;
    q[i] = f <= 0.0f ? 0u : f >= 1023.0f ? 1023u : (uint32_t)f;
  }
  return expand_bits(q[0]) << 2 | expand_bits(q[1]) << 1 | expand_bits(q[2]);
}

/* Random points in a rotated shell; returns their Morton codes in codes[]. */
static void make_codes(uint32_t *codes, uint32_t n) {
  vec3 *pts = malloc((size_t)n * sizeof *pts);
  vec3 lo = {1e30f, 1e30f, 1e30f}, hi = {-1e30f, -1e30f, -1e30f}, axis = {1.0f, 2.0f, 0.5f};
  mat4 rot;
  glm_rotate_make(rot, glm_rad(30.0f), axis);
  if (!pts) {
    fprintf(stderr, "glradix-demo: out of memory\n");
    exit(1);
  }
  for (uint32_t i = 0; i < n; ++i) {
    vec3 d = {rand01() * 2.0f - 1.0f, rand01() * 2.0f - 1.0f, rand01() * 2.0f - 1.0f};
    glm_vec3_normalize(d);
    glm_vec3_scale(d, 0.6f + 0.4f * rand01(), d);
    glm_mat4_mulv3(rot, d, 1.0f, pts[i]);
    glm_vec3_minv(lo, pts[i], lo);
    glm_vec3_maxv(hi, pts[i], hi);
  }
  vec3 extent;
  glm_vec3_sub(hi, lo, extent);
  glm_vec3_maxv(extent, (vec3){1e-6f, 1e-6f, 1e-6f}, extent);
  for (uint32_t i = 0; i < n; ++i) {
    vec3 t;
    glm_vec3_sub(pts[i], lo, t);
    glm_vec3_div(t, extent, t);
    codes[i] = morton3(t);
  }
  free(pts);
}

/* Sorted by code, indices a stable permutation that maps back to the codes. */
static int verify(const uint32_t *codes, const uint32_t *k, const uint32_t *v, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    if (v[i] >= n || codes[v[i]] != k[i]) return 0;
    if (i > 0 && (k[i - 1] > k[i] || (k[i - 1] == k[i] && v[i - 1] >= v[i]))) return 0;
  }
  return 1;
}

static GLuint make_buffer(const uint32_t *data, uint32_t n) {
  GLuint b = 0;
  gl.GenBuffers(1, &b);
  gl.BindBuffer(GL_COPY_WRITE_BUFFER, b);
  gl.BufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)n * 4, data, GL_DYNAMIC_COPY);
  gl.BindBuffer(GL_COPY_WRITE_BUFFER, 0);
  return b;
}

static void read_buffer(GLuint b, uint32_t *data, uint32_t n) {
  gl.BindBuffer(GL_COPY_READ_BUFFER, b);
  gl.GetBufferSubData(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)n * 4, data);
  gl.BindBuffer(GL_COPY_READ_BUFFER, 0);
}

/* Sorts and verifies on the current context; returns 1 if verified. */
static int sort_demo(glradix_loadfunc load, uint32_t n) {
  uint32_t *codes = malloc((size_t)n * 4), *keys = malloc((size_t)n * 4),
           *vals = malloc((size_t)n * 4);
  if (!codes || !keys || !vals) {
    fprintf(stderr, "glradix-demo: out of memory\n");
    exit(1);
  }
  make_codes(codes, n);
  for (uint32_t i = 0; i < n; ++i) vals[i] = i;

  glradix_desc d = {0};
  d.load = load;
  d.log = log_cb;
  d.max_count = n; /* scratch allocated now, not inside the timed sort */
  glradix_context *ctx = NULL;
  glradix_status st = glradix_create(&d, &ctx);
  if (st != GLRADIX_OK) {
    fprintf(stderr, "glradix-demo: glradix_create failed: %s\n", glradix_status_string(st));
    exit(1);
  }
  GLuint kb = make_buffer(codes, n), vb = make_buffer(vals, n), q[2];
  gl.GenQueries(2, q);
  glradix_sort_desc sd = {0};
  sd.keys = kb;
  sd.values = vb;
  sd.count = n;
  sd.end_bit = 30;
  gl.QueryCounter(q[0], GL_TIMESTAMP);
  st = glradix_sort(ctx, &sd);
  gl.QueryCounter(q[1], GL_TIMESTAMP);
  GLuint64 t0 = 0, t1 = 0;
  gl.GetQueryObjectui64v(q[0], GL_QUERY_RESULT, &t0);
  gl.GetQueryObjectui64v(q[1], GL_QUERY_RESULT, &t1);
  int ok = 0;
  if (st != GLRADIX_OK) {
    fprintf(stderr, "glradix-demo: glradix_sort failed: %s\n", glradix_status_string(st));
  } else {
    gl.MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    read_buffer(kb, keys, n);
    read_buffer(vb, vals, n);
    ok = verify(codes, keys, vals, n);
    printf("sorted %u Morton codes (30-bit keys + indices, radix_bits %u) in %.3f ms "
           "(%.1f Mkeys/s): verified %s\n",
           n, glradix_query_desc(ctx).radix_bits, (double)(t1 - t0) * 1e-6,
           t1 > t0 ? (double)n / ((double)(t1 - t0) * 1e-6) / 1e3 : 0.0, ok ? "yes" : "NO");
  }
  gl.DeleteQueries(2, q);
  gl.DeleteBuffers(1, &kb);
  gl.DeleteBuffers(1, &vb);
  glradix_destroy(ctx);
  free(codes);
  free(keys);
  free(vals);
  return ok;
}

int main(int argc, char **argv) {
  int headless = 0;
  double seconds = 0.0;
  uint32_t n = 1u << 20;
  for (int i = 1; i < argc; ++i) {
    char *end = NULL;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(argv[i], "--headless") == 0) {
      headless = 1;
    } else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
      seconds = strtod(argv[++i], &end);
      if (*end || seconds < 0) goto bad;
    } else if (strcmp(argv[i], "--n") == 0 && i + 1 < argc) {
      unsigned long v = strtoul(argv[++i], &end, 10);
      if (*end || v == 0 || v > 0xffffffffUL) goto bad;
      n = (uint32_t)v;
    } else {
    bad:
      fprintf(stderr, "glradix-demo: bad argument '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    }
  }

  if (headless) {
#ifdef GLRADIX_DEMO_HEADLESS
    glradix_headless *h = NULL;
    glradix_status st = glradix_headless_create(&h);
    if (st != GLRADIX_OK || !gladLoadGLContext(&gl, demo_headless_load)) {
      fprintf(stderr, "glradix-demo: no headless GL 4.3 context: %s\n", glradix_status_string(st));
      return 1;
    }
    printf("renderer: %s (headless, %s)\n", glradix_headless_renderer(h),
           glradix_headless_platform(h));
    const int ok = sort_demo(glradix_headless_load, n);
    glradix_headless_destroy(h);
    return ok ? 0 : 1;
#else
    fputs("glradix-demo: built without the headless helper (GLRADIX_HEADLESS=OFF)\n", stderr);
    return 1;
#endif
  }

  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) {
    fputs("glradix-demo: glfwInit failed (no display? try --headless)\n", stderr);
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow *win = glfwCreateWindow(800, 600, "glradix-demo", NULL, NULL);
  if (!win) {
    fputs("glradix-demo: no GL 4.3 core window (try --headless)\n", stderr);
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(win);
  glfwSwapInterval(1);
  if (!gladLoadGLContext(&gl, glfwGetProcAddress)) {
    fputs("glradix-demo: could not load GL functions\n", stderr);
    glfwTerminate();
    return 1;
  }
  printf("renderer: %s (GLFW window)\n", (const char *)gl.GetString(GL_RENDERER));
  const int ok = sort_demo(demo_glfw_load, n);
  glfwSetWindowTitle(win, ok ? "glradix-demo: sorted, verified" : "glradix-demo: FAILED");

  const double start = glfwGetTime();
  while (!glfwWindowShouldClose(win)) {
    const double t = glfwGetTime() - start;
    if (seconds > 0.0 && t >= seconds) break;
    const float pulse = 0.35f + 0.15f * (float)glm_clamp((float)(t - (double)(long)t), 0.0f, 1.0f);
    int w = 0, hgt = 0;
    glfwGetFramebufferSize(win, &w, &hgt);
    gl.Viewport(0, 0, w, hgt);
    if (ok)
      gl.ClearColor(0.1f, pulse, 0.15f, 1.0f);
    else
      gl.ClearColor(pulse, 0.1f, 0.1f, 1.0f);
    gl.Clear(GL_COLOR_BUFFER_BIT);
    glfwSwapBuffers(win);
    glfwPollEvents();
  }
  glfwDestroyWindow(win);
  glfwTerminate();
  return ok ? 0 : 1;
}
