source bench/_call.sh
build never "-O2 -DGLRADIX_TUNE_WIDE_ITEMS=0" &
build new "-O2"
wait
for r in 1 2; do
  run $r never subgroup --keys-only --key-bits 30 --n 8M,12M,16M --repeat 20
  run $r new subgroup --keys-only --key-bits 30 --n 8M,12M,16M --repeat 20
  run $r never subgroup --pairs --key-bits 30 --n 16M,24M,64M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --n 16M,24M,64M --repeat 20
done
mkdir -p $OUT/headline
OUT=$OUT/headline bash .gpu/on-gpu.sh 1048576,16777216,67108864 --repeat 20 > $OUT/headline/log.txt 2>&1
/tmp/b_new/bench/glradix-bench --csv --verify --n 1048576,16777216,67108864 --repeat 20 > $OUT/headline/glradix_round2.csv 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/headline/gpu.txt 2>&1
ls $OUT/headline
