/* The program forms a suite runs with, from GLRADIX_TEST_FORMS
 * (tests/CMakeLists.txt sets it for the *_gpu_forms runs): words
 * separated by spaces, each "gpu", "cpu" (the driver's forms, not a
 * GPU's) or NAME=NUMBER of _glradix_test_hooks'
 * fields move, values_at, reverse, wide_from, lbvh_window, lbvh_wg,
 * small_grid, shared, invocations, blocks, bindings, plan, fallback
 * (force_fallback), delay (delay_tiles), import (import_from, bytes); or
 * "no_vulkan" (a Vulkan loader that is not there). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forms_env.h"

static int parse(const char *text, _glradix_test_hooks *h) {
  const _glradix_test_hooks none = _GLRADIX_TEST_HOOKS_NONE;
  *h = none;
  h->gpu_forms = 1; /* every run with forms set takes a GPU's */
  /* large grids from 17 tiles (512 on every driver): at the suites' sizes
   * on llvmpipe, and one set of programs for every run that names no other */
  h->small_grid = 16;
  char word[64];
  int used = 0;
  while (sscanf(text, " %63s%n", word, &used) == 1) {
    text += used;
    char *eq = strchr(word, '=');
    long v = eq ? strtol(eq + 1, NULL, 10) : 0;
    if (eq) *eq = '\0';
    if (strcmp(word, "gpu") == 0) continue;
    if (strcmp(word, "cpu") == 0) { /* the driver's own forms, with the words that follow */
      h->gpu_forms = 0;
      h->small_grid = 0;
      continue;
    }
    if (strcmp(word, "no_vulkan") == 0) {
      h->vulkan_loader = "libglradix-no-such-vulkan.so";
      continue;
    }
    if (!eq) return 0;
    if (strcmp(word, "move") == 0) h->move_shared = (int)v;
    else if (strcmp(word, "values_at") == 0) h->values_at = (int)v;
    else if (strcmp(word, "reverse") == 0) h->reverse_tiles = (int)v;
    else if (strcmp(word, "wide_from") == 0) h->wide_from = (uint32_t)v;
    else if (strcmp(word, "lbvh_window") == 0) h->lbvh_window = (uint32_t)v;
    else if (strcmp(word, "lbvh_wg") == 0) h->lbvh_wg = (uint32_t)v;
    else if (strcmp(word, "small_grid") == 0) h->small_grid = (uint32_t)v;
    else if (strcmp(word, "shared") == 0) h->max_shared = v;
    else if (strcmp(word, "invocations") == 0) h->max_invocations = (int)v;
    else if (strcmp(word, "blocks") == 0) h->max_blocks = (int)v;
    else if (strcmp(word, "bindings") == 0) h->max_bindings = (int)v;
    else if (strcmp(word, "plan") == 0) h->plan = (int)v;
    else if (strcmp(word, "fallback") == 0) h->force_fallback = (uint32_t)v;
    else if (strcmp(word, "delay") == 0) h->delay_tiles = (uint32_t)v;
    else if (strcmp(word, "import") == 0) h->import_from = (uint64_t)v;
    else return 0;
  }
  return 1;
}

const _glradix_test_hooks *test_forms(void) {
  static _glradix_test_hooks hooks;
  static int state; /* 0 unread, 1 none, 2 set */
  if (state == 0) {
    const char *env = getenv("GLRADIX_TEST_FORMS");
    state = 1;
    if (env && *env) {
      if (!parse(env, &hooks)) {
        fprintf(stderr, "GLRADIX_TEST_FORMS=\"%s\": unknown word\n", env);
        exit(2);
      }
      state = 2;
    }
  }
  return state == 2 ? &hooks : NULL;
}

int test_fallback_run(void) {
  return test_forms() && test_forms()->plan == GLRADIX_PLAN_ONESWEEP;
}

glradix_status test_create(const glradix_desc *desc, glradix_context **out) {
  /* Every program the suites build has its storage blocks, as the driver
   * counts them, checked against the count the limit check uses
   * (src/gl/contract.h): any difference fails the build of the program. */
  const _glradix_test_hooks none = _GLRADIX_TEST_HOOKS_NONE;
  _glradix_test_hooks hooks = test_forms() ? *test_forms() : none;
  hooks.exact_blocks = 1;
  return _glradix_create_for_tests(desc, &hooks, out);
}
