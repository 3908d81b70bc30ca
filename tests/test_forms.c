/* The forms glradix_create chooses from a driver's limits (src/forms.c),
 * without GL: the table src/forms.h documents for llvmpipe and the H200,
 * and the rules every choice must keep on any limits a conforming GL 4.3
 * driver reports (shapes that fit, forms that go together). */
#include "common.h"
#include "forms.h"
#include "internal.h"

static _glradix_forms choose(unsigned radix_bits, GLint64 shared, GLint invocations, bool cpu,
                             GLuint subgroup) {
  const _glradix_limits limits = {shared, invocations, cpu, subgroup};
  _glradix_forms f;
  _glradix_forms_choose(&f, radix_bits, &limits, NULL);
  return f;
}

START_TEST(llvmpipe) {
  for (unsigned bits = 2; bits <= 8; bits *= 2) {
    _glradix_forms f = choose(bits, 32768, 1024, true, 0);
    ck_assert_uint_eq(f.wg_size, 32);
    ck_assert_uint_eq(f.lbvh_wg, 32);
    ck_assert_uint_eq(f.items, 224);
    ck_assert_uint_eq(f.tile, 7168);
    ck_assert_uint_eq(f.scan_tile, 32 * 16);
    ck_assert_uint_eq(f.wide_tile, 0);
    ck_assert(!f.reverse_tiles);
    ck_assert_int_eq(f.per_tile, bits == 2 ? _GLRADIX_PER_TILE_NONE : _GLRADIX_PER_TILE_STARTS);
    ck_assert_uint_eq(f.column_shift, 0);
    for (int k = 0; k < 2; k++)
      for (int p = 0; p < 2; p++) {
        ck_assert_int_eq(f.scatter[k][p].move_shared, 0);
        ck_assert_int_eq(f.scatter[k][p].values_at, 0);
        ck_assert(f.scatter[k][p].key_split == (k == 0 && p == 0));
      }
  }
}
END_TEST

START_TEST(h200) {
  _glradix_forms f = choose(8, 49152, 1024, false, 32);
  ck_assert_uint_eq(f.tile, 512 * 8);
  ck_assert_uint_eq(f.lbvh_wg, 512);
  ck_assert_uint_eq(f.lbvh_window, 1u << 22);
  ck_assert_uint_eq(f.wide_tile, 512 * 10);
  ck_assert_uint_eq(f.wide_from, 12u << 20);
  ck_assert_int_eq(f.per_tile, _GLRADIX_PER_TILE_STARTS);
  ck_assert_uint_eq(f.column_shift, 1);
  ck_assert(f.reverse_tiles);
  ck_assert_int_eq(f.scatter[0][1].move_shared, 2);
  ck_assert_int_eq(f.scatter[0][1].values_at, 1);
  ck_assert_int_eq(f.scatter[1][1].move_shared, 1); /* 64-bit keys never hold theirs */
  ck_assert_int_eq(f.scatter[1][1].values_at, 1);
  ck_assert(f.scatter[0][0].key_split);
  f = choose(2, 49152, 1024, false, 32);
  ck_assert_uint_eq(f.tile, 256 * 8);
  ck_assert_uint_eq(f.wide_tile, 0);
  ck_assert_int_eq(f.per_tile, _GLRADIX_PER_TILE_NEXT_COUNTS);
  ck_assert_uint_eq(f.column_shift, 0);
  ck_assert_int_eq(f.scatter[0][1].values_at, 2);
  ck_assert(f.scatter[0][0].key_split);
  f = choose(4, 49152, 1024, false, 32);
  ck_assert_int_eq(f.per_tile, _GLRADIX_PER_TILE_STARTS);
  ck_assert_int_eq(f.scatter[0][1].values_at, 0);
}
END_TEST

/* A GPU without usable subgroups (or disable_subgroups): the portable path. */
START_TEST(portable_gpu) {
  _glradix_forms f = choose(8, 49152, 1024, false, 0);
  ck_assert_uint_eq(f.tile, 512 * 8);
  ck_assert_uint_eq(f.wide_tile, 0);
  ck_assert(!f.reverse_tiles);
  for (int k = 0; k < 2; k++) {
    ck_assert_int_eq(f.scatter[k][1].move_shared, 1);
    ck_assert_int_eq(f.scatter[k][1].values_at, 0);
  }
}
END_TEST

/* Rules for any limits from OpenGL ES 3.1's minimums up (16 KB shared
 * memory, 128 invocations a group; GL 4.3's are 32 KB and 1024), CPU or
 * GPU, with or without subgroups. */
