/*
 * glradix: LSD radix sort of GL buffers with OpenGL 4.3 or OpenGL ES 3.1
 * compute shaders.
 *
 * The whole public API. It includes no GL header and uses no GL type: GL
 * objects are plain buffer names (`unsigned`), and the library loads its own
 * GL function table (glad2 --mx) through the loader function you give it, so
 * it coexists with whatever loader your application uses.
 *
 * Per pass over 2^radix_bits buckets, three compute stages run in sequence:
 *   1. local_shuffle : each tile of keys is sorted by the pass's digit in
 *                      shared memory (radix_bits/2 successive 4-way splits)
 *                      and its bucket counts are written, bucket-major;
 *   2. scan          : a multi-level Blelloch exclusive scan of those counts;
 *   3. global_scatter: each tile's keys (and values) move to their global
 *                      place. The sort is stable.
 * That is GLRADIX_PLAN_SCAN_THEN_PROPAGATE. The default plan,
 * GLRADIX_PLAN_REDUCE_THEN_SCAN, only counts in stage 1 (tile_counts) and
 * does the local shuffle inside the scatter (shuffle_scatter), which saves a
 * round trip of every tile through memory.
 *
 * Thread rules (all functions): a context belongs to the GL context that was
 * current when it was created. Call its functions only on a thread where
 * that GL context (or one sharing objects with it) is current. Distinct
 * glradix contexts are independent. glradix_status_string and the version
 * functions may be called from any thread at any time.
 */
#ifndef GLRADIX_GLRADIX_H
#define GLRADIX_GLRADIX_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(GLRADIX_SHARED)
#  if defined(GLRADIX_BUILDING)
#    define GLRADIX_API __declspec(dllexport)
#  else
#    define GLRADIX_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) && defined(GLRADIX_BUILDING)
#  define GLRADIX_API __attribute__((visibility("default")))
#else
#  define GLRADIX_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define GLRADIX_VERSION_MAJOR 0
#define GLRADIX_VERSION_MINOR 2
#define GLRADIX_VERSION_PATCH 0

/** Result of every fallible call. GLRADIX_OK is 0. */
typedef enum glradix_status {
  GLRADIX_OK = 0,
  GLRADIX_ERROR_INVALID_ARGUMENT, /**< NULL pointer, bad bit range, unknown buffer ... */
  GLRADIX_ERROR_UNSUPPORTED,      /**< no current context, below GL 4.3 / ES 3.1, or a
                                       program above the context's storage-block limits */
  GLRADIX_ERROR_SHADER,           /**< compile/link failed; the log callback got the driver log */
  GLRADIX_ERROR_OUT_OF_MEMORY,    /**< GL_OUT_OF_MEMORY or malloc failure */
  GLRADIX_ERROR_TOO_LARGE,        /**< count beyond what the context's limits allow */
  GLRADIX_ERROR_GL                /**< any other GL error raised by the library's calls */
} glradix_status;

/** A short English name for a status ("invalid argument", ...); never NULL,
 *  "unknown status" for values outside the enum. Any thread. */
GLRADIX_API const char *glradix_status_string(glradix_status status);

/** Runtime version, to compare with the GLRADIX_VERSION_* macros. */
GLRADIX_API void glradix_version(int *major, int *minor, int *patch);

/** A GL function's address as loaders return it: a function pointer of no
 *  particular signature, cast to the real one before a call. */
typedef void (*glradix_apiproc)(void);

/** Returns the address of a GL function, or NULL. Its return type is the
 *  one GL loaders use, `void (*)(void)`, so that they assign to
 *  glradix_desc.load without a cast, in C and C++: GLFW's
 *  glfwGetProcAddress (GLFWglproc), EGL's eglGetProcAddress
 *  (__eglMustCastToProperFunctionPointerType), SDL3's SDL_GL_GetProcAddress
 *  (SDL_FunctionPointer), any glad GLADloadfunc (GLADapiproc) and
 *  glradix_headless_load. SDL2's SDL_GL_GetProcAddress returns `void *` and
 *  needs a wrapper: ISO C has no conversion from object to function pointers. */
