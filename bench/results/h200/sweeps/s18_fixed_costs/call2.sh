source bench/_call.sh
build base "-O2" bench/_base18
build new "-O2"
for r in 1 2; do
  run $r base subgroup --pairs --key-bits 30 --n 1M,4M,16M,64M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --n 1M,4M,16M,64M --repeat 20
  GLRADIX_TRIAL_FOLD=0 run $r new_fold0 subgroup --pairs --key-bits 30 --n 1M,4M --repeat 20
  run $r base portable --pairs --key-bits 30 --n 1M,16M --repeat 20
  run $r new portable --pairs --key-bits 30 --n 1M,16M --repeat 20
  run $r base subgroup --pairs --key-bits 30 --bits 2 --n 1M,16M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --bits 2 --n 1M,16M --repeat 20
  run $r base subgroup --pairs --key-bits 24 --end-bit 32 --n 1M,16M --repeat 20
  run $r new subgroup --pairs --key-bits 24 --end-bit 32 --n 1M,16M --repeat 20
  run $r base subgroup --keys-only --key-bits 30 --n 1M,16M --repeat 20
  run $r new subgroup --keys-only --key-bits 30 --n 1M,16M --repeat 20
done
stages new --pairs --key-bits 30 --n 1M,16M --repeat 20
mkdir -p $OUT/tests; OUT=$OUT/tests timeout 300 bash tests/gpu_tests.sh > $OUT/tests/log.txt 2>&1; tail -5 $OUT/tests/log.txt
