/* Installed-package consumer: headless context, 100000 random pairs through
 * glradix_sort_host, checked against a qsort-based stable reference. */
#include <glradix/glradix.h>
#include <glradix/headless.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 100000u

typedef struct item { uint32_t key, index; } item;

static int cmp_item(const void *a, const void *b) {
  const item *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

static void log_line(void *user, const char *message) {
  (void)user;
  fprintf(stderr, "glradix: %s\n", message);
}

int main(void) {
  static uint32_t keys[N], values[N], in_keys[N];
  static item ref[N];
  uint64_t s = 0x9E3779B97F4A7C15u;
  for (uint32_t i = 0; i < N; i++) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    keys[i] = in_keys[i] = (uint32_t)(s >> 32);
    values[i] = i;
    ref[i].key = keys[i];
    ref[i].index = i;
  }
  qsort(ref, N, sizeof ref[0], cmp_item);

  glradix_headless *h = NULL;
  glradix_status st = glradix_headless_create(&h);
  if (st != GLRADIX_OK) {
    fprintf(stderr, "headless context: %s\n", glradix_status_string(st));
    return 1;
  }
  glradix_desc desc = {0};
  desc.load = glradix_headless_load;
  desc.log = log_line;
  glradix_context *ctx = NULL;
  st = glradix_create(&desc, &ctx);
  if (st == GLRADIX_OK)
    st = glradix_sort_host(ctx, keys, values, N);
  if (st != GLRADIX_OK) {
    fprintf(stderr, "glradix: %s\n", glradix_status_string(st));
    return 1;
  }
  glradix_destroy(ctx);
  glradix_headless_destroy(h);

  for (uint32_t i = 0; i < N; i++) {
    if (keys[i] != ref[i].key || values[i] != ref[i].index ||
        in_keys[values[i] % N] != keys[i]) {
      fprintf(stderr, "mismatch at %u: got (%08x, %u), expected (%08x, %u)\n",
              i, keys[i], values[i], ref[i].key, ref[i].index);
      return 1;
    }
  }
  printf("package ok\n");
  return 0;
}
