#define _GNU_SOURCE /* RTLD_NODELETE */
#include "pin_mesa.h"

#include <dlfcn.h>
#include <stddef.h>

void test_pin_mesa(void) {
  static const char *const pinned[] = {"libEGL.so.1", "libEGL_mesa.so.0", "libglapi.so.0",
                                       "libgbm.so.1", "libLLVM-15.so.1",
                                       "/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so"};
  for (size_t i = 0; i < sizeof pinned / sizeof pinned[0]; i++)
    (void)dlopen(pinned[i], RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE);
}
