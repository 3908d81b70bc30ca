source bench/_call.sh
build new "-O2" &
build wp8 "-O2 -DGLRADIX_TUNE_WIDE_FROM_PAIRS=8388608u" &
build none "-O2 -DGLRADIX_TUNE_WIDE_ITEMS=0"
wait
for t in new wp8 none; do
  prime_shader_cache /tmp/b_$t/bench/glradix-bench --pairs --key-bits 30 --n 8M,16M
  prime_shader_cache /tmp/b_$t/bench/glradix-bench --pairs --key-type uint64 --key-bits 63 --n 4M
done
for r in 1 2; do
  for t in new wp8 none; do
    run $r $t subgroup --pairs --key-bits 30 --n 8M,12M,16M --repeat 20
  done
done
run 1 new subgroup --pairs --key-type uint64 --key-bits 63 --n 4M,16M --repeat 20
