/* glradix_lbvh_glsl: the text of include/glradix/lbvh.glsl, embedded at
 * build time (src/CMakeLists.txt), so that programs that build shader
 * strings at run time need not find the installed file. */
#include "glradix/lbvh.h"

#include "lbvh_glsl_gen.h"

const char *glradix_lbvh_glsl(void) { return _glradix_shader_lbvh; }
