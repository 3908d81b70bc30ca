source bench/_call.sh
build base "-O2" bench/_base18d
build new "-O2"
for r in 1 2 3; do
  run $r base subgroup --pairs --key-bits 30 --n 4M,16M,64M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --n 4M,16M,64M --repeat 20
done
for r in 1 2; do
  run $r base subgroup --pairs --key-bits 30 --bits 2 --n 4M,16M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --bits 2 --n 4M,16M --repeat 20
  run $r base subgroup --pairs --key-bits 30 --bits 4 --n 16M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --bits 4 --n 16M --repeat 20
  run $r base portable --pairs --key-bits 30 --n 16M --repeat 20
  run $r new portable --pairs --key-bits 30 --n 16M --repeat 20
  run $r base subgroup --keys-only --key-bits 30 --n 16M --repeat 20
  run $r new subgroup --keys-only --key-bits 30 --n 16M --repeat 20
done
stages new --pairs --key-bits 30 --n 4M,16M --repeat 20
mkdir -p $OUT/tests; OUT=$OUT/tests timeout 200 bash tests/gpu_tests.sh > $OUT/tests/log.txt 2>&1; tail -2 $OUT/tests/log.txt
