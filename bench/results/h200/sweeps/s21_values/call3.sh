source bench/_call.sh
build v0 "-O2 -DGLRADIX_TUNE_VALUES_AT=0" &
build new "-O2" &
build v2 "-O2 -DGLRADIX_TUNE_VALUES_AT=2"
wait
# cold and warm driver shader caches, 64K pairs first in the process
for c in fresh fresh; do
  echo "== cache /tmp/nvc_$c" >> $out/cache_probe.txt
  __GL_SHADER_DISK_CACHE_PATH=/tmp/nvc_$c /tmp/b_new/bench/glradix-bench --csv --pairs --key-bits 30 --n 65536,1M,65536 --repeat 20 >> $out/cache_probe.txt 2>&1
done
for c in 1 2; do
  echo "== cache off" >> $out/cache_probe.txt
  __GL_SHADER_DISK_CACHE=0 /tmp/b_new/bench/glradix-bench --csv --pairs --key-bits 30 --n 65536,1M,65536 --repeat 20 >> $out/cache_probe.txt 2>&1
done
for r in 1 2; do
  for t in v0 new v2; do
    run $r $t subgroup --pairs --key-bits 30 --n 1M,16M,64M --repeat 20
    run $r $t subgroup --pairs --key-bits 30 --bits 2,4 --n 1M,16M --repeat 20
  done
  run $r v0 subgroup --pairs --key-bits 30 --bits 2 --n 64M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --bits 2 --n 64M --repeat 20
done
stages new --pairs --key-bits 30 --bits 2,8 --n 16M --repeat 20 --copy
mkdir -p $out/t; OUT=$out/t bash tests/gpu_tests.sh > $out/t_log.txt 2>&1
cp $out/t/ctest.txt $out/ctest.txt; rm -rf $out/t
tail -3 $out/t_log.txt
