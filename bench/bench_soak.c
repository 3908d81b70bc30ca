/* glradix-bench --soak: sorts timed in a process that lives like an
 * application, beside the same sorts timed the bench's way. */
#include <glad/gl.h>

#include "bench_soak.h"

#include "bench_buffers.h"
#include "bench_clock.h"
#include "bench_lbvh.h"
#include "bench_time.h"
#include "bench_verify.h"
#include "typed_keys.h"

#include <glradix/lbvh.h>

#include <stdlib.h>
#include <string.h>

/* One sort in CHECK_EVERY is checked (all with --verify): enough to catch
 * a wrong sort without the CPU's checks taking most of the loop's time.
 * The other steps come now and then, as in a renderer's frames; LBVH
 * builds take up to MAX_BOXES boxes, so that their buffers stay small
 * beside the sorts' (llvmpipe's storage blocks hold at most 4M boxes). */
enum { CHECK_EVERY = 16, UPLOAD_ONE_IN = 8, READ_ONE_IN = 8, LBVH_ONE_IN = 16,
       REALLOC_ONE_IN = 32, MAX_BOXES = 1 << 20 };

/* Times of one (size, kind, distribution). */
typedef struct series {
  double *ms;
  unsigned char *at_max; /* the GPU at its highest clock before and after */
  size_t count, cap;
} series;

/* One size's application buffers and statistics. */
typedef struct slot {
  uint32_t n;
  GLuint buf[4];  /* keys, values (sorted in place); pristine keys, values */
  uint32_t *keys; /* the pristine keys on the host */
  int dist;       /* the pristine keys' distribution; -1: none uploaded */
  double fresh[2];           /* fresh medians: keys alone, pairs */
  series t[2][BENCH_DIST_COUNT];
  series uploaded[2]; /* the sorts whose keys came from a CPU upload, again */
  size_t checked[2][BENCH_DIST_COUNT];
} slot;

typedef struct soak {
  bench_case *b;
  glradix_context *ctx;
  const bench_soak_desc *d;
  uint64_t rng;
  slot *slots;
  uint32_t *vals, *out_k, *out_v; /* values 0..n-1; read-back space */
  GLuint lbvh_buf[2];             /* boxes, nodes */
  float *boxes;
  uint32_t nboxes;
  size_t sorts, uploads, reads, builds, reallocs;
} soak;

static uint32_t draw(soak *s, uint32_t below) { return (uint32_t)(bench_mix64(&s->rng) % below); }

static int add_time(series *t, double ms, int at_max) {
  if (t->count == t->cap) {
    const size_t cap = t->cap ? 2 * t->cap : 64;
    double *p = realloc(t->ms, cap * sizeof *p);
    if (p) t->ms = p;
    unsigned char *q = p ? realloc(t->at_max, cap) : NULL;
    if (!q) return 1;
    t->at_max = q;
    t->cap = cap;
  }
  t->at_max[t->count] = (unsigned char)at_max;
  t->ms[t->count++] = ms;
  return 0;
}

/* Whether the clock is within 5% of the GPU's highest; 0 where unknown. */
static int at_max_clock(unsigned mhz) {
  const unsigned max = bench_clock_max_mhz();
  return max && mhz * 20 >= max * 19;
}

static int gl_failed(soak *s, const char *what, uint32_t n) {
  const GLenum err = s->b->gl->GetError();
  if (err == GL_NO_ERROR) return 0;
  fprintf(stderr, "glradix-bench: soak: GL error 0x%04x %s (n = %u)\n", err, what, n);
  return 1;
}

/* (Re)creates a size's four buffers, the pristine values 0..n-1 in place;
 * the pristine keys wait for the next distribution's upload. */
static int create_buffers(soak *s, slot *sl) {
  GladGLContext *gl = s->b->gl;
  const unsigned kw = typed_words(s->d->key_type);
  if (sl->buf[0]) gl->DeleteBuffers(4, sl->buf);
  gl->GenBuffers(4, sl->buf);
  for (int k = 0; k < 4; ++k) {
    gl->BindBuffer(GL_COPY_WRITE_BUFFER, sl->buf[k]);
    gl->BufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)sl->n * 4 * (k & 1 ? 1 : kw),
                   k == 3 ? s->vals : NULL, k < 2 ? GL_DYNAMIC_COPY : GL_STATIC_DRAW);
  }
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, 0);
  sl->dist = -1;
  return gl_failed(s, "allocating buffers", sl->n);
}

