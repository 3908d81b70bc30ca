/*
 * glradix-demo: watch glradix sort 30-bit Morton codes pass by pass
 * (view 1), see the Morton order and the LBVH built from it (view 2) and
 * the scene ray-traced through an LBVH with the library's GLSL traversal
 * (view 3, view_rays.c), in a GLFW window or, with --headless --out DIR,
 * as PNGs.
 *
 * View 1 shows the whole key array through each 2-bit pass of a
 * radix_bits = 2 context (see sort_steps.c): after the pass's local shuffle,
 * taken with glradix_sort_inspect (the scan that follows moves no keys), and
 * after its global scatter. The pass's per-stage GPU times
 * (glradix_query_stage_times) go to the window title / stdout.
 */
#define _POSIX_C_SOURCE 200809L
#include "demo.h"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <glradix/headless.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { HEADLESS_W = 640, HEADLESS_H = 360 };

static struct {
  int view;        /* 1 sort, 2 LBVH, 3 rays */
  unsigned step;   /* 0 .. DEMO_STEPS - 1 */
  demo_camera cam;
  int dragging;
  double mx, my;
  int dirty;       /* title needs an update */
} app = {1, 0, {35.0f, 25.0f, 2.6f}, 0, 0.0, 0.0, 1};

static void usage(FILE *f) {
  fputs("usage: glradix-demo [--n N] [--seed S | --obj FILE] [--frames N] [--view 1|2|3]\n"
        "                    [--headless --out DIR]\n"
        "  --n N        points / keys (default 65536 in a window, 32768 headless)\n"
        "  --seed S     scene seed (default 1)\n"
        "  --obj FILE   the triangles of a Wavefront OBJ file instead (their centroids the\n"
        "               points, the triangles themselves ray-traced in view 3; no --n)\n"
        "  --frames N   window: quit after N frames\n"
        "  --view V     window: start in view 1 (sort), 2 (LBVH) or 3 (rays)\n"
        "  --headless   no window: EGL context, render offscreen\n"
        "  --out DIR    headless: write sort_00..30.png, lbvh.png and rays.png into DIR\n"
        "keys: 1 sort view, 2 LBVH view, 3 ray view; space/right next pass, left back,\n"
        "      r restart; +/- LBVH depth; drag to orbit, scroll to zoom; esc quits\n",
        f);
}

static void title_text(const demo_steps *st, char *out, size_t size) {
  char line[256];
  if (app.view == 1) {
    steps_describe(st, app.step, line, sizeof line);
    snprintf(out, size, "glradix-demo [sort] %s", line);
  } else if (app.view == 2) {
    snprintf(out, size,
             "glradix-demo [LBVH] depth %d of %d (%d boxes), %u points coloured by Morton order",
             view_bvh_depth(), view_bvh_max_depth(), view_bvh_boxes(), st->n);
  } else {
    view_rays_describe(line, sizeof line);
    snprintf(out, size, "glradix-demo [rays] %s", line);
  }
}

static void draw(const demo_steps *st, int w, int h) {
  if (app.view == 1)
    view_sort_draw(st, app.step, w, h);
  else if (app.view == 2)
    view_bvh_draw(&app.cam, w, h);
  else if (view_rays_draw(&app.cam, w, h))
    app.dirty = 1; /* the title shows the new trace's time */
}

