/*
 * glradix-bench: measures glradix_sort on a headless GL 4.3 context.
 *
 * For each (n, key_bits, pairs, radix_bits) it uploads n keys uniform over
 * key_bits bits (and values 0..n-1 for pairs) from a host copy, sorts bits
 * [0, key_bits) (or [0, --end-bit)) with glradix_sort, and times the call
 * alone with a pair of glQueryCounter(GL_TIMESTAMP) queries. Warm-up runs
 * (at least two, for at least a second unless --warmup says), then the
 * median of --repeat timed runs; the upload before each run is outside
 * the timed region.
 * --dist draws the keys from other distributions as well (bench_dist.h);
 * --soak times sorts in a process that lives like an application instead
 * (bench_soak.h); --vs-bitonic times a bitonic sort of the same buffers
 * beside glradix (bench_bitonic.h).
 * Output: a table, or CSV with the columns of shared/gpu/cub_sort_bench.cu
 * and the distribution last.
 */
#define GLAD_GL_IMPLEMENTATION
#include <glad/gl.h>

#include <glradix/glradix.h>
#include <glradix/headless.h>

#include "bench_bitonic.h"
#include "bench_buffers.h"
#include "bench_case.h"
#include "bench_copy.h"
#include "bench_dist.h"
#include "bench_fit.h"
#include "bench_host.h"
#include "bench_lbvh.h"
#include "bench_rays.h"
#include "bench_scene.h"
#include "bench_soak.h"
#include "bench_svg.h"
#include "bench_time.h"
#include "bench_verify.h"
#include "typed_keys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LIST 32

typedef struct options {
  uint32_t sizes[MAX_LIST];
  size_t nsizes;
  int keys_only, pairs; /* which kinds run (both when neither flag is given) */
  unsigned key_bits[MAX_LIST];
  unsigned end_bit; /* 0: each case's key bits */
  size_t nkey_bits;
  unsigned bits[MAX_LIST];
  size_t nbits;
  unsigned repeat;
  int verify, csv, stages, portable, lbvh, n_given, reserve, copy, trace;
  int memory;     /* --memory: 0 default, 1 gl, 2 imported */
  int copy_table; /* --copy-table */
  unsigned warmup_ms, idle_ms;
  glradix_plan plan;
  glradix_key_type key_type;
  int key_bits_given;
  const char *svg;
  bench_dist dists[BENCH_DIST_COUNT];
  size_t ndists;
  int dist_given;
  unsigned soak_s; /* --soak: seconds; 0 runs the usual cases */
  int host;        /* --host: glradix_sort_host calls instead */
  int vs_bitonic;  /* --vs-bitonic: a bitonic sort beside each glradix case */
  bench_scene scene; /* --lbvh --scene */
  uint32_t scene_count; /* --scene FILE.obj: its triangles */
  int sah, scene_given; /* --lbvh --sah */
  int quality;          /* --lbvh --quality */
  unsigned rays;        /* --lbvh --rays: the image's side, 0 for no rays */
  uint32_t seed;
} options;

#define CSV_HEADER "impl,n,key_bits,pairs,radix_bits,ms_median,mkeys_per_s,verified,dist"

static const char *plan_name(glradix_plan plan) {
  return plan == GLRADIX_PLAN_ONESWEEP             ? "onesweep"
         : plan == GLRADIX_PLAN_SCAN_THEN_PROPAGATE ? "scan-then-propagate"
                                                    : "reduce-then-scan";
}