typedef glradix_apiproc (*glradix_loadfunc)(const char *name);

/** Receives one line (no trailing newline) per problem the library reports.
 *  Without one the library is silent. */
typedef void (*glradix_logfunc)(void *user, const char *message);

/** How each global pass is organised (both stable, same results). */
typedef enum glradix_plan {
  GLRADIX_PLAN_DEFAULT = 0,         /**< reduce-then-scan (measured faster
                                         on every driver; glradix_desc.plan) */
  GLRADIX_PLAN_REDUCE_THEN_SCAN,    /**< count tiles, scan, then rank each tile
                                         in shared memory and move it straight
                                         to its place (shuffle_scatter) */
  GLRADIX_PLAN_SCAN_THEN_PROPAGATE, /**< local_shuffle writes each shuffled tile
                                         and its counts, scan, global_scatter
                                         moves the tiles: one more round trip
                                         through memory per pass */
  GLRADIX_PLAN_ONESWEEP             /**< one read of the keys counts every
                                         pass's digits, one scan, then one
                                         dispatch per pass ranks each tile and
                                         finds its place by looking back at the
                                         earlier tiles' counts, counting a late
                                         tile itself (no unbounded wait); sorts
                                         of 2^30 keys or more take
                                         reduce-then-scan */
} glradix_plan;

/** Where the context's large scratch buffers and glradix_buffer_create's
 *  buffers get their storage. */
typedef enum glradix_memory {
  GLRADIX_MEMORY_DEFAULT = 0, /**< Vulkan device-local memory imported into GL
                                   (GL_EXT_memory_object_fd) where the GL
                                   context's device has it: on GPUs for
                                   scratch buffers of 128 MiB and more
                                   (sorts of 32M keys and more), always
                                   for glradix_buffer_create; plain GL buffers
                                   elsewhere. The Vulkan loader
                                   (libvulkan.so.1) is opened at run time by
                                   the first call that would import; where
                                   the loader, the extensions or a Vulkan
                                   device with the GL context's UUIDs is
                                   missing, that call says so once in the log */
  GLRADIX_MEMORY_GL           /**< plain GL buffers only; Vulkan is never loaded */
} glradix_memory;

/** Context creation options. Zero-initialise it (`glradix_desc d = {0};`):
 *  every zero field takes its documented default. */
typedef struct glradix_desc {
  glradix_loadfunc load;   /**< required */
  unsigned radix_bits;     /**< bits sorted per global pass: 2, 4 or 8.
                                0 = GLRADIX_DEFAULT_RADIX_BITS. Each pass
                                runs radix_bits/2 four-way splits per tile. */
  glradix_logfunc log;     /**< optional; NULL = silent */
  void *log_user;          /**< passed to log */
  uint32_t max_count;      /**< 0 = scratch grows on demand; otherwise scratch
                                for sorting this many pairs is allocated at
                                create (see glradix_reserve) */
  uint32_t dispatch_limit; /**< 0 = the driver's GL_MAX_COMPUTE_WORK_GROUP_COUNT[0];
                                a smaller value caps the work groups in x, the
                                rest of a dispatch spills into y (exercises the
                                2-D grid path that large counts take) */
  glradix_plan plan;       /**< pass plan; 0 = GLRADIX_PLAN_REDUCE_THEN_SCAN, or
                                GLRADIX_PLAN_SCAN_THEN_PROPAGATE where only its pair
                                programs fit GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS.
                                GLRADIX_PLAN_ONESWEEP takes the first of those two
                                where its own pair programs do not fit, said once
                                in the log (glradix_query_desc says which) */
  int disable_subgroups;   /**< nonzero: never use the GL_KHR_shader_subgroup
                                fast path (the portable GLSL 4.30 path is used) */
  int profile;             /**< nonzero: time every stage of every sort on the
                                GPU (GL_TIMESTAMP queries), read with
                                glradix_query_stage_times. OpenGL ES needs
                                GL_EXT_disjoint_timer_query for it */
  glradix_memory memory;   /**< 0 = GLRADIX_MEMORY_DEFAULT */
} glradix_desc;

