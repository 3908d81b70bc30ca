source bench/_call.sh
mkdir -p $out/p
build probe "-DGLRADIX_PROBE" bench/_probe
build items6 "-DGLRADIX_PROBE -DGLRADIX_TUNE_ITEMS=6" bench/_probe
build wg256i8 "-DGLRADIX_PROBE -DGLRADIX_TUNE_WG_SIZE=256 -DGLRADIX_TUNE_ITEMS=8" bench/_probe
build wg1024i4 "-DGLRADIX_PROBE -DGLRADIX_TUNE_WG_SIZE=1024 -DGLRADIX_TUNE_ITEMS=4" bench/_probe
pr() { # tag build n args
  local tag=$1 b=$2 n=$3; shift 3
  GLRADIX_PROBE_OUT=$out/p/$tag.bin /tmp/b_$b/bench/glradix-bench --csv --verify --n $n --key-bits 30 --repeat 3 "$@" 2>&1 | tail -1 | sed "s/^/$tag,/" | tee -a $out/p/runs.csv
}
for b in probe items6 wg256i8 wg1024i4; do pr ${b}_16m $b 16777216 --pairs; done
for r in 1 2; do for b in probe items6; do run $r $b subgroup --n 1048576,16777216,67108864 --pairs --key-bits 30; done; done
for b in wg256i8 wg1024i4; do run 1 $b subgroup --n 16777216 --pairs --key-bits 30; done
stages probe --n 16777216 --pairs --key-bits 30
stages items6 --n 16777216 --pairs --key-bits 30
(cd $out && tar czf probe.tgz p && rm -rf p)
