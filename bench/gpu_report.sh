#!/usr/bin/env bash
# Everything BENCHMARKS.md reports, in one call on the GPU machine (see
# ../shared/gpu/README.md: .gl/ and .gpu/ carried). Writes $OUT/report.tar:
#   gpu.txt cub.csv cub64.csv glradix.csv portable.csv stp.csv more.csv stages.txt chart.svg
#   copies.txt rounds.csv
# and nothing else, since the device tool brings back at most 8 files (in
# session 5 the archive itself was left behind when the files sat beside it).
#   bash bench/gpu_report.sh [SIZES]
# It ran 562 s in session 23 with ROUNDS=3, near the device tool's 600 s
# a call, before the 16M priming below was added: ROUNDS defaults to 2
# (session 24: 442 s with the priming).
set -euo pipefail
sizes=${1:-65536,1048576,4194304,16777216,67108864}
source bench/gpu_env.sh
final=${OUT:?}
w=$(mktemp -d)
out=$w/out
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader >"$out/gpu.txt"
cmake -S . -B "$w/build" -DCMAKE_BUILD_TYPE=Release -DGLRADIX_BUILD_TESTS=OFF \
      -DGLRADIX_BUILD_DEMO=OFF >"$w/cmake.log" 2>&1 || { cat "$w/cmake.log"; exit 1; }
cmake --build "$w/build" -j "$(nproc)" --target glradix-bench >"$w/build.log" 2>&1 \
  || { tail -50 "$w/build.log"; exit 1; }
bench=$w/build/bench/glradix-bench
# Compile everything first: an idle GPU slows down (clocks) for a while.
nvcc -O3 -arch=sm_90 -o "$w/cub" .gpu/cub_sort_bench.cu
# CUB on 64-bit keys (63 bits) with uint32 values, for the uint64 rows.
nvcc -O3 -arch=sm_90 -o "$w/cub64" bench/cub_sort64.cu
# The copy yardstick in CUDA (bench/cuda_copy.cu), beside GL's below.
nvcc -O3 -arch=sm_90 -o "$w/cuda_copy" bench/cuda_copy.cu
# Fill the driver's shader cache with the programs of the report's small
# sizes (gpu_env.sh's prime_shader_cache: a first process on a cold cache
# ran them up to 2x slow). Key bits 30 and 32 share programs.
for args in "--bits 2,4,8 --key-bits 30" "--portable --key-bits 30" \
            "--key-type uint64 --key-bits 63 --pairs"; do
  # shellcheck disable=SC2086 # each entry is several arguments
  prime_shader_cache "$bench" $args
done
# ... and the wide tiles' programs of 16M and 64M (session 21's report
# primed them, session 23's did not; see BENCHMARKS, session 23)
PRIME_N=16777216 prime_shader_cache "$bench" --bits 8 --key-bits 30
"$w/cub" "$sizes" >"$out/cub.csv"
"$w/cub64" "$sizes" >"$out/cub64.csv"
# Driver's best path (subgroups where offered), every radix width.
"$bench" --csv --verify --n "$sizes" --bits 2,4,8 --svg "$out/chart.svg" \
  >"$out/glradix.csv" 2>"$w/info.txt"
cat "$w/info.txt" >>"$out/gpu.txt"
# The portable GLSL 4.30 path alone, default radix width.
"$bench" --csv --verify --portable --n "$sizes" >"$out/portable.csv" 2>/dev/null
# The other pass plan, for comparison.
"$bench" --csv --verify --plan scan-then-propagate --n 1048576,16777216 --pairs --key-bits 30 \
  >"$out/stp.csv" 2>/dev/null
# 64-bit keys (63-bit Morton codes' width) with uint32 values, against cub64.csv.
# more.csv: impl glradix-uint64 rows, then glradix-lbvh rows (Morton codes +
# sort + LBVH build of 1M and 16M random boxes), then skipped-pass rows.
"$bench" --csv --verify --key-type uint64 --key-bits 63 --pairs --n "$sizes" \
  >"$out/more.csv" 2>/dev/null
"$bench" --csv --verify --lbvh --key-bits 30,63 2>/dev/null | grep -v '^impl' >>"$out/more.csv"
# Skipped passes: 24-bit keys sorted on bits [0, 32), radix_bits 8's last
# pass skipped (impl glradix rows with key_bits 24).
"$bench" --csv --verify --key-bits 24 --end-bit 32 --pairs --n 1048576,16777216 2>/dev/null \
  | grep -v '^impl' >>"$out/more.csv"
# Per-stage medians at 16M pairs (30-bit keys), both paths; the first also
# times a plain compute-shader copy of the pairs, the bandwidth yardstick.
{ "$bench" --stages --copy --n 16777216 --pairs --key-bits 30 --bits 2,4,8
  "$bench" --stages --portable --n 16777216 --pairs --key-bits 30 --bits 2,4,8; } \
  >"$out/stages.txt" 2>&1
# The copy yardstick at every size, GL's (bytes read plus written) and the
# same kernel's in CUDA: above about 512 MB of buffers GL's halves (session 16).
{ "$bench" --copy --n "$sizes" --pairs --key-bits 30 2>&1 | grep '^copy:'
  "$w/cuda_copy" "$sizes"; } >"$out/copies.txt"
# ROUNDS (default 2) more rounds of CUB and glradix in turn at the
# target's sizes, 30-bit pairs, for ratios that do not hang on one
# process: CUB's time moves by a few percent from one process to the next
# (session 21's call 1: 16M pairs 0.5487-0.5693 ms in four rounds,
# glradix's 0.8600-0.8619 ms). Rows: round, then the CSV columns.
for r in $(seq 1 "${ROUNDS:-2}"); do
  "$w/cub" 16777216,67108864 | grep ',30,1,' | sed "s/^/$r,/"
  "$bench" --csv --verify --pairs --key-bits 30 --n 16777216,67108864 2>/dev/null \
    | grep '^glradix' | sed "s/^/$r,/"
done >"$out/rounds.csv"
cat "$out/gpu.txt"
tar -C "$out" -cf "$final/report.tar" gpu.txt cub.csv cub64.csv glradix.csv portable.csv stp.csv \
    more.csv stages.txt chart.svg copies.txt rounds.csv
