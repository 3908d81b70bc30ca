/* Session 23 probe (untracked): does how a buffer is allocated, or the order a copy
   walks it, move GL's memory step (1 GB touched a run)? */
#define GLAD_GL_IMPLEMENTATION
#include <glad/gl.h>
#include <glradix/headless.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static GladGLContext gl;
/* GL 4.4 / ARB_sparse_buffer, outside the library's glad (4.3) */
typedef void (*storage_fn)(GLenum, GLsizeiptr, const void *, GLbitfield);
typedef void (*commit_fn)(GLenum, GLintptr, GLsizeiptr, GLboolean);
static storage_fn BufferStorage;
static commit_fn BufferPageCommitmentARB;
#define GL_DYNAMIC_STORAGE_BIT 0x0100
#define GL_CLIENT_STORAGE_BIT 0x0200
#define GL_SPARSE_STORAGE_BIT_ARB 0x0400
static GLADapiproc load(const char *name) {
  union { void *p; GLADapiproc f; } u;
  u.p = glradix_headless_load(name);
  return u.f;
}

static const char *SRC =
    "#version 430\n"
    "layout(local_size_x = 256) in;\n"
    "layout(std430, binding = 0) readonly buffer Src { uvec4 src[]; };\n"
    "layout(std430, binding = 1) writeonly buffer Dst { uvec4 dst[]; };\n"
    "layout(location = 0) uniform uint u_count;\n"
    "layout(location = 1) uniform uint u_contig;\n"
    "void main() {\n"
    "  uint stride = gl_NumWorkGroups.x * 256u;\n"
    "  for (uint k = 0u; k < 4u; k++) {\n"
    "    uint i = u_contig != 0u ? gl_WorkGroupID.x * 1024u + k * 256u + gl_LocalInvocationID.x\n"
    "                           : gl_WorkGroupID.x * 256u + gl_LocalInvocationID.x + k * stride;\n"
    "    if (i < u_count) dst[i] = src[i];\n"
    "  }\n"
    "}\n";

static GLuint prog, q[2];

static int alloc_kind;
static const char *KIND_NAMES[] = {"BufferData DYNAMIC_COPY", "BufferData STATIC_DRAW",
  "BufferData STREAM_COPY", "BufferStorage 0", "BufferStorage DYNAMIC_STORAGE",
  "BufferStorage CLIENT_STORAGE", "sparse, all committed"};
#define N_KINDS 7
static GLuint make_buffer(size_t bytes) {
  GLuint b;
  gl.GenBuffers(1, &b);
  gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, b);
  switch (alloc_kind) {
  case 0: gl.BufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, NULL, GL_DYNAMIC_COPY); break;
  case 1: gl.BufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, NULL, GL_STATIC_DRAW); break;
  case 2: gl.BufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_COPY); break;
  case 3: BufferStorage(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, NULL, 0); break;
  case 4: BufferStorage(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, NULL, GL_DYNAMIC_STORAGE_BIT); break;
  case 5: BufferStorage(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, NULL, GL_CLIENT_STORAGE_BIT); break;
  case 6:
    if (!BufferPageCommitmentARB) { printf("(no ARB_sparse_buffer)\n"); break; }
    BufferStorage(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, NULL, GL_SPARSE_STORAGE_BIT_ARB);
    BufferPageCommitmentARB(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)bytes, GL_TRUE);
    break;
  }
  if (gl.GetError()) printf("(allocation error, kind %d)\n", alloc_kind);
  unsigned zero = 0;
  gl.ClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
  gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  return b;
}

typedef struct { GLuint src, dst; size_t src_off, dst_off, bytes; } copy_t;

