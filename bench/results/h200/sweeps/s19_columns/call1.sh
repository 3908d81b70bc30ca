source bench/_call.sh
build base "-O2" bench/_base19 &
build new "-O2"
wait
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $out/gpu.txt 2>&1
for r in 1 2 3; do
  run $r base subgroup --pairs --key-bits 30 --n 4M,16M,32M,64M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --n 4M,16M,32M,64M --repeat 20
done
for r in 1 2; do
  run $r base subgroup --pairs --key-bits 30 --n 1M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --n 1M --repeat 20
  run $r base subgroup --keys-only --key-bits 30 --n 16M,64M --repeat 20
  run $r new subgroup --keys-only --key-bits 30 --n 16M,64M --repeat 20
  run $r base portable --pairs --key-bits 30 --n 16M,64M --repeat 20
  run $r new portable --pairs --key-bits 30 --n 16M,64M --repeat 20
  run $r base subgroup --pairs --key-bits 30 --bits 4 --n 16M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --bits 4 --n 16M --repeat 20
done
stages base --pairs --key-bits 30 --n 16M,64M --repeat 20
stages new --pairs --key-bits 30 --n 16M,64M --repeat 20
mkdir -p $out/tests; OUT=$out/tests timeout 200 bash tests/gpu_tests.sh
