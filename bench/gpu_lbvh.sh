#!/usr/bin/env bash
# BENCHMARKS.md's LBVH table, in one call on the GPU machine
# (.gl/ and .tdebs/ carried: ../shared/gpu/README.md and tests/gpu_tests.sh
# say how to make them; Check builds glradix-bench-gpu-forms). From the
# project root:
#   bash bench/gpu_lbvh.sh
# Writes $OUT/lbvh.txt, to be copied into bench/results/<gpu>/: each
# command after "==", then its output (builds, refits, steps, --verify,
# the mesh scene, rays, the sort alone), then the tree pass's group sizes
# through the test hook. The call runs about 2 minutes. BUILD=DIR runs the
# programs of a Release build already there instead of building one.
set -uo pipefail
source bench/gpu_env.sh .tdebs
build=${BUILD:-}
if [ -z "$build" ]; then
  build=$(mktemp -d)/build
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGLRADIX_BUILD_DEMO=OFF \
        -DGLRADIX_BUILD_EXAMPLES=OFF >"$build.cmake.log" 2>&1 || { cat "$build.cmake.log"; exit 1; }
  cmake --build "$build" -j "$(nproc)" --target glradix-bench glradix-bench-gpu-forms \
        >"$build.log" 2>&1 || { tail -50 "$build.log"; exit 1; }
fi
cd "$build/bench" || exit 1
out=${OUT:?}/lbvh.txt
echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), one process a line, the default forms: bench/gpu_lbvh.sh (Release build)" >"$out"
run() {
  {
    # GL's own buffers, as every table (gpu_env.sh's gl_buffers_bench)
    echo "== $1 --memory gl ${*:2}"
    timeout 60 "./$1" --memory gl "${@:2}" 2>&1 | grep -vE "^\s*$"
    echo "rc ${PIPESTATUS[0]}"
  } >>"$out"
}
run glradix-bench --lbvh --n 1M,4M,16M --key-bits 30 --stages --verify
run glradix-bench --lbvh --n 1M,4M,16M --key-bits 30,63 --stages
run glradix-bench --lbvh --n 1M,4M,16M --key-bits 30,63
run glradix-bench --lbvh --scene mesh --n 1M,16M --key-bits 30 --stages --verify
run glradix-bench --lbvh --n 1M --key-bits 30 --rays --verify
run glradix-bench --lbvh --scene mesh --n 1M --key-bits 30 --rays --verify
# the quality build (glradix_lbvh_desc.quality)
run glradix-bench --lbvh --quality --n 1M,16M --key-bits 30 --stages --verify
run glradix-bench --lbvh --quality --scene mesh --n 1M,16M --key-bits 30 --stages --verify
run glradix-bench --lbvh --quality --n 1M --key-bits 30 --rays --verify
run glradix-bench --lbvh --quality --scene mesh --n 1M --key-bits 30 --rays --verify
run glradix-bench --pairs --key-bits 30 --n 1M,4M,16M
run glradix-bench --pairs --key-bits 63 --key-type uint64 --n 1M,16M
echo "# the tree pass's work group (GLRADIX_TEST_FORMS through the test hook)" >>"$out"
for g in 128 256 512; do
  echo "== env GLRADIX_TEST_FORMS=\"gpu lbvh_wg=$g\" glradix-bench-gpu-forms --memory gl --lbvh --n 1M,16M --key-bits 30 --stages" >>"$out"
  GLRADIX_TEST_FORMS="gpu lbvh_wg=$g" timeout 60 ./glradix-bench-gpu-forms --memory gl --lbvh --n 1M,16M \
    --key-bits 30 --stages 2>&1 | grep -vE "^\s*$" >>"$out"
done
grep -E "^==|^lbvh( quality)?:|rays:" "$out"
