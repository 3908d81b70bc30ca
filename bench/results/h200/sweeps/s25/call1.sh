# Session 25 call 1: radix_bits 10 (three 10-bit passes for 30-bit keys,
# five 4-way splits a tile) against radix_bits 8, one build (branch
# s25/r10: radix_bits 10 allowed, treated as 8 for tile shapes).
source bench/_call.sh
build t "-O2" .
b=/tmp/b_t/bench/glradix-bench
PRIME_N=65536,1048576,16777216,67108864 prime_shader_cache $b --bits 8 --key-bits 30
PRIME_N=65536,1048576,16777216,67108864 prime_shader_cache $b --bits 10 --key-bits 30
for r in 1 2 3; do
  for w in 8 10; do
    run $r t_r$w subgroup --key-bits 30 --n 1M,4M,16M,64M --bits $w --repeat 20
  done
done
run 4 t_r10 portable --key-bits 30 --n 1M,16M,64M --bits 10 --repeat 10
run 4 t_r8 portable --key-bits 30 --n 1M,16M,64M --bits 8 --repeat 10
for w in 8 10; do stages t --pairs --key-bits 30 --n 16M,64M --bits $w --repeat 20; done
