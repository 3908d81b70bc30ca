/* The one translation unit that holds glad's GL loader implementation. */
#define GLAD_GL_IMPLEMENTATION
#include "gl.h"
