/* glradix-bench --lbvh: Morton codes + sort + LBVH build, timed on the GPU. */
#include <glad/gl.h>

#include "bench_lbvh.h"

#include "bench_buffers.h"
#include "bench_dist.h"
#include "bench_rays.h"
#include "bench_sah.h"
#include "bench_scene.h"
#include "bench_time.h"

#include <stdlib.h>
#include <string.h>

#include <glradix/lbvh.h>

void bench_lbvh_boxes(float *b, uint32_t n) {
  uint64_t s = 0x6c627668ull ^ n;
  for (uint32_t i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c) {
      float lo = (float)(bench_mix64(&s) >> 40) * (100.0f / 16777216.0f);
      b[8 * i + c] = lo;
      b[8 * i + 4 + c] = lo + (float)(bench_mix64(&s) >> 40) * (0.5f / 16777216.0f);
      b[8 * i + 3] = b[8 * i + 7] = 0.0f;
    }
}

int bench_lbvh_check(const glradix_lbvh_node *nodes, const float *b, uint32_t n, char *why,
                     size_t len) {
  unsigned char *seen = calloc(n, 1);
  uint32_t *stack = malloc(2 * (size_t)n * sizeof *stack);
  int ok = seen && stack;
  size_t top = 0;
  if (ok) stack[top++] = 0;
  while (ok && top) {
    uint32_t x = stack[--top];
    const glradix_lbvh_node *q = &nodes[x];
    if (q->b == GLRADIX_LBVH_LEAF) {
      if (q->a >= n || seen[q->a] || memcmp(q->min, &b[8 * (size_t)q->a], 12) != 0 ||
          memcmp(q->max, &b[8 * (size_t)q->a + 4], 12) != 0) {
        snprintf(why, len, "leaf %u: bad primitive %u (out of range, twice, or box)", x, q->a);
        ok = 0;
      } else {
        seen[q->a] = 1;
      }
      continue;
    }
    if (q->a >= 2 * n - 1 || q->b >= 2 * n - 1 || top + 2 > 2 * (size_t)n) {
      snprintf(why, len, "node %u: child index out of range", x);
      ok = 0;
      break;
    }
    const glradix_lbvh_node *l = &nodes[q->a], *r = &nodes[q->b];
    for (int c = 0; c < 3 && ok; ++c)
      if (q->min[c] != (l->min[c] < r->min[c] ? l->min[c] : r->min[c]) ||
          q->max[c] != (l->max[c] > r->max[c] ? l->max[c] : r->max[c])) {
        snprintf(why, len, "node %u: box is not the union of its children", x);
        ok = 0;
      }
    stack[top++] = q->a;
    stack[top++] = q->b;
  }
  for (uint32_t i = 0; ok && i < n; ++i)
    if (!seen[i]) {
      snprintf(why, len, "primitive %u not reached from the root", i);
      ok = 0;
    }
  free(seen);
  free(stack);
  return ok;
}


/* A build or refit, timed as a whole. */
typedef glradix_status (*step_fn)(glradix_context *ctx, const glradix_lbvh_desc *desc);

typedef struct step_call {
  step_fn fn;
  glradix_context *ctx;
  const glradix_lbvh_desc *desc;
} step_call;
static int run_step(void *arg) {
  const step_call *c = arg;
  return (int)c->fn(c->ctx, c->desc);
}

/* Median GPU time (GL_TIMESTAMP pair) of `repeat` calls after warm-ups. */
static glradix_status time_step(GladGLContext *gl, const GLuint q[2], glradix_context *ctx,
                                step_fn fn, const glradix_lbvh_desc *desc, unsigned repeat,
                                double *times, double *ms) {
  step_call call = {fn, ctx, desc};
  return (glradix_status)bench_time_gpu(gl, q, run_step, &call, repeat, times, ms);
}

/* --stages: the median of each step's GPU time (glradix_query_lbvh_times)
 * over `repeat` more calls; every step is timed, none is inferred. */
static void steps(glradix_context *ctx, step_fn fn, const glradix_lbvh_desc *d, unsigned repeat,
                  const char *what, FILE *info) {
  double *v = malloc(5 * (size_t)repeat * sizeof *v);
  unsigned got = 0;
  for (; v && got < repeat; ++got) {
    glradix_lbvh_times t;
    if (fn(ctx, d) != GLRADIX_OK || glradix_query_lbvh_times(ctx, &t) != GLRADIX_OK) break;
    const double step[5] = {t.codes_ms, t.sort_ms, t.leaves_ms, t.tree_ms, t.total_ms};
    for (int s = 0; s < 5; ++s) v[(size_t)s * repeat + got] = step[s];
  }
  if (got == repeat) {
    double m[5];
    for (int s = 0; s < 5; ++s) m[s] = bench_median(v + (size_t)s * repeat, repeat);
    fprintf(info, "lbvh %s steps: %u boxes, %u-bit codes: codes %.4f ms, sort %.4f ms, "
                  "leaves %.4f ms, tree %.4f ms, total %.4f ms\n",
            what, d->count, d->morton_bits, m[0], m[1], m[2], m[3], m[4]);
  } else {
    fprintf(stderr, "glradix-bench: lbvh %s steps: no times (a context with desc.profile?)\n",
            what);
  }
  free(v);
}

