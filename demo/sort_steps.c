/*
 * The sort, pass by pass. Inside pass k, the keys after the local shuffle
 * (each tile stably split by the pass's digit; the scan then changes only
 * the bucket offsets) come from glradix_sort_inspect on a fresh copy of the
 * input.
 *
 * The state after pass k needs the values as well as the keys (they are
 * checked against the CPU reference, and the last state's order colours the
 * LBVH view), and glradix_sort_inspect copies keys only. So that state is
 * made by sorting a fresh copy of the input on bits [0, 2k) with a
 * radix_bits = 2 context: LSD radix sort is stable, so that is exactly the
 * state after k passes of the full sort. Pass k alone (bits [2k-2, 2k) of
 * the state after k-1 passes) is run again on a profiling context for its
 * per-stage GPU times.
 */
#include "demo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One stable counting-sort pass on the CPU: the reference for pass k. */
static void cpu_pass(uint32_t *k, uint32_t *v, uint32_t *tk, uint32_t *tv, uint32_t n,
                     unsigned shift) {
  uint32_t start[4] = {0, 0, 0, 0};
  for (uint32_t i = 0; i < n; ++i) ++start[(k[i] >> shift) & 3u];
  for (uint32_t sum = 0, d = 0; d < 4; ++d) {
    uint32_t c = start[d];
    start[d] = sum;
    sum += c;
  }
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t at = start[(k[i] >> shift) & 3u]++;
    tk[at] = k[i];
    tv[at] = v[i];
  }
  memcpy(k, tk, (size_t)n * 4);
  memcpy(v, tv, (size_t)n * 4);
}

/* Independent of the LSD reference: sorted by key, ties by index (stable),
 * and every (key, index) pair is an input pair. */
static int fully_sorted(const uint32_t *codes, const uint32_t *k, const uint32_t *v, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    if (v[i] >= n || codes[v[i]] != k[i]) return 0;
    if (i > 0 && (k[i - 1] > k[i] || (k[i - 1] == k[i] && v[i - 1] >= v[i]))) return 0;
  }
  return 1;
}

static GLuint copy_of(GLuint src, size_t bytes) {
  GLuint b = demo_buffer(NULL, bytes);
  gl.BindBuffer(GL_COPY_READ_BUFFER, src);
  gl.BindBuffer(GL_COPY_WRITE_BUFFER, b);
  gl.CopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, (GLsizeiptr)bytes);
  gl.BindBuffer(GL_COPY_READ_BUFFER, 0);
  gl.BindBuffer(GL_COPY_WRITE_BUFFER, 0);
  return b;
}

static int same(GLuint buf, const uint32_t *want, uint32_t *tmp, uint32_t n) {
  demo_read(buf, tmp, (size_t)n * 4);
  return memcmp(tmp, want, (size_t)n * 4) == 0;
}

/* CPU reference for pass k's local shuffle: each tile of the state after
 * pass k - 1 stably split by the pass's digit. */
static void cpu_shuffle(const uint32_t *prev, uint32_t *out, uint32_t n, uint32_t tile,
                        unsigned shift) {
  for (uint32_t t = 0; t < n; t += tile) {
    uint32_t end = n - t < tile ? n : t + tile, at = t;
    for (uint32_t d = 0; d < 4; ++d)
      for (uint32_t i = t; i < end; ++i)
        if (((prev[i] >> shift) & 3u) == d) out[at++] = prev[i];
  }
}

static glradix_context *make_ctx(glradix_loadfunc load, int profile) {
  glradix_desc d = {0};
  glradix_context *ctx = NULL;
  d.load = load;
  d.radix_bits = 2;
  d.log = demo_log;
  d.profile = profile;
  /* the plan whose stages the steps show: local_shuffle, scan, global_scatter */
  d.plan = GLRADIX_PLAN_SCAN_THEN_PROPAGATE;
  glradix_status s = glradix_create(&d, &ctx);
  if (s != GLRADIX_OK)
    fprintf(stderr, "glradix-demo: glradix_create failed: %s\n", glradix_status_string(s));
  return ctx;
}

