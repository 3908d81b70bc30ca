#!/usr/bin/env bash
# The Check suites on the GPU machine (device tool; NVIDIA through EGL's
# device platform), which CI's llvmpipe cannot stand in for: the subgroup
# path, and driver behaviour such as denormal flushing. The machine has no
# package registry: carry .gl/ (see ../shared/gpu/README.md) and .tdebs/,
# made here once per checkout with
#   mkdir -p .tdebs && (cd .tdebs && apt-get download check libsubunit-dev \
#       libsubunit0 pkgconf pkgconf-bin libpkgconf3) && echo /.tdebs/ >> .git/info/exclude
# Then, from the project root on the GPU machine:  bash tests/gpu_tests.sh
# Writes $OUT/ctest.txt. Skips the suites that need tools the machine lacks.
# CFLAGS=... builds with those C flags.
set -uo pipefail
source bench/gpu_env.sh .tdebs
out=${OUT:?}
b=$(mktemp -d)
cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGLRADIX_BUILD_DEMO=OFF \
      -DGLRADIX_BUILD_BENCH=OFF -DGLRADIX_BUILD_EXAMPLES=OFF "-DCMAKE_C_FLAGS=${CFLAGS:-}" \
      >"$out/cmake.txt" 2>&1 \
  || { tail -20 "$out/cmake.txt"; exit 1; }
cmake --build "$b" -j "$(nproc)" >"$out/build.txt" 2>&1 || { tail -30 "$out/build.txt"; exit 1; }
# versions makes old contexts through Mesa's override variables, which NVIDIA ignores
(cd "$b" && ctest -j8 -E "package|static_checks|versions" --timeout 150 --output-on-failure) \
  >"$out/ctest.txt" 2>&1
rc=$?
grep -E "tests passed|\*\*\*" "$out/ctest.txt"
exit $rc
