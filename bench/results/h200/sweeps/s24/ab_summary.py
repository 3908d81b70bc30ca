import sys, csv, statistics as st
from collections import defaultdict, OrderedDict
rows = defaultdict(list); names = []
for f in sys.argv[1:]:
    for line in open(f):
        p = line.strip().split(',')
        if len(p) < 11 or not p[0].isdigit(): continue
        r, name, path, impl = p[0], p[1], p[2], p[3].replace('glradix-uint64','glradix')
        if impl != 'glradix': continue
        n, kb, pairs, rb, ms = p[4], p[5], p[6], p[7], float(p[8])
        if name not in names: names.append(name)
        rows[(path, pairs, rb, int(n), kb, name)].append(ms)
keys = sorted(set(k[:5] for k in rows))
base = names[0]
print('path pairs rb n kb | ' + ' | '.join(names))
for k in keys:
    b = rows.get(k + (base,))
    out = []
    for nm in names:
        v = rows.get(k + (nm,))
        if not v: out.append('-'); continue
        m = st.median(v)
        s = '%.4f(%s)' % (m, '/'.join('%.4f' % x for x in v))
        if b and nm != base: s += ' %+.1f%%' % (100 * (m / st.median(b) - 1))
        out.append(s)
    print(' '.join(map(str, k)), '|', ' | '.join(out))
