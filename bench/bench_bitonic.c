/* glradix-bench --vs-bitonic: see bench_bitonic.h.
 *
 * The network is the bitonic sort in its all-ascending form: the first step
 * of each merge of two sorted runs of size/2 compares mirror places
 * (i with i ^ (size - 1)), the later steps compare i with i + stride. Every
 * comparator puts the smaller key at the lower index, so a count that is
 * not a power of two pads logically: places at and past n hold +infinity,
 * a comparator that reaches one of them never swaps, and the shaders skip
 * it without touching memory past n.
 *
 * Blocks of `block` keys are sorted in shared memory by one dispatch; each
 * later merge (size 2 * block and up) runs one dispatch per stride of a
 * block or more, a comparator per invocation over global memory, then one
 * dispatch for the strides below a block, in shared memory. The number of
 * dispatches grows as log^2 n on the CPU side; a shader loops only over a
 * block's steps (66 for 2048 keys) and over grid strides where the grid is
 * capped. */
#include <glad/gl.h>

#include "bench_bitonic.h"

#include "bench_buffers.h"
#include "bench_case.h"

#include <stdio.h>
#include <stdlib.h>

/* On llvmpipe a comparator per invocation in the block dispatches beat 2,
 * 4 and 8 (4096 pairs: 3.1-3.4 ms against 3.8-4.8), and blocks of 1024,
 * 2048 and 4096 keys were within its noise; 2048 keys fit in the shared
 * memory GL 4.3 promises (16 KB as pairs). */
enum {
  BLOCK_MAX = 2048,    /* keys per shared-memory block, at most */
  LOCAL_WG_MAX = 1024, /* invocations of the block dispatches, at most */
  GLOBAL_WG = 256      /* invocations of the global dispatches */
};

struct bench_bitonic {
  GladGLContext *gl;
  GLuint local[2], global[2]; /* [pairs] */
  uint32_t block[2];
  uint32_t global_wg, max_groups;
};

/* Loads a block (padding with the largest key past n), then sorts it
 * (u_merge 0) or runs the strides below a block of a larger merge
 * (u_merge 1), and stores the places below n. The padding sits at the
 * block's end and never moves: comparators swap only on a strictly larger
 * key at the lower place. */
static const char *LOCAL_SOURCE =
    "layout(local_size_x = WG) in;\n"
    "layout(std430, binding = 0) buffer Keys { uint keys[]; };\n"
    "shared uint s_key[BLOCK];\n"
    "#if PAIRS\n"
    "layout(std430, binding = 1) buffer Vals { uint vals[]; };\n"
    "shared uint s_val[BLOCK];\n"
    "#endif\n"
    "layout(location = 0) uniform uint u_n;\n"
    "layout(location = 1) uniform uint u_merge;\n"
    "void cx_step(uint mask, uint stride) {\n"
    "  for (uint c = 0u; c < BLOCK / 2u / WG; c++) {\n"
    "    uint t = c * WG + gl_LocalInvocationID.x;\n"
    "    uint i = ((t & ~(stride - 1u)) << 1) | (t & (stride - 1u));\n"
    "    uint j = i ^ mask;\n"
    "    uint a = s_key[i], b = s_key[j];\n"
    "    if (a > b) {\n"
    "      s_key[i] = b;\n"
    "      s_key[j] = a;\n"
    "#if PAIRS\n"
    "      uint v = s_val[i];\n"
    "      s_val[i] = s_val[j];\n"
    "      s_val[j] = v;\n"
    "#endif\n"
    "    }\n"
    "  }\n"
    "  memoryBarrierShared();\n"
    "  barrier();\n"
    "}\n"
    "void main() {\n"
    "  uint lid = gl_LocalInvocationID.x;\n"
    "  uint blocks = (u_n + BLOCK - 1u) / BLOCK;\n"
    "  for (uint blk = gl_WorkGroupID.x; blk < blocks; blk += gl_NumWorkGroups.x) {\n"
    "    uint base = blk * BLOCK;\n"
    "    for (uint k = lid; k < BLOCK; k += WG) {\n"
    "      uint g = base + k;\n"
    "      s_key[k] = g < u_n ? keys[g] : 0xFFFFFFFFu;\n"
    "#if PAIRS\n"
    "      s_val[k] = g < u_n ? vals[g] : 0u;\n"
    "#endif\n"
    "    }\n"
    "    memoryBarrierShared();\n"
    "    barrier();\n"
    "    if (u_merge != 0u) {\n"
    "      for (uint stride = BLOCK / 2u; stride > 0u; stride >>= 1) cx_step(stride, stride);\n"
    "    } else {\n"
    "      for (uint size = 2u; size <= BLOCK; size <<= 1) {\n"
    "        cx_step(size - 1u, size / 2u);\n"
    "        for (uint stride = size / 4u; stride > 0u; stride >>= 1) cx_step(stride, stride);\n"
    "      }\n"
    "    }\n"
    "    for (uint k = lid; k < BLOCK; k += WG) {\n"
    "      uint g = base + k;\n"
    "      if (g < u_n) {\n"
    "        keys[g] = s_key[k];\n"
    "#if PAIRS\n"
    "        vals[g] = s_val[k];\n"
    "#endif\n"
    "      }\n"
    "    }\n"
    "    barrier(); /* the next block's loads overwrite what this one stores */\n"
    "  }\n"
    "}\n";

