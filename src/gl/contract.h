/* The contract between the C stages and the shaders: every storage
 * binding, uniform location and constant the GLSL sees, and every program
 * with what it is built from and how many storage blocks it declares, each
 * listed once here. The C enums below are generated from these lists, and
 * so is each program's prelude, the #defines that precede common.glsl
 * (prelude.c), so the two sides cannot disagree: a name is _GLRADIX_<NAME>
 * in C and <NAME> in GLSL. The prelude's other #defines, the tile shapes
 * and forms one context chose (forms.h), are listed in prelude.c. */
#ifndef GLRADIX_CONTRACT_H
#define GLRADIX_CONTRACT_H

/* ---- Constants: K(NAME, value): C's _GLRADIX_NAME, GLSL's NAME (uint) ---- */
#define _GLRADIX_CONSTANTS(K)                                                                      \
  /* tiles counted per tile_counts work group: more loads in flight per                            \
   * invocation and fewer groups (BENCHMARKS.md) */                                                \
  K(COUNT_TILES, 2)                                                                                \
  /* With at most FOLD_SUMS level-1 block totals on a small grid (forms.h),                        \
   * shuffle_scatter adds those totals up itself rather than have a dispatch scan                  \
   * them (BENCHMARKS.md). */                                                                      \
  K(FOLD_SUMS, 64)                                                                                 \
  /* key order bits (common.glsl sort_key), the sort uniform KEY_MODE */                           \
  K(KEY_SIGNED, 1)                                                                                 \
  K(KEY_FLOAT, 2)                                                                                  \
  K(KEY_DESCENDING, 4)                                                                             \
  /* The skip buffer (B_SKIP): which key bits vary (the OR of the keys' two words,                 \
   * then of their complements: common.glsl pass_skipped), the count slot, two                     \
   * indirect dispatches of 3 words (one work group per tile, then one per                         \
   * COUNT_TILES tiles), and the scan's ticket counter (scan_blocks.comp), which is                \
   * zero between dispatches. */                                                                   \
  K(SKIP_KEY_BIT_WORDS, 4)                                                                         \
  K(SKIP_COUNT_SLOT, _GLRADIX_SKIP_KEY_BIT_WORDS)                                                  \
  K(SKIP_TICKET, _GLRADIX_SKIP_COUNT_SLOT + 7)                                                     \
  /* the look-backs that fell back in the sort (shuffle_scatter.comp), which the profile reads */  \
  K(SKIP_FALLBACKS, _GLRADIX_SKIP_TICKET + 1)                                                      \
  /* tiles each digit_counts work group counts: fewer global atomics per key */                    \
  K(DIGIT_TILES, 8)                                                                                \
  /* the single-pass plan's tile status words (shuffle_scatter.comp): a count shifted              \
   * left by STATUS_SHIFT, its kind in the bits below: none yet, the tile's                        \
   * own, or the sum of every tile up to it */                                                     \
  K(STATUS_SHIFT, 2)                                                                               \
  K(STATUS_AGGREGATE, 1)                                                                           \
  K(STATUS_INCLUSIVE, 2)                                                                           \
  /* The LBVH state buffer (B_BOX): min.xyz and max.xyz of the scene box, then the                 \
   * count, which every LBVH program clamps to its capacity (common.glsl lbvh_count) */            \
  K(LBVH_COUNT_SLOT, 6)                                                                            \
  /* the quality build's count of internal nodes made (lbvh_cluster.comp) */                      \
  K(LBVH_NODE_SLOT, 7)                                                                             \
  /* The quality build (lbvh_cluster.comp): a range of leaves keeps CLUSTER_LANES / 2              \
   * clusters, its two children's at most CLUSTER_LANES, one an invocation; each                   \
   * looks for its nearest neighbour CLUSTER_RADIUS places either side. */                         \
  K(CLUSTER_LANES, 32)                                                                             \
  K(CLUSTER_RADIUS, 2)                                                                             \
  /* fill_words.comp: words that take a value of their own (LOC_FILL_LIST's length) */             \
  K(FILL_LIST, 13)

