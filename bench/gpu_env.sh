# shellcheck shell=bash
# Sourced by the scripts that run on the GPU machine (bench/gpu_report.sh,
# tests/gpu_tests.sh), from the project root: unpacks the carried Debian
# packages (.gl/, the GL loader libraries, see ../shared/gpu/README.md; and
# the folders given as arguments) and points GLVND's EGL at NVIDIA's vendor
# library.
for d in .gl "$@"; do
  for f in "$d"/*.deb; do [ -e "$f" ] && dpkg -x "$f" /; done
done
ldconfig
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json

# Runs glradix-bench once with these arguments at 64K keys for 3 s a case
# (no output), so that NVIDIA's shader disk cache holds their programs
# before anything is timed. A process whose programs the cache lacks runs
# small sorts slow for its whole life, whatever its warm-up: 64K pairs
# 0.177 ms in a first process on a new cache against 0.089 ms in the next,
# and 0.21 ms in every process with the cache off. The driver seems to
# write a program to its cache only once it has run a while: priming with
# 3 runs a case left 64K at 0.14-0.15 ms, 3 s a case at 0.0845 ms (keys)
# and 0.0891 ms (pairs).
# PRIME_N (default 65536) sets the sizes: large sorts run other programs
# (wide tiles from 12M keys at radix_bits 8), which 64K does not build.
prime_shader_cache() {
  local bench=$1; shift
  "$bench" "$@" --n "${PRIME_N:-65536}" --repeat 1 --warmup 3000 >/dev/null 2>&1 || true
}

# BENCHMARKS.md's tables are of GL's own buffers throughout (its "Machine
# and method"); the default's imported scratch has a table of its own
# (gpu_import.sh). Writes, beside the glradix-bench given, one that runs
# with --memory gl, and prints its path.
gl_buffers_bench() {
  printf '#!/bin/sh\nexec "%s" --memory gl "$@"\n' "$1" >"$1-gl" && chmod +x "$1-gl" && echo "$1-gl"
}