/** The radix_bits used when glradix_desc.radix_bits is 0. */
#define GLRADIX_DEFAULT_RADIX_BITS 8u

typedef struct glradix_context glradix_context;

/**
 * Creates a context on the GL context current on this thread: loads GL
 * through desc->load, checks for OpenGL 4.3 core or, where GL_VERSION reads
 * "OpenGL ES", OpenGL ES 3.1 (the same API and features; the programs are
 * compiled as GLSL ES 3.10), reads limits and compiles the compute
 * programs of its plan's sorts; the other plans' (glradix_sort_inspect's),
 * compaction's and the LBVH's are compiled by the first call that needs
 * them (glradix_reserve compiles a sort's ahead).
 *
 * @errors GLRADIX_ERROR_INVALID_ARGUMENT (desc, out or desc->load NULL,
 *         radix_bits not 0/2/4/8, plan not a glradix_plan, memory not a
 *         glradix_memory),
 *         GLRADIX_ERROR_UNSUPPORTED (no current context, below GL 4.3 or ES
 *         3.1, desc->profile on ES without GL_EXT_disjoint_timer_query, fewer
 *         than 6 GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, or a storage-block
 *         limit too small for even a one-tile sort; programs above
 *         GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS are otherwise left out and
 *         refused by the calls that need them),
 *         GLRADIX_ERROR_SHADER (with the driver's log), GLRADIX_ERROR_TOO_LARGE
 *         (max_count beyond the limits), GLRADIX_ERROR_OUT_OF_MEMORY,
 *         GLRADIX_ERROR_GL. *out is NULL on error, and nothing is left behind.
 * @gl_state Creates programs and a small state buffer (and the scratch for
 *         max_count if it is nonzero); leaves the current program and all
 *         buffer bindings as they were.
 */
GLRADIX_API glradix_status glradix_create(const glradix_desc *desc, glradix_context **out);

/** Deletes the context's programs, scratch buffers, timer queries and the
 *  buffers of glradix_buffer_create not yet destroyed (closing Vulkan if it
 *  was opened), and frees it; the GL context it was created on must be
 *  current on the calling thread. Binds nothing; a deleted buffer or
 *  program that was bound or current is unbound by GL itself. NULL is a
 *  no-op. */
GLRADIX_API void glradix_destroy(glradix_context *ctx);

/** The context's options with every default resolved (all zeroes if ctx is NULL). */
GLRADIX_API glradix_desc glradix_query_desc(const glradix_context *ctx);

/** Subgroup size the context's shaders use (GL_KHR_shader_subgroup fast
 *  path), or 0 on the portable path (no extension, disabled, or ctx NULL). */
GLRADIX_API unsigned glradix_subgroup_size(const glradix_context *ctx);

/** Keys per tile of the context (chosen at create from the renderer, the
 *  radix width and the shared-memory limit: 7168 on llvmpipe; on an H200
 *  4096 at radix_bits 8 and 2048 at 2 and 4), or 0 if ctx is NULL. A count
 *  up to one tile (half a tile of uint64 keys) is sorted by a single
 *  dispatch. On GPUs with the subgroup path at radix_bits 8, sorts of at
 *  least 12M 32-bit keys, alone or with values, take wider tiles (5120
 *  keys on an H200), whose programs are compiled on the first such sort
 *  (or by glradix_reserve). */
GLRADIX_API unsigned glradix_tile_size(const glradix_context *ctx);

/** How the 32-bit words of the keys buffer are ordered. */
typedef enum glradix_key_type {
  GLRADIX_KEY_UINT32 = 0, /**< unsigned */
  GLRADIX_KEY_INT32,      /**< two's complement */
  GLRADIX_KEY_FLOAT32,    /**< IEEE total order: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN */
  GLRADIX_KEY_UINT64      /**< 2 x uint32 per key, low word first (a uint64 in memory):
                               63-bit Morton codes. Bits up to 64; the key programs
                               for it are compiled on first use (or by
                               glradix_reserve) */
} glradix_key_type;

