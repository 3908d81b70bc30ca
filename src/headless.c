/*
 * glradix headless: a surfaceless OpenGL 4.3 core or OpenGL ES 3.2/3.1
 * context through EGL.
 *
 * libEGL.so.1 is loaded at run time by the vendored glad2 EGL loader, so the
 * library needs neither EGL headers nor -lEGL. This is the only translation
 * unit that includes glad/egl.h (it also holds glad's implementation).
 */
#define GLAD_EGL_IMPLEMENTATION
#include <glad/egl.h>

#include <glradix/headless.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GL token used here; no GL header is included. */
#define GL_RENDERER 0x1F01

typedef const unsigned char *(GLAD_API_PTR *get_string_fn)(unsigned int name);

/* The client API asked for (GLRADIX_EGL_API): the context versions tried
 * in order, each a MAJOR, MINOR pair. */
typedef struct api_request {
  const char *name;   /* "gl" or "gles" */
  EGLenum api;        /* for eglBindAPI */
  EGLint renderable;  /* EGL_RENDERABLE_TYPE bit of a config */
  EGLint versions[2][2];
  int version_count;
} api_request;

static const api_request API_GL = {"gl", EGL_OPENGL_API, EGL_OPENGL_BIT, {{4, 3}}, 1};
/* ES 3.1 is what compute shaders need; 3.2 first, as Mesa offers it. */
static const api_request API_GLES = {"gles", EGL_OPENGL_ES_API, EGL_OPENGL_ES3_BIT,
                                     {{3, 2}, {3, 1}}, 2};

struct glradix_headless {
  EGLDisplay dpy;
  EGLContext ctx;
  const char *platform;           /* "device" or "surfaceless" (static) */
  const api_request *api;
  struct glradix_headless *next;  /* live list, see below */
  char renderer[];
};

/* Every live object. EGL returns the same EGLDisplay for the same platform
 * and device, and eglTerminate is not reference counted, so a display is
 * terminated only once no live object uses it. The list is also the
 * refcount for unloading libEGL (see the header: create/destroy are not
 * thread-safe, so no lock). */
static glradix_headless *live;

/* Why creation failed, gathered across the platforms and devices tried. */
typedef struct reasons {
  char text[1024];
  size_t len;
} reasons;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void note(reasons *r, const char *fmt, ...)
{
  size_t room = sizeof r->text - r->len;
  int n;
  va_list ap;
  if (r->len > 0 && room > 2) {
    memcpy(r->text + r->len, "; ", 3);
    r->len += 2;
    room -= 2;
  }
  va_start(ap, fmt);
  n = vsnprintf(r->text + r->len, room, fmt, ap);
  va_end(ap);
  if (n > 0)
    r->len += (size_t)n < room ? (size_t)n : room - 1;
}

static glradix_status fail(const reasons *r, glradix_status status)
{
  if (getenv("GLRADIX_HEADLESS_VERBOSE"))
    fprintf(stderr, "glradix headless: %s\n", r->len ? r->text : "failed");
  return status;
}

static unsigned egl_error(void)
{
  return (unsigned)eglGetError();
}

static int display_in_use(EGLDisplay dpy)
{
  const glradix_headless *h;
  for (h = live; h; h = h->next)
    if (h->dpy == dpy)
      return 1;
  return 0;
}

/* Undoes eglInitialize, unless another live object shares the display. */
static void release_display(EGLDisplay dpy)
{
  if (!display_in_use(dpy))
    eglTerminate(dpy);
}

/* A context of one of the request's versions (EGL_NO_CONTEXT if none). */
static EGLContext create_context(EGLDisplay dpy, EGLConfig config, const api_request *api)
{
  EGLContext ctx = EGL_NO_CONTEXT;
  int i;
  for (i = 0; i < api->version_count && ctx == EGL_NO_CONTEXT; i++) {
    EGLint attribs[] = {
      EGL_CONTEXT_MAJOR_VERSION, api->versions[i][0],
      EGL_CONTEXT_MINOR_VERSION, api->versions[i][1],
      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
      EGL_NONE
    };
    if (api->api != EGL_OPENGL_API)
      attribs[4] = EGL_NONE; /* profiles are GL's only */
    ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, attribs);
  }
  return ctx;
}

/* Initialises dpy and makes a context of the requested API current on it.
 * On failure everything done here is undone (the thread's previous context
 * is made current again) and UNSUPPORTED or OUT_OF_MEMORY is returned. */
