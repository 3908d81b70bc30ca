#!/usr/bin/env bash
# BENCHMARKS.md's "A long-running process" tables for the H200, in one call
# on the GPU machine (see ../shared/gpu/README.md: .gl/ and .gpu/ carried).
# From the project root:
#   bash bench/gpu_app.sh
# Writes to $OUT, to be copied into bench/results/h200/:
#   idle.csv   glradix and CUB pairs (30-bit keys) after the GPU sat idle
#              2 to 1000 ms before every run (glradix-bench --idle,
#              bench/cub_idle.cu, which also runs without idling);
#              columns idle_ms, then the programs' own
#   host.txt   glradix_sort_host of 16M pairs called 20 times (--host)
#   dists.txt  every key distribution at 1M, 16M and 64M pairs (--dist all)
#   soak.txt   a 300 s soak of 1M, 16M and 64M sorts (--soak 300)
# SOAK_S (default 300) sets the soak's length. The call runs about 480 s.
set -euo pipefail
source bench/gpu_env.sh
out=${OUT:?}
w=$(mktemp -d)
cmake -S . -B "$w/build" -DCMAKE_BUILD_TYPE=Release -DGLRADIX_BUILD_TESTS=OFF \
      -DGLRADIX_BUILD_DEMO=OFF >"$w/cmake.log" 2>&1 || { cat "$w/cmake.log"; exit 1; }
cmake --build "$w/build" -j "$(nproc)" --target glradix-bench >"$w/build.log" 2>&1 \
  || { tail -50 "$w/build.log"; exit 1; }
bench=$(gl_buffers_bench "$w/build/bench/glradix-bench")
nvcc -O3 -arch=sm_90 -o "$w/cub_idle" bench/cub_idle.cu
a="--pairs --key-bits 30"
for kind in --pairs --keys-only; do
  for n in 65536 16777216; do PRIME_N=$n prime_shader_cache "$bench" $kind --key-bits 30; done
done
{
  echo "idle_ms,impl,n,key_bits,pairs,radix_bits,ms_median,mkeys_per_s,verified,dist"
  for ms in 2 10 50 200 1000; do
    # shellcheck disable=SC2086 # $a is several arguments
    "$bench" --csv $a --n 1M,16M,64M --repeat 10 --idle "$ms" --warmup 0 2>/dev/null \
      | sed -n "2,\$s/^/$ms,/p"
  done
  "$w/cub_idle" 1048576,16777216,67108864 0,2,10,50,200,1000 \
    | awk -F, 'NR > 1 { print $6 "," $1 "," $2 "," $3 "," $4 "," $5 "," $7 ",,," }'
} >"$out/idle.csv"
# shellcheck disable=SC2086
"$bench" --host --n 16M --repeat 20 $a >"$out/host.txt" 2>&1
# shellcheck disable=SC2086
"$bench" --dist all --n 1M,16M,64M $a --repeat 10 --verify >"$out/dists.txt" 2>&1
"$bench" --soak "${SOAK_S:-300}" --n 1M,16M,64M >"$out/soak.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >>"$out/soak.txt"