/** What to sort. Zero-initialise it; zero fields take defaults. */
typedef struct glradix_sort_desc {
  unsigned keys;      /**< GL buffer name: the keys (one or two 32-bit words each,
                           see key_type), sorted in place */
  unsigned values;    /**< 0, or GL buffer name: uint32 values, moved with their keys */
  uint32_t count;     /**< number of keys; 0 is a valid no-op */
  unsigned begin_bit; /**< only bits [begin_bit, end_bit) are sorted on; */
  unsigned end_bit;   /**< end_bit 0 means the whole key (32, or 64 for uint64) */
  glradix_key_type key_type; /**< 0 = GLRADIX_KEY_UINT32. The bit range applies to the
                                  key in sort order (sign bit flipped for int32;
                                  float32 mapped to its total order), and the keys
                                  come back with their values unchanged */
  int descending;     /**< nonzero: largest first; still stable */
  unsigned count_buffer; /**< nonzero: GL buffer holding the uint32 number of keys at
                              byte count_offset, read on the GPU (no read-back; tile
                              dispatches are indirect); `count` is then the capacity,
                              and a larger GPU count is clamped to it */
  size_t count_offset;   /**< a multiple of 4 */
} glradix_sort_desc;

/**
 * Sorts the first `count` keys of buffer `keys` by bits [begin_bit,
 * end_bit) of their sort order (desc->key_type), ascending unless
 * desc->descending, stably, moving the values (if any) with them. Both
 * buffers are read and written in place from offset 0; all work happens on
 * the GPU, nothing is read back.
 *
 * @errors GLRADIX_ERROR_INVALID_ARGUMENT (ctx or desc NULL; keys 0 or not a
 *         buffer; values not a buffer or equal to keys; a buffer smaller than
 *         its count words (count * 4 bytes, keys * 8 for uint64) or mapped;
 *         begin_bit >= end_bit or end_bit above the key's 32 or 64 bits;
 *         key_type unknown; count_buffer not a buffer of count_offset + 4
 *         bytes, or count_offset not a multiple of 4),
 *         GLRADIX_ERROR_TOO_LARGE (the keys, count * 4 bytes per 32-bit word, or
 *         the scratch above GL_MAX_SHADER_STORAGE_BLOCK_SIZE; checked before the
 *         buffers, so any count near 2^32 gets it; larger buffers are fine,
 *         only their first count elements are bound),
 *         GLRADIX_ERROR_OUT_OF_MEMORY (growing scratch failed; the context stays
 *         usable), GLRADIX_ERROR_SHADER (programs compiled on first use
 *         failed: uint64 keys', wide tiles', another plan's; logged with
 *         the driver's log),
 *         GLRADIX_ERROR_UNSUPPORTED (a program this sort runs declares more
 *         shader storage blocks than the context's
 *         GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS allows: 6 to 11 for sorts
 *         of more than a tile, 4 to 6 with GLRADIX_PLAN_SCAN_THEN_PROPAGATE;
 *         refused with nothing dispatched, with one log line naming the
 *         program, its blocks and the limit), GLRADIX_ERROR_GL.
 *         On any validation error the buffers are untouched and one line is logged.
 *         A count of 0 sorts nothing: it runs only the checks that need no
 *         GL call (desc, key_type, bit range, keys nonzero and not values,
 *         count_offset's alignment) and returns before any GL call.
 * @gl_state GL errors pending on entry are the caller's: they are logged and
 *         left pending on return (GL_OUT_OF_MEMORY and the stack and
 *         framebuffer errors, which no harmless call raises, are only logged);
 *         the status reflects the library's own GL calls alone, whose errors
 *         never stay pending. Starts with glMemoryBarrier(GL_SHADER_STORAGE_
 *         BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT), so inputs written by the
 *         caller's earlier dispatches need no barrier of the caller's. The current program, the
 *         indexed GL_SHADER_STORAGE_BUFFER bindings 0..5 and the generic
 *         GL_SHADER_STORAGE_BUFFER, GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER and
 *         GL_DISPATCH_INDIRECT_BUFFER bindings are
 *         restored on return. Issues glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT
 *         | GL_BUFFER_UPDATE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT |
 *         GL_ELEMENT_ARRAY_BARRIER_BIT | GL_COMMAND_BARRIER_BIT) after the last
 *         dispatch, so draws, dispatches and read-backs may follow directly.
 *         Uploads into these buffers should wait on a fence first: NVIDIA's
 *         driver 580 lets a glBufferSubData overtake the call's shaders.
 */
