source bench/_call.sh
build new "-O2" &
build scan8 "-O2 -DGLRADIX_TUNE_SCAN_ITEMS=8"
wait
for r in 1 2 3; do
  run $r new subgroup --pairs --key-bits 30 --n 1M,4M,16M,32M,64M --repeat 20
  run $r scan8 subgroup --pairs --key-bits 30 --n 1M,4M,16M,32M,64M --repeat 20
done
for t in new scan8; do stages $t --pairs --key-bits 30 --n 16M,64M --repeat 20; done
mkdir -p $OUT/headline
OUT=$OUT/headline bash .gpu/on-gpu.sh 1048576,16777216,67108864 --repeat 20 > $OUT/headline/log.txt 2>&1
/tmp/b_new/bench/glradix-bench --csv --verify --n 1048576,16777216,67108864 --repeat 20 > $OUT/headline/glradix_round2.csv 2>&1
/tmp/b_new/bench/glradix-bench --csv --verify --portable --pairs --key-bits 30 --n 1048576,16777216,67108864 --repeat 20 > $OUT/headline/portable.csv 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/headline/gpu.txt 2>&1
mkdir -p $OUT/tests; OUT=$OUT/tests timeout 200 bash tests/gpu_tests.sh
