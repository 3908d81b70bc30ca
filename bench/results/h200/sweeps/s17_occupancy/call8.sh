source bench/_call.sh
mkdir -p $out/p
build base "-DGLRADIX_PROBE" bench/_cloop
build cl4 "-DGLRADIX_PROBE -DGLRADIX_TUNE_COUNT_TILES=4 -DGLRADIX_TUNE_COUNT_LOOP=1" bench/_cloop
build cl8 "-DGLRADIX_PROBE -DGLRADIX_TUNE_COUNT_TILES=8 -DGLRADIX_TUNE_COUNT_LOOP=1" bench/_cloop
build cl16 "-DGLRADIX_PROBE -DGLRADIX_TUNE_COUNT_TILES=16 -DGLRADIX_TUNE_COUNT_LOOP=1" bench/_cloop
pr() { # tag build n args
  local tag=$1 b=$2 n=$3; shift 3
  GLRADIX_PROBE_OUT=$out/p/$tag.bin /tmp/b_$b/bench/glradix-bench --csv --verify --n $n --key-bits 30 --repeat 3 "$@" 2>&1 | tail -1 | sed "s/^/$tag,/" | tee -a $out/p/runs.csv
}
for b in cl4 cl8 cl16; do pr ${b}_16m $b 16777216 --pairs; done
for r in 1 2; do for b in base cl4 cl8 cl16; do
  run $r $b subgroup --n 4194304,16777216,67108864 --pairs --key-bits 30
  run $r $b subgroup --n 16777216 --keys-only --key-bits 30
done; done
for b in base cl8; do run 1 $b portable --n 16777216,67108864 --pairs --key-bits 30; done
for b in base cl4 cl8 cl16; do stages $b --n 16777216,67108864 --pairs --key-bits 30; done
(cd $out && tar czf probe.tgz p && rm -rf p)