GLRADIX_API glradix_status glradix_sort(glradix_context *ctx, const glradix_sort_desc *desc);

/**
 * GL memory (bytes) the context's scratch needs to sort desc->count keys of
 * desc->key_type, with values if desc->values is nonzero (its other fields
 * are not read). 0 for a count of one tile or less (half a tile of uint64
 * keys; sorted in place without scratch), for ctx or desc NULL, for an
 * unknown key_type, and for a count beyond the context's limits. No GL call.
 */
GLRADIX_API size_t glradix_scratch_bytes(const glradix_context *ctx,
                                         const glradix_sort_desc *desc);

/**
 * Allocates the scratch for sorting up to desc->count keys (with values if
 * desc->values is nonzero) now, so that such sorts allocate no GL memory,
 * and compiles the programs that sorts of desc->count keys of
 * desc->key_type would compile on first use (uint64 keys' programs, wide
 * tiles' programs: see glradix_tile_size). Scratch only grows;
 * glradix_destroy frees it. desc->max_count at create does the same for
 * 32-bit pairs.
 *
 * @errors GLRADIX_ERROR_INVALID_ARGUMENT (ctx or desc NULL, key_type
 *         unknown), GLRADIX_ERROR_TOO_LARGE, GLRADIX_ERROR_OUT_OF_MEMORY,
 *         GLRADIX_ERROR_SHADER (a program failed to compile; logged with the
 *         driver's log), GLRADIX_ERROR_UNSUPPORTED (such sorts would get it:
 *         see glradix_sort), GLRADIX_ERROR_GL.
 * @gl_state restores the bindings it uses.
 */
GLRADIX_API glradix_status glradix_reserve(glradix_context *ctx, const glradix_sort_desc *desc);

/** The stages of a pass, for glradix_sort_inspect. */
typedef enum glradix_stage {
  GLRADIX_STAGE_LOCAL_SHUFFLE = 0, /**< each tile sorted by the pass's digit */
  GLRADIX_STAGE_SCAN,              /**< the tiles' bucket offsets scanned (keys as after the shuffle) */
  GLRADIX_STAGE_GLOBAL_SCATTER     /**< the pass's output */
} glradix_stage;

/**
 * For visualisation and debugging: runs desc's sort with the
 * scan-then-propagate plan and no pass skipping, stops after `stage` of
 * pass `pass` (0 = the lowest digit), and copies the keys as they are at
 * that point into `out_keys`. After the local shuffle or the scan these are
 * the shuffled tiles; after the global scatter, the pass's output. The
 * desc's own buffers are left as after the last complete pass. Inputs of one
 * tile or less (half a tile of uint64 keys) are sorted by a single
 * dispatch: every stage then gives the pass's output.
 *
 * @errors as glradix_sort, plus GLRADIX_ERROR_INVALID_ARGUMENT for a pass
 *         or stage out of range, count 0, a count_buffer, or out_keys not a
 *         buffer of count keys or the same buffer as desc's keys or values.
 * @gl_state as glradix_sort.
 */
GLRADIX_API glradix_status glradix_sort_inspect(glradix_context *ctx,
                                                const glradix_sort_desc *desc, unsigned pass,
                                                glradix_stage stage, unsigned out_keys);

