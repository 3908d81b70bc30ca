# Planned for the next session with a GPU (session 22 lost its machine before
# running it). From this branch: mkdir -p bench/_head && git archive main | tar -x -C bench/_head
# (drop bench/_head/bench/results), cp this to bench/_s22c3.sh, and run it with
# carry [".gl", "bench/_call.sh", "bench/_s22c3.sh", "bench/_head"]. About 450 s by our
# estimate from session 22's call 2 (150 s for 32 rows): split it if the time is short.
source bench/_call.sh
build head "-O2" bench/_head &
build new "-O2" &
build g264 "-O2 -DGLRADIX_TUNE_SCATTER_GROUPS=264"
wait
build k264 "-O2 -DGLRADIX_TUNE_SCATTER_GROUPS=264 -DGLRADIX_TUNE_PREFETCH_VALUES=0" &
build g1056 "-O2 -DGLRADIX_TUNE_SCATTER_GROUPS=1056" &
build r660 "-O2 -DGLRADIX_TUNE_SCATTER_GROUPS=660"
wait
for t in head new g264 k264 g1056; do prime_shader_cache /tmp/b_$t/bench/glradix-bench --key-bits 30; done
for r in 1 2; do
  for t in head new g264 k264 g1056; do
    run $r $t subgroup --key-bits 30 --n 1M,16M,64M --repeat 20
  done
done
for t in head g264 k264; do run 1 $t subgroup --pairs --key-bits 30 --bits 4 --n 16M --repeat 20; done
# radix_bits 2 runs 5 groups of 256 per SM: 660 on the H200's 132 SMs
prime_shader_cache /tmp/b_r660/bench/glradix-bench --pairs --key-bits 30 --bits 2
for r in 1 2; do
  for t in head r660; do run $r $t subgroup --pairs --key-bits 30 --bits 2 --n 1M,16M,64M --repeat 20; done
done
stages head --pairs --key-bits 30 --n 16M --repeat 20
stages g264 --pairs --key-bits 30 --n 16M --repeat 20