static glradix_status open_display(EGLDisplay dpy, const char *platform, const char *label,
                                   const api_request *api, reasons *r, glradix_headless **out)
{
  const EGLint config_attribs[] = {
    EGL_SURFACE_TYPE, 0, /* no surface is ever created */
    EGL_RENDERABLE_TYPE, api->renderable,
    EGL_NONE
  };
  EGLint major = 0, minor = 0, nconfig = 0;
  EGLConfig config = EGL_NO_CONFIG_KHR;
  EGLContext ctx;
  EGLDisplay prev_dpy;
  EGLContext prev_ctx;
  EGLSurface prev_draw, prev_read;
  __eglMustCastToProperFunctionPointerType proc;
  get_string_fn get_string;
  const unsigned char *renderer;
  glradix_headless *h;
  size_t len;
  glradix_status status = GLRADIX_ERROR_UNSUPPORTED;

  if (!eglInitialize(dpy, &major, &minor)) {
    note(r, "%s: eglInitialize failed (EGL error 0x%04x)", label, egl_error());
    return GLRADIX_ERROR_UNSUPPORTED;
  }
  /* Only now, with an initialised display, does glad see EGL 1.2+ entry
   * points (eglBindAPI, eglGetCurrentContext) and display extensions. */
  if (!gladLoaderLoadEGL(dpy)) {
    note(r, "%s: loading EGL %d.%d entry points failed", label, (int)major, (int)minor);
    goto fail_display;
  }
  if (!GLAD_EGL_VERSION_1_4 || !eglBindAPI || !eglGetCurrentContext) {
    note(r, "%s: EGL %d.%d is older than 1.4", label, (int)major, (int)minor);
    goto fail_display;
  }
  if (!GLAD_EGL_VERSION_1_5 && !GLAD_EGL_KHR_create_context) {
    note(r, "%s: no EGL_KHR_create_context (cannot ask for a version)", label);
    goto fail_display;
  }
  if (!GLAD_EGL_KHR_surfaceless_context) {
    note(r, "%s: no EGL_KHR_surfaceless_context", label);
    goto fail_display;
  }
  if (!eglBindAPI(api->api)) {
    note(r, "%s: eglBindAPI(%s) failed (EGL error 0x%04x)", label, api->name, egl_error());
    goto fail_display;
  }
  if (!GLAD_EGL_KHR_no_config_context) {
    if (!eglChooseConfig(dpy, config_attribs, &config, 1, &nconfig) || nconfig < 1) {
      note(r, "%s: no EGLConfig renders %s (EGL error 0x%04x)", label, api->name, egl_error());
      goto fail_display;
    }
  }
  ctx = create_context(dpy, config, api);
  if (ctx == EGL_NO_CONTEXT) {
    note(r, "%s: eglCreateContext(%s %d.%d) failed (EGL error 0x%04x)", label, api->name,
         (int)api->versions[api->version_count - 1][0],
         (int)api->versions[api->version_count - 1][1], egl_error());
    goto fail_display;
  }

  /* Remembered so that a failed create leaves the thread as it found it. */
  prev_dpy = eglGetCurrentDisplay();
  prev_ctx = eglGetCurrentContext();
  prev_draw = eglGetCurrentSurface(EGL_DRAW);
  prev_read = eglGetCurrentSurface(EGL_READ);
  if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
    note(r, "%s: eglMakeCurrent without surface failed (EGL error 0x%04x)", label, egl_error());
    goto fail_context;
  }

  proc = eglGetProcAddress("glGetString");
  get_string = (get_string_fn)proc;
  renderer = get_string ? get_string(GL_RENDERER) : NULL;
  if (!renderer) {
    note(r, "%s: glGetString(GL_RENDERER) failed", label);
    goto fail_current;
  }
  len = strlen((const char *)renderer);
  h = malloc(sizeof *h + len + 1);
  if (!h) {
    note(r, "%s: out of memory", label);
    status = GLRADIX_ERROR_OUT_OF_MEMORY;
    goto fail_current;
  }
  h->dpy = dpy;
  h->ctx = ctx;
  h->platform = platform;
  h->api = api;
  memcpy(h->renderer, renderer, len + 1);
  h->next = live;
  live = h;
  *out = h;
  return GLRADIX_OK;

fail_current:
  if (prev_ctx != EGL_NO_CONTEXT && prev_dpy != EGL_NO_DISPLAY)
    eglMakeCurrent(prev_dpy, prev_draw, prev_read, prev_ctx);
  else
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
fail_context:
  eglDestroyContext(dpy, ctx);
fail_display:
  release_display(dpy);
  return status;
}

static glradix_status try_devices(const api_request *api, reasons *r, glradix_headless **out)
{
  EGLint count = 0, i;
  EGLDeviceEXT *devices;
  glradix_status status = GLRADIX_ERROR_UNSUPPORTED;

  if (!eglQueryDevicesEXT(0, NULL, &count) || count < 1) {
    note(r, "device: no EGL devices (EGL error 0x%04x)", egl_error());
    return GLRADIX_ERROR_UNSUPPORTED;
  }
  devices = malloc((size_t)count * sizeof *devices);
  if (!devices) {
    note(r, "device: out of memory");
    return GLRADIX_ERROR_OUT_OF_MEMORY;
  }
  if (!eglQueryDevicesEXT(count, devices, &count))
    count = 0;
  for (i = 0; i < count; i++) {
    char label[32];
    EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
    snprintf(label, sizeof label, "device %d", (int)i);
    if (dpy == EGL_NO_DISPLAY) {
      note(r, "%s: eglGetPlatformDisplayEXT failed (EGL error 0x%04x)", label, egl_error());
      continue;
    }
    status = open_display(dpy, "device", label, api, r, out);
    if (status != GLRADIX_ERROR_UNSUPPORTED)
      break; /* success, or out of memory: no point trying further */
  }
  free(devices);
  return status;
}