/* One step of stride u_stride (a block or more) over global memory:
 * comparator t joins place i with i ^ u_mask. */
static const char *GLOBAL_SOURCE =
    "layout(local_size_x = WG) in;\n"
    "layout(std430, binding = 0) buffer Keys { uint keys[]; };\n"
    "#if PAIRS\n"
    "layout(std430, binding = 1) buffer Vals { uint vals[]; };\n"
    "#endif\n"
    "layout(location = 0) uniform uint u_n;\n"
    "layout(location = 1) uniform uint u_mask;\n"
    "layout(location = 2) uniform uint u_stride;\n"
    "layout(location = 3) uniform uint u_comparators;\n"
    "void main() {\n"
    "  uint grid = gl_NumWorkGroups.x * WG;\n"
    "  for (uint t = gl_GlobalInvocationID.x; t < u_comparators; t += grid) {\n"
    "    uint i = ((t & ~(u_stride - 1u)) << 1) | (t & (u_stride - 1u));\n"
    "    uint j = i ^ u_mask;\n"
    "    if (j >= u_n) continue;\n"
    "    uint a = keys[i], b = keys[j];\n"
    "    if (a > b) {\n"
    "      keys[i] = b;\n"
    "      keys[j] = a;\n"
    "#if PAIRS\n"
    "      uint v = vals[i];\n"
    "      vals[i] = vals[j];\n"
    "      vals[j] = v;\n"
    "#endif\n"
    "    }\n"
    "  }\n"
    "}\n";

static GLuint build(GladGLContext *gl, const char *source, uint32_t wg, uint32_t block,
                    int pairs) {
  char defines[96];
  snprintf(defines, sizeof defines, "#define WG %uu\n#define BLOCK %uu\n#define PAIRS %d\n",
           (unsigned)wg, (unsigned)block, pairs);
  return bench_program(gl, defines, source, "bitonic");
}

static uint32_t floor_pow2(uint32_t x) {
  uint32_t p = 1;
  while (p <= x / 2) p *= 2;
  return p;
}

bench_bitonic *bench_bitonic_create(GladGLContext *gl) {
  bench_bitonic *b = calloc(1, sizeof *b);
  if (!b) return NULL;
  b->gl = gl;
  GLint shared = 0, invocations = 0, size_x = 0, groups = 0;
  gl->GetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &shared);
  gl->GetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &invocations);
  gl->GetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &size_x);
  gl->GetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &groups);
  b->max_groups = groups > 0 ? (uint32_t)groups : 1;
  uint32_t wg_cap = (uint32_t)(invocations < size_x ? invocations : size_x);
  wg_cap = wg_cap > 0 ? floor_pow2(wg_cap) : 1;
  const uint32_t global_wg = wg_cap < GLOBAL_WG ? wg_cap : GLOBAL_WG;
  b->global_wg = global_wg;
  for (int pairs = 0; pairs < 2; ++pairs) {
    /* every 32-bit word of a block in shared memory: a key, and a value */
    const uint32_t bytes_per_key = 4u * (pairs ? 2u : 1u);
    uint32_t block = BLOCK_MAX;
    while (block > 2 && block * bytes_per_key > (uint32_t)(shared > 0 ? shared : 0)) block /= 2;
    uint32_t wg = block / 2 < wg_cap ? block / 2 : wg_cap;
    if (wg > LOCAL_WG_MAX) wg = LOCAL_WG_MAX;
    b->block[pairs] = block;
    b->local[pairs] = block * bytes_per_key <= (uint32_t)shared
                          ? build(gl, LOCAL_SOURCE, wg, block, pairs) : 0;
    b->global[pairs] = build(gl, GLOBAL_SOURCE, global_wg, block, pairs);
    if (!b->local[pairs] || !b->global[pairs]) {
      fprintf(stderr, "glradix-bench: the bitonic sort's programs do not build or fit "
                      "(%d bytes of shared memory)\n", shared);
      bench_bitonic_destroy(b);
      return NULL;
    }
  }
  return b;
}

