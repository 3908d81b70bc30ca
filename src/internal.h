/* Internal declarations shared by the library's translation units.
 * Naming: public glradix_*, internal _glradix_*, file-static unprefixed. */
#ifndef GLRADIX_INTERNAL_H
#define GLRADIX_INTERNAL_H

#include <stdbool.h>

#include "glradix/glradix.h"
#include "forms.h"
#include "gl/gl.h"
#include "memory/imported.h"
#include "testing.h"

/* The C <-> GLSL contract (gl/contract.h): bindings _GLRADIX_B_*, uniform
 * locations _GLRADIX_LOC_*, shared constants, and the programs
 * (_glradix_program), each listed once. What follows is C's alone. */
#include "gl/contract.h"

enum {
  _GLRADIX_LBVH_STATE_WORDS = 8, /* the LBVH state buffer (B_BOX): the box, the count, a pad */
  _GLRADIX_MAX_SCAN_LEVELS = 8,
  _GLRADIX_MAX_STALE_ERRORS = 8, /* GL error kinds kept per call (GL has 7) */
  _GLRADIX_MAX_PASSES = 32,   /* 64 bits at radix_bits 2 */
  _GLRADIX_STAGES = 3,
  _GLRADIX_LBVH_MARKS = 5 /* an LBVH build's start and the ends of codes, sort, leaves, tree */
};

/* Sets of programs (programs.c): every program, for 32-bit keys in the
 * context's tiles (BASE, built at create); the ones that read keys, for
 * 64-bit keys (KEY64); the reduce-then-scan sort's tile programs for 32-bit
 * keys in wide tiles (WIDE, where ctx->forms.wide_tile is set). The last two are
 * built on first use; a set without a program uses BASE's. */
typedef enum _glradix_set {
  _GLRADIX_SET_BASE,
  _GLRADIX_SET_KEY64,
  _GLRADIX_SET_WIDE,
  _GLRADIX_SETS
} _glradix_set;

/* A scratch buffer and how many bytes it holds (on imported memory where
 * the context's list of owned buffers has it: memory/imported.h). */
typedef struct _glradix_buffer {
  GLuint name;
  GLsizeiptr size;
} _glradix_buffer;

struct glradix_context {
  GladGLContext gl;
  bool es;                      /* OpenGL ES 3.1+, not GL 4.3 core: GLSL ES programs,
                                   no glGetBufferSubData or core timer queries */
  glradix_desc desc;            /* resolved: no zero defaults left */
  GLuint group_limit[2];        /* work groups per dispatch in x and y */
  GLint64 max_ssbo_bytes;       /* GL_MAX_SHADER_STORAGE_BLOCK_SIZE */
  _glradix_forms forms;         /* tile shapes and program forms (forms.h) */
  _glradix_test_hooks hooks;    /* tests only (testing.h); its strings outlive the context */
  GLuint programs[_GLRADIX_SETS][_GLRADIX_PROG_COUNT];
  /* Shader storage blocks: the most a compute program may declare (the
   * lesser of GL_MAX_COMPUTE_ and GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS).
   * A program declaring more (_glradix_program_blocks) is not built: the
   * calls that need it get GLRADIX_ERROR_UNSUPPORTED (_glradix_check_programs). */
  GLint max_blocks;
  const char *max_blocks_name;
  _glradix_buffer tile_keys, tile_values, counts, skip; /* sort scratch */
  _glradix_buffer host_keys, host_values;         /* glradix_sort_host staging */
  _glradix_buffer lbvh_codes, lbvh_indices, lbvh_parents, lbvh_state; /* LBVH scratch */
  /* desc.profile: a timestamp before each pass and after each stage */
  GLuint queries[_GLRADIX_MAX_PASSES * (_GLRADIX_STAGES + 1)];
  unsigned profiled_passes;
  GLuint lbvh_queries[_GLRADIX_LBVH_MARKS]; /* desc.profile: the last LBVH build's or refit's */
  bool lbvh_profiled;
  bool lbvh_programs;           /* the LBVH's programs asked for (programs.c) */
  /* Programs built at create, a bit each (context.c): any sort of the
   * context's plan, the scan and what every sort runs; calls build the
   * others they need (_glradix_check_programs). Sets built, a bit each. */
  uint64_t eager_programs;
  unsigned sets_built;
  _glradix_memory memory; /* imported memory and the buffers on it (memory/imported.h) */
};

