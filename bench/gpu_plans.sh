#!/usr/bin/env bash
# The single-pass plan against reduce-then-scan and CUB, in one call on the
# GPU machine (see ../shared/gpu/README.md: .gl/ and .gpu/ carried). From
# the project root:
#   OUT=$OUT bash bench/gpu_plans.sh
# Writes into $OUT, to be copied into bench/results/h100/ (BENCHMARKS.md,
# "The single-pass plan"): gpu.txt cub.csv cub64.csv plans.csv stages.txt
# verify.txt.
set -uo pipefail
source bench/gpu_env.sh
out=${OUT:?}
w=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/gpu.txt"
cmake -S . -B "$w/b" -DCMAKE_BUILD_TYPE=Release -DGLRADIX_BUILD_TESTS=OFF -DGLRADIX_BUILD_DEMO=OFF \
      -DGLRADIX_BUILD_EXAMPLES=OFF >"$w/b.log" 2>&1 &&
  cmake --build "$w/b" -j "$(nproc)" --target glradix-bench >>"$w/b.log" 2>&1 ||
  { tail -30 "$w/b.log"; exit 1; }
nvcc -O3 -arch=sm_90 -o "$w/cub" .gpu/cub_sort_bench.cu
nvcc -O3 -arch=sm_90 -o "$w/cub64" bench/cub_sort64.cu
g=$(gl_buffers_bench "$w/b/bench/glradix-bench")
for p in onesweep reduce-then-scan; do
  for a in "--pairs --key-bits 30" "--keys-only --key-bits 30" "--pairs --key-type uint64 --key-bits 63"; do
    # shellcheck disable=SC2086 # each entry is several arguments
    prime_shader_cache "$g" --plan $p $a
  done
done
"$w/cub" 1048576,16777216,67108864 >"$out/cub.csv"
"$w/cub64" 1048576,16777216 >"$out/cub64.csv"
: >"$out/plans.csv"
for p in onesweep reduce-then-scan; do
  for a in "--pairs --key-bits 30 --n 1M,16M,64M" "--keys-only --key-bits 30 --n 1M,16M,64M" \
           "--pairs --key-type uint64 --key-bits 63 --n 1M,16M"; do
    # shellcheck disable=SC2086
    "$g" --plan $p --csv --stages $a 2>>"$out/stages.txt" | grep -v '^impl' | sed "s/^/$p,/" >>"$out/plans.csv"
  done
done
"$g" --plan onesweep --verify --n 1000,100003,1M,16M --dist all --repeat 1 --warmup 0 2>&1 |
  grep '^result' >"$out/verify.txt"