/* Unsigned sentinels, beyond an enum's int: S(NAME) gives GLSL NAME the
 * value of C's _GLRADIX_NAME. */
#define _GLRADIX_NO_BLOCK_SUMS 0xFFFFFFFFu /* a scan of one block: no block totals */
#define _GLRADIX_NO_NEXT 0xFFFFFFFFu       /* shuffle_scatter: no next pass counted */
#define _GLRADIX_CLUSTERED_ROOT 0xFFFFFFFEu /* GLRADIX_LBVH_CLUSTERED_ROOT */
#define _GLRADIX_SENTINELS(S) S(NO_BLOCK_SUMS) S(NO_NEXT) S(CLUSTERED_ROOT)

/* ---- Storage bindings: B(NAME, point): C's _GLRADIX_B_NAME, GLSL's B_NAME.
 * Each stage family names the points its own way; every point is below
 * _GLRADIX_BINDINGS, the ones the library saves and restores. ---- */
#define _GLRADIX_STORAGE_BINDINGS(B)                                                               \
  B(KEYS, 0)        /* sort: the caller's keys (pass input and output) */                          \
  B(VALUES, 1)      /* sort: the caller's values */                                                \
  B(TILE_KEYS, 2)   /* sort scratch: keys sorted within their tile */                              \
  B(TILE_VALUES, 3) /* sort scratch: values moved with them */                                     \
  B(COUNTS, 4)      /* sort scratch: bucket-major tile counts + scan levels */                     \
  B(SKIP, 5)        /* sort scratch: digit counts of every pass, then skip flags */                \
  B(SCAN_IN, 0)     /* scan: level 0 input */                                                      \
  B(SCAN_OUT, 1)    /* scan: level 0 output (may be the input) */                                  \
  B(SCAN_SUMS, 4)   /* scan: upper levels, in the counts scratch buffer */                         \
  B(COMPACT_IN, 0)                                                                                 \
  B(COMPACT_FLAGS, 1)                                                                              \
  B(COMPACT_OUT, 2)                                                                                \
  B(COMPACT_INDEX, 3) /* compaction: kept flags, scanned in place into positions */                \
  B(BOUNDS, 0)      /* LBVH (morton.c, lbvh.c) */                                                  \
  B(CODES, 1)                                                                                      \
  B(INDICES, 2)                                                                                    \
  B(NODES, 3)                                                                                      \
  /* build: n - 1 exchange slots; refit: 2n - 1 parents, then those slots (n: the                  \
   * capacity) */                                                                                  \
  B(PARENTS, 4)                                                                                    \
  B(BOX, 5)         /* the LBVH state: scene box as ordered float bits, count */                   \
  B(FILL, 0)        /* fill_words */

/* ---- Uniform locations, per group of programs that one C setter serves.
 * U(NAME): C's _GLRADIX_LOC_NAME, GLSL's LOC_NAME. A group's locations
 * follow its parent's, in the order listed, so that the uniforms one
 * program sees (its group's and its ancestors', prelude.c) never share a
 * location, and a name has one location in every program (a name listed
 * twice is a duplicate enumerator). An array uniform takes as many
 * locations as elements: it comes last in a group without children.
 * G(GROUP, PARENT), parents first; NONE: a root. ---- */
#define _GLRADIX_UNIFORM_GROUPS(G)                                                                 \
  G(PASS, NONE)                                                                                    \
  G(GATHER, PASS)                                                                                  \
  G(PER_TILE, GATHER)                                                                              \
  G(TILE_COUNTS, PER_TILE)                                                                         \
  G(SHUFFLE_SCATTER, PER_TILE)                                                                     \
  G(ONESWEEP, SHUFFLE_SCATTER)                                                                     \
  G(COUNT, NONE)                                                                                   \
  G(SCAN, COUNT)                                                                                   \
  G(COMPACT, COUNT)                                                                                \
  G(MORTON, COUNT)                                                                                 \
  G(WINDOW, COUNT)                                                                                 \
  G(COUNT_PREPARE, NONE)                                                                           \
  G(FILL, NONE)