/* Bindings the library touches, saved on entry and restored on exit. */
typedef struct _glradix_gl_state {
  GLint program;
  GLint ssbo;
  GLint copy_read, copy_write, dispatch_indirect;
  struct { GLint buffer; GLint64 start, size; } indexed[_GLRADIX_BINDINGS];
  GLenum stale[_GLRADIX_MAX_STALE_ERRORS]; /* the caller's GL errors pending on entry */
  unsigned stale_count;
} _glradix_gl_state;

/* The levels of one scan: level 0 is the data, the others and the grand
 * total live in the counts scratch buffer (scan.c). */
typedef struct _glradix_scan_plan {
  unsigned levels;                            /* dispatched levels */
  GLuint length[_GLRADIX_MAX_SCAN_LEVELS + 2];
  GLuint offset[_GLRADIX_MAX_SCAN_LEVELS + 2]; /* in counts; offset[levels] = the total */
  GLuint total;                               /* uints the counts buffer needs */
} _glradix_scan_plan;

/* Where level 0 of a scan reads and writes (buffer names, uint offsets);
 * zero_input: the input is zeroed once read (it must not be the output);
 * zero_next_length words of the counts buffer at zero_next are zeroed too
 * (the sort's next level 1, sort/plan.c). */
typedef struct _glradix_scan_io {
  GLuint in, in_offset, out, out_offset;
  bool zero_input;
  GLuint zero_next, zero_next_length;
} _glradix_scan_io;

