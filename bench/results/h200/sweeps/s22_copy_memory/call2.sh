source bench/_call.sh
build new "-O2" &
build i6 "-O2 -DGLRADIX_TUNE_ITEMS=6" &
build i10 "-O2 -DGLRADIX_TUNE_ITEMS=10"
build i12 "-O2 -DGLRADIX_TUNE_ITEMS=12"
wait
for t in new i6 i10 i12; do prime_shader_cache /tmp/b_$t/bench/glradix-bench --pairs --key-bits 30 --bits 2,4; done
for r in 1 2; do
  for t in new i6 i10 i12; do
    run $r $t subgroup --pairs --key-bits 30 --bits 2 --n 1M,16M,64M --repeat 20
    run $r $t subgroup --pairs --key-bits 30 --bits 4 --n 16M --repeat 20
  done
done
run 3 new subgroup --pairs --key-bits 30 --bits 2 --n 16M --repeat 20 --copy
stages new --pairs --key-bits 30 --bits 2 --n 16M --repeat 20
stages i10 --pairs --key-bits 30 --bits 2 --n 16M --repeat 20