/* the sort's tile stages, all set by _glradix_use_pass */
#define _GLRADIX_UNIFORMS_PASS(U)                                                                  \
  U(SHIFT)          /* lowest key bit of the pass's digit */                                       \
  U(DIGIT_BITS)     /* width of the pass's digit (<= radix_bits) */                                \
  U(NUM_TILES)      /* tiles, from which the counts' columns (_glradix_count_columns) */           \
  U(KEY_MODE)       /* KEY_* bits */
/* local_shuffle and tile_counts, the first pass's tile stage */
#define _GLRADIX_UNIFORMS_GATHER(U)                                                                \
  U(GATHER_KEY_BITS) /* nonzero also gathers which key bits vary */
/* tile_counts and shuffle_scatter (TILE_STARTS) */
#define _GLRADIX_UNIFORMS_PER_TILE(U)                                                              \
  U(TILE_STARTS)    /* where the tiles' digit starts are */
#define _GLRADIX_UNIFORMS_TILE_COUNTS(U)                                                           \
  U(ZERO_SUMS)      /* uint offset of the scan's level 1 to zero, or NO_BLOCK_SUMS */              \
  U(ZERO_SUMS_LENGTH) /* how many to zero there */
#define _GLRADIX_UNIFORMS_SHUFFLE_SCATTER(U)                                                       \
  U(BLOCK_SUMS)     /* see _glradix_scan_block_sums */                                             \
  U(SUMS_RAW)       /* nonzero when those block totals are unscanned */                            \
  U(NEXT_SHIFT)     /* NEXT_COUNTS: the next pass's shift, or NO_NEXT */                           \
  U(NEXT_BITS)      /* NEXT_COUNTS: its digit's width */                                           \
  U(NEXT_COUNTS)    /* NEXT_COUNTS: uint offset where its counts add up */                         \
  U(REVERSE_FROM)   /* nonzero n: groups below n take tiles n-1 down to 0 */
/* shuffle_scatter's look-back form: the pass's words in the counts buffer (uint offsets) */
#define _GLRADIX_UNIFORMS_ONESWEEP(U)                                                              \
  U(PASS_INDEX)     /* the pass: its digits' offsets follow earlier passes' (digit_counts) */    \
  U(STATUS)         /* its tiles' status words, BUCKETS a tile */                                 \
  U(TICKET)         /* its tile ticket */
/* scan, compaction and the LBVH: a length or a capacity */
#define _GLRADIX_UNIFORMS_COUNT(U) U(COUNT)
#define _GLRADIX_UNIFORMS_SCAN(U)                                                                  \
  U(IN_OFFSET)      /* where the level's input starts */                                           \
  U(SUMS_OFFSET)    /* where its block sums go */                                                  \
  U(OUT_OFFSET)     /* where the level's output starts */                                          \
  U(INCLUSIVE)      /* nonzero for an inclusive level 0 */                                         \
  U(CHAIN)          /* nonzero: the last group scans the block totals too */                       \
  U(ZERO_INPUT)     /* nonzero: level 0's input is zeroed once read */                             \
  U(ZERO_NEXT)      /* uint offset of words group 0 zeroes (next pass's level 1) */                \
  U(ZERO_NEXT_LENGTH) /* how many (0: none) */
#define _GLRADIX_UNIFORMS_COMPACT(U)                                                               \
  U(USE_FLAGS)      /* flags buffer given (else input > 0.0) */                                    \
  U(TOTAL_OFFSET)   /* where the scan left the total kept */                                       \
  U(ZERO_FILL)      /* zero output[total..count) */
#define _GLRADIX_UNIFORMS_MORTON(U)                                                                \
  U(BOX_MIN) U(BOX_MAX) U(BOX_FROM_GPU) U(WRITE_INDICES)
/* lbvh_leaves and lbvh_refit_leaves (lbvh.c dispatch_windows) */
#define _GLRADIX_UNIFORMS_WINDOW(U)                                                                \
  U(PRIM_WINDOW)    /* the first primitive whose leaf it writes */                                 \
  U(WINDOW_SIZE)    /* how many from there */
#define _GLRADIX_UNIFORMS_COUNT_PREPARE(U)                                                         \
  U(CAPACITY)       /* the clamp */                                                                \
  U(GROUP_LIMIT)    /* work groups per grid row */