/* Makes `dist` the size's pristine keys: made on the host and uploaded,
 * as an application's new data. */
static void use_dist(soak *s, slot *sl, bench_dist dist) {
  if (sl->dist == (int)dist) return;
  const bench_soak_desc *d = s->d;
  bench_dist_make(sl->keys, sl->n, d->key_type, d->key_bits, dist, d->seed);
  bench_upload(s->b->gl, sl->buf[2], sl->keys, sl->n * typed_words(d->key_type));
  sl->dist = (int)dist;
}

/* Reads `words` words of buf back: 0 through a staging copy, 1 by
 * glGetBufferSubData, 2 by glMapBufferRange, the last two on the sorted
 * buffer itself as an application might. */
static int read_back(soak *s, GLuint buf, uint32_t *data, uint32_t words, uint32_t how) {
  GladGLContext *gl = s->b->gl;
  const GLsizeiptr bytes = (GLsizeiptr)words * 4;
  gl->MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  if (how == 1 && !gl->GetBufferSubData) how = 2; /* OpenGL ES has no glGetBufferSubData */
  if (how == 0) {
    bench_download(gl, buf, data, words);
    return 0;
  }
  gl->BindBuffer(GL_COPY_READ_BUFFER, buf);
  int ok = 1;
  if (how == 1) {
    gl->GetBufferSubData(GL_COPY_READ_BUFFER, 0, bytes, data);
  } else {
    const void *p = gl->MapBufferRange(GL_COPY_READ_BUFFER, 0, bytes, GL_MAP_READ_BIT);
    ok = p != NULL;
    if (ok) {
      memcpy(data, p, (size_t)bytes);
      ok = gl->UnmapBuffer(GL_COPY_READ_BUFFER) == GL_TRUE;
    }
  }
  gl->BindBuffer(GL_COPY_READ_BUFFER, 0);
  return !ok;
}

static glradix_sort_desc sort_desc(const soak *s, const slot *sl, int pairs) {
  glradix_sort_desc sd = {0};
  sd.keys = sl->buf[0];
  sd.values = pairs ? sl->buf[1] : 0;
  sd.count = sl->n;
  sd.end_bit = s->d->key_bits;
  sd.key_type = s->d->key_type;
  return sd;
}

/* The keys (and values) from the pristine buffers, usually by a GPU copy,
 * then a sort timed alone, then perhaps a read-back and a check. */
static int sort_step(soak *s, slot *sl, int pairs) {
  GladGLContext *gl = s->b->gl;
  const bench_soak_desc *d = s->d;
  const uint32_t n = sl->n, kw = typed_words(d->key_type);
  const int uploaded = draw(s, UPLOAD_ONE_IN) == 0;
  if (uploaded) {
    bench_upload(gl, sl->buf[0], sl->keys, n * kw);
    if (pairs) bench_upload(gl, sl->buf[1], s->vals, n);
    ++s->uploads;
  } else {
    bench_restore(gl, sl->buf[0], sl->buf[2], n * kw);
    if (pairs) bench_restore(gl, sl->buf[1], sl->buf[3], n);
  }
  if (gl_failed(s, "restoring keys", n)) return 1;
  /* As in the fresh figures, the time is the sort's alone. */
  gl->Finish();
  const glradix_sort_desc sd = sort_desc(s, sl, pairs);
  double ms = 0;
  const unsigned mhz0 = bench_clock_mhz();
  const glradix_status st = bench_case_time(s->b, s->ctx, &sd, &ms);
  const unsigned mhz1 = bench_clock_mhz();
  if (st != GLRADIX_OK) {
    fprintf(stderr, "glradix-bench: soak: n = %u, pairs %d: glradix_sort failed: %s\n", n, pairs,
            glradix_status_string(st));
    return 1;
  }
  const int at_max = at_max_clock(mhz0) && at_max_clock(mhz1);
  if (add_time(&sl->t[pairs][sl->dist], ms, at_max) ||
      (uploaded && add_time(&sl->uploaded[pairs], ms, at_max)))
    return 1;
  if (s->b->trace) /* wall-clock seconds, to line up with the driver's own logs */
    fprintf(stderr, "trace: soak n %u pairs %d %s %s %.4f ms at %.3f s, clock %u-%u MHz\n", n,
            pairs, bench_dist_name((bench_dist)sl->dist), uploaded ? "uploaded" : "copied", ms,
            bench_now_ms() * 1e-3, mhz0, mhz1);
  const int check = ++s->sorts % CHECK_EVERY == 0 || d->verify;
  if (!check && draw(s, READ_ONE_IN) != 0) return 0;
  const uint32_t how = draw(s, 3);
  ++s->reads;
  if (read_back(s, sl->buf[0], s->out_k, n * kw, how) ||
      (pairs && read_back(s, sl->buf[1], s->out_v, n, how))) {
    fprintf(stderr, "glradix-bench: soak: n = %u: glMapBufferRange failed\n", n);
    return 1;
  }
  if (!check) return 0;
  char why[256];
  if (!bench_check(d->key_type, d->key_bits, sl->keys, s->out_k, pairs ? s->out_v : NULL, n,
                   why, sizeof why)) {
    fprintf(stderr, "glradix-bench: soak: n = %u, pairs %d, %s keys: verification failed: %s\n",
            n, pairs, bench_dist_name((bench_dist)sl->dist), why);
    return 1;
  }
  ++sl->checked[pairs][sl->dist];
  return 0;
}

