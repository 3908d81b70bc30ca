# Session 24 call 3: what the skipped-pass branch costs sorts that skip
# nothing. head = main; ns1 = shuffle_scatter's skip branch compiled out
# (`if (false && pass_skipped(...))`); ns2 = that and tile_counts' skip
# return. Timing builds only: they sort wrongly when a pass is skipped
# (30-bit random keys skip none; --verify checks every row).
source bench/_call.sh
# The trees: bench/_head, _ns1, _ns2 = `git archive 15a7f66` each (bench/results
# dropped), then
#   sed -i 's/  if (pass_skipped(u_shift, u_digit_bits)) {/  if (false \&\& pass_skipped(u_shift, u_digit_bits)) {/' \
#     bench/_ns1/shaders/shuffle_scatter.comp bench/_ns2/shaders/shuffle_scatter.comp
#   sed -i 's/(u_gather_key_bits == 0u \&\& pass_skipped(u_shift, u_digit_bits)))/false)/' \
#     bench/_ns2/shaders/tile_counts.comp
build head "-O2" bench/_head &
build ns1 "-O2" bench/_ns1 &
build ns2 "-O2" bench/_ns2
wait
for t in head ns1 ns2; do
  b=/tmp/b_$t/bench/glradix-bench
  PRIME_N=65536,16777216 prime_shader_cache $b --bits 8 --key-bits 30
  PRIME_N=16777216 prime_shader_cache $b --bits 2 --key-bits 30 --pairs
  PRIME_N=16777216 prime_shader_cache $b --bits 8 --key-bits 30 --pairs --portable
done
for r in 1 2 3; do
  for t in head ns1 ns2; do
    run $r $t subgroup --key-bits 30 --n 1M,16M,64M --repeat 20
    run $r $t subgroup --key-bits 30 --n 16M --pairs --bits 2 --repeat 20
    run $r $t portable --key-bits 30 --n 16M --pairs --repeat 20
  done
done
for t in head ns1 ns2; do stages $t --pairs --key-bits 30 --n 16M --repeat 20; done