#define _GLRADIX_UNIFORMS_FILL(U)                                                                  \
  U(FILL_FIRST)     /* first word set */                                                           \
  U(FILL_WORDS)     /* words set */                                                                \
  U(FILL_VALUE)     /* the value of those past the listed ones */                                  \
  U(FILL_LISTED)    /* how many of the first words take their own value */                         \
  U(FILL_LIST)      /* their values: an array of FILL_LIST */

/* ---- The compute programs ----
 * P(PROGRAM, shader, HAS_VALUES, KEYS, BUILT, UNIFORMS, BLOCKS, PARTS):
 *   PROGRAM   _GLRADIX_PROG_PROGRAM; _PAIRS variants also move values
 *   shader    shaders/<part>/<shader>.comp
 *   HAS_VALUES  its #define
 *   KEYS      1: reads keys (WITH_SKIP, WITH_KEYS), so set KEY64 has a
 *             64-bit-key build of it
 *   BUILT     BASE: in set BASE (and KEY64 by KEYS), built at create;
 *             WIDE: in set WIDE too, its tile the grid's; LBVH: in BASE,
 *             built once an LBVH call asks. Of BASE and WIDE, create
 *             builds what any sort of the context's plan runs (context.c),
 *             a call the rest it needs; QUALITY: in BASE, built once a
 *             quality build asks
 *   UNIFORMS  its uniform group
 *   BLOCKS    the shader storage blocks it declares, common.glsl's with the
 *             stage's (NEXT_COUNTS: the prelude's define, 0 or 1), checked
 *             against the driver's count of every program the tests build
 *             (testing.h exact_blocks)
 *   PARTS     the rest of what common.glsl provides: _GLRADIX_GLSL_<PARTS> */