static void usage(FILE *f) {
  fputs("usage: glradix-bench [options]\n"
        "  --n N[,N...]        key counts (K/M/G suffixes = 2^10/2^20/2^30);\n"
        "                      default 65536,262144,1048576,4194304,16777216; a default size\n"
        "                      (this one's or a mode's) above the context's limits is skipped\n"
        "                      with one line on stderr, a size given here fails\n"
        "  --pairs             sort key/value pairs   (default: keys only and pairs)\n"
        "  --keys-only         sort keys only\n"
        "  --key-bits B[,B...] keys uniform over B bits and sorted on bits [0,B) (see --end-bit);\n"
        "                      24, 30 or 32, default 32,30 (uint64: 63 or 64; int32, float32: 32)\n"
        "  --end-bit E         sort on bits [0,E), E >= every key bits (default: the key bits);\n"
        "                      e.g. --key-bits 24 --end-bit 32: radix_bits 8's last pass is skipped\n"
        "  --bits R[,R...]     radix_bits per pass: 2, 4 or 8 (0 = library default); default 0\n"
        "  --repeat R          timed runs per case, median reported (default 10, after the warm-ups)\n"
        "  --warmup MS         warm-up per case: at least 2 runs and MS ms (default 1000)\n"
        "  --idle MS           the GPU idle MS ms before every run, warm-ups too, as in an\n"
        "                      application that sorts now and then (default 0)\n"
        "  --trace             print every run's time, warm-ups included, to stderr\n"
        "  --verify            check every result on the CPU (sorted, permutation, stable)\n"
        "  --dist D[,D...]     key distributions, each in turn: uniform (default), sorted, reverse,\n"
        "                      nearly_sorted, morton, few_unique, all_equal; all: every one\n"
        "  --seed S            seed of --soak and of every distribution but uniform (default 1)\n"
        "  --soak SECONDS      live like an application instead: fresh medians, then SECONDS of\n"
        "                      sorts of mixed sizes (default 64K,1M,16M,64M), distributions\n"
        "                      (default all), keys and pairs, with uploads, read-backs, LBVH\n"
        "                      builds and reallocations in between; per size and kind the count,\n"
        "                      median, p95 and worst against the fresh median; every 16th sort\n"
        "                      verified (every one with --verify); the first --key-bits (default\n"
        "                      30, uint64 63) and --bits; on NVIDIA (NVML) also the sorts that\n"
        "                      ran at the GPU's highest clock\n"
        "  --host              call glradix_sort_host --repeat times per size instead (keys from\n"
        "                      the CPU, the first --key-bits, pairs unless --keys-only): the GPU\n"
        "                      time of the sort inside the first, last, median and worst call\n"
        "  --csv               CSV: impl,n,key_bits,pairs,radix_bits,ms_median,mkeys_per_s,\n"
        "                      verified,dist (--soak: bench_soak.h's columns)\n"
        "  --stages            per-stage GPU time (medians), on stdout or, with --csv, stderr\n"
        "  --portable          disable the GL_KHR_shader_subgroup fast path\n"
        "  --plan P            onesweep, reduce-then-scan or scan-then-propagate (default:\n"
        "                      the library's for the driver and --bits)\n"
        "  --lbvh              time Morton codes + sort + LBVH build of N random boxes instead\n"
        "                      (default N 1048576,16777216; --key-bits 63 for 63-bit codes)\n",
        f);
  /* a second string: C compilers need accept only 4095 characters in one literal */
  fputs("  --quality           --lbvh: the quality build (glradix_lbvh_desc.quality)\n"
        "  --scene S           --lbvh's primitives: FILE.obj (the triangles of a Wavefront OBJ\n"
        "                      file, its count for --n), or boxes (default: random boxes in a 100-unit\n"
        "                      cube) or mesh (the triangles' boxes of a terrain heightfield over\n"
        "                      the same square, in mesh order, exactly N triangles)\n"
        "  --sah               --lbvh: also the tree's SAH cost (C_t = C_i = 1) beside a CPU\n"
        "                      binned-SAH build's (32 bins, 1 primitive a leaf; N up to 4M,\n"
        "                      a few seconds a 1M): a line 'sah: ...' per size, and with --csv\n"
        "                      the columns sah_lbvh,sah_binned,sah_ratio (lbvh/binned); exits 1\n"
        "                      on a cost that is not finite or a binned cost above twice the LBVH's\n"
        "  --rays              --lbvh: also closest-hit rays through the built tree with the\n"
        "                      installed GLSL traversal (glradix/lbvh.glsl), one a pixel of a\n"
        "                      camera outside the scene, the primitive its box: a line 'rays: ...'\n"
        "                      per size, and with --csv the columns rays,rays_ms,mrays_per_s,\n"
        "                      rays_hit; --verify checks a 16 x 16 grid of them on the CPU\n"
        "  --rays-size S       --rays with an S x S image, 1..2048 (default 1024: 1M rays)\n"
        "  --key-type T        uint32 (default), int32, float32 or uint64 (key bits 64,63);\n"
        "                      rows of other types than uint32 say impl glradix-T\n"
        "  --svg FILE          plot Mkeys/s versus N to FILE (SVG)\n"
        "  --copy              also time a compute-shader copy of each size's keys (and values\n"
        "                      with --pairs): the bandwidth yardstick, read + written\n"
        "  --copy-table        instead of sorts: GB/s of a compute-shader copy of two arrays\n"
        "                      into two others, and of a gather of random 32-byte elements,\n"
        "                      256 MiB to 2 GiB touched, on plain GL buffers and on\n"
        "                      glradix_buffer_create's (lines 'copy-table: ...')\n"
        "  --memory M          default (the context's scratch as glradix_memory's default\n"
        "                      says), gl (GLRADIX_MEMORY_GL: plain GL buffers only) or\n"
        "                      imported (also the sorted keys and values, and --lbvh's boxes\n"
        "                      and nodes, in glradix_buffer_create's buffers)\n"
        "  --reserve           glradix_reserve the largest size before the first run\n"
        "  --vs-bitonic        also time a bitonic sort (bench_bitonic.c: GLSL compute, shared-\n"
        "                      memory blocks, global merge steps) of the same keys and buffers,\n"
        "                      timed the same way, uint32 keys only: the whole 32-bit key,\n"
        "                      ascending, not stable (--verify checks it as such); per case a\n"
        "                      row with radix_bits 'bitonic', its time beside glradix's (the\n"
        "                      first --bits) and bitonic/glradix; CSV rows impl bitonic,\n"
        "                      radix_bits 0 (default N 4K,16K,...,16M: powers of 4)\n"
        "  --help              this text\n"
        "Exit status: 0 all good, 1 a glradix call or a verification failed, 2 bad arguments.\n",
        f);
}

/* Parses one unsigned decimal number, optionally with a K/M/G suffix. */
static int parse_u32(const char *s, int allow_suffix, uint32_t *out) {
  if (!s || *s < '0' || *s > '9') return -1;
  errno = 0;
  char *end = NULL;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s) return -1;
  if (allow_suffix && *end) {
    unsigned shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20
                   : *end == 'G' || *end == 'g' ? 30 : 0;
    if (!shift || v > (0xffffffffull >> shift)) return -1;
    v <<= shift;
    ++end;
  }
  if (*end || v > 0xffffffffull) return -1;
  *out = (uint32_t)v;
  return 0;
}

/* Parses "a,b,c" into at most MAX_LIST numbers. */
static int parse_list(const char *s, int allow_suffix, uint32_t *out, size_t *count) {
  char buf[512];
  if (!s || strlen(s) >= sizeof buf) return -1;
  strcpy(buf, s);
  *count = 0;
  char *p = buf;
  for (;;) {
    char *comma = strchr(p, ',');
    if (comma) *comma = '\0';
    if (*count == MAX_LIST || parse_u32(p, allow_suffix, &out[*count])) return -1;
    ++*count;
    if (!comma) return 0;
    p = comma + 1;
  }
}

/* An option's value, 1..max: 0 and *out set, or -1 with a message. */
static int parse_option_u32(const char *name, const char *v, uint32_t max, unsigned *out) {
  uint32_t x = 0;
  if (parse_u32(v, 0, &x) || x == 0 || x > max) {
    fprintf(stderr, "glradix-bench: %s wants 1..%u, got '%s'\n", name, (unsigned)max, v ? v : "");
    return -1;
  }
  *out = x;
  return 0;
}

