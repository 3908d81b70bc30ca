source bench/_call.sh
mkdir -p $out/p
build probe "-DGLRADIX_PROBE" bench/_probe
pr() { # tag build n args
  local tag=$1 b=$2 n=$3; shift 3
  GLRADIX_PROBE_OUT=$out/p/$tag.bin /tmp/b_$b/bench/glradix-bench --csv --verify --n $n --key-bits 30 --repeat 3 "$@" 2>&1 | tail -1 | sed "s/^/$tag,/" | tee -a $out/p/runs.csv
}
for s in 6656 7168 7680; do GLRADIX_PROBE_PAD_SCATTER=$s pr scatter_pad_$s probe 16777216 --pairs; done
for c in 12288 13312 13824 14336; do GLRADIX_PROBE_PAD_COUNT=$c pr count_pad_$c probe 16777216 --pairs; done
pr probe_64m probe 67108864 --pairs
pr probe_1m probe 1048576 --pairs
pr probe_64m_keys probe 67108864 --keys-only
(cd $out && tar czf probe.tgz p && rm -rf p)
