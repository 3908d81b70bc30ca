/* The one translation unit that holds glad's GL loader implementation. */
#define GLAD_GL_IMPLEMENTATION
#include "gl.h"

/* glad 2.0.2 generates the merged table's ES extension search empty, so
 * gladLoadGLES2Context reports no ES extension: the ones the library uses
 * are looked up here with glad's own helpers, and their entry points
 * loaded. */
int _glradix_load_gles(GladGLContext *gl, GLADuserptrloadfunc load, void *user) {
  int version = gladLoadGLES2ContextUserPtr(gl, load, user);
  const char *exts = NULL;
  unsigned int count = 0;
  char **exts_i = NULL;
  if (version == 0 || !glad_gl_get_extensions(gl, version, &exts, &count, &exts_i)) return version;
  gl->KHR_shader_subgroup = glad_gl_has_extension(version, exts, count, exts_i, "GL_KHR_shader_subgroup");
  gl->EXT_disjoint_timer_query =
      glad_gl_has_extension(version, exts, count, exts_i, "GL_EXT_disjoint_timer_query");
  gl->EXT_memory_object = glad_gl_has_extension(version, exts, count, exts_i, "GL_EXT_memory_object");
  gl->EXT_memory_object_fd =
      glad_gl_has_extension(version, exts, count, exts_i, "GL_EXT_memory_object_fd");
  gl->EXT_buffer_storage = glad_gl_has_extension(version, exts, count, exts_i, "GL_EXT_buffer_storage");
  glad_gl_free_extensions(exts_i, count);
  glad_gl_load_GL_EXT_disjoint_timer_query(gl, load, user);
  glad_gl_load_GL_EXT_memory_object(gl, load, user);
  glad_gl_load_GL_EXT_memory_object_fd(gl, load, user);
  glad_gl_load_GL_EXT_buffer_storage(gl, load, user);
  return version;
}