/**
 * Convenience: uploads keys (and values, if not NULL) into context-owned
 * buffers, sorts them with glradix_sort (whole 32-bit keys) and reads them
 * back into the same arrays.
 *
 * @errors as glradix_sort, plus GLRADIX_ERROR_INVALID_ARGUMENT for keys NULL
 *         with count > 0 and GLRADIX_ERROR_TOO_LARGE for count > UINT32_MAX.
 *         On error the arrays are unchanged (on OpenGL ES neither array is
 *         written unless both staging buffers map).
 * @gl_state as glradix_sort.
 */
GLRADIX_API glradix_status glradix_sort_host(glradix_context *ctx, uint32_t *keys,
                                             uint32_t *values, size_t count);

/* ---- Primitives: the sort's scan, and stream compaction built on it ---- */

/** A prefix sum over a GL buffer of uint32. Zero-initialise it. */
typedef struct glradix_scan_desc {
  unsigned input, output;  /**< GL buffers of uint32; may be the same buffer (in place) */
  uint32_t count;          /**< elements; 0 is a valid no-op */
  int inclusive;           /**< 0 = exclusive (output[0] = 0) */
  unsigned total_buffer;   /**< optional: GL buffer receiving the uint32 sum of all
                                inputs (modulo 2^32) at byte total_offset */
  size_t total_offset;     /**< a multiple of 4 */
} glradix_scan_desc;

/**
 * Prefix sum (modulo 2^32) of the first `count` uint32 of `input` into
 * `output`, with the same multi-level Blelloch scan as the sort; any count,
 * no CPU read-back.
 *
 * @errors GLRADIX_ERROR_INVALID_ARGUMENT (ctx or desc NULL; input/output not
 *         buffers, too small or mapped; total_buffer not a buffer or too small
 *         for total_offset + 4, or total_offset not a multiple of 4),
 *         GLRADIX_ERROR_TOO_LARGE, GLRADIX_ERROR_OUT_OF_MEMORY,
 *         GLRADIX_ERROR_UNSUPPORTED (a count above 0 on a context whose
 *         storage-block limit is below its programs'), GLRADIX_ERROR_SHADER
 *         (glradix_compact's programs, compiled on first use, failed; with
 *         the driver's log), GLRADIX_ERROR_GL.
 *         On a validation error nothing is written and one line is logged.
 *         A count of 0 checks only total_buffer and writes a total of 0 there.
 * @gl_state as glradix_sort.
 */
GLRADIX_API glradix_status glradix_scan(glradix_context *ctx, const glradix_scan_desc *desc);

/** Stream compaction of 32-bit elements. Zero-initialise it. */
typedef struct glradix_compact_desc {
  unsigned input, output;    /**< GL buffers of 32-bit elements (uint32 or float);
                                  may be the same buffer (in place) */
  unsigned flags;            /**< GL buffer of uint32: keep input[i] where flags[i] != 0;
                                  0 = keep elements whose float value is > 0
                                  (denormals included, on every driver;
                                  NaN and -0 not kept) */
  uint32_t count;            /**< elements; 0 writes a count of 0 */
  unsigned count_out_buffer; /**< optional: GL buffer receiving the uint32 number kept */
  size_t count_out_offset;   /**< a multiple of 4 */
  int zero_fill;             /**< nonzero: output[kept..count) = 0 */
} glradix_compact_desc;

/**
 * Copies the kept elements of `input` to the front of `output`, in order
 * (a flag scan with glradix_scan's machinery, then a scatter).
 * output[kept..count) is left as it was unless zero_fill.
 *
 * @errors as glradix_scan, for input, output, flags and count_out_buffer;
 *         also GLRADIX_ERROR_INVALID_ARGUMENT for flags == output.
 * @gl_state as glradix_sort.
 */
GLRADIX_API glradix_status glradix_compact(glradix_context *ctx, const glradix_compact_desc *desc);

