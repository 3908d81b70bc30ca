#!/usr/bin/env bash
# Tuning sweep on a GPU machine: builds glradix-bench once per build-time
# variant (GLRADIX_TUNE_* knobs, see src/internal.h and src/context.c) and
# runs it on both the subgroup and the portable path. From the project root:
#   bash bench/gpu_sweep.sh "VARIANT ..." SIZES [glradix-bench args...]
# A variant is "default" or comma-separated knobs without the prefix, e.g.
#   bash bench/gpu_sweep.sh "default REDUCE_THEN_SCAN=1 ITEMS=4,WG_SIZE=256" \
#        1048576,16777216 --pairs --key-bits 30
# Rows go to stdout and $OUT/sweep.csv, prefixed with variant and path.
# SRC=DIR builds another source tree (e.g. an older commit's `git archive`)
# with the same knobs, for a side-by-side run.
set -uo pipefail
variants=$1; sizes=$2; shift 2
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
for v in $variants; do
  flags=""
  if [ "$v" != default ]; then
    for kv in ${v//,/ }; do flags="$flags -DGLRADIX_TUNE_$kv"; done
  fi
  b=$(mktemp -d)
  cmake -S "${SRC:-.}" -B "$b" -DCMAKE_BUILD_TYPE=Release -DGLRADIX_BUILD_TESTS=OFF \
        -DGLRADIX_BUILD_DEMO=OFF "-DCMAKE_C_FLAGS=$flags" \
        >"$b/cmake.log" 2>&1 || { cat "$b/cmake.log"; continue; }
  cmake --build "$b" -j "$(nproc)" --target glradix-bench >"$b/build.log" 2>&1 \
    || { tail -30 "$b/build.log"; continue; }
  for path in subgroup portable; do
    extra=(); [ "$path" = portable ] && extra=(--portable)
    "$b/bench/glradix-bench" --csv --verify --n "$sizes" "${extra[@]}" "$@" 2>&1 \
      | grep -v '^impl,' | sed "s/^/$v:$path,/" | tee -a "$out/sweep.csv"
  done
done
