source bench/_call.sh
build never "-O2 -DGLRADIX_TUNE_WIDE_ITEMS=0" &
build always "-O2 -DGLRADIX_TUNE_WIDE_FROM_PAIRS=1 -DGLRADIX_TUNE_WIDE_FROM_KEYS=1"
wait
for r in 1 2 3; do
  run $r never subgroup --key-bits 30 --n 4M,8M,12M,16M,20M,24M,32M,64M --repeat 20
  run $r always subgroup --key-bits 30 --n 4M,8M,12M,16M,20M,24M,32M,64M --repeat 20
done
mkdir -p $out/t; OUT=$out/t bash tests/gpu_tests.sh > $out/t/gpu_tests.log 2>&1; tail -3 $out/t/gpu_tests.log
