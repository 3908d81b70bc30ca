#!/usr/bin/env bash
# Tuning sweep on a GPU machine (.gl/ carried; bench/gpu_env.sh sets GL
# up): builds glradix-bench once per build-time variant (GLRADIX_TUNE_*
# knobs, see src/internal.h and src/context.c), all builds first and in
# parallel, then runs every variant in its own process,
# ROUNDS times (default 1) in turn. From the project root:
#   bash bench/gpu_sweep.sh "VARIANT ..." SIZES [glradix-bench args...]
# A variant is "default" or comma-separated knobs without the prefix, e.g.
#   bash bench/gpu_sweep.sh "default COUNT_TILES=1 ITEMS=4,WG_SIZE=256" \
#        1048576,16777216 --pairs --key-bits 30
# Rows go to stdout and $OUT/sweep.csv, prefixed with round, variant and
# path. PATHS="subgroup portable" (the default) picks the paths run; EACH=1
# runs every size in a process of its own.
# SRC=DIR builds another source tree (e.g. an older commit's `git archive`)
# with the same knobs, for a side-by-side run; TAG=NAME prefixes its rows.
set -uo pipefail
variants=$1; sizes=$2; shift 2
source "$(dirname "$0")/gpu_env.sh"
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
declare -A dir
for v in $variants; do
  flags=""
  if [ "$v" != default ]; then
    for kv in ${v//,/ }; do flags="$flags -DGLRADIX_TUNE_$kv"; done
  fi
  b=$(mktemp -d); dir[$v]=$b
  ( cmake -S "${SRC:-.}" -B "$b" -DCMAKE_BUILD_TYPE=Release -DGLRADIX_BUILD_TESTS=OFF \
          -DGLRADIX_BUILD_DEMO=OFF "-DCMAKE_C_FLAGS=$flags" >"$b/cmake.log" 2>&1 \
      && cmake --build "$b" -j 4 --target glradix-bench >"$b/build.log" 2>&1 \
      || { echo "variant $v did not build:"; tail -30 "$b/build.log" "$b/cmake.log"; } ) &
done
wait
for v in $variants; do # the driver's shader cache first (gpu_env.sh)
  for path in ${PATHS:-subgroup portable}; do
    extra=(); [ "$path" = portable ] && extra=(--portable)
    [ -x "${dir[$v]}/bench/glradix-bench" ] &&
      prime_shader_cache "${dir[$v]}/bench/glradix-bench" "${extra[@]}" "$@"
  done
done
for r in $(seq 1 "${ROUNDS:-1}"); do
  for v in $variants; do
    b=${dir[$v]}
    [ -x "$b/bench/glradix-bench" ] || continue
    groups=$sizes; [ "${EACH:-0}" = 1 ] && groups=${sizes//,/ }
    for path in ${PATHS:-subgroup portable}; do
      extra=(); [ "$path" = portable ] && extra=(--portable)
      for n in $groups; do
        "$b/bench/glradix-bench" --csv --verify --n "$n" "${extra[@]}" "$@" 2>&1 \
          | grep -v '^impl,' | sed "s/^/$r:${TAG:-}$v:$path,/" | tee -a "$out/sweep.csv"
      done
    done
  done
done
