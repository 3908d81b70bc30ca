/*
 * glradix headless: an OpenGL 4.3 core or OpenGL ES 3.1+ context without a
 * window, through EGL.
 *
 * Optional helper for CI, benchmarks and batch tools. It loads libEGL.so.1 at
 * run time (no EGL headers or -lEGL needed to build). Order tried:
 * EGL_EXT_platform_device (each device: a real GPU such as NVIDIA headless),
 * then EGL_MESA_platform_surfaceless (Mesa, llvmpipe in CI). The environment
 * variable GLRADIX_EGL_PLATFORM=device|surfaceless forces one of them.
 * GLRADIX_EGL_API picks the client API: "gl" (the default) asks for GL 4.3
 * core, "gles" for OpenGL ES 3.2, else 3.1 (glradix_create takes either).
 *
 * Thread rules: create/destroy are not thread-safe with respect to each
 * other (the EGL loader is process-wide). The context is made current on the
 * creating thread; it stays usable only there. Create binds EGL_OPENGL_API
 * on that thread (eglBindAPI: EGL_OPENGL_API, or EGL_OPENGL_ES_API for
 * "gles"), the API its context is current for;
 * destroy gives back whatever API is bound when it is called. The loader
 * and the two queries may be called from any thread, but not while
 * another thread creates or destroys.
 */
#ifndef GLRADIX_HEADLESS_H
#define GLRADIX_HEADLESS_H

#include "glradix.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct glradix_headless glradix_headless;

/**
 * Creates a GL 4.3 core context (GLRADIX_EGL_API=gles: OpenGL ES 3.2 or
 * 3.1) with no surface and makes it current on the calling thread.
 *
 * @errors GLRADIX_ERROR_INVALID_ARGUMENT (out NULL, GLRADIX_EGL_PLATFORM or
 *         GLRADIX_EGL_API unknown), GLRADIX_ERROR_UNSUPPORTED (no libEGL, no
 *         usable platform or no such context), GLRADIX_ERROR_OUT_OF_MEMORY. The reason goes
 *         to stderr only if GLRADIX_HEADLESS_VERBOSE is set. *out is NULL on error.
 */
GLRADIX_API glradix_status glradix_headless_create(glradix_headless **out);

/** A glradix_loadfunc for headless contexts (eglGetProcAddress). Returns
 *  NULL unless a glradix_headless object is alive (libEGL is unloaded with
 *  the last one). */
GLRADIX_API glradix_apiproc glradix_headless_load(const char *name);

/** GL_RENDERER of the context ("llvmpipe (LLVM 15.0.6, 256 bits)", ...);
 *  NULL if h is NULL. Valid until h is destroyed. */
GLRADIX_API const char *glradix_headless_renderer(const glradix_headless *h);

/** Which EGL platform the context came from: "device" or "surfaceless";
 *  NULL if h is NULL. */
GLRADIX_API const char *glradix_headless_platform(const glradix_headless *h);

/** The context's client API: "gl" (OpenGL 4.3 core) or "gles" (OpenGL ES,
 *  whose GL table a glad2 user loads with gladLoadGLES2Context); NULL if h
 *  is NULL. */
GLRADIX_API const char *glradix_headless_api(const glradix_headless *h);

/** Releases the context (and makes no context current if it was). NULL is a no-op. */
GLRADIX_API void glradix_headless_destroy(glradix_headless *h);

#ifdef __cplusplus
}
#endif
#endif /* GLRADIX_HEADLESS_H */
