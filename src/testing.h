/* The library's one test hook: not API, declared in no installed header.
 * The test suites and tests/shader_sources.sh use it to run the programs
 * GPUs get on CI's llvmpipe, to write program sources instead of compiling
 * them, to break a shader on purpose, to fake limits below llvmpipe's and
 * a failed read-back map. Plain C types only, so that the tests include it
 * without the library's GL header. */
#ifndef GLRADIX_TESTING_H
#define GLRADIX_TESTING_H

#include <stdint.h>

#include "glradix/glradix.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a test changes of the forms glradix_create would choose (forms.c).
 * Zero or NULL fields change nothing; so do -1 in the int fields that say
 * so. */
typedef struct _glradix_test_hooks {
  int gpu_forms;          /* nonzero: a GPU's forms, whatever the renderer */
  unsigned subgroup_size; /* nonzero: shaders as for this subgroup size (dump_dir only) */
  int move_shared;        /* -1, or shuffle_scatter's MOVE_SHARED form (0, 1, 2) */
  int values_at;          /* -1, or shuffle_scatter's VALUES_AT (0, 1, 2) */
  int reverse_tiles;      /* -1, or whether shuffle_scatter may take tiles in reverse */
  uint32_t wide_from;     /* nonzero: wide tiles from this count, any GPU path */
  uint32_t lbvh_window;   /* nonzero: primitives per window of the LBVH leaves' gather */
  uint32_t lbvh_wg;       /* nonzero: invocations per work group of the LBVH tree pass */
  int64_t max_shared;     /* nonzero: the shared memory a work group may have */
  int max_invocations;    /* nonzero: the invocations a work group may have */
  const char *dump_dir;   /* non-NULL: write each program's source there, compile none */
  const char *break_shader; /* non-NULL: that stage's compile fails (an #error) */
  /* Storage-block limits below the driver's, down to OpenGL ES 3.1's 4
   * and under: nonzero stands for GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS or
   * GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS. */
  int max_blocks;
  int max_bindings;
  int exact_blocks; /* nonzero: a program whose active storage blocks differ from the count
                       in src/gl/contract.h fails to build */
  uint32_t fail_values_map; /* nonzero: glradix_sort_host of this many pairs on OpenGL ES finds
                               its map of the sorted values failed */
  uint32_t small_grid;      /* nonzero: a large grid from this many tiles and one */
  int plan;                 /* nonzero: the glradix_plan a context asking for the default gets */
  /* The single-pass plan's look-back (shuffle_scatter.comp), nonzero:
   * every force_fallback-th tile it looks at counted by the looking group;
   * every delay_tiles-th tile publishing nothing, as if it ran last. */
  uint32_t force_fallback;
  uint32_t delay_tiles;
  uint64_t import_from;      /* nonzero: scratch buffers of this many bytes and more imported */
  const char *vulkan_loader; /* non-NULL: the Vulkan loader's file name (one that is not
                                there stands for a machine without Vulkan) */
} _glradix_test_hooks;

#define _GLRADIX_TEST_HOOKS_NONE \
  {0, 0, -1, -1, -1, 0, 0, 0, 0, 0, NULL, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL}

/* The context's scratch buffers on imported memory, for the tests that
 * check the import is taken. */
unsigned _glradix_imported_scratch(const glradix_context *ctx);

/* glradix_create with the hooks applied; hooks NULL: glradix_create. Not
 * exported: the tests link the library's objects as the static
 * glradix_testing (src/CMakeLists.txt), where hidden symbols resolve. */
glradix_status _glradix_create_for_tests(const glradix_desc *desc,
                                         const _glradix_test_hooks *hooks,
                                         glradix_context **out);

#ifdef __cplusplus
}
#endif

#endif /* GLRADIX_TESTING_H */