#define _GLRADIX_PROGRAMS(P)                                                                       \
  P(LOCAL_SHUFFLE,         local_shuffle,   0, 1, BASE, GATHER,          4,                SHUFFLE_KEY_BITS) \
  P(LOCAL_SHUFFLE_PAIRS,   local_shuffle,   1, 1, BASE, GATHER,          6,                SHUFFLE_KEY_BITS) \
  P(SCAN_BLOCKS,           scan_blocks,     0, 0, BASE, SCAN,            4,                SKIP_SCAN_UINT) \
  P(SCAN_ADD,              scan_add,        0, 0, BASE, SCAN,            2,                NONE)   \
  P(GLOBAL_SCATTER,        global_scatter,  0, 1, BASE, PASS,            4,                NONE)   \
  P(GLOBAL_SCATTER_PAIRS,  global_scatter,  1, 1, BASE, PASS,            6,                NONE)   \
  P(TILE_SORT,             tile_sort,       0, 1, BASE, PASS,            2,                SPLIT)  \
  P(TILE_SORT_PAIRS,       tile_sort,       1, 1, BASE, PASS,            3,                SPLIT)  \
  P(TILE_COUNTS,           tile_counts,     0, 1, WIDE, TILE_COUNTS,     3,                KEY_BITS) \
  /* one tile per work group: small grids */                                                       \
  P(TILE_COUNTS_ONE,       tile_counts,     0, 1, WIDE, TILE_COUNTS,     3,                KEY_BITS_ONE_TILE) \
  P(SHUFFLE_SCATTER,       shuffle_scatter, 0, 1, WIDE, SHUFFLE_SCATTER, 6 + NEXT_COUNTS,  SHUFFLE) \
  P(SHUFFLE_SCATTER_PAIRS, shuffle_scatter, 1, 1, WIDE, SHUFFLE_SCATTER, 10 + NEXT_COUNTS, SHUFFLE) \
  P(COPY_BACK,             copy_back,       0, 1, WIDE, PASS,            3,                NONE)   \
  P(COPY_BACK_PAIRS,       copy_back,       1, 1, WIDE, PASS,            5,                NONE)   \
  /* the single-pass plan: every pass's digit counts, then a pass a dispatch, shuffle_scatter      \
   * finding its destinations by looking back (LOOK_BACK) */                                       \
  P(DIGIT_COUNTS,          digit_counts,    0, 1, BASE, GATHER,          3,                KEY_BITS) \
  P(ONESWEEP,              shuffle_scatter, 0, 1, BASE, ONESWEEP,        6,                SHUFFLE) \
  P(ONESWEEP_PAIRS,        shuffle_scatter, 1, 1, BASE, ONESWEEP,        10,               SHUFFLE) \
  P(COMPACT_FLAGS,         compact_flags,   0, 0, BASE, COMPACT,         3,                COMPACT) \
  P(COMPACT_SCATTER,       compact_scatter, 0, 0, BASE, COMPACT,         5,                COMPACT) \
  P(COUNT_PREPARE,         count_prepare,   0, 0, WIDE, COUNT_PREPARE,   1,                SKIP)   \
  P(SCENE_BOX,             scene_box,       0, 0, LBVH, COUNT,           2,                LBVH30) \
  P(MORTON_30,             morton_codes,    0, 0, LBVH, MORTON,          4,                LBVH30) \
  P(MORTON_63,             morton_codes,    0, 0, LBVH, MORTON,          4,                LBVH63) \
  P(LBVH_LEAVES,           lbvh_leaves,     0, 0, LBVH, WINDOW,          4,                LBVH30) \
  P(LBVH_TREE_30,          lbvh_tree,       0, 0, LBVH, COUNT,           5,                LBVH30_PREFIX) \
  P(LBVH_TREE_63,          lbvh_tree,       0, 0, LBVH, COUNT,           5,                LBVH63_PREFIX) \
  /* the quality build's tree pass */                                                              \
  P(LBVH_CLUSTER_30,       lbvh_cluster,    0, 0, QUALITY, COUNT,           6,                LBVH30_PREFIX) \
  P(LBVH_CLUSTER_63,       lbvh_cluster,    0, 0, QUALITY, COUNT,           6,                LBVH63_PREFIX) \
  P(LBVH_REFIT_LEAVES,     lbvh_refit_leaves, 0, 0, LBVH, WINDOW,        3,                LBVH30) \
  P(LBVH_REFIT,            lbvh_tree,       0, 0, LBVH, COUNT,           4,                LBVH30_REFIT) \
  /* scratch words from the CPU (fill_words.c) */                                                  \
  P(FILL_WORDS,            fill_words,      0, 0, BASE, FILL,            1,                NONE)

/* PARTS: what common.glsl provides besides the keys: the skip buffer
 * (SKIP), the 4-way split with its uvec2 block scan (SPLIT), the tile's
 * work words (SHUFFLE), the gathering of varying key bits for pass
 * skipping (KEY_BITS), a plain uint block scan (SCAN_UINT), compaction's
 * input (COMPACT), the LBVH's (LBVH30, LBVH63: its Morton codes' width;
 * _PREFIX: the sorted codes and their prefixes, for the bottom-up passes);
 * and the stage's own variants (ONE_TILE, REFIT). */
#define _GLRADIX_GLSL_NONE ""
#define _GLRADIX_GLSL_SKIP "#define WITH_SKIP 1\n"
#define _GLRADIX_GLSL_SPLIT "#define SCAN_T uvec2\n#define WITH_SPLIT 1\n"
#define _GLRADIX_GLSL_SHUFFLE _GLRADIX_GLSL_SPLIT "#define WITH_SHUFFLE 1\n"
#define _GLRADIX_GLSL_KEY_BITS "#define WITH_KEY_BITS 1\n"
#define _GLRADIX_GLSL_SCAN_UINT "#define SCAN_T uint\n"
#define _GLRADIX_GLSL_COMPACT "#define WITH_COMPACT 1\n"
#define _GLRADIX_GLSL_LBVH30 "#define WITH_LBVH 1\n#define MORTON_BITS 30\n"
#define _GLRADIX_GLSL_LBVH63 "#define WITH_LBVH 1\n#define MORTON_BITS 63\n"
#define _GLRADIX_GLSL_ONE_TILE "#define ONE_TILE 1\n"
#define _GLRADIX_GLSL_REFIT "#define LBVH_REFIT 1\n"
#define _GLRADIX_GLSL_SHUFFLE_KEY_BITS _GLRADIX_GLSL_SHUFFLE _GLRADIX_GLSL_KEY_BITS
#define _GLRADIX_GLSL_SKIP_SCAN_UINT _GLRADIX_GLSL_SKIP _GLRADIX_GLSL_SCAN_UINT
#define _GLRADIX_GLSL_KEY_BITS_ONE_TILE _GLRADIX_GLSL_KEY_BITS _GLRADIX_GLSL_ONE_TILE
#define _GLRADIX_GLSL_LBVH30_REFIT _GLRADIX_GLSL_LBVH30 _GLRADIX_GLSL_REFIT
#define _GLRADIX_GLSL_LBVH30_PREFIX _GLRADIX_GLSL_LBVH30 "#define WITH_PREFIX 1\n"
#define _GLRADIX_GLSL_LBVH63_PREFIX _GLRADIX_GLSL_LBVH63 "#define WITH_PREFIX 1\n"