int steps_build(demo_steps *st, const demo_scene *s, glradix_loadfunc load) {
  const uint32_t n = s->n;
  const size_t bytes = (size_t)n * 4;
  int ok = 1;
  uint32_t *rk = malloc(bytes), *rv = malloc(bytes), *tk = malloc(bytes), *tv = malloc(bytes);
  glradix_context *ctx = make_ctx(load, 0), *prof = make_ctx(load, 1);
  memset(st, 0, sizeof *st);
  st->n = n;
  if (!rk || !rv || !tk || !tv || !ctx || !prof) {
    ok = 0;
    goto done;
  }
  memcpy(rk, s->codes, bytes);
  for (uint32_t i = 0; i < n; ++i) rv[i] = i;
  st->keys[0] = demo_buffer(rk, bytes);
  st->vals[0] = demo_buffer(rv, bytes);
  st->verified[0] = 1;
  for (unsigned k = 1; k <= DEMO_PASSES && ok; ++k) {
    glradix_sort_desc sd = {0};
    glradix_status e;
    /* Pass k stopped after its local shuffle, from a fresh copy. */
    cpu_shuffle(rk, tk, n, glradix_tile_size(ctx), 2 * (k - 1));
    GLuint fresh = copy_of(st->keys[0], bytes);
    st->shuf_keys[k] = demo_buffer(NULL, bytes);
    glradix_sort_desc in = {0};
    in.keys = fresh;
    in.count = n;
    in.end_bit = DEMO_KEY_BITS;
    glradix_status ie = glradix_sort_inspect(ctx, &in, k - 1, GLRADIX_STAGE_LOCAL_SHUFFLE,
                                             st->shuf_keys[k]);
    st->shuf_verified[k] = ie == GLRADIX_OK && same(st->shuf_keys[k], tk, tv, n);
    gl.DeleteBuffers(1, &fresh);
    cpu_pass(rk, rv, tk, tv, n, 2 * (k - 1));
    /* State after k passes: a fresh copy of the input, bits [0, 2k). */
    st->keys[k] = copy_of(st->keys[0], bytes);
    st->vals[k] = copy_of(st->vals[0], bytes);
    sd.keys = st->keys[k];
    sd.values = st->vals[k];
    sd.count = n;
    sd.begin_bit = 0;
    sd.end_bit = 2 * k;
    e = glradix_sort(ctx, &sd);
    /* Pass k alone on the profiling context, from the state after k-1. */
    GLuint pk = copy_of(st->keys[k - 1], bytes), pv = copy_of(st->vals[k - 1], bytes);
    sd.keys = pk;
    sd.values = pv;
    sd.begin_bit = 2 * (k - 1);
    if (e == GLRADIX_OK) e = glradix_sort(prof, &sd);
    if (e == GLRADIX_OK) e = glradix_query_stage_times(prof, &st->times[k]);
    if (e != GLRADIX_OK) {
      fprintf(stderr, "glradix-demo: pass %u failed: %s\n", k, glradix_status_string(e));
      ok = 0;
    } else {
      st->verified[k] = same(st->keys[k], rk, tk, n) && same(st->vals[k], rv, tk, n) &&
                        same(pk, rk, tk, n) && same(pv, rv, tk, n);
      if (k == DEMO_PASSES) st->verified[k] = st->verified[k] && fully_sorted(s->codes, rk, rv, n);
    }
    gl.DeleteBuffers(1, &pk);
    gl.DeleteBuffers(1, &pv);
  }
  for (unsigned k = 0; k <= DEMO_PASSES; ++k) {
    if (!st->keys[k]) continue;
    st->key_tex[k] = demo_texbuf(st->keys[k], GL_R32UI);
    st->val_tex[k] = demo_texbuf(st->vals[k], GL_R32UI);
    if (st->shuf_keys[k]) st->shuf_tex[k] = demo_texbuf(st->shuf_keys[k], GL_R32UI);
  }
done:
  glradix_destroy(ctx);
  glradix_destroy(prof);
  free(rk);
  free(rv);
  free(tk);
  free(tv);
  return ok;
}

void steps_free(demo_steps *st) {
  for (unsigned k = 0; k <= DEMO_PASSES; ++k) {
    gl.DeleteTextures(1, &st->shuf_tex[k]);
    gl.DeleteBuffers(1, &st->shuf_keys[k]);
    gl.DeleteTextures(1, &st->key_tex[k]);
    gl.DeleteTextures(1, &st->val_tex[k]);
    gl.DeleteBuffers(1, &st->keys[k]);
    gl.DeleteBuffers(1, &st->vals[k]);
  }
  memset(st, 0, sizeof *st);
}

GLuint steps_key_tex(const demo_steps *st, unsigned step) {
  return step % 2 ? st->shuf_tex[(step + 1) / 2] : st->key_tex[step / 2];
}

unsigned steps_digit_shift(unsigned step) { return step == 0 ? 0u : 2u * ((step - 1) / 2); }

int steps_verified(const demo_steps *st, unsigned step) {
  return step % 2 ? st->shuf_verified[(step + 1) / 2] : st->verified[step / 2];
}

/* The line shown in the window title and printed in headless mode. */
void steps_describe(const demo_steps *st, unsigned step, char *out, size_t size) {
  if (step == 0) {
    snprintf(out, size, "step  0/%u  input (%u Morton codes, colour = digit of pass 1, bits [0,2))",
             DEMO_STEPS - 1, st->n);
    return;
  }
  unsigned k = (step + 1) / 2;
  if (step % 2) {
    snprintf(out, size,
             "step %2u/%u  pass %2u bits [%2u,%2u) after local shuffle + scan (tiles split by "
             "digit)  shuffle %.3f ms  scan %.3f ms  verified %s",
             step, DEMO_STEPS - 1, k, 2 * (k - 1), 2 * k, st->times[k].tiles_ms,
             st->times[k].scan_ms, st->shuf_verified[k] ? "yes" : "no");
    return;
  }
  const glradix_stage_times *t = &st->times[k];
  snprintf(out, size,
           "step %2u/%u  pass %2u bits [%2u,%2u) after global scatter  scatter %.3f ms  "
           "pass total %.3f ms  verified %s",
           step, DEMO_STEPS - 1, k, 2 * (k - 1), 2 * k, t->scatter_ms, t->total_ms,
           st->verified[k] ? "yes" : "no");
}