/* An LBVH build over the first min(n, 1M) boxes, the tree checked with
 * d->verify. */
static int lbvh_step(soak *s, uint32_t n) {
  glradix_lbvh_desc ld = {0};
  ld.bounds = s->lbvh_buf[0];
  ld.nodes = s->lbvh_buf[1];
  ld.count = n < s->nboxes ? n : s->nboxes;
  ld.morton_bits = 30;
  ++s->builds;
  const glradix_status st = glradix_lbvh_build(s->ctx, &ld);
  if (st != GLRADIX_OK) {
    fprintf(stderr, "glradix-bench: soak: LBVH of %u boxes: %s\n", ld.count,
            glradix_status_string(st));
    return 1;
  }
  if (!s->d->verify) return 0;
  const size_t bytes = glradix_lbvh_nodes_bytes(ld.count);
  glradix_lbvh_node *nodes = malloc(bytes);
  char why[160] = "out of host memory";
  if (nodes) {
    s->b->gl->MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    bench_download(s->b->gl, s->lbvh_buf[1], (uint32_t *)nodes, (uint32_t)(bytes / 4));
  }
  const int ok = nodes && bench_lbvh_check(nodes, s->boxes, ld.count, why, sizeof why);
  free(nodes);
  if (!ok) fprintf(stderr, "glradix-bench: soak: LBVH of %u boxes: %s\n", ld.count, why);
  return !ok;
}

/* The fresh reference: uniform keys timed the bench's way. */
static int fresh_step(soak *s, slot *sl, int pairs) {
  use_dist(s, sl, BENCH_DIST_UNIFORM);
  s->b->pristine[0] = sl->buf[2];
  s->b->pristine[1] = sl->buf[3];
  const glradix_sort_desc sd = sort_desc(s, sl, pairs);
  const glradix_status st = bench_case_run(s->b, s->ctx, &sd, &sl->fresh[pairs], NULL);
  if (st == GLRADIX_OK) return 0;
  fprintf(stderr, "glradix-bench: soak: fresh n = %u, pairs %d: %s\n", sl->n, pairs,
          glradix_status_string(st));
  return 1;
}

/* Random steps until d->seconds have passed; each choice is drawn from the
 * seed, so that a run repeats. */
static int loop(soak *s, FILE *info) {
  const bench_soak_desc *d = s->d;
  const double start = bench_now_ms();
  while (bench_now_ms() - start < 1e3 * d->seconds) {
    slot *sl = &s->slots[draw(s, (uint32_t)d->nsizes)];
    const int pairs = d->pairs && d->keys_only ? (int)draw(s, 2) : d->pairs;
    if (draw(s, REALLOC_ONE_IN) == 0) {
      ++s->reallocs;
      if (create_buffers(s, sl)) return 1;
    }
    const bench_dist dist = d->dists[draw(s, (uint32_t)d->ndists)];
    if (sl->dist < 0 || draw(s, 4) == 0) use_dist(s, sl, dist);
    if (sort_step(s, sl, pairs)) return 1;
    if (draw(s, LBVH_ONE_IN) == 0 && lbvh_step(s, sl->n)) return 1;
  }
  fprintf(info, "soak: %u s: %zu sorts, %zu from CPU uploads, %zu read-backs, %zu LBVH builds, "
                "%zu reallocations\n",
          d->seconds, s->sorts, s->uploads, s->reads, s->builds, s->reallocs);
  return 0;
}

