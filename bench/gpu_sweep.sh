#!/usr/bin/env bash
# Tuning sweep on a GPU machine: builds glradix-bench once per build-time
# variant (GLRADIX_TUNE_* knobs in src/internal.h) and runs it on both the
# subgroup and the portable path. Usage, from the project root:
#   bash bench/gpu_sweep.sh "SCAN:ITEMS:WG ..." SIZES [glradix-bench args...]
# e.g. bash bench/gpu_sweep.sh "0:4:256 1:8:256" 1048576,16777216 --pairs --key-bits 30
set -uo pipefail
variants=$1; sizes=$2; shift 2
out=${OUT:-$(mktemp -d)}
for v in $variants; do
  IFS=: read -r scan items wg <<<"$v"
  b=$(mktemp -d)
  cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DGLRADIX_BUILD_TESTS=OFF \
        -DGLRADIX_BUILD_DEMO=OFF \
        "-DCMAKE_C_FLAGS=-DGLRADIX_TUNE_BLOCK_SCAN=$scan -DGLRADIX_TUNE_ITEMS=$items -DGLRADIX_TUNE_WG_SIZE=$wg" \
        >"$b/cmake.log" 2>&1 || { cat "$b/cmake.log"; continue; }
  cmake --build "$b" -j "$(nproc)" --target glradix-bench >"$b/build.log" 2>&1 \
    || { tail -30 "$b/build.log"; continue; }
  for path in subgroup portable; do
    extra=(); [ "$path" = portable ] && extra=(--portable)
    echo "# variant scan=$scan items=$items wg=$wg path=$path"
    "$b/bench/glradix-bench" --csv --verify --n "$sizes" "${extra[@]}" "$@" 2>&1 \
      | grep -v '^impl,' | sed "s/^/$scan:$items:$wg:$path,/" | tee -a "$out/sweep.csv"
  done
done
