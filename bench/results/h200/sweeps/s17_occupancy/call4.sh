source bench/_call.sh
mkdir -p $out/p
build probe "-DGLRADIX_PROBE" bench/_probe
build i6m1 "-DGLRADIX_PROBE -DGLRADIX_TUNE_ITEMS=6 -DGLRADIX_TUNE_MOVE_SHARED=1" bench/_probe
build i6m0 "-DGLRADIX_PROBE -DGLRADIX_TUNE_ITEMS=6 -DGLRADIX_TUNE_MOVE_SHARED=0" bench/_probe
build i6 "-DGLRADIX_PROBE -DGLRADIX_TUNE_ITEMS=6" bench/_probe
build i4m1 "-DGLRADIX_PROBE -DGLRADIX_TUNE_ITEMS=4 -DGLRADIX_TUNE_MOVE_SHARED=1" bench/_probe
pr() { # tag build n args
  local tag=$1 b=$2 n=$3; shift 3
  GLRADIX_PROBE_OUT=$out/p/$tag.bin /tmp/b_$b/bench/glradix-bench --csv --verify --n $n --key-bits 30 --repeat 3 "$@" 2>&1 | tail -1 | sed "s/^/$tag,/" | tee -a $out/p/runs.csv
}
for b in i6m1 i6m0 i4m1; do pr ${b}_16m $b 16777216 --pairs; done
pr i6_keys_16m i6 16777216 --keys-only
pr i6m1_portable_16m i6m1 16777216 --pairs --portable
for r in 1 2; do for b in probe i6m1 i6m0; do run $r $b subgroup --n 1048576,16777216,67108864 --pairs --key-bits 30; done; done
run 1 probe subgroup --n 16777216 --keys-only --key-bits 30
run 1 i6 subgroup --n 16777216 --keys-only --key-bits 30
run 1 i4m1 subgroup --n 16777216 --pairs --key-bits 30
(cd $out && tar czf probe.tgz p && rm -rf p)