START_TEST(rules_on_any_limits) {
  static const GLint64 shared[] = {16384, 32768, 40000, 49152, 65536, 1 << 20};
  static const GLint invocations[] = {128, 256, 1024};
  static const GLuint subgroups[] = {0, 8, 32, 64, 1024};
  for (unsigned bits = 2; bits <= 8; bits *= 2)
    for (size_t s = 0; s < sizeof shared / sizeof shared[0]; s++)
      for (size_t v = 0; v < sizeof invocations / sizeof invocations[0]; v++)
        for (int cpu = 0; cpu < 2; cpu++)
          for (size_t g = 0; g < sizeof subgroups / sizeof subgroups[0]; g++) {
            _glradix_forms f = choose(bits, shared[s], invocations[v], cpu != 0, subgroups[g]);
            const GLuint buckets = 1u << bits;
            ck_assert_msg(f.wg_size <= (GLuint)invocations[v] &&
                              (f.wg_size & (f.wg_size - 1)) == 0 && f.wg_size >= 16,
                          "wg_size %u: a power of two the raking scan takes", f.wg_size);
            ck_assert_msg(f.items % 2 == 0 && f.items < 256, "items %u", f.items);
            ck_assert_uint_eq(f.tile, f.wg_size * f.items);
            ck_assert_uint_le(f.tile, 65535);
            ck_assert_uint_eq(f.scan_tile, f.wg_size * f.scan_items);
            /* every program of the tile fits: the splits' words and the scan,
             * with shuffle_scatter's look-back form's bucket words */
            ck_assert(_glradix_padded_tile_bytes(f.tile, f.wg_size, 1) + _GLRADIX_LOOK_BACK_BYTES <=
                      shared[s]);
            ck_assert_msg(f.subgroup_size == 0 || f.wg_size % f.subgroup_size == 0,
                          "groups of whole subgroups (%u of %u)", f.wg_size, f.subgroup_size);
            if (f.wide_tile) {
              ck_assert(!f.cpu_rasterizer && f.subgroup_size && bits == 8);
              ck_assert_uint_le(f.wide_tile, 65535);
              ck_assert(_glradix_padded_tile_bytes(f.wide_tile, f.wg_size, 1) + 256 * 4 <=
                        shared[s]);
            }
            /* the tile starts take one invocation per bucket, or the rows */
            if (f.per_tile == _GLRADIX_PER_TILE_STARTS)
              ck_assert(bits >= 4 && (f.count_rows || f.wg_size >= buckets));
            if (f.per_tile == _GLRADIX_PER_TILE_NEXT_COUNTS)
              ck_assert(!f.cpu_rasterizer && bits == 2 && f.column_shift == 0);
            ck_assert(!f.count_rows || f.cpu_rasterizer);
            /* the LBVH tree pass: at most 12 bytes of shared memory an
             * invocation (a refit's slot and two parent words) */
            ck_assert(f.lbvh_wg <= f.wg_size && (f.lbvh_wg & (f.lbvh_wg - 1)) == 0 &&
                      12 * (GLint64)f.lbvh_wg + 4 <= shared[s]);
            /* the scene box's reduction: six words an invocation */
            ck_assert(24 * (GLint64)f.wg_size <= shared[s]);
            ck_assert(!f.reverse_tiles || (!f.cpu_rasterizer && f.subgroup_size));
            for (int k = 0; k < 2; k++)
              for (int p = 0; p < 2; p++) {
                const _glradix_scatter_form *x = &f.scatter[k][p];
                ck_assert_int_eq(x->move_shared, f.cpu_rasterizer        ? 0
                                                 : f.subgroup_size && !k ? 2
                                                                         : 1);
                ck_assert(p || x->values_at == 0);
                ck_assert(x->move_shared || x->values_at == 0);
                ck_assert(!x->key_split ||
                          (!p && !k && (bits == 2 || f.per_tile == _GLRADIX_PER_TILE_STARTS)));
              }
          }
}
END_TEST

/* The test hook: a GPU's forms on a CPU rasterizer's limits. */
START_TEST(hooks_take_gpu_forms) {
  const _glradix_limits llvmpipe = {32768, 1024, true, 0};
  _glradix_test_hooks h = _GLRADIX_TEST_HOOKS_NONE;
  h.gpu_forms = 1;
  h.move_shared = 2;
  h.wide_from = 1000;
  h.lbvh_window = 2999;
  h.lbvh_wg = 64;
  _glradix_forms f;
  _glradix_forms_choose(&f, 8, &llvmpipe, &h);
  ck_assert(!f.cpu_rasterizer);
  ck_assert_int_eq(f.scatter[0][1].move_shared, 2);
  ck_assert_int_eq(f.scatter[1][1].move_shared, 1);
  ck_assert(f.reverse_tiles);
  ck_assert_uint_eq(f.wide_from, 1000);
  ck_assert_uint_eq(f.lbvh_window, 2999);
  ck_assert_uint_eq(f.lbvh_wg, 64);
}
END_TEST

static Suite *forms_suite(void) {
  Suite *s = suite_create("forms");
  TCase *tc = tcase_create("choose");
  tcase_add_test(tc, llvmpipe);
  tcase_add_test(tc, h200);
  tcase_add_test(tc, portable_gpu);
  tcase_add_test(tc, rules_on_any_limits);
  tcase_add_test(tc, hooks_take_gpu_forms);
  suite_add_tcase(s, tc);
  return s;
}

TEST_MAIN(forms_suite)