/* Returns 0 and sets *o, or -1 (message printed) for bad arguments, 1 for --help. */
static int parse_args(int argc, char **argv, options *o) {
  static const uint32_t default_sizes[] = {65536, 262144, 1048576, 4194304, 16777216};
  memset(o, 0, sizeof *o);
  memcpy(o->sizes, default_sizes, sizeof default_sizes);
  o->nsizes = sizeof default_sizes / sizeof default_sizes[0];
  o->key_bits[0] = 32;
  o->key_bits[1] = 30;
  o->nkey_bits = 2;
  o->nbits = 1; /* bits[0] == 0: library default */
  o->repeat = 10;
  o->warmup_ms = BENCH_WARM_MS;
  o->ndists = 1; /* dists[0] == BENCH_DIST_UNIFORM */
  o->seed = 1;

  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    /* Accept both "--opt value" and "--opt=value" for options with a value. */
    const char *eq = strchr(a, '=');
    size_t name_len = eq ? (size_t)(eq - a) : strlen(a);
#define IS(name) (name_len == strlen(name) && strncmp(a, name, name_len) == 0)
#define VALUE() (eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL))
    if (IS("--help") || IS("-h")) {
      return 1;
    } else if (!eq && IS("--pairs")) {
      o->pairs = 1;
    } else if (!eq && IS("--keys-only")) {
      o->keys_only = 1;
    } else if (!eq && IS("--verify")) {
      o->verify = 1;
    } else if (!eq && IS("--csv")) {
      o->csv = 1;
    } else if (!eq && IS("--portable")) {
      o->portable = 1;
    } else if (!eq && IS("--stages")) {
      o->stages = 1;
    } else if (!eq && IS("--copy")) {
      o->copy = 1;
    } else if (!eq && IS("--copy-table")) {
      o->copy_table = 1;
    } else if (IS("--memory")) {
      const char *v = VALUE();
      o->memory = !v ? -1 : strcmp(v, "default") == 0 ? 0 : strcmp(v, "gl") == 0 ? 1
                : strcmp(v, "imported") == 0 ? 2 : -1;
      if (o->memory < 0) {
        fprintf(stderr, "glradix-bench: --memory wants default, gl or imported, got '%s'\n",
                v ? v : "");
        return -1;
      }
    } else if (!eq && IS("--trace")) {
      o->trace = 1;
    } else if (IS("--warmup")) {
      const char *v = VALUE();
      uint32_t ms = 0;
      if (parse_u32(v, 0, &ms) || ms > 60000) {
        fprintf(stderr, "glradix-bench: --warmup wants 0..60000 (ms), got '%s'\n", v ? v : "");
        return -1;
      }
      o->warmup_ms = ms;
    } else if (IS("--idle")) {
      if (parse_option_u32("--idle", VALUE(), 60000, &o->idle_ms)) return -1;
    } else if (!eq && IS("--reserve")) {
      o->reserve = 1;
    } else if (!eq && IS("--host")) {
      o->host = 1;
    } else if (!eq && IS("--vs-bitonic")) {
      o->vs_bitonic = 1;
    } else if (!eq && IS("--lbvh")) {
      o->lbvh = 1;
    } else if (!eq && IS("--quality")) {
      o->quality = 1;
    } else if (!eq && IS("--sah")) {
      o->sah = 1;
    } else if (!eq && IS("--rays")) {
      if (!o->rays) o->rays = BENCH_RAYS_SIZE;
    } else if (IS("--rays-size")) {
      if (parse_option_u32("--rays-size", VALUE(), 2048, &o->rays)) return -1;
    } else if (IS("--scene")) {
      const char *v = VALUE();
      o->scene_given = 1;
      const size_t len = v ? strlen(v) : 0;
      if (len > 4 && strcmp(v + len - 4, ".obj") == 0) {
        char why[512];
        o->scene = BENCH_SCENE_FILE;
        if (bench_scene_load(v, &o->scene_count, why, sizeof why)) {
          fprintf(stderr, "glradix-bench: --scene: %s\n", why);
          return -1;
        }
      } else if (bench_scene_parse(v, &o->scene)) {
        fprintf(stderr, "glradix-bench: --scene wants boxes, mesh or FILE.obj, got '%s'\n",
                v ? v : "");
        return -1;
      }
    } else if (IS("--n")) {
      const char *v = VALUE();
      o->n_given = 1;
      if (parse_list(v, 1, o->sizes, &o->nsizes)) {
        fprintf(stderr, "glradix-bench: --n wants N[,N...] with 1 <= N < 2^32, got '%s'\n",
                v ? v : "");
        return -1;
      }
      for (size_t k = 0; k < o->nsizes; ++k)
        if (o->sizes[k] == 0) {
          fprintf(stderr, "glradix-bench: --n: sizes must be at least 1\n");
          return -1;
        }
    } else if (IS("--key-bits")) {
      const char *v = VALUE();
      uint32_t tmp[MAX_LIST];
      if (parse_list(v, 0, tmp, &o->nkey_bits)) goto bad_key_bits;
      for (size_t k = 0; k < o->nkey_bits; ++k) {
        if (tmp[k] != 24 && tmp[k] != 30 && tmp[k] != 32 && tmp[k] != 63 && tmp[k] != 64)
          goto bad_key_bits;
        o->key_bits[k] = tmp[k];
      }
      o->key_bits_given = 1;
      continue;
    bad_key_bits:
      fprintf(stderr, "glradix-bench: --key-bits wants values among 24,30,32 (63,64 for uint64), got '%s'\n",
              v ? v : "");
      return -1;
    } else if (IS("--end-bit")) {
      if (parse_option_u32("--end-bit", VALUE(), 64, &o->end_bit)) return -1;
    } else if (IS("--bits")) {
      const char *v = VALUE();
      uint32_t tmp[MAX_LIST];
      if (parse_list(v, 0, tmp, &o->nbits)) goto bad_bits;
      for (size_t k = 0; k < o->nbits; ++k) {
        if (tmp[k] != 0 && tmp[k] != 2 && tmp[k] != 4 && tmp[k] != 8) goto bad_bits;
        o->bits[k] = tmp[k];
      }
      continue;
    bad_bits:
      fprintf(stderr, "glradix-bench: --bits wants values among 0,2,4,8, got '%s'\n", v ? v : "");
      return -1;
    } else if (IS("--repeat")) {
      if (parse_option_u32("--repeat", VALUE(), 100000, &o->repeat)) return -1;
    } else if (IS("--key-type")) {
      const char *v = VALUE();
      static const glradix_key_type types[] = {GLRADIX_KEY_UINT32, GLRADIX_KEY_INT32,
                                               GLRADIX_KEY_FLOAT32, GLRADIX_KEY_UINT64};
      int found = 0;
      for (size_t t = 0; t < 4 && v; ++t)
        if (strcmp(v, typed_name(types[t])) == 0) {
          o->key_type = types[t];
          found = 1;
        }
      if (!found) {
        fprintf(stderr, "glradix-bench: --key-type wants uint32, int32, float32 or uint64, got '%s'\n",
                v ? v : "");
        return -1;
      }
    } else if (IS("--plan")) {
      const char *v = VALUE();
      if (v && strcmp(v, "reduce-then-scan") == 0) {
        o->plan = GLRADIX_PLAN_REDUCE_THEN_SCAN;
      } else if (v && strcmp(v, "scan-then-propagate") == 0) {
        o->plan = GLRADIX_PLAN_SCAN_THEN_PROPAGATE;
      } else if (v && strcmp(v, "onesweep") == 0) {
        o->plan = GLRADIX_PLAN_ONESWEEP;
      } else {
        fprintf(stderr, "glradix-bench: --plan wants onesweep, reduce-then-scan or scan-then-propagate, got '%s'\n",
                v ? v : "");
        return -1;
      }
    } else if (IS("--dist")) {
      const char *v = VALUE();
      o->dist_given = 1;
      if (bench_dist_parse(v, o->dists, &o->ndists)) {
        fprintf(stderr, "glradix-bench: --dist wants all or distinct names among uniform, sorted, "
                        "reverse, nearly_sorted, morton, few_unique, all_equal, got '%s'\n",
                v ? v : "");
        return -1;
      }
    } else if (IS("--soak")) {
      if (parse_option_u32("--soak", VALUE(), 86400, &o->soak_s)) return -1;
    } else if (IS("--seed")) {
      const char *v = VALUE();
      if (parse_u32(v, 0, &o->seed)) {
        fprintf(stderr, "glradix-bench: --seed wants 0..4294967295, got '%s'\n", v ? v : "");
        return -1;
      }
    } else if (IS("--svg")) {
      const char *v = VALUE();
      if (!v || !*v) {
        fprintf(stderr, "glradix-bench: --svg wants a file name\n");
        return -1;
      }
      o->svg = v;
    } else {
      fprintf(stderr, "glradix-bench: unknown argument '%s'\n", a);
      return -1;
    }
#undef IS
#undef VALUE
  }
  if (!o->pairs && !o->keys_only) o->pairs = o->keys_only = 1;
  if ((o->sah || o->scene_given || o->rays || o->quality) && !o->lbvh) {
    fprintf(stderr, "glradix-bench: --sah, --scene, --rays and --quality go with --lbvh\n");
    return -1;
  }
  if (o->soak_s && o->lbvh) {
    fprintf(stderr, "glradix-bench: --soak runs its own LBVH builds; leave out --lbvh\n");
    return -1;
  }
  if (o->host && (o->soak_s || o->lbvh || o->key_type != GLRADIX_KEY_UINT32)) {
    fprintf(stderr, "glradix-bench: --host sorts uint32 keys alone; leave out --soak, --lbvh "
                    "and --key-type\n");
    return -1;
  }
  if (o->vs_bitonic && (o->soak_s || o->lbvh || o->host || o->key_type != GLRADIX_KEY_UINT32)) {
    fprintf(stderr, "glradix-bench: --vs-bitonic sorts uint32 keys beside glradix; leave out "
                    "--soak, --lbvh, --host and --key-type\n");
    return -1;
  }
  if (o->vs_bitonic && !o->n_given) {
    o->nsizes = 0;
    for (uint32_t n = 1u << 12; n <= 1u << 24; n <<= 2) o->sizes[o->nsizes++] = n;
  }
  if (o->soak_s && !o->n_given) {
    static const uint32_t soak_sizes[] = {1u << 16, 1u << 20, 1u << 24, 1u << 26};
    memcpy(o->sizes, soak_sizes, sizeof soak_sizes);
    o->nsizes = sizeof soak_sizes / sizeof soak_sizes[0];
  }
  if (o->soak_s && !o->dist_given) bench_dist_parse("all", o->dists, &o->ndists);
  if (o->soak_s && !o->key_bits_given &&
      (o->key_type == GLRADIX_KEY_UINT32 || o->key_type == GLRADIX_KEY_UINT64)) {
    /* the LBVH's Morton codes, the keys that applications sort most */
    o->key_bits[0] = o->key_type == GLRADIX_KEY_UINT64 ? 63 : 30;
    o->nkey_bits = 1;
    o->key_bits_given = 1;
  }
  if (o->scene == BENCH_SCENE_FILE && o->n_given) {
    fprintf(stderr, "glradix-bench: --n does not go with --scene FILE.obj (its triangles are the count)\n");
    return -1;
  }
  if (o->scene == BENCH_SCENE_FILE) {
    o->sizes[0] = o->scene_count;
    o->nsizes = 1;
    o->n_given = 1; /* a size that does not fit fails */
  } else if (o->lbvh && !o->n_given) {
    o->sizes[0] = 1048576;
    o->sizes[1] = 16777216;
    o->nsizes = 2;
  }
  if (o->lbvh && !o->key_bits_given) {
    o->key_bits[0] = 30;
    o->nkey_bits = 1;
  }
  if (o->lbvh) {
    for (size_t k = 0; k < o->nkey_bits; ++k)
      if (o->key_bits[k] != 30 && o->key_bits[k] != 63) {
        fprintf(stderr, "glradix-bench: --lbvh takes --key-bits 30 or 63\n");
        return -1;
      }
    return 0;
  }
  if (o->key_type == GLRADIX_KEY_UINT64 && !o->key_bits_given) {
    o->key_bits[0] = 64;
    o->key_bits[1] = 63;
  } else if (o->key_type != GLRADIX_KEY_UINT32 && !o->key_bits_given) {
    o->nkey_bits = 1; /* int32, float32: the whole key */
  }
  for (size_t k = 0; o->end_bit && k < o->nkey_bits; ++k)
    if (o->end_bit < o->key_bits[k] || o->end_bit > (o->key_type == GLRADIX_KEY_UINT64 ? 64u : 32u)) {
      fprintf(stderr, "glradix-bench: --end-bit %u is below key bits %u or past the key\n",
              o->end_bit, o->key_bits[k]);
      return -1;
    }
  for (size_t k = 0; k < o->nkey_bits; ++k) {
    unsigned kb = o->key_bits[k];
    int wide = o->key_type == GLRADIX_KEY_UINT64;
    if ((wide && kb < 63) || (!wide && kb > 32) ||
        ((o->key_type == GLRADIX_KEY_INT32 || o->key_type == GLRADIX_KEY_FLOAT32) && kb != 32)) {
      fprintf(stderr, "glradix-bench: --key-bits %u does not fit --key-type %s\n", kb,
              typed_name(o->key_type));
      return -1;
    }
  }
  return 0;
}