uint32_t bench_bitonic_block(const bench_bitonic *b, int pairs) { return b->block[pairs != 0]; }

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* One global step: `comparators` is half the padded count. */
static void global_step(const bench_bitonic *b, GLuint program, uint32_t mask, uint32_t stride,
                        uint32_t comparators) {
  GladGLContext *gl = b->gl;
  gl->UseProgram(program);
  gl->Uniform1ui(1, mask);
  gl->Uniform1ui(2, stride);
  gl->Uniform1ui(3, comparators);
  const uint32_t groups = (comparators + b->global_wg - 1) / b->global_wg;
  gl->DispatchCompute(min_u32(groups, b->max_groups), 1, 1);
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

static void local_step(const bench_bitonic *b, GLuint program, uint32_t blocks, int merge) {
  GladGLContext *gl = b->gl;
  gl->UseProgram(program);
  gl->Uniform1ui(1, merge ? 1u : 0u);
  gl->DispatchCompute(min_u32(blocks, b->max_groups), 1, 1);
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

glradix_status bench_bitonic_sort(bench_bitonic *b, unsigned keys, unsigned values, uint32_t n) {
  GladGLContext *gl = b->gl;
  if (n > 0x80000000u) return GLRADIX_ERROR_TOO_LARGE;
  if (n < 2) return GLRADIX_OK;
  const int pairs = values != 0;
  const uint32_t block = b->block[pairs];
  const GLuint local = b->local[pairs], global = b->global[pairs];
  uint32_t padded = 1;
  while (padded < n) padded *= 2;
  gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, keys);
  gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, values);
  gl->ProgramUniform1ui(local, 0, n);
  gl->ProgramUniform1ui(global, 0, n);
  const uint32_t blocks = (n + block - 1) / block;
  local_step(b, local, blocks, 0);
  for (uint32_t size = 2 * block; size <= padded && size != 0; size *= 2) {
    global_step(b, global, size - 1, size / 2, padded / 2);
    for (uint32_t stride = size / 4; stride >= block; stride /= 2)
      global_step(b, global, stride, stride, padded / 2);
    local_step(b, local, blocks, 1);
  }
  /* as glradix_sort ends: later dispatches, draws and read-backs see it */
  gl->MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT |
                    GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_ELEMENT_ARRAY_BARRIER_BIT |
                    GL_COMMAND_BARRIER_BIT);
  gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
  gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, 0);
  gl->UseProgram(0);
  return gl->GetError() == GL_NO_ERROR ? GLRADIX_OK : GLRADIX_ERROR_GL;
}

typedef struct bitonic_job {
  bench_bitonic *bt;
  unsigned keys, values;
  uint32_t n;
} bitonic_job;

static glradix_status bitonic_job_sort(void *arg) {
  const bitonic_job *j = arg;
  return bench_bitonic_sort(j->bt, j->keys, j->values, j->n);
}

glradix_status bench_bitonic_run(bench_case *b, bench_bitonic *bt, unsigned keys,
                                 unsigned values, uint32_t n, double *ms_median) {
  bitonic_job j = {bt, keys, values, n};
  const bench_case_job job = {keys, values, n, bitonic_job_sort, NULL, &j};
  return bench_case_run_job(b, &job, ms_median);
}

void bench_bitonic_destroy(bench_bitonic *b) {
  if (!b) return;
  for (int pairs = 0; pairs < 2; ++pairs) {
    b->gl->DeleteProgram(b->local[pairs]);
    b->gl->DeleteProgram(b->global[pairs]);
  }
  free(b);
}