static void dispatch(const copy_t *c) {
  gl.BindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, c->src, (GLintptr)c->src_off, (GLsizeiptr)c->bytes);
  gl.BindBufferRange(GL_SHADER_STORAGE_BUFFER, 1, c->dst, (GLintptr)c->dst_off, (GLsizeiptr)c->bytes);
  GLuint vecs = (GLuint)(c->bytes / 16);
  gl.Uniform1ui(0, vecs);
  gl.DispatchCompute((vecs + 1023) / 1024, 1, 1);
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median TB/s (read + written) of copying every job in turn, 20 runs after 3. */
static double time_jobs(const copy_t *jobs, int n) {
  double t[23];
  size_t bytes = 0;
  for (int i = 0; i < n; i++) bytes += 2 * jobs[i].bytes;
  for (int r = 0; r < 23; r++) {
    gl.QueryCounter(q[0], GL_TIMESTAMP);
    for (int i = 0; i < n; i++) {
      dispatch(&jobs[i]);
      gl.MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    gl.QueryCounter(q[1], GL_TIMESTAMP);
    GLuint64 a = 0, b = 0;
    gl.GetQueryObjectui64v(q[0], GL_QUERY_RESULT, &a);
    gl.GetQueryObjectui64v(q[1], GL_QUERY_RESULT, &b);
    t[r] = (double)(b - a);
  }
  qsort(t + 3, 20, sizeof t[0], cmp);
  return (double)bytes / t[13] / 1000.0; /* bytes/ns = GB/s; /1000 = TB/s */
}

static long avail(void) {
  GLint kb = -1;
  gl.GetIntegerv(0x9049, &kb); /* GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX */
  gl.GetError();
  return kb / 1024;
}

#define MB ((size_t)1 << 20)

int main(int argc, char **argv) {
  glradix_headless *h = NULL;
  if (glradix_headless_create(&h) != GLRADIX_OK || !gladLoadGLContext(&gl, load)) return 1;
  printf("renderer %s\n", glradix_headless_renderer(h));
  { union { void *p; storage_fn f; } u; u.p = glradix_headless_load("glBufferStorage"); BufferStorage = u.f; }
  { union { void *p; commit_fn f; } u; u.p = glradix_headless_load("glBufferPageCommitmentARB"); BufferPageCommitmentARB = u.f; }
  GLuint sh = gl.CreateShader(GL_COMPUTE_SHADER);
  gl.ShaderSource(sh, 1, &SRC, NULL);
  gl.CompileShader(sh);
  prog = gl.CreateProgram();
  gl.AttachShader(prog, sh);
  gl.LinkProgram(prog);
  gl.UseProgram(prog);
  gl.GenQueries(2, q);
  const char *mode = argc > 1 ? argv[1] : "sizes";
  printf("avail at start: %ld MB\n", avail());
  if (!strcmp(mode, "alloc")) {
    /* 256 MB (fast) and 512 MB (slow) pairs made each way */
    printf("sparse page size: ");
    GLint ps = 0; gl.GetIntegerv(0x82F8, &ps); gl.GetError(); printf("%d\n", ps);
    for (alloc_kind = 0; alloc_kind < N_KINDS; alloc_kind++) {
      size_t sizes[] = {128, 512};
      for (int i = 0; i < 2; i++) {
        GLuint s = make_buffer(sizes[i] * MB), d = make_buffer(sizes[i] * MB);
        copy_t c = {s, d, 0, 0, sizes[i] * MB};
        printf("%-30s pair %4zu MB each: %.3f TB/s\n", KIND_NAMES[alloc_kind], sizes[i], time_jobs(&c, 1));
        gl.DeleteBuffers(1, &s);
        gl.DeleteBuffers(1, &d);
        gl.Finish();
      }
    }
    alloc_kind = 0;
    /* one 4 GB buffer, 512 MB ranges far apart */
    GLuint b = make_buffer(4096 * MB);
    copy_t c = {b, b, 0, 2048 * MB, 512 * MB};
    printf("one 4 GB buffer, 512 MB range -> range: %.3f TB/s\n", time_jobs(&c, 1));
    gl.DeleteBuffers(1, &b);
  } else if (!strcmp(mode, "order")) {
    /* each group's 4 KB blocks a grid apart (as before) or one 16 KB run */
    for (int contig = 0; contig < 2; contig++) {
      gl.Uniform1ui(1, (GLuint)contig);
      size_t sizes[] = {128, 256, 512};
      for (int i = 0; i < 3; i++) {
        GLuint s = make_buffer(sizes[i] * MB), d = make_buffer(sizes[i] * MB);
        copy_t c = {s, d, 0, 0, sizes[i] * MB};
        printf("%s pair %4zu MB each: %.3f TB/s\n", contig ? "contiguous" : "grid-apart", sizes[i], time_jobs(&c, 1));
        gl.DeleteBuffers(1, &s);
        gl.DeleteBuffers(1, &d);
        gl.Finish();
      }
    }
    gl.Uniform1ui(1, 0u);
  } else if (!strcmp(mode, "sizes")) {
    /* Fresh buffer pairs, largest last; each pair deleted after. */
    size_t sizes[] = {64, 128, 192, 256, 288, 320, 384, 512};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
      GLuint s = make_buffer(sizes[i] * MB), d = make_buffer(sizes[i] * MB);
      copy_t c = {s, d, 0, 0, sizes[i] * MB};
      printf("pair %4zu MB each (touched %4zu MB): %.3f TB/s  avail %ld MB\n", sizes[i],
             2 * sizes[i], time_jobs(&c, 1), avail());
      gl.DeleteBuffers(1, &s);
      gl.DeleteBuffers(1, &d);
      gl.Finish();
    }
  } else if (!strcmp(mode, "filler")) {
    /* A 128 MB pair before and after 2 GB of other buffers, and a pair made after them. */
    GLuint s = make_buffer(128 * MB), d = make_buffer(128 * MB);
    copy_t c = {s, d, 0, 0, 128 * MB};
    printf("early pair 128 MB: %.3f TB/s\n", time_jobs(&c, 1));
    GLuint fill[8];
    for (int i = 0; i < 8; i++) fill[i] = make_buffer(256 * MB);
    gl.Finish();
    printf("avail after 2 GB filler: %ld MB\n", avail());
    printf("early pair again: %.3f TB/s\n", time_jobs(&c, 1));
    GLuint s2 = make_buffer(128 * MB), d2 = make_buffer(128 * MB);
    copy_t c2 = {s2, d2, 0, 0, 128 * MB};
    printf("late pair 128 MB: %.3f TB/s\n", time_jobs(&c2, 1));
    /* the filler itself, 256 MB pairs of it */
    copy_t f = {fill[0], fill[1], 0, 0, 256 * MB};
    printf("filler pair 256 MB: %.3f TB/s\n", time_jobs(&f, 1));
    /* several pairs in turn: 4 x 128 MB pairs = 1 GB touched per run */
    copy_t many[4];
    for (int i = 0; i < 4; i++) many[i] = (copy_t){fill[2 * i], fill[2 * i + 1], 0, 0, 128 * MB};
    printf("4 pairs of 128 MB in turn (1 GB a run): %.3f TB/s\n", time_jobs(many, 4));
    copy_t same[4];
    for (int i = 0; i < 4; i++) same[i] = c;
    printf("the early pair 4 times a run: %.3f TB/s\n", time_jobs(same, 4));
  } else if (!strcmp(mode, "big")) {
    /* one 1.25 GB buffer: copy 320 MB ranges inside it */
    GLuint b = make_buffer(1280 * MB);
    copy_t c = {b, b, 0, 640 * MB, 320 * MB};
    printf("one buffer, 320 MB range -> range: %.3f TB/s\n", time_jobs(&c, 1));
    copy_t c2 = {b, b, 0, 640 * MB, 128 * MB};
    printf("one buffer, 128 MB range -> range: %.3f TB/s\n", time_jobs(&c2, 1));
    /* two ranges each half the size, in turn (pairs' keys then values) */
    copy_t two[2] = {{b, b, 0, 640 * MB, 256 * MB}, {b, b, 256 * MB, 896 * MB, 256 * MB}};
    printf("one buffer, two 256 MB ranges in turn (1 GB a run): %.3f TB/s\n", time_jobs(two, 2));
  }
  glradix_headless_destroy(h);
  return 0;
}
