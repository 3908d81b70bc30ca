/* The test executables' own GL loader: glad2 header-only, MX. Exactly one
 * translation unit per executable defines the implementation. */
#define GLAD_GL_IMPLEMENTATION
#include <glad/gl.h>