/* ---- headless: render every step into an FBO and write PNGs ---- */
static int snapshot(const demo_steps *st, const char *dir, const char *name) {
  static unsigned char pixels[HEADLESS_W * HEADLESS_H * 4];
  char path[4096];
  draw(st, HEADLESS_W, HEADLESS_H);
  gl.ReadPixels(0, 0, HEADLESS_W, HEADLESS_H, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return png_write_rgba(path, pixels, HEADLESS_W, HEADLESS_H);
}

static int run_headless(const demo_steps *st, const char *dir) {
  GLuint fbo, rb[2];
  int ok = 1;
  char line[256], name[32];
  gl.GenFramebuffers(1, &fbo);
  gl.GenRenderbuffers(2, rb);
  gl.BindRenderbuffer(GL_RENDERBUFFER, rb[0]);
  gl.RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, HEADLESS_W, HEADLESS_H);
  gl.BindRenderbuffer(GL_RENDERBUFFER, rb[1]);
  gl.RenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, HEADLESS_W, HEADLESS_H);
  gl.BindFramebuffer(GL_FRAMEBUFFER, fbo);
  gl.FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
  gl.FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
  if (gl.CheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    fputs("glradix-demo: offscreen framebuffer incomplete\n", stderr);
    ok = 0;
  }
  if (dir && mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "glradix-demo: cannot create %s: %s\n", dir, strerror(errno));
    ok = 0;
  }
  app.view = 1;
  for (unsigned k = 0; k < DEMO_STEPS && ok; ++k) {
    app.step = k;
    steps_describe(st, k, line, sizeof line);
    printf("%s\n", line);
    snprintf(name, sizeof name, "sort_%02u.png", k);
    if (dir) ok = snapshot(st, dir, name);
    ok = ok && steps_verified(st, k);
  }
  app.view = 2;
  title_text(st, line, sizeof line);
  printf("%s\n", line + strlen("glradix-demo "));
  if (ok && dir) ok = snapshot(st, dir, "lbvh.png");
  app.view = 3;
  if (ok && dir)
    ok = snapshot(st, dir, "rays.png");
  else if (ok)
    draw(st, HEADLESS_W, HEADLESS_H); /* traced all the same, for the check */
  title_text(st, line, sizeof line);
  printf("%s\n", line + strlen("glradix-demo "));
  if (ok) {
    ok = view_rays_check(line, sizeof line);
    printf("%s\n", line);
  }
  gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
  gl.DeleteRenderbuffers(2, rb);
  gl.DeleteFramebuffers(1, &fbo);
  if (ok && gl.GetError() != GL_NO_ERROR) {
    fputs("glradix-demo: GL error while rendering\n", stderr);
    ok = 0;
  }
  return ok;
}

/* ---- window: input callbacks ---- */
static void on_key(GLFWwindow *win, int key, int scancode, int action, int mods) {
  (void)scancode;
  (void)mods;
  if (action == GLFW_RELEASE) return;
  switch (key) {
  case GLFW_KEY_ESCAPE: glfwSetWindowShouldClose(win, GLFW_TRUE); break;
  case GLFW_KEY_1: app.view = 1; break;
  case GLFW_KEY_2: app.view = 2; break;
  case GLFW_KEY_3: app.view = 3; break;
  case GLFW_KEY_SPACE:
  case GLFW_KEY_RIGHT: if (app.step + 1 < DEMO_STEPS) ++app.step; break;
  case GLFW_KEY_LEFT: if (app.step > 0) --app.step; break;
  case GLFW_KEY_R: app.step = 0; break;
  case GLFW_KEY_EQUAL:
  case GLFW_KEY_KP_ADD: view_bvh_set_depth(view_bvh_depth() + 1); break;
  case GLFW_KEY_MINUS:
  case GLFW_KEY_KP_SUBTRACT: view_bvh_set_depth(view_bvh_depth() - 1); break;
  default: return;
  }
  app.dirty = 1;
}

static void on_button(GLFWwindow *win, int button, int action, int mods) {
  (void)mods;
  if (button != GLFW_MOUSE_BUTTON_LEFT) return;
  app.dragging = action == GLFW_PRESS;
  glfwGetCursorPos(win, &app.mx, &app.my);
}

static void on_cursor(GLFWwindow *win, double x, double y) {
  (void)win;
  if (app.dragging) {
    app.cam.yaw -= (float)(x - app.mx) * 0.4f;
    app.cam.pitch += (float)(y - app.my) * 0.4f;
    if (app.cam.pitch > 89.0f) app.cam.pitch = 89.0f;
    if (app.cam.pitch < -89.0f) app.cam.pitch = -89.0f;
  }
  app.mx = x;
  app.my = y;
}

static void on_scroll(GLFWwindow *win, double dx, double dy) {
  (void)win;
  (void)dx;
  app.cam.dist *= dy > 0 ? 0.9f : 1.1f;
  if (app.cam.dist < 0.3f) app.cam.dist = 0.3f;
  if (app.cam.dist > 20.0f) app.cam.dist = 20.0f;
}

static void on_glfw_error(int code, const char *message) {
  fprintf(stderr, "glradix-demo: GLFW error 0x%x: %s\n", code, message);
}

