#!/usr/bin/env bash
# Imported memory on the GPU machine, in one call (.gl/ with libvulkan1 and
# .gpu/ carried: ../shared/gpu/README.md). From the project root:
#   OUT=$OUT bash bench/gpu_import.sh
# Writes into $OUT, to be copied into bench/results/h100/ (BENCHMARKS.md,
# "Imported memory"): gpu.txt, copy.txt (--copy-table), cub.csv, sorts.csv
# (each --memory: gl, default, imported), lbvh.txt.
set -uo pipefail
source bench/gpu_env.sh
out=${OUT:?}
w=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/gpu.txt"
ls /usr/share/vulkan/icd.d/ /etc/vulkan/icd.d/ 2>/dev/null >>"$out/gpu.txt"
cmake -S . -B "$w/b" -DCMAKE_BUILD_TYPE=Release -DGLRADIX_BUILD_TESTS=OFF -DGLRADIX_BUILD_DEMO=OFF \
      -DGLRADIX_BUILD_EXAMPLES=OFF >"$w/b.log" 2>&1 &&
  cmake --build "$w/b" -j "$(nproc)" --target glradix-bench >>"$w/b.log" 2>&1 ||
  { tail -30 "$w/b.log"; exit 1; }
nvcc -O3 -arch=sm_90 -o "$w/cub" .gpu/cub_sort_bench.cu &
g=$w/b/bench/glradix-bench
"$g" --copy-table --repeat 5 >"$out/copy.txt" 2>&1
wait
for a in "--pairs" "--keys-only"; do
  # shellcheck disable=SC2086 # each entry is several arguments
  PRIME_N=64K,16M prime_shader_cache "$g" $a --key-bits 30
done
"$w/cub" 1048576,16777216,33554432,67108864 >"$out/cub.csv"
: >"$out/sorts.csv"
for m in gl default imported; do
  for a in "--pairs" "--keys-only"; do
    # shellcheck disable=SC2086
    "$g" --memory $m --csv $a --key-bits 30 --n 1M,16M,32M,64M 2>>"$out/sorts.err" |
      grep -v '^impl' | sed "s/^/$m,/" >>"$out/sorts.csv"
  done
done
"$g" --memory imported --verify --pairs --key-bits 30 --n 64M --repeat 1 --warmup 0 2>&1 |
  grep -E '^result|fail' >>"$out/sorts.err"
for m in gl default imported; do
  echo "== --memory $m --lbvh --n 16M --key-bits 30 --stages" >>"$out/lbvh.txt"
  "$g" --memory $m --lbvh --n 16M --key-bits 30 --stages >>"$out/lbvh.txt" 2>&1
done
cat "$out/gpu.txt" "$out/copy.txt"; grep ',30,' "$out/cub.csv"; cat "$out/sorts.csv" "$out/sorts.err"
grep -E "^==|^lbvh" "$out/lbvh.txt"