/* The median and p95 of the `count` times in v (sorted in place). */
static void quantiles(double *v, size_t count, double *med, double *p95) {
  *med = bench_median(v, (unsigned)count);
  *p95 = v[(count * 95 + 99) / 100 - 1];
}

/* One report row: the times of `t` against `fresh`, all of them and those
 * that ran at the GPU's highest clock (where NVML says; "-" elsewhere). */
static int report_row(const soak *s, const slot *sl, int pairs, const char *dist, series *t,
                      size_t checked) {
  if (!t->count) return 0;
  double *hi = malloc(t->count * sizeof *hi);
  if (!hi) return 1;
  size_t nhi = 0;
  for (size_t j = 0; j < t->count; ++j)
    if (t->at_max[j]) hi[nhi++] = t->ms[j];
  double med, p95, hi_med = 0, hi_p95 = 0;
  if (nhi) quantiles(hi, nhi, &hi_med, &hi_p95);
  free(hi);
  quantiles(t->ms, t->count, &med, &p95);
  const double worst = t->ms[t->count - 1], fresh = sl->fresh[pairs];
  char hi_cols[64] = "-,-,-";
  if (bench_clock_max_mhz())
    snprintf(hi_cols, sizeof hi_cols, nhi ? "%zu,%.3f,%.3f" : "%zu,-,-", nhi, hi_med / fresh,
             hi_p95 / fresh);
  const unsigned rb = glradix_query_desc(s->ctx).radix_bits;
  const int u32 = s->d->key_type == GLRADIX_KEY_UINT32; /* impl glradix-soak-T otherwise */
  if (s->d->csv) {
    printf("glradix-soak%s%s,%u,%u,%d,%u,%zu,%.4f,%.4f,%.4f,%.4f,%.3f,%.3f,%zu,%s,%s\n",
           u32 ? "" : "-", u32 ? "" : typed_name(s->d->key_type), sl->n, s->d->key_bits, pairs,
           rb, t->count, fresh, med, p95, worst, med / fresh, p95 / fresh, checked, dist,
           hi_cols);
    return 0;
  }
  for (char *c = hi_cols; *c; ++c)
    if (*c == ',') *c = ' ';
  char at_max[8], hi_m[16], hi_p[16];
  if (sscanf(hi_cols, "%7s %15s %15s", at_max, hi_m, hi_p) != 3) return 1;
  printf("%10u %5d %13s %6zu %9.4f %9.4f %9.4f %9.4f %7.3f %7.3f %8zu %6s %7s %7s\n", sl->n,
         pairs, dist, t->count, fresh, med, p95, worst, med / fresh, p95 / fresh, checked, at_max,
         hi_m, hi_p);
  return 0;
}

static int report(soak *s) {
  const bench_soak_desc *d = s->d;
  if (d->csv)
    puts("impl,n,key_bits,pairs,radix_bits,sorts,ms_fresh,ms_median,ms_p95,ms_worst,"
         "median_over_fresh,p95_over_fresh,verified,dist,sorts_at_max_clock,"
         "median_at_max_over_fresh,p95_at_max_over_fresh");
  else
    printf("%10s %5s %13s %6s %9s %9s %9s %9s %7s %7s %8s %6s %7s %7s\n", "n", "pairs", "dist",
           "sorts", "ms_fresh", "ms_median", "ms_p95", "ms_worst", "med/fr", "p95/fr", "verified",
           "at_max", "max_med", "max_p95");
  int failed = 0;
  for (size_t i = 0; i < d->nsizes; ++i)
    for (int pairs = 0; pairs <= 1; ++pairs) {
      slot *sl = &s->slots[i];
      series all = {0};
      size_t checked = 0;
      for (int k = 0; k < BENCH_DIST_COUNT; ++k) {
        checked += sl->checked[pairs][k];
        for (size_t j = 0; j < sl->t[pairs][k].count && !failed; ++j)
          failed = add_time(&all, sl->t[pairs][k].ms[j], sl->t[pairs][k].at_max[j]);
      }
      failed = failed || report_row(s, sl, pairs, "all", &all, checked);
      free(all.ms);
      free(all.at_max);
      for (int k = 0; k < BENCH_DIST_COUNT && !failed; ++k)
        failed = report_row(s, sl, pairs, bench_dist_name((bench_dist)k), &sl->t[pairs][k],
                            sl->checked[pairs][k]);
      if (!failed) failed = report_row(s, sl, pairs, "uploaded", &sl->uploaded[pairs], 0);
    }
  return failed;
}