/* ---- GL ------------------------------------------------------------------ */

static GladGLContext gl;

static void log_cb(void *user, const char *message) {
  (void)user;
  fprintf(stderr, "glradix: %s\n", message);
}

typedef struct bitonic_case {
  uint32_t n;
  unsigned key_bits;
  int pairs;
  const char *dist;
  double glradix_ms; /* 0: no glradix time to compare with */
  const uint32_t *keys, *ref; /* the input and its CPU-sorted copy (with --verify) */
} bitonic_case;

/* --vs-bitonic: times the bitonic sort of the case in buf[0] (and buf[1]),
 * checks it with --verify and prints its row. 0 ok, 1 wrong result, 2 the
 * sort failed. */
static int bitonic_row(bench_case *b, bench_bitonic *bt, const GLuint *buf,
                       const bitonic_case *c, const options *o, uint32_t *out_k,
                       uint32_t *out_v) {
  double ms = 0;
  const glradix_status st =
      bench_bitonic_run(b, bt, buf[0], c->pairs ? buf[1] : 0, c->n, &ms);
  if (st != GLRADIX_OK) {
    fprintf(stderr, "glradix-bench: n = %u, pairs %d: the bitonic sort failed: %s\n", c->n,
            c->pairs, glradix_status_string(st));
    return 2;
  }
  const char *verified = "-";
  int bad = 0;
  if (o->verify) {
    char why[256];
    gl.MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    bench_download(&gl, buf[0], out_k, c->n);
    if (out_v) bench_download(&gl, buf[1], out_v, c->n);
    bad = !bench_check_u32_unstable(c->keys, c->ref, out_k, out_v, c->n, why, sizeof why);
    if (bad)
      fprintf(stderr,
              "glradix-bench: n = %u, key_bits %u, %s keys, pairs %d: bitonic verification "
              "failed: %s\n",
              c->n, c->key_bits, c->dist, c->pairs, why);
    verified = bad ? "NO" : "yes";
  }
  const double mkeys = ms > 0 ? (double)c->n / ms / 1e3 : 0.0;
  if (o->csv) {
    printf("bitonic,%u,%u,%d,0,%.4f,%.1f,%s,%s\n", c->n, c->key_bits, c->pairs, ms, mkeys,
           verified, c->dist);
  } else {
    printf("%10u %8u %5d %10s %12.4f %10.1f  %-8s  %s", c->n, c->key_bits, c->pairs, "bitonic",
           ms, mkeys, verified, c->dist);
    if (c->glradix_ms > 0)
      printf("  glradix %.4f ms, bitonic/glradix %.2f", c->glradix_ms, ms / c->glradix_ms);
    putchar('\n');
  }
  fflush(stdout);
  return bad;
}