/* ---- What the lists above generate for C ---- */

#define _GLRADIX_CONSTANT_ENUM(name, value) _GLRADIX_##name = (value),
enum { _GLRADIX_CONSTANTS(_GLRADIX_CONSTANT_ENUM) };
#undef _GLRADIX_CONSTANT_ENUM

#define _GLRADIX_BINDING_ENUM(name, point) _GLRADIX_B_##name = (point),
enum {
  _GLRADIX_STORAGE_BINDINGS(_GLRADIX_BINDING_ENUM)
  _GLRADIX_BINDINGS = 6 /* the points bound: 0 .. 5 */
};
#undef _GLRADIX_BINDING_ENUM

/* Per group: _GLRADIX_LOC_<NAME> from the end of its parent's locations,
 * and _GLRADIX_LOCS_<GROUP>, the end of its own. */
enum { _GLRADIX_LOCS_NONE = 0 };
#define _GLRADIX_LOC_ENUM(name) _GLRADIX_LOC_##name,
#define _GLRADIX_LOC_GROUP_ENUM(group, parent)                                                     \
  enum {                                                                                           \
    _GLRADIX_LOCS_##group##_FROM = _GLRADIX_LOCS_##parent - 1,                                     \
    _GLRADIX_UNIFORMS_##group(_GLRADIX_LOC_ENUM) _GLRADIX_LOCS_##group                             \
  };
_GLRADIX_UNIFORM_GROUPS(_GLRADIX_LOC_GROUP_ENUM)
#undef _GLRADIX_LOC_GROUP_ENUM
#undef _GLRADIX_LOC_ENUM

/* The uniform groups themselves, for the prelude (prelude.c). */
#define _GLRADIX_UNIFORM_GROUP_ENUM(group, parent) _GLRADIX_UG_##group,
typedef enum _glradix_uniform_group {
  _GLRADIX_UG_NONE,
  _GLRADIX_UNIFORM_GROUPS(_GLRADIX_UNIFORM_GROUP_ENUM)
  _GLRADIX_UNIFORM_GROUP_COUNT
} _glradix_uniform_group;
#undef _GLRADIX_UNIFORM_GROUP_ENUM

#define _GLRADIX_PROGRAM_ENUM(program, shader, values, keys, built, uniforms, blocks, parts)       \
  _GLRADIX_PROG_##program,
typedef enum _glradix_program {
  _GLRADIX_PROGRAMS(_GLRADIX_PROGRAM_ENUM)
  _GLRADIX_PROG_COUNT
} _glradix_program;
/* context.c keeps a bit a program */
_Static_assert(_GLRADIX_PROG_COUNT <= 64, "more programs than eager_programs' bits");
#undef _GLRADIX_PROGRAM_ENUM

/* The table's BUILT column. */
typedef enum _glradix_built {
  _GLRADIX_BUILT_BASE,
  _GLRADIX_BUILT_WIDE,
  _GLRADIX_BUILT_LBVH,
  _GLRADIX_BUILT_QUALITY
} _glradix_built;

#endif /* GLRADIX_CONTRACT_H */