static int run_window(GLFWwindow *win, const demo_steps *st, long frames) {
  char title[384];
  for (long f = 0; !glfwWindowShouldClose(win) && (frames <= 0 || f < frames); ++f) {
    int w = 0, h = 0;
    if (app.dirty) {
      title_text(st, title, sizeof title);
      glfwSetWindowTitle(win, title);
      app.dirty = 0;
    }
    glfwGetFramebufferSize(win, &w, &h);
    if (w > 0 && h > 0) draw(st, w, h);
    glfwSwapBuffers(win);
    glfwPollEvents();
  }
  return gl.GetError() == GL_NO_ERROR;
}

int main(int argc, char **argv) {
  int headless = 0, ok = 0;
  long frames = 0;
  unsigned long n = 0, seed = 1;
  const char *out = NULL, *obj = NULL;
  for (int i = 1; i < argc; ++i) {
    char *end = NULL;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--headless")) {
      headless = 1;
    } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
      out = argv[++i];
    } else if (!strcmp(argv[i], "--obj") && i + 1 < argc) {
      obj = argv[++i];
    } else if (!strcmp(argv[i], "--n") && i + 1 < argc) {
      n = strtoul(argv[++i], &end, 10);
      if (*end || n == 0 || n > (1ul << 26)) goto bad;
    } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
      seed = strtoul(argv[++i], &end, 10);
      if (*end) goto bad;
    } else if (!strcmp(argv[i], "--view") && i + 1 < argc) {
      app.view = (int)strtol(argv[++i], &end, 10);
      if (*end || app.view < 1 || app.view > 3) goto bad;
    } else if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
      frames = strtol(argv[++i], &end, 10);
      if (*end || frames < 0) goto bad;
    } else {
    bad:
      fprintf(stderr, "glradix-demo: bad argument '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    }
  }
  if (obj && n) {
    fputs("glradix-demo: --n does not go with --obj (the file's triangles are the points)\n",
          stderr);
    return 2;
  }
  if (n == 0) n = headless ? 32768u : 65536u;

  glradix_headless *hl = NULL;
  GLFWwindow *win = NULL;
  glradix_loadfunc load;
  if (headless) {
    glradix_status e = glradix_headless_create(&hl);
    if (e != GLRADIX_OK || !gladLoadGLContext(&gl, glradix_headless_load)) {
      fprintf(stderr, "glradix-demo: no headless GL 4.3 context: %s\n", glradix_status_string(e));
      glradix_headless_destroy(hl);
      return 1;
    }
    load = glradix_headless_load;
    printf("renderer: %s (headless, %s)\n", glradix_headless_renderer(hl),
           glradix_headless_platform(hl));
  } else {
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) {
      fputs("glradix-demo: glfwInit failed (no display? try --headless)\n", stderr);
      return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_DEPTH_BITS, 24);
    win = glfwCreateWindow(1280, 720, "glradix-demo", NULL, NULL);
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
    load = glfwGetProcAddress;
    glfwSetKeyCallback(win, on_key);
    glfwSetMouseButtonCallback(win, on_button);
    glfwSetCursorPosCallback(win, on_cursor);
    glfwSetScrollCallback(win, on_scroll);
    printf("renderer: %s (GLFW window)\n", (const char *)gl.GetString(GL_RENDERER));
  }

  demo_scene scene = {0};
  demo_steps steps;
  memset(&steps, 0, sizeof steps);
  if (obj ? !scene_load_obj(&scene, obj) : !scene_make(&scene, (uint32_t)n, seed)) {
    if (!obj) fputs("glradix-demo: out of memory\n", stderr);
  } else if (!steps_build(&steps, &scene, load) || !view_sort_init() ||
             !view_bvh_init(&scene, &steps, load) || !view_rays_init(&scene, load)) {
    fputs("glradix-demo: setup failed\n", stderr);
  } else if (headless) {
    ok = run_headless(&steps, out);
  } else {
    ok = steps.verified[DEMO_PASSES];
    printf("%u points, seed %lu: final pass verified %s\n", steps.n, seed, ok ? "yes" : "no");
    ok = run_window(win, &steps, frames) && ok;
  }
  view_rays_free();
  view_bvh_free();
  view_sort_free();
  steps_free(&steps);
  scene_free(&scene);
  if (headless) {
    glradix_headless_destroy(hl);
  } else {
    glfwDestroyWindow(win);
    glfwTerminate();
  }
  return ok ? 0 : 1;
}
