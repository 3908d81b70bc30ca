#!/usr/bin/env python3
"""Analyze a GLRADIX_PROBE dump (probe.patch): per kernel and pass, groups per
SM, resident groups per SM, group lifetime and its phases (SM clock cycles).

Layout, as probe.patch writes it: two uint32 (tiles, keys), then for kernel k
(0 tile_counts, 1 shuffle_scatter), pass p < 4 and group g < G, eight words:
SM id | warps per SM << 16, then the clock at marks 1 (start) to 7 (end), 0
where a mark was not reached. The group counts below are upper bounds
(tile_counts: two tiles a group); records left zero, groups that did not
run, are skipped, so builds with more tiles a group read right too."""
import struct, sys, statistics as st

G = 16384
F = 1.98e3  # cycles per microsecond, assumed (H200 boost clock)

def load(path):
    b = open(path, 'rb').read()
    tiles, count = struct.unpack_from('<2I', b, 0)
    words = struct.unpack_from('<%dI' % ((len(b) - 8) // 4), b, 8)
    return tiles, count, words

def rel(a, b):
    return (b - a) & 0xFFFFFFFF

def analyze(path, count_tiles=2):
    tiles, count, w = load(path)
    print(f'== {path}: {count} keys, {tiles} tiles')
    per_sm_kernel = {}
    for k, name in ((0, 'tile_counts'), (1, 'shuffle_scatter')):
        groups = min(G, tiles if k == 1 else (tiles + count_tiles - 1) // count_tiles)
        if k == 0 and tiles <= 512: groups = tiles  # ONE_TILE programs on small grids
        for p in range(4):
            recs = []
            for g in range(groups):
                base = ((k * 4 + p) * G + g) * 8
                r = w[base:base + 8]
                if r[1] == 0 and r[7] == 0: continue
                recs.append(r)
            if not recs: continue
            warps_per_sm = recs[0][0] >> 16
            by_sm = {}
            for r in recs: by_sm.setdefault(r[0] & 0xFFFF, []).append(r)
            life, conc_max, conc_avg, spans, nper = [], [], [], [], []
            marks = {i: [] for i in range(2, 8)}
            for sm, rs in by_sm.items():
                t0 = rs[0][1]  # clocks may wrap: times are taken from the first group's start
                ev = []
                lo, hi = None, None
                for r in rs:
                    s = (r[1] - t0 + 2**31) & 0xFFFFFFFF
                    e = s + rel(r[1], r[7])
                    ev.append((s, 1)); ev.append((e, -1))
                    lo = s if lo is None else min(lo, s)
                    hi = e if hi is None else max(hi, e)
                    life.append(rel(r[1], r[7]))
                    prev = r[1]
                    for i in range(2, 8):
                        if r[i] != 0:
                            marks[i].append(rel(prev, r[i])); prev = r[i]
                ev.sort()
                c = m = 0; area = 0; last = lo
                for t, d in ev:
                    area += c * (t - last); last = t
                    c += d; m = max(m, c)
                conc_max.append(m); conc_avg.append(area / max(1, hi - lo))
                spans.append(hi - lo); nper.append(len(rs))
                per_sm_kernel[(k, p, sm)] = (lo + t0 - 2**31, hi + t0 - 2**31)
            print(f'{name} pass {p}: {len(recs)} groups on {len(by_sm)} SMs '
                  f'({min(nper)}-{max(nper)} each, warps/SM {warps_per_sm}); '
                  f'resident max {min(conc_max)}-{max(conc_max)} (mean {st.mean(conc_max):.2f}), '
                  f'time-avg {st.mean(conc_avg):.2f}; '
                  f'SM span mean {st.mean(spans)/F:.2f} us max {max(spans)/F:.2f}; '
                  f'life mean {st.mean(life)/F:.2f} us median {st.median(life)/F:.2f}')
            ph = ' '.join(f'{i}:{st.mean(v)/F:.2f}' for i, v in marks.items() if v)
            print(f'   phases (us since previous mark): {ph}')
    # gaps between kernels on the same SM (SM clocks are continuous)
    order = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3)]
    for a, b in zip(order, order[1:]):
        gaps = []
        for key, (lo, hi) in per_sm_kernel.items():
            if key[:2] != a: continue
            nb = per_sm_kernel.get((b[0], b[1], key[2]))
            if nb: gaps.append(((nb[0] - hi) & 0xFFFFFFFF) / F)
        if gaps:
            print(f'gap SM last end of k{a[0]}p{a[1]} -> first start of k{b[0]}p{b[1]}: '
                  f'mean {st.mean(gaps):.2f} us min {min(gaps):.2f} max {max(gaps):.2f}')

for p in sys.argv[1:]:
    analyze(p)