static glradix_status try_surfaceless(const api_request *api, reasons *r,
                                      glradix_headless **out)
{
  EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
  if (dpy == EGL_NO_DISPLAY) {
    note(r, "surfaceless: eglGetPlatformDisplayEXT failed (EGL error 0x%04x)", egl_error());
    return GLRADIX_ERROR_UNSUPPORTED;
  }
  return open_display(dpy, "surfaceless", "surfaceless", api, r, out);
}

GLRADIX_API glradix_status glradix_headless_create(glradix_headless **out)
{
  reasons r;
  const char *force;
  const api_request *api = &API_GL;
  int want_device = 1, want_surfaceless = 1;
  int has_device, has_surfaceless;
  glradix_status status = GLRADIX_ERROR_UNSUPPORTED;

  r.len = 0;
  r.text[0] = '\0';
  if (!out) {
    note(&r, "out is NULL");
    return fail(&r, GLRADIX_ERROR_INVALID_ARGUMENT);
  }
  *out = NULL;

  /* An empty value counts as unset, so CI can clear it with "VAR=". */
  force = getenv("GLRADIX_EGL_PLATFORM");
  if (force && *force) {
    if (strcmp(force, "device") == 0) {
      want_surfaceless = 0;
    } else if (strcmp(force, "surfaceless") == 0) {
      want_device = 0;
    } else {
      note(&r, "GLRADIX_EGL_PLATFORM=%s: expected \"device\" or \"surfaceless\"", force);
      return fail(&r, GLRADIX_ERROR_INVALID_ARGUMENT);
    }
  }
  force = getenv("GLRADIX_EGL_API");
  if (force && *force) {
    if (strcmp(force, "gles") == 0) {
      api = &API_GLES;
    } else if (strcmp(force, "gl") != 0) {
      note(&r, "GLRADIX_EGL_API=%s: expected \"gl\" or \"gles\"", force);
      return fail(&r, GLRADIX_ERROR_INVALID_ARGUMENT);
    }
  }

  /* Without a display glad loads EGL 1.0 and the client extensions only. */
  if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) {
    note(&r, "cannot load libEGL.so.1 (or it lacks eglGetProcAddress)");
    if (!live)
      gladLoaderUnloadEGL();
    return fail(&r, GLRADIX_ERROR_UNSUPPORTED);
  }
  /* Captured now: loading with a display below overwrites glad's extension
   * flags with that display's (non-client) extensions. */
  has_device = GLAD_EGL_EXT_platform_base && GLAD_EGL_EXT_platform_device &&
               (GLAD_EGL_EXT_device_enumeration || GLAD_EGL_EXT_device_base) &&
               eglGetPlatformDisplayEXT && eglQueryDevicesEXT;
  has_surfaceless = GLAD_EGL_EXT_platform_base && GLAD_EGL_MESA_platform_surfaceless &&
                    eglGetPlatformDisplayEXT;

  if (want_device) {
    if (has_device)
      status = try_devices(api, &r, out);
    else
      note(&r, "device: EGL_EXT_platform_device not offered");
  }
  if (status == GLRADIX_ERROR_UNSUPPORTED && want_surfaceless) {
    if (has_surfaceless)
      status = try_surfaceless(api, &r, out);
    else
      note(&r, "surfaceless: EGL_MESA_platform_surfaceless not offered");
  }
  if (status == GLRADIX_OK)
    return GLRADIX_OK;
  if (!live)
    gladLoaderUnloadEGL();
  return fail(&r, status);
}

GLRADIX_API glradix_apiproc glradix_headless_load(const char *name)
{
  /* libEGL is unloaded when the last object goes: its pointers dangle then. */
  if (!name || !live)
    return NULL;
  /* __eglMustCastToProperFunctionPointerType is void (*)(void) as well. */
  return eglGetProcAddress(name);
}

GLRADIX_API const char *glradix_headless_renderer(const glradix_headless *h)
{
  return h ? h->renderer : NULL;
}

GLRADIX_API const char *glradix_headless_platform(const glradix_headless *h)
{
  return h ? h->platform : NULL;
}

GLRADIX_API const char *glradix_headless_api(const glradix_headless *h)
{
  return h ? h->api->name : NULL;
}

GLRADIX_API void glradix_headless_destroy(glradix_headless *h)
{
  glradix_headless **link;
  EGLenum api;

  if (!h)
    return;
  /* eglGetCurrentContext and releasing with EGL_NO_CONTEXT both act on the
   * thread's bound API, which the application may have changed: bound for
   * them, then given back. */
  api = eglQueryAPI();
  eglBindAPI(h->api->api);
  if (eglGetCurrentContext() == h->ctx)
    eglMakeCurrent(h->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(h->dpy, h->ctx);
  if (api != h->api->api) eglBindAPI(api);

  for (link = &live; *link; link = &(*link)->next) {
    if (*link == h) {
      *link = h->next;
      break;
    }
  }
  release_display(h->dpy);
  if (!live)
    gladLoaderUnloadEGL();
  free(h);
}
