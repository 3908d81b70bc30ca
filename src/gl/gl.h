/* The library's view of glad2's MX loader (third_party/glad: GL 4.3 core
 * and OpenGL ES 3.2 in one table). glad's extern loader functions get
 * library-private names so that a host application which also vendors glad
 * (MX or not) links cleanly against the static library too. Include this,
 * never <glad/gl.h> directly. */
#ifndef GLRADIX_GL_H
#define GLRADIX_GL_H
#define gladLoadGLContextUserPtr _glradix_glad_load_context_user_ptr
#define gladLoadGLContext _glradix_glad_load_context
#define gladLoadGLES2ContextUserPtr _glradix_glad_load_es_context_user_ptr
#define gladLoadGLES2Context _glradix_glad_load_es_context
#include <glad/gl.h>

/* gl_load.c: an OpenGL ES context's table (glad's ES loader, with the ES
 * extensions the library uses); returns glad's version, 0 on failure. */
int _glradix_load_gles(GladGLContext *gl, GLADuserptrloadfunc load, void *user);
#endif
