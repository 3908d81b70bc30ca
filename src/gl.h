/* The library's view of glad2's MX loader (third_party/glad, GL 4.3 core).
 * glad's two extern loader functions get library-private names so that a
 * host application which also vendors glad (MX or not) links cleanly against
 * the static library too. Include this, never <glad/gl.h> directly. */
#ifndef GLRADIX_GL_H
#define GLRADIX_GL_H
#define gladLoadGLContextUserPtr _glradix_glad_load_context_user_ptr
#define gladLoadGLContext _glradix_glad_load_context
#include <glad/gl.h>
#endif