static int setup(soak *s, uint32_t max_n) {
  GladGLContext *gl = s->b->gl;
  const unsigned kw = typed_words(s->d->key_type);
  s->vals = malloc((size_t)max_n * 4);
  s->out_k = malloc((size_t)max_n * 4 * kw);
  s->out_v = malloc((size_t)max_n * 4);
  s->b->times = malloc(s->b->repeat * sizeof(double));
  s->nboxes = max_n < MAX_BOXES ? max_n : MAX_BOXES;
  s->boxes = malloc((size_t)s->nboxes * 32);
  if (!s->vals || !s->out_k || !s->out_v || !s->b->times || !s->boxes) return 1;
  for (uint32_t i = 0; i < max_n; ++i) s->vals[i] = i;
  bench_lbvh_boxes(s->boxes, s->nboxes);
  gl->GenBuffers(2, s->lbvh_buf);
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, s->lbvh_buf[0]);
  gl->BufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)s->nboxes * 32, s->boxes, GL_STATIC_DRAW);
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, s->lbvh_buf[1]);
  gl->BufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)glradix_lbvh_nodes_bytes(s->nboxes), NULL,
                 GL_DYNAMIC_COPY);
  gl->BindBuffer(GL_COPY_WRITE_BUFFER, 0);
  for (size_t i = 0; i < s->d->nsizes; ++i) {
    slot *sl = &s->slots[i];
    sl->n = s->d->sizes[i];
    sl->keys = malloc((size_t)sl->n * 4 * kw);
    if (!sl->keys || create_buffers(s, sl)) return 1;
  }
  return gl_failed(s, "allocating buffers", max_n);
}

int bench_soak(bench_case *b, glradix_context *ctx, const bench_soak_desc *d, FILE *info) {
  soak s = {0};
  s.b = b;
  s.ctx = ctx;
  s.d = d;
  s.rng = d->seed;
  s.slots = calloc(d->nsizes, sizeof *s.slots);
  b->key_words = typed_words(d->key_type);
  uint32_t max_n = 0;
  for (size_t i = 0; i < d->nsizes; ++i)
    if (d->sizes[i] > max_n) max_n = d->sizes[i];
  const int set_up = s.slots && !setup(&s, max_n);
  const int clocks = bench_clock_open();
  int failed = !set_up;
  if (failed) fprintf(stderr, "glradix-bench: soak: no room for %u keys\n", max_n);
  fprintf(info, "soak: %s keys, %u bits, radix_bits %u: fresh medians of %u runs each (uniform "
                "keys restored from a pristine copy, glFinish, warm-ups), then %u s of "
                "application-like steps, seed %llu\n",
          typed_name(d->key_type), d->key_bits, glradix_query_desc(ctx).radix_bits, b->repeat,
          d->seconds, (unsigned long long)d->seed);
  if (clocks)
    fprintf(info, "soak: NVML: the highest graphics clock %u MHz, now %u MHz; at_max: sorts that "
                  "began and ended within 5%% of it, max_med and max_p95 their times over "
                  "fresh\n", bench_clock_max_mhz(), bench_clock_mhz());
  for (size_t i = 0; i < d->nsizes && !failed; ++i)
    for (int pairs = 0; pairs <= 1 && !failed; ++pairs)
      if (pairs ? d->pairs : d->keys_only) failed = fresh_step(&s, &s.slots[i], pairs);
  if (!failed) failed = loop(&s, info);
  /* The times so far, a failed run's too. */
  if (set_up) failed |= report(&s);
  if (failed) fprintf(stderr, "glradix-bench: soak FAILED\n");
  for (size_t i = 0; s.slots && i < d->nsizes; ++i) {
    if (s.slots[i].buf[0]) b->gl->DeleteBuffers(4, s.slots[i].buf);
    free(s.slots[i].keys);
    for (int p = 0; p < 2; ++p) {
      for (int k = 0; k < BENCH_DIST_COUNT; ++k) {
        free(s.slots[i].t[p][k].ms);
        free(s.slots[i].t[p][k].at_max);
      }
      free(s.slots[i].uploaded[p].ms);
      free(s.slots[i].uploaded[p].at_max);
    }
  }
  if (s.lbvh_buf[0]) b->gl->DeleteBuffers(2, s.lbvh_buf);
  free(s.slots);
  free(s.vals);
  free(s.out_k);
  free(s.out_v);
  free(s.boxes);
  free(b->times);
  b->times = NULL;
  return failed;
}