/* Whether size n fits every context the run uses: the LBVH's build on
 * ctx[0], --soak's and --host's sorts on ctx[0], the other sorts on each
 * context. */
static int size_fits(const options *o, glradix_context *const *ctx, int64_t max_block,
                     uint32_t n) {
  for (size_t k = 0; k < o->nbits; ++k) {
    if (!ctx[k] || (k > 0 && (o->lbvh || o->soak_s || o->host))) continue;
    for (size_t kb = 0; o->lbvh && kb < o->nkey_bits; ++kb)
      if (!bench_fit_lbvh(ctx[k], max_block, n, o->key_bits[kb])) return 0;
    if (!o->lbvh && !bench_fit_sort(ctx[k], max_block, n, o->key_type, o->pairs)) return 0;
  }
  return 1;
}

/* The default sizes (no --n) that fit the contexts' limits, each one left
 * out saying so; sizes given with --n stay, so that glradix refuses them
 * loudly. Returns how many sizes remain. */
static size_t drop_unfit_sizes(options *o, glradix_context *const *ctx, int64_t max_block) {
  if (o->n_given) return o->nsizes;
  size_t kept = 0;
  for (size_t i = 0; i < o->nsizes; ++i) {
    if (size_fits(o, ctx, max_block, o->sizes[i])) {
      o->sizes[kept++] = o->sizes[i];
      continue;
    }
    fprintf(stderr,
            "glradix-bench: skipping n = %u: above this context's limits (storage block %lld "
            "bytes)\n",
            o->sizes[i], (long long)max_block);
  }
  o->nsizes = kept;
  return kept;
}