/* status.c / log */
void _glradix_log(const glradix_desc *desc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
glradix_status _glradix_gl_error(glradix_context *ctx, const char *what);
/* The caller's pending GL errors: taken on entry, raised again on return. */
void _glradix_take_gl_errors(glradix_context *ctx, _glradix_gl_state *s);
void _glradix_give_back_gl_errors(glradix_context *ctx, const _glradix_gl_state *s);

/* gl_state.c. Every public call that touches GL runs between _glradix_begin
 * (the caller's pending GL errors taken, bindings saved, the entry barrier)
 * and _glradix_end (on success the barriers callers rely on; the library's
 * own GL errors as the status; bindings restored, the caller's errors
 * raised again). */
void _glradix_begin(glradix_context *ctx, _glradix_gl_state *saved);
/* A public call's prologue: ctx and desc not NULL (else INVALID_ARGUMENT,
 * logged when there is a ctx), then _glradix_begin. */
glradix_status _glradix_enter(glradix_context *ctx, const char *fn, const void *desc,
                              _glradix_gl_state *saved);
glradix_status _glradix_end(glradix_context *ctx, const char *fn, glradix_status st,
                            const _glradix_gl_state *saved);
void _glradix_save_state(glradix_context *ctx, _glradix_gl_state *s);
void _glradix_restore_state(glradix_context *ctx, const _glradix_gl_state *s);
void _glradix_forget_buffer(_glradix_gl_state *s, GLuint buffer);
/* The first `bytes` of a buffer to an SSBO binding point (0: all of it). */
void _glradix_bind(glradix_context *ctx, GLuint index, GLuint buffer, uint64_t bytes);
/* TOO_LARGE (logged) when `bytes` exceed one shader storage block. */
glradix_status _glradix_check_size(glradix_context *ctx, const char *fn, const char *what,
                                   uint64_t count, uint64_t bytes);
/* INVALID_ARGUMENT (one log line) if buffers a and b are the same one (0: none). */
glradix_status _glradix_check_distinct(const glradix_context *ctx, const char *fn, GLuint a,
                                       const char *a_what, GLuint b, const char *b_what);
/* An optional uint32 at a byte offset of a buffer (0: none): INVALID_ARGUMENT
 * unless the offset is a multiple of 4 and the buffer holds the word. */
glradix_status _glradix_check_word(glradix_context *ctx, const char *fn, GLuint buffer,
                                   size_t offset, const char *what);
/* Copies bytes between buffers on the GPU (binds the COPY_READ/WRITE targets). */
void _glradix_copy(glradix_context *ctx, GLuint from, GLintptr from_offset, GLuint to,
                   GLintptr to_offset, GLsizeiptr bytes);
/* Writes `bytes` from host memory at byte `offset` of a buffer (binds GL_COPY_WRITE_BUFFER). */
void _glradix_upload(glradix_context *ctx, GLuint buffer, GLintptr offset, GLsizeiptr bytes,
                     const void *data);
/* Checks that `name` is a buffer of at least `bytes` that shaders may use;
 * logs "fn: what ..." otherwise. Binds GL_COPY_READ_BUFFER. */
glradix_status _glradix_check_buffer(glradix_context *ctx, const char *fn, GLuint name,
                                     const char *what, uint64_t bytes);
/* Makes b a plain GL buffer of at least `size` bytes (grown by half again
 * over the last size: fewer reallocations), or leaves it where it is that
 * large; GLRADIX_ERROR_* with nothing left on failure. */
glradix_status _glradix_ensure_buffer(glradix_context *ctx, _glradix_buffer *b,
                                      GLsizeiptr size, const char *what);
/* The same for scratch that only shaders and copies write: from
 * ctx->forms.import_from bytes on imported memory where the context has it
 * (memory/imported.h). _glradix_delete_scratch deletes either kind. */
glradix_status _glradix_ensure_scratch(glradix_context *ctx, _glradix_buffer *b,
                                       GLsizeiptr size, const char *what);
void _glradix_delete_scratch(glradix_context *ctx, _glradix_buffer *b);

/* profile.c: timestamps around stages when desc.profile is set */
void _glradix_profile_mark(glradix_context *ctx, unsigned pass, unsigned point);
void _glradix_profile_delete(glradix_context *ctx);
/* desc.profile: timestamp `point` (0 .. _GLRADIX_LBVH_MARKS - 1) of an LBVH build or refit */
void _glradix_profile_lbvh_mark(glradix_context *ctx, unsigned point);

/* prelude.c: the text ahead of common.glsl in `program` of `set`, from
 * #version on (contract.h); heap memory the caller frees, NULL when an
 * allocation failed. */
char *_glradix_prelude(const glradix_context *ctx, _glradix_program program, _glradix_set set);

/* programs.c */
/* Builds a set's programs (BASE at create, the others on first use);
 * _glradix_program_name picks `program` of `set`, else of BASE. */
glradix_status _glradix_build_programs(glradix_context *ctx, _glradix_set set);
/* Each program's storage blocks (contract.h's BLOCKS) under the forms,
 * the same in every set: an array of _GLRADIX_PROG_COUNT. */
const GLint *_glradix_program_blocks(const _glradix_forms *forms);
GLuint _glradix_program_name(const glradix_context *ctx, _glradix_program program, _glradix_set set);
void _glradix_delete_programs(glradix_context *ctx);
/* The LBVH's programs, built by the first call that needs them (each LBVH
 * call's checks, before anything is written). */
glradix_status _glradix_build_lbvh_programs(glradix_context *ctx);
/* Run by a call ahead of its first dispatch: GLRADIX_ERROR_UNSUPPORTED,
 * with one log line under `fn` naming the limit and the need, if a program
 * of `programs` (`count` of them, in any set) declares more storage blocks
 * than the context allows; else builds those that create left for a call
 * (context.c), in every set built so far (GLRADIX_ERROR_SHADER if one
 * fails, the context usable). */
glradix_status _glradix_check_programs(glradix_context *ctx, const char *fn,
                                       const _glradix_program *programs, size_t count);

/* One global pass of the sort: what the tile stages share. */
typedef struct _glradix_pass {
  bool pairs;
  GLuint keys, values;  /* the pass's input: the caller's buffers, or scratch */
  GLuint out_keys, out_values; /* where local_shuffle or shuffle_scatter write */
  GLuint count;         /* keys (with a GPU count: the capacity) */
  GLuint num_tiles;
  bool large_grid;      /* _glradix_large_grid (forms.h) */
  GLuint shift;         /* lowest bit of this pass's digit */
  GLuint digit_bits;    /* its width, 1..radix_bits (tile_sort: the whole range) */
  GLuint index;         /* pass number, from 0 */
  GLuint key_mode;      /* _GLRADIX_KEY_* bits */
  bool indirect;        /* count is a capacity; the real one is on the GPU */
  GLuint key_words;     /* 1, or 2 for GLRADIX_KEY_UINT64 */
  _glradix_set set;     /* the programs: KEY64 for 64-bit keys, WIDE for wide tiles */
  GLuint per_tile;      /* uint offset in counts after the scan's levels: the tiles' digit
                           starts or the next pass's counts (ctx->forms.per_tile) */
  GLuint next_shift, next_bits; /* the next pass's digit, or _GLRADIX_NO_NEXT: none counted */
} _glradix_pass;

/* dispatch.c, below the stages: _glradix_bind_pass binds a pass's buffers
 * (input, output, counts, skip, and values); _glradix_use_pass makes
 * `program` current with them and the pass's uniforms. Bound every time: a
 * driver was seen reading stale data after a re-dispatch without
 * re-binding. _glradix_dispatch folds a 1-D count of work groups into the
 * 2-D grid group_limit allows (the shaders linearise gl_WorkGroupID);
 * _glradix_dispatch_tiles runs one group per tile of a pass, or per
 * _GLRADIX_COUNT_TILES tiles with count_groups, indirect with a GPU count. */
void _glradix_bind_pass(glradix_context *ctx, const _glradix_pass *pass);
void _glradix_use_pass(glradix_context *ctx, _glradix_program program,
                       const _glradix_pass *pass);
void _glradix_dispatch(glradix_context *ctx, GLuint groups);
bool _glradix_groups_fit(const glradix_context *ctx, uint64_t groups);
void _glradix_dispatch_tiles(glradix_context *ctx, const _glradix_pass *pass, bool count_groups);

/* scratch.c: the scratch for sorting `count` keys (with values if pairs)
 * in tiles: what glradix_scratch_bytes reports, glradix_reserve allocates
 * and every sort grows to. One tile needs none (tile_sort works in place). */
typedef struct _glradix_scratch {
  GLuint num_tiles;
  bool large_grid;         /* _glradix_large_grid (forms.h) */
  _glradix_set set;        /* the programs: KEY64, WIDE (wide tiles) or BASE */
  bool single;             /* sorted by tile_sort, no scratch */
  GLsizeiptr key_bytes;    /* tile_keys */
  GLsizeiptr value_bytes;  /* tile_values, for pairs */
  GLsizeiptr counts_bytes; /* the scan's levels, then what the forms keep per tile */
  _glradix_scan_plan plan;         /* scan-then-propagate's: a column per tile */
  _glradix_scan_plan column_plan;  /* reduce-then-scan's (_glradix_count_columns) */
  /* the single-pass plan's: the scan of every pass's digit counts, and
   * where the tiles' status words start after it (plan.c) */
  _glradix_scan_plan digit_plan;
  GLuint status;
} _glradix_scratch;
/* 32-bit words per key of a sort desc, and the check of its key type. */
GLuint _glradix_key_words(const glradix_sort_desc *d);
glradix_status _glradix_check_key_type(const glradix_context *ctx, const char *fn,
                                       const glradix_sort_desc *d);
/* The layout for `count` keys; `wide`: in wide tiles where the context has
 * them for such a sort. False: too large for the context's limits. */
bool _glradix_scratch_layout(const glradix_context *ctx, uint32_t count, bool pairs,
                             GLuint key_words, bool wide, _glradix_scratch *s);
/* Allocates a layout's scratch and builds the program set it takes. */
glradix_status _glradix_scratch_allocate(glradix_context *ctx, const _glradix_scratch *s);
/* Whether sorts on ctx may take wide tiles (the reduce-then-scan plan). */
bool _glradix_may_widen(const glradix_context *ctx);
/* Logs that `count` exceeds the context's limits: GLRADIX_ERROR_TOO_LARGE. */
glradix_status _glradix_too_large(glradix_context *ctx, const char *fn, uint32_t count);
/* Allocates the scratch for sorting `count` keys (GLRADIX_ERROR_TOO_LARGE
 * beyond the limits, logged as `fn`). Binds GL_COPY_WRITE_BUFFER. */
glradix_status _glradix_reserve(glradix_context *ctx, const char *fn, uint32_t count, bool pairs,
                                GLuint key_words);

/* sort.c: the whole sort inside a call that has already entered
 * (_glradix_begin), its checks logged under `fn`: for calls built on a sort
 * (glradix_sort_host, glradix_lbvh_build). Ends with a shader-storage
 * barrier, not the exit barriers of _glradix_end. */
glradix_status _glradix_sort(glradix_context *ctx, const char *fn, const glradix_sort_desc *desc);
/* plan.c: glradix_create's choice of plan from the programs' storage
 * blocks: `preferred`, then reduce-then-scan, then scan-then-propagate,
 * the first whose sorts of pairs need no program above max_blocks
 * (reduce-then-scan if none). */
glradix_plan _glradix_plan_default(const GLint blocks[_GLRADIX_PROG_COUNT], GLint max_blocks,
                                   glradix_plan preferred);
/* Shared memory of a work group's block scan (common.glsl), at most. */
static inline GLint64 _glradix_scan_shared_bytes(GLuint wg_size) {
  return ((GLint64)wg_size + wg_size / 8 + 2) * 8;
}
/* Shared memory shuffle_scatter's look-back form holds beside a padded
 * tile of words and the block scan: each bucket's offset and start, and
 * two words; a tile shape fits it (forms.c). */
enum { _GLRADIX_LOOK_BACK_BYTES = 256 * 4 * 2 + 8 };
/* Shared memory of `words` 32-bit words per key of a padded `tile`, plus the
 * block scan: tile_sort's staged form (words: key words and value), or
 * shuffle_scatter's (digit, slot) words (1). */
static inline GLint64 _glradix_padded_tile_bytes(GLuint tile, GLuint wg_size, GLuint words) {
  return ((GLint64)tile + tile / 32) * 4 * words + _glradix_scan_shared_bytes(wg_size);
}
/* The largest count tile_sort takes: a tile, half one for 64-bit keys. */
static inline GLuint _glradix_small_count(const glradix_context *ctx, GLuint key_words) {
  return ctx->forms.tile / key_words;
}

/* the three stages, one per shader of the same name */
void _glradix_local_shuffle(glradix_context *ctx, const _glradix_pass *pass, bool key_bits);
void _glradix_scan_plan_make(_glradix_scan_plan *plan, GLuint length, GLuint scan_tile,
                             GLuint sums_base);
bool _glradix_scan_fits(const glradix_context *ctx, const _glradix_scan_plan *plan);
/* What _glradix_scan leaves to the reader of level 0, one dispatch fewer
 * each: nothing (WHOLE); level 0 scanned within its blocks only (BLOCKS),
 * the reader adds the block's scanned total, found in the counts buffer at
 * _glradix_scan_block_sums(plan) + index / scan_tile, or nothing when that
 * is _GLRADIX_NO_BLOCK_SUMS (one block); or, only where
 * _glradix_scan_few_totals(plan), the block totals unscanned too (TOTALS):
 * the reader adds up those before its block. SPREAD leaves what BLOCKS
 * leaves, only where _glradix_scan_spreads(ctx, plan) and level 1 is zero
 * before the scan: each block adds its total to the later blocks' entries
 * there with atomics, where BLOCKS has the last group to finish scan them
 * (a serial step at the end of the dispatch). */
typedef enum _glradix_scan_leave {
  _GLRADIX_SCAN_WHOLE,
  _GLRADIX_SCAN_LEAVE_BLOCKS,
  _GLRADIX_SCAN_LEAVE_TOTALS,
  _GLRADIX_SCAN_LEAVE_SPREAD,
} _glradix_scan_leave;
void _glradix_scan(glradix_context *ctx, const _glradix_scan_plan *plan,
                   const _glradix_scan_io *io, bool inclusive, _glradix_scan_leave leave);
GLuint _glradix_scan_block_sums(const _glradix_scan_plan *plan);
/* Two levels with at most _GLRADIX_FOLD_SUMS block totals. */
bool _glradix_scan_few_totals(const _glradix_scan_plan *plan);
/* Two levels with at most one block total per invocation of a work group. */
bool _glradix_scan_spreads(const glradix_context *ctx, const _glradix_scan_plan *plan);
void _glradix_global_scatter(glradix_context *ctx, const _glradix_pass *pass);
/* stream compaction's stages around the scan (compact.c) */
typedef struct _glradix_compact_io {
  GLuint input, flags, output; /* flags 0: keep input elements > 0.0f */
  GLuint index;                /* count uints of scratch: flags, then positions */
  GLuint count;
} _glradix_compact_io;
void _glradix_compact_flags(glradix_context *ctx, const _glradix_compact_io *io);
void _glradix_compact_scatter(glradix_context *ctx, const _glradix_compact_io *io,
                              GLuint total_offset, bool zero_fill);

/* morton.c: the scene box (GPU reduction, or given) and Morton codes; lbvh.c
 * uses them for the build. */
typedef struct _glradix_morton_job {
  GLuint bounds, codes, indices; /* indices 0: not written */
  GLuint count;                  /* with a count_buffer, the capacity */
  GLuint count_buffer;           /* 0, or the caller's buffer of the GPU count */
  size_t count_offset;
  unsigned morton_bits;          /* 30 or 63 */
  bool box_given;
  float box_min[3], box_max[3];
} _glradix_morton_job;
glradix_status _glradix_morton_check(glradix_context *ctx, const char *fn, GLuint bounds,
                                     uint32_t count, unsigned morton_bits, int has_box,
                                     const float *box_min, const float *box_max);
/* A job from the fields glradix_morton_desc and glradix_lbvh_desc share
 * (morton_bits 0 = 30), with no count buffer (a GPU count sets it after). */
_glradix_morton_job _glradix_morton_job_make(GLuint bounds, uint32_t count, unsigned morton_bits,
                                             int has_box, const float box_min[3],
                                             const float box_max[3], GLuint codes,
                                             GLuint indices);
/* The LBVH state buffer allocated and its count slot set: `count`, or the
 * caller's word at count_offset of count_buffer (a copy on the GPU; the
 * programs clamp it to `count`). `box_start`: the scene box slots set for
 * scene_box.comp's reduction too. */
glradix_status _glradix_lbvh_state(glradix_context *ctx, GLuint count, GLuint count_buffer,
                                   size_t count_offset, bool box_start);
glradix_status _glradix_morton(glradix_context *ctx, const _glradix_morton_job *job);
/* _glradix_check_programs for _glradix_morton's programs (morton_bits 30 or 63) */
glradix_status _glradix_check_morton_programs(glradix_context *ctx, const char *fn,
                                              unsigned morton_bits, int has_box);

/* the reduce-then-scan plan's two tile stages */
/* tile_counts: with `spread`, it also zeroes that scan plan's level 1 for
 * _GLRADIX_SCAN_LEAVE_SPREAD */
void _glradix_tile_counts(glradix_context *ctx, const _glradix_pass *pass, bool key_bits,
                          const _glradix_scan_plan *spread);
/* totals_raw: the scan left `plan`'s block totals unscanned (TOTALS) */
void _glradix_shuffle_scatter(glradix_context *ctx, const _glradix_pass *pass,
                              const _glradix_scan_plan *plan, bool totals_raw);
/* after an odd number of reduce-then-scan passes: `last`'s output back to
 * its input (the caller's buffers) */
void _glradix_copy_back(glradix_context *ctx, const _glradix_pass *last);
/* the single-pass plan's stages: every pass's digit counts (`sort`: the
 * whole range as one pass), then per pass shuffle_scatter finding its
 * destinations by looking back, with its tiles' status words and ticket
 * at those uint offsets of the counts buffer */
void _glradix_digit_counts(glradix_context *ctx, const _glradix_pass *sort, bool key_bits);
void _glradix_shuffle_scatter_look_back(glradix_context *ctx, const _glradix_pass *pass,
                                        GLuint status, GLuint ticket);
/* The skip buffer's words (contract.h's SKIP_* constants say which). */
enum { _GLRADIX_SKIP_WORDS = _GLRADIX_SKIP_FALLBACKS + 1 };

/* count_prepare.c: sets the skip buffer up for a sort (the key bits for
 * pass skipping when `skip`, else all bits varying) and puts the sort's
 * count where every stage reads it, from pass->count (the capacity) or the
 * caller's count buffer, with the indirect dispatches of the tiles that
 * hold keys; the fallback count zeroed unless `keep_fallbacks` (the last
 * sort's, for the profile, through an inspection). */
void _glradix_count_prepare(glradix_context *ctx, const _glradix_pass *pass, GLuint count_buffer,
                            size_t count_offset, bool skip, bool keep_fallbacks);
/* fill_words.c: sets words [first, first + words) of a buffer (the
 * library's scratch, bound whole) to `value` with shaders/gl/fill_words.comp
 * (makes its program current and binds _GLRADIX_B_FILL; barriers on both
 * sides). _glradix_write_words sets words [first, first + count) to
 * `words` (count <= _GLRADIX_FILL_LIST) the same way: the library's
 * scratch is written by shaders only, never by glBufferSubData or
 * glClearBufferSubData (fill_words.c says why). */
void _glradix_fill_words(glradix_context *ctx, GLuint buffer, GLuint first, GLuint words,
                         GLuint value);
void _glradix_write_words(glradix_context *ctx, GLuint buffer, GLuint first, GLuint count,
                          const GLuint *words);
/* counts <= ctx->forms.tile: the whole bit range [shift, shift + digit_bits) at once */
void _glradix_tile_sort(glradix_context *ctx, const _glradix_pass *pass);

static inline GLuint _glradix_div_up(GLuint a, GLuint b) { return a / b + (a % b != 0); }

/* Columns of the reduce-then-scan plan's bucket-major counts for a grid of
 * `num_tiles`: one per tile, or on large grids one per 2^ctx->forms.column_shift
 * tiles (common.glsl's count_columns, which must agree). */
static inline GLuint _glradix_count_columns(const glradix_context *ctx, GLuint num_tiles) {
  return _glradix_large_grid(&ctx->forms, num_tiles)
             ? _glradix_div_up(num_tiles, 1u << ctx->forms.column_shift)
             : num_tiles;
}

#endif /* GLRADIX_INTERNAL_H */