int bench_lbvh(GladGLContext *gl, glradix_context *ctx, const uint32_t *sizes, size_t nsizes,
               const bench_lbvh_run *run) {
  const unsigned morton_bits = run->morton_bits, repeat = run->repeat;
  const int verify = run->verify, sah = run->sah;
  const uint32_t rays = run->rays;
  const bench_scene scene = run->scene;
  FILE *info = run->info;
  const char *impl = run->quality ? "glradix-lbvh-quality" : "glradix-lbvh";
  int failed = 0;
  GLuint q[2];
  gl->GenQueries(2, q);
  double *times = malloc(repeat * sizeof *times);
  for (size_t si = 0; si < nsizes && times; ++si) {
    const uint32_t n = sizes[si];
    float *b = malloc((size_t)n * 8 * sizeof *b);
    glradix_lbvh_node *nodes = verify || sah ? malloc(glradix_lbvh_nodes_bytes(n)) : NULL;
    if (!b || ((verify || sah) && !nodes)) {
      fprintf(stderr, "glradix-bench: out of host memory for %u boxes\n", n);
      free(b);
      free(nodes);
      failed = 1;
      continue;
    }
    bench_scene_make(scene, b, n);
    glradix_context *owner = run->imported ? ctx : NULL;
    GLuint buf[2] = {bench_buffer(gl, owner, (uint64_t)n * 32, b),
                     bench_buffer(gl, owner, glradix_lbvh_nodes_bytes(n), NULL)};
    gl->Finish();
    glradix_lbvh_desc d = {0};
    d.bounds = buf[0];
    d.count = n;
    d.morton_bits = morton_bits;
    d.nodes = buf[1];
    d.quality = run->quality;
    double ms = 0;
    glradix_status st = time_step(gl, q, ctx, glradix_lbvh_build, &d, repeat, times, &ms);
    if (st != GLRADIX_OK) {
      fprintf(stderr, "glradix-bench: lbvh n = %u: %s\n", n, glradix_status_string(st));
      failed = 1;
    } else {
      const char *verified = "-";
      /* read through a staging copy, as the sort rows do */
      if (verify || sah)
        bench_download(gl, buf[1], (uint32_t *)nodes, (uint32_t)(glradix_lbvh_nodes_bytes(n) / 4));
      if (verify) {
        char why[160];
        int ok = bench_lbvh_check(nodes, b, n, why, sizeof why);
        if (!ok) {
          fprintf(stderr, "glradix-bench: lbvh n = %u: verification failed: %s\n", n, why);
          failed = 1;
        }
        verified = ok ? "yes" : "NO";
      }
      bench_sah_result sr = {0};
      char sah_csv[96] = ""; /* the CSV row's sah columns */
      if (sah) {
        failed |= bench_sah_compare(nodes, b, n, &sr);
        bench_sah_csv(sah_csv, sizeof sah_csv, &sr);
      }
      bench_rays_result rr = {0};
      char rays_csv[96] = ""; /* the CSV row's rays columns */
      if (rays) {
        failed |= bench_rays_run(gl, buf[0], buf[1], b, n, rays, repeat, verify, &rr);
        bench_rays_csv(rays_csv, sizeof rays_csv, &rr);
      }
      unsigned rb = glradix_query_desc(ctx).radix_bits;
      /* dist: "uniform" for the codes of boxes uniform in a cube, else the scene */
      if (run->csv)
        printf("%s,%u,%u,1,%u,%.4f,%.1f,%s,%s%s%s\n", impl, n, morton_bits, rb, ms,
               ms > 0 ? n / ms / 1e3 : 0.0, verified,
               scene == BENCH_SCENE_BOXES ? "uniform" : bench_scene_name(scene), sah_csv,
               rays_csv);
      else
        fprintf(info, "%s: %u boxes (scene %s), %u-bit Morton codes, radix_bits %u: %.4f ms "
                      "(codes + sort + build), verified %s\n",
                run->quality ? "lbvh quality" : "lbvh", n, bench_scene_name(scene), morton_bits,
                rb, ms, verified);
      if (sah) bench_sah_print(info, n, bench_scene_name(scene), &sr);
      if (rays) bench_rays_print(info, n, bench_scene_name(scene), &rr);
      double refit_ms = 0;
      if (time_step(gl, q, ctx, glradix_lbvh_refit, &d, repeat, times, &refit_ms) == GLRADIX_OK)
        fprintf(info, "lbvh refit: %u boxes: %.4f ms\n", n, refit_ms);
      if (run->stages) {
        steps(ctx, glradix_lbvh_build, &d, repeat, "build", info);
        steps(ctx, glradix_lbvh_refit, &d, repeat, "refit", info);
      }
    }
    bench_buffer_delete(gl, owner, buf[0]);
    bench_buffer_delete(gl, owner, buf[1]);
    free(b);
    free(nodes);
  }
  gl->DeleteQueries(2, q);
  free(times);
  return failed;
}
