source bench/_call.sh
mkdir -p $out/p
build probe "-DGLRADIX_PROBE" bench/_probe
build items4 "-DGLRADIX_PROBE -DGLRADIX_TUNE_ITEMS=4" bench/_probe
build move1 "-DGLRADIX_PROBE -DGLRADIX_TUNE_MOVE_SHARED=1" bench/_probe
build wg256 "-DGLRADIX_PROBE -DGLRADIX_TUNE_WG_SIZE=256 -DGLRADIX_TUNE_ITEMS=16" bench/_probe
pr() { # tag build args (env passed by caller)
  local tag=$1 b=$2; shift 2
  GLRADIX_PROBE_OUT=$out/p/$tag.bin /tmp/b_$b/bench/glradix-bench --csv --verify --n 16777216 --key-bits 30 --repeat 3 "$@" 2>&1 | tail -1 | sed "s/^/$tag,/" | tee -a $out/p/runs.csv
  /tmp/b_$b/bench/glradix-bench --csv --verify --n 16777216 --key-bits 30 --repeat 10 "$@" 2>&1 | tail -1 | sed "s/^/$tag,timed,/" | tee -a $out/p/runs.csv
}
for c in 0 8192 16384 24576 32768 40960 45056; do GLRADIX_PROBE_PAD_COUNT=$c pr count_pad_$c probe --pairs; done
for s in 2048 4096 6144 8192 10240 12288 16384 24576; do GLRADIX_PROBE_PAD_SCATTER=$s pr scatter_pad_$s probe --pairs; done
pr items4 items4 --pairs
pr move1 move1 --pairs
pr wg256 wg256 --pairs
pr r2 probe --pairs --bits 2
pr r4 probe --pairs --bits 4
(cd $out && tar czf probe.tgz p && rm -rf p)
