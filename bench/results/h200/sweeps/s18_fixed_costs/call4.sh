source bench/_call.sh
build base "-O2" bench/_base18b
build new "-O2"
for r in 1 2 3; do
  run $r base subgroup --pairs --key-bits 30 --n 1M,4M,16M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --n 1M,4M,16M --repeat 20
done
for r in 1 2; do
  run $r base subgroup --pairs --key-bits 30 --bits 2 --n 1M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --bits 2 --n 1M --repeat 20
  run $r base subgroup --pairs --key-bits 24 --end-bit 32 --n 1M --repeat 20
  run $r new subgroup --pairs --key-bits 24 --end-bit 32 --n 1M --repeat 20
done
mkdir -p $OUT/headline
OUT=$OUT/headline bash .gpu/on-gpu.sh 1048576,16777216,67108864 --repeat 20 > $OUT/headline/log.txt 2>&1
/tmp/b_new/bench/glradix-bench --csv --verify --n 1048576,16777216,67108864 --repeat 20 > $OUT/headline/glradix_round2.csv 2>&1
/tmp/b_new/bench/glradix-bench --csv --verify --portable --pairs --key-bits 30 --n 1048576,16777216,67108864 --repeat 20 > $OUT/headline/portable.csv 2>&1
