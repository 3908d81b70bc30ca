source bench/_call.sh
build new "-O2" &
build wp16 "-O2 -DGLRADIX_TUNE_WIDE_FROM_PAIRS=16777216u" &
build v1 "-O2 -DGLRADIX_TUNE_VALUES_AT=1" &
build v2 "-O2 -DGLRADIX_TUNE_VALUES_AT=2"
wait
for t in new wp16 v1 v2; do
  prime_shader_cache /tmp/b_$t/bench/glradix-bench --pairs --key-bits 30 --n 16M,20M
  prime_shader_cache /tmp/b_$t/bench/glradix-bench --pairs --key-type uint64 --key-bits 63 --n 4M,16M
done
for r in 1 2; do
  for t in new wp16; do
    run $r $t subgroup --pairs --key-bits 30 --n 16M,20M --repeat 20
  done
  for t in new v1 v2; do
    run $r $t subgroup --pairs --key-type uint64 --key-bits 63 --n 4M,16M --repeat 20
  done
done
