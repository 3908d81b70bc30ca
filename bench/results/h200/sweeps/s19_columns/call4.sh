source bench/_call.sh
build base "-O2" bench/_base19b &
build new "-O2"
wait
for r in 1 2 3; do
  run $r base subgroup --pairs --key-bits 30 --bits 2 --n 1M,4M,16M,64M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --bits 2 --n 1M,4M,16M,64M --repeat 20
done
for r in 1 2; do
  run $r base subgroup --keys-only --key-bits 30 --bits 2 --n 16M --repeat 20
  run $r new subgroup --keys-only --key-bits 30 --bits 2 --n 16M --repeat 20
  run $r base portable --pairs --key-bits 30 --bits 2 --n 16M --repeat 20
  run $r new portable --pairs --key-bits 30 --bits 2 --n 16M --repeat 20
  run $r base subgroup --pairs --key-bits 30 --n 16M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --n 16M --repeat 20
done
for t in base new; do stages $t --pairs --key-bits 30 --bits 2 --n 16M --repeat 20; done
/tmp/b_new/bench/glradix-bench --csv --verify --portable --pairs --key-bits 30 --n 1048576,16777216,67108864 --repeat 20 > $OUT/portable.csv 2>&1
/tmp/b_new/bench/glradix-bench --csv --verify --pairs --key-bits 30 --bits 2 --copy --n 16777216 --repeat 20 > $OUT/r2_copy.txt 2>&1
mkdir -p $OUT/tests; OUT=$OUT/tests timeout 220 bash tests/gpu_tests.sh
(cd $OUT && tar czf tests.tgz tests && rm -rf tests)
