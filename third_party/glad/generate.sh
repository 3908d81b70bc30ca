#!/bin/sh
# Regenerates the vendored glad2 loaders. Generator: Debian 12's python3-glad 2.0.2
# (`apt-get install python3-glad`). --reproducible uses the Khronos XML bundled
# with the generator, so the output only changes when the generator does.
set -e
cd "$(dirname "$0")"
rm -rf include
# GL 4.3 core and OpenGL ES 3.2 merged into one table (--merge): one
# GladGLContext that gladLoadGLContext fills for GL and gladLoadGLES2Context
# for ES. Multi-context (--mx): the function table lives in a struct the
# library owns, so no gl* symbols are defined or exported.
glad --quiet --reproducible --merge --out-path . \
     --api gl:core=4.3,gles2=3.2 \
     --extensions GL_KHR_shader_subgroup,GL_ARB_shader_ballot,GL_EXT_disjoint_timer_query,GL_EXT_memory_object,GL_EXT_memory_object_fd,GL_ARB_buffer_storage,GL_EXT_buffer_storage \
     c --mx --header-only
# EGL 1.5 with its own dlopen loader (--loader): no EGL headers or -lEGL needed.
glad --quiet --reproducible --out-path . \
     --api egl=1.5 \
     --extensions EGL_EXT_device_base,EGL_EXT_device_enumeration,EGL_EXT_device_query,EGL_EXT_platform_base,EGL_EXT_platform_device,EGL_MESA_platform_surfaceless,EGL_KHR_create_context,EGL_KHR_no_config_context,EGL_KHR_surfaceless_context \
     c --loader --header-only