int main(int argc, char **argv) {
  options opt;
  const int pa = parse_args(argc, argv, &opt);
  if (pa == 1) {
    usage(stdout);
    return 0;
  }
  if (pa != 0) {
    usage(stderr);
    return 2;
  }
  bench_set_warmup_ms(opt.warmup_ms);
  bench_set_idle_ms(opt.idle_ms);
  FILE *info = opt.csv ? stderr : stdout; /* keep stdout pure CSV */

  glradix_headless *h = NULL;
  glradix_status st = glradix_headless_create(&h);
  if (st != GLRADIX_OK) {
    fprintf(stderr,
            "glradix-bench: no headless OpenGL 4.3 or ES 3.1 context: %s "
            "(GLRADIX_HEADLESS_VERBOSE=1 says why)\n",
            glradix_status_string(st));
    return 1;
  }
  /* GLRADIX_EGL_API=gles: an OpenGL ES context, whose timestamps come
   * from GL_EXT_disjoint_timer_query's entry points (the same signatures
   * and tokens as GL's) */
  const int es = strcmp(glradix_headless_api(h), "gles") == 0;
  if (!(es ? gladLoadGLES2Context(&gl, glradix_headless_load)
           : gladLoadGLContext(&gl, glradix_headless_load))) {
    fprintf(stderr, "glradix-bench: could not load GL functions\n");
    glradix_headless_destroy(h);
    return 1;
  }
  if (es) {
    gl.QueryCounter = (PFNGLQUERYCOUNTERPROC)glradix_headless_load("glQueryCounterEXT");
    gl.GetQueryObjectui64v =
        (PFNGLGETQUERYOBJECTUI64VPROC)glradix_headless_load("glGetQueryObjectui64vEXT");
    if (!gl.QueryCounter || !gl.GetQueryObjectui64v) {
      fprintf(stderr, "glradix-bench: OpenGL ES without GL_EXT_disjoint_timer_query\n");
      glradix_headless_destroy(h);
      return 1;
    }
  }
  fprintf(info, "renderer: %s\n", glradix_headless_renderer(h));
  fprintf(info, "GL: %s (EGL platform %s)\n", (const char *)gl.GetString(GL_VERSION),
          glradix_headless_platform(h));

  bench_case b = {0};
  b.gl = &gl;
  b.repeat = opt.repeat;
  b.trace = opt.trace;
  GLint counter_bits = 0;
  gl.GetQueryiv(GL_TIMESTAMP, GL_QUERY_COUNTER_BITS, &counter_bits);
  b.gpu_timer = counter_bits > 0;
  if (b.gpu_timer) gl.GenQueries(2, b.query);

  int failed = 0;
  size_t n_verified = 0, n_bad = 0;
  glradix_context *ctx[MAX_LIST] = {0};
  unsigned resolved[MAX_LIST] = {0};
  for (size_t k = 0; k < opt.nbits; ++k) {
    glradix_desc d = {0};
    d.load = glradix_headless_load;
    d.radix_bits = opt.bits[k];
    d.log = log_cb;
    d.profile = opt.stages || opt.host;
    d.disable_subgroups = opt.portable;
    d.plan = opt.plan;
    d.memory = opt.memory == 1 ? GLRADIX_MEMORY_GL : GLRADIX_MEMORY_DEFAULT;
    st = glradix_create(&d, &ctx[k]);
    if (st != GLRADIX_OK) {
      fprintf(stderr, "glradix-bench: glradix_create(radix_bits %u) failed: %s\n", opt.bits[k],
              glradix_status_string(st));
      failed = 1;
      continue;
    }
    resolved[k] = glradix_query_desc(ctx[k]).radix_bits;
    fprintf(info, "radix_bits %u: %s, %s path\n", resolved[k],
            plan_name(glradix_query_desc(ctx[k]).plan),
            glradix_subgroup_size(ctx[k]) ? "subgroup (GL_KHR_shader_subgroup)" : "portable GLSL 4.30");
  }

  GLint64 max_block = 0;
  gl.GetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max_block);
  if (drop_unfit_sizes(&opt, ctx, (int64_t)max_block) == 0) {
    fprintf(stderr, "glradix-bench: no default size fits this context; give some with --n\n");
    if (b.gpu_timer) gl.DeleteQueries(2, b.query);
    for (size_t k = 0; k < opt.nbits; ++k) glradix_destroy(ctx[k]);
    glradix_headless_destroy(h);
    return 1;
  }

  if (opt.copy_table && ctx[0] && b.gpu_timer) {
    double *times = malloc(opt.repeat * sizeof *times);
    failed |= !times || bench_copy_table(&gl, ctx[0], b.query, opt.repeat, times, stdout);
    free(times);
    gl.DeleteQueries(2, b.query);
    for (size_t k = 0; k < opt.nbits; ++k) glradix_destroy(ctx[k]);
    glradix_headless_destroy(h);
    return failed;
  }
  if (opt.soak_s || opt.lbvh || opt.host) {
    if (opt.host && ctx[0])
      failed |= bench_host(ctx[0], opt.sizes, opt.nsizes, opt.key_bits[0], opt.pairs,
                           opt.repeat, opt.verify, opt.trace, stdout);
    const bench_soak_desc sd = {opt.soak_s, opt.sizes, opt.nsizes, opt.dists, opt.ndists,
                                opt.keys_only, opt.pairs, opt.key_type, opt.key_bits[0],
                                opt.seed, opt.verify, opt.csv};
    if (opt.soak_s && ctx[0]) failed |= bench_soak(&b, ctx[0], &sd, info);
    if (opt.lbvh && opt.csv)
      printf("%s%s%s\n", CSV_HEADER, opt.sah ? ",sah_lbvh,sah_binned,sah_ratio" : "",
             opt.rays ? ",rays,rays_ms,mrays_per_s,rays_hit" : "");
    for (size_t kb = 0; opt.lbvh && kb < opt.nkey_bits && ctx[0]; ++kb) {
      const bench_lbvh_run run = {.morton_bits = opt.key_bits[kb], .repeat = opt.repeat,
                                  .verify = opt.verify, .csv = opt.csv,
                                  .imported = opt.memory == 2, .quality = opt.quality,
                                  .scene = opt.scene, .sah = opt.sah, .stages = opt.stages,
                                  .rays = opt.rays, .info = info};
      failed |= bench_lbvh(&gl, ctx[0], opt.sizes, opt.nsizes, &run);
    }
    if (b.gpu_timer) gl.DeleteQueries(2, b.query);
    for (size_t k = 0; k < opt.nbits; ++k) glradix_destroy(ctx[k]);
    glradix_headless_destroy(h);
    return failed || !ctx[0];
  }
  bench_bitonic *bitonic = NULL;
  if (opt.vs_bitonic) {
    bitonic = bench_bitonic_create(&gl);
    failed |= !bitonic;
    if (bitonic)
      fprintf(info, "bitonic: blocks of %u keys alone, %u pairs in shared memory\n",
              bench_bitonic_block(bitonic, 0), bench_bitonic_block(bitonic, 1));
  }
  size_t n_bitonic = 0;

  uint32_t max_n = 0;
  for (size_t i = 0; i < opt.nsizes; ++i)
    if (opt.sizes[i] > max_n) max_n = opt.sizes[i];
  const unsigned kw = typed_words(opt.key_type); /* 32-bit words per key */
  for (size_t k = 0; k < opt.nbits && opt.reserve; ++k) {
    /* Only count, values (as nonzero or not) and key_type size the scratch. */
    glradix_sort_desc d = {0};
    d.keys = 1;
    d.values = opt.pairs ? 2 : 0;
    d.count = max_n;
    d.key_type = opt.key_type;
    if (ctx[k] && glradix_reserve(ctx[k], &d) != GLRADIX_OK) {
      fprintf(stderr, "glradix-bench: glradix_reserve(%u) failed\n", max_n);
      failed = 1;
    }
  }
  b.key_words = kw;
  char impl[32] = "glradix";
  if (opt.key_type != GLRADIX_KEY_UINT32)
    snprintf(impl, sizeof impl, "glradix-%s", typed_name(opt.key_type));
  const size_t bytes = (size_t)max_n * sizeof(uint32_t);
  uint32_t *keys = malloc(bytes * kw), *vals = opt.pairs ? malloc(bytes) : NULL;
  uint32_t *ref = NULL, *tmp = NULL, *out_k = NULL, *out_v = NULL;
  if (opt.verify) {
    ref = malloc(bytes);
    tmp = malloc(bytes);
    out_k = malloc(bytes * kw);
    out_v = opt.pairs ? malloc(bytes) : NULL;
  }
  const size_t max_rows =
      opt.nsizes * opt.nkey_bits * opt.ndists * (size_t)(opt.pairs + opt.keys_only) * opt.nbits;
  bench_result *rows = calloc(max_rows, sizeof *rows);
  size_t nrows = 0;
  b.times = malloc(opt.repeat * sizeof *b.times);
  for (int i = 0; i < 3; i++) b.stage_times[i] = malloc(opt.repeat * sizeof(double));
  if (!keys || (opt.pairs && !vals) || !rows || !b.times || !b.stage_times[0] ||
      !b.stage_times[1] || !b.stage_times[2] ||
      (opt.verify && (!ref || !tmp || !out_k || (opt.pairs && !out_v)))) {
    fprintf(stderr, "glradix-bench: out of host memory for %u keys\n", max_n);
    return 1;
  }
  if (vals)
    for (uint32_t i = 0; i < max_n; ++i) vals[i] = i;

  if (opt.csv) {
    puts(CSV_HEADER);
  } else {
    printf("timing: %s around each glradix_sort, median of %u runs after %d+ warm-ups (%u ms)%s\n",
           b.gpu_timer ? "GL_TIMESTAMP queries" : "CPU clock + glFinish", opt.repeat, BENCH_WARMUPS,
           opt.warmup_ms, opt.verify ? ", verified on the CPU" : "");
    if (bitonic)
      printf("bitonic: the same way, each beside the glradix case before it (radix_bits %u)\n",
             resolved[0]);
    printf("%10s %8s %5s %10s %12s %10s  %-8s  %s\n", "n", "key_bits", "pairs", "radix_bits",
           "ms_median", "Mkeys/s", "verified", "dist");
  }
  fflush(stdout);

  for (size_t si = 0; si < opt.nsizes; ++si) {
    const uint32_t n = opt.sizes[si];
    GLuint buf[4] = {0, 0, 0, 0}; /* sorted keys, values; pristine keys, values */
    /* --memory imported: the sorted buffers from glradix_buffer_create */
    glradix_context *owner = opt.memory == 2 ? ctx[0] : NULL;
    for (int k = 0; k < 4; ++k)
      if (opt.pairs || !(k & 1))
        buf[k] = bench_buffer(&gl, k < 2 ? owner : NULL, (uint64_t)n * 4 * (k & 1 ? 1 : kw), NULL);
    b.pristine[0] = buf[2];
    b.pristine[1] = buf[3];
    if (opt.pairs) bench_upload(&gl, buf[3], vals, n);
    gl.BindBuffer(GL_COPY_WRITE_BUFFER, 0);
    const GLenum err = gl.GetError();
    if (err != GL_NO_ERROR || !buf[0] || (opt.pairs && !buf[1])) {
      fprintf(stderr, "glradix-bench: n = %u: GL error 0x%04x allocating the buffers; skipped\n",
              n, err);
      failed = 1;
      for (int k = 0; k < 4; ++k) bench_buffer_delete(&gl, k < 2 ? owner : NULL, buf[k]);
      continue;
    }
    for (size_t kd = 0; kd < opt.nkey_bits * opt.ndists; ++kd) {
      const unsigned key_bits = opt.key_bits[kd / opt.ndists];
      const char *dist = bench_dist_name(opt.dists[kd % opt.ndists]);
      bench_dist_make(keys, n, opt.key_type, key_bits, opt.dists[kd % opt.ndists], opt.seed);
      bench_upload(&gl, buf[2], keys, n * kw);
      if (opt.verify && opt.key_type == GLRADIX_KEY_UINT32) {
        memcpy(ref, keys, (size_t)n * sizeof *keys);
        bench_cpu_sort(ref, tmp, n, key_bits);
      }
      for (int pairs = 0; pairs <= 1; ++pairs) {
        if (pairs ? !opt.pairs : !opt.keys_only) continue;
        double glradix_ms = 0; /* the first --bits' time, bitonic's reference */
        for (size_t bi = 0; bi < opt.nbits; ++bi) {
          if (!ctx[bi]) continue;
          double ms = 0;
          glradix_stage_times stages = {0};
          glradix_sort_desc sd = {0};
          sd.keys = buf[0];
          sd.values = pairs ? buf[1] : 0;
          sd.count = n;
          sd.end_bit = opt.end_bit ? opt.end_bit : key_bits;
          sd.key_type = opt.key_type;
          st = bench_case_run(&b, ctx[bi], &sd, &ms, opt.stages ? &stages : NULL);
          if (st != GLRADIX_OK) {
            fprintf(stderr,
                    "glradix-bench: n = %u, key_bits %u, %s keys, pairs %d, radix_bits %u: "
                    "glradix_sort failed: %s\n",
                    n, key_bits, dist, pairs, resolved[bi], glradix_status_string(st));
            failed = 1;
            continue;
          }
          const char *verified = "-";
          if (opt.verify) {
            char why[256];
            gl.MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
            bench_download(&gl, buf[0], out_k, n * kw);
            if (pairs) bench_download(&gl, buf[1], out_v, n);
            const int ok =
                opt.key_type == GLRADIX_KEY_UINT32
                    ? bench_check_u32(keys, ref, out_k, pairs ? out_v : NULL, n, why, sizeof why)
                    : typed_check(opt.key_type, key_bits, keys, out_k, pairs ? out_v : NULL, n,
                                  why, sizeof why);
            if (!ok) {
              fprintf(stderr,
                      "glradix-bench: n = %u, key_bits %u, %s keys, pairs %d, radix_bits %u: "
                      "verification failed: %s\n",
                      n, key_bits, dist, pairs, resolved[bi], why);
              failed = 1;
              ++n_bad;
            } else {
              ++n_verified;
            }
            verified = ok ? "yes" : "NO";
          }
          const double mkeys = ms > 0 ? (double)n / ms / 1e3 : 0.0;
          if (opt.csv)
            printf("%s,%u,%u,%d,%u,%.4f,%.1f,%s,%s\n", impl, n, key_bits, pairs, resolved[bi], ms,
                   mkeys, verified, dist);
          else
            printf("%10u %8u %5d %10u %12.4f %10.1f  %-8s  %s\n", n, key_bits, pairs,
                   resolved[bi], ms, mkeys, verified, dist);
          if (opt.stages)
            fprintf(info,
                    "stages: n=%u key_bits=%u dist=%s pairs=%d radix_bits=%u passes=%u: tiles "
                    "%.4f ms, scan %.4f ms, scatter %.4f ms (medians; sort %.4f ms); "
                    "fallbacks %u (the most in a run)\n",
                    n, key_bits, dist, pairs, resolved[bi], stages.passes, stages.tiles_ms,
                    stages.scan_ms, stages.scatter_ms, ms, stages.fallbacks);
          fflush(stdout);
          bench_result *row = &rows[nrows++];
          row->n = n;
          row->key_bits = key_bits;
          row->pairs = pairs;
          row->radix_bits = resolved[bi];
          row->ms_median = ms;
          row->mkeys_per_s = mkeys;
          row->dist = dist;
          if (!glradix_ms) glradix_ms = ms;
        }
        if (bitonic) {
          const bitonic_case c = {n, key_bits, pairs, dist, glradix_ms, keys, ref};
          const int bad =
              bitonic_row(&b, bitonic, buf, &c, &opt, out_k, pairs ? out_v : NULL);
          failed |= bad != 0;
          n_bad += bad == 1;
          n_verified += opt.verify && bad == 0;
          n_bitonic += bad != 2;
        }
      }
    }
    if (opt.copy && b.gpu_timer) {
      /* after the sorts: the keys uploaded last are the pristine ones */
      const uint32_t words[2] = {n * kw, n};
      const double ms =
          bench_copy_ms(&gl, b.query, b.pristine, buf, words, opt.pairs ? 2 : 1, opt.repeat, b.times);
      const double bytes = 2.0 * 16 * (words[0] / 4 + (opt.pairs ? words[1] / 4 : 0)); /* read + written */
      /* a yardstick that moved nothing would read as infinitely fast */
      int copied = ms > 0;
      if (copied && opt.verify) {
        gl.MemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        bench_download(&gl, buf[0], out_k, n * kw);
        copied = memcmp(out_k, keys, (size_t)(n / 4 * 4) * kw * sizeof *keys) == 0;
        if (copied && opt.pairs) {
          bench_download(&gl, buf[1], out_v, n);
          copied = memcmp(out_v, vals, (size_t)(n / 4 * 4) * sizeof *vals) == 0;
        }
      }
      if (copied)
        fprintf(info, "copy: n=%u %s by a compute shader: %.4f ms (median), %.0f GB/s read + written%s\n",
                n, opt.pairs ? "keys and values" : "keys", ms, bytes / ms * 1e-6,
                opt.verify ? ", copy verified" : "");
      else
        fprintf(stderr, "glradix-bench: n = %u: the copy %s\n", n,
                ms > 0 ? "did not reproduce its input" : "shader did not build or fit");
      failed |= !copied;
    }
    for (int k = 0; k < 4; ++k) bench_buffer_delete(&gl, k < 2 ? owner : NULL, buf[k]);
  }

  if (!opt.csv) {
    printf("result: %zu of %zu cases ran", nrows, max_rows);
    if (bitonic) printf(" (and %zu bitonic sorts)", n_bitonic);
    if (opt.verify) printf(", %zu verified, %zu failed verification", n_verified, n_bad);
    printf(": %s\n", failed ? "FAILED" : "ok");
  }

  if (opt.svg) {
    char title[256];
    snprintf(title, sizeof title, "glradix_sort throughput on %s", glradix_headless_renderer(h));
    if (bench_write_svg(opt.svg, title, rows, nrows) != 0) {
      fprintf(stderr, "glradix-bench: cannot write %s\n", opt.svg);
      failed = 1;
    } else {
      fprintf(info, "plot: %s\n", opt.svg);
    }
  }

  bench_bitonic_destroy(bitonic);
  for (size_t k = 0; k < opt.nbits; ++k) glradix_destroy(ctx[k]);
  if (b.gpu_timer) gl.DeleteQueries(2, b.query);
  glradix_headless_destroy(h);
  free(b.times);
  for (int i = 0; i < 3; i++) free(b.stage_times[i]);
  free(rows);
  free(keys);
  free(vals);
  free(ref);
  free(tmp);
  free(out_k);
  free(out_v);
  return failed ? 1 : 0;
}