/** GPU time of the context's last sort, per stage, summed over its passes. */
typedef struct glradix_stage_times {
  double tiles_ms;   /**< stage 1: tile_counts, or local_shuffle (scan-then-propagate),
                          or digit_counts (single-pass: every pass's counts) */
  double scan_ms;    /**< stage 2: scan_blocks + scan_add (reduce-then-scan
                          leaves adding the block totals into the lowest
                          level, and on small grids scanning them, to stage 3) */
  double scatter_ms; /**< stage 3: shuffle_scatter, or global_scatter (all of
                          each pass in the single-pass plan) */
  double total_ms;   /**< first stage's start to last stage's end (the
                          copy back after an odd number of reduce-then-scan
                          passes comes after it) */
  unsigned passes;   /**< global passes run (0: nothing sorted yet) */
  unsigned fallbacks; /**< single-pass plan: the tiles its look-backs counted
                          themselves, a predecessor's word not yet there */
} glradix_stage_times;

/**
 * Reads the per-stage GPU times of the context's last sort (waits for the
 * GPU to finish it): the last glradix_sort, glradix_sort_host or
 * glradix_lbvh_build that passed its checks and sorted at least one key;
 * glradix_sort_inspect keeps the times it found.
 *
 * @errors GLRADIX_ERROR_INVALID_ARGUMENT (ctx or out NULL, or the context was
 *         created without desc.profile), GLRADIX_ERROR_GL.
 * @gl_state none changed; GL errors pending on entry are the caller's, as
 *         for glradix_sort.
 */
GLRADIX_API glradix_status glradix_query_stage_times(glradix_context *ctx,
                                                     glradix_stage_times *out);

/**
 * Creates a GL buffer of `bytes` for the caller's large arrays (keys,
 * values, LBVH boxes and nodes, or anything the caller's own shaders and
 * draws use) on Vulkan device-local memory imported into GL, where the
 * context has it (glradix_memory; on NVIDIA's driver GL's own buffers are
 * read and written more slowly once a few hundred MB are touched: README,
 * "Large arrays"), else on a plain GL buffer. Either way its storage is
 * immutable and never mapped: fill it and read it back with GL commands
 * (glBufferSubData, glCopyBufferSubData, glClearBufferSubData,
 * glGetBufferSubData on GL, shaders), never glBufferData or
 * glMapBufferRange (on OpenGL ES read back through a copy into a buffer
 * of the caller's). The context owns the storage:
 * delete it with glradix_buffer_destroy (glradix_destroy deletes those
 * left), never glDeleteBuffers. Thread: the context's.
 *
 * @errors GLRADIX_ERROR_INVALID_ARGUMENT (ctx or buffer NULL, bytes 0),
 *         GLRADIX_ERROR_TOO_LARGE (bytes above what one GL buffer can
 *         address, GLsizeiptr, or above the device-local memory of the
 *         Vulkan device), GLRADIX_ERROR_OUT_OF_MEMORY, GLRADIX_ERROR_GL.
 *         *buffer is 0 on error.
 * @gl_state Creates the buffer, binding it to GL_COPY_WRITE_BUFFER only
 *         while it does; every binding is left as it was.
 */
GLRADIX_API glradix_status glradix_buffer_create(glradix_context *ctx, uint64_t bytes,
                                                 uint32_t *buffer);

/**
 * Deletes a buffer of glradix_buffer_create and frees its memory; GL
 * unbinds it where it is bound, as glDeleteBuffers does.
 *
 * @errors GLRADIX_ERROR_INVALID_ARGUMENT (ctx NULL, or `buffer` not a live
 *         buffer of this context's glradix_buffer_create: 0, already
 *         destroyed, or made by GL itself), GLRADIX_ERROR_GL.
 * @gl_state Deletes the buffer; nothing else.
 */
GLRADIX_API glradix_status glradix_buffer_destroy(glradix_context *ctx, uint32_t buffer);

/** 1 if `buffer`, a live buffer of glradix_buffer_create, is on imported
 *  Vulkan memory; 0 otherwise (a plain GL buffer, an unknown name, ctx
 *  NULL). Thread: the context's; no GL call. */
GLRADIX_API int glradix_buffer_imported(const glradix_context *ctx, uint32_t buffer);

#ifdef __cplusplus
}
#endif
#endif /* GLRADIX_GLRADIX_H */
