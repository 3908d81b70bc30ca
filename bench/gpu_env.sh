# Sourced by the scripts that run on the GPU machine (bench/gpu_report.sh,
# bench/gpu_sweep.sh, tests/gpu_tests.sh), from the project root: unpacks
# the carried Debian packages (.gl/, the GL loader libraries, see
# ../shared/gpu/README.md; and the folders given as arguments) and points
# GLVND's EGL at NVIDIA's vendor library.
for d in .gl "$@"; do
  for f in "$d"/*.deb; do [ -e "$f" ] && dpkg -x "$f" /; done
done
ldconfig
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json

# Runs glradix-bench once with these arguments at 64K keys for 3 s a
# case (no output), so that the driver's shader cache holds their programs
# before anything is timed. A process whose programs the cache lacked ran
# the small sizes slow for its whole life: in session 21's call 3, 64K
# pairs took 0.177 ms and 1M 0.157 ms in a first process on a new cache
# (about 3 s long), 0.089 and 0.115 ms in the next; with the cache off,
# 0.21 ms in every process. Priming processes of 3 runs a case did not
# help (call 6's report: 64K 0.14-0.15 ms), which fits a driver that
# writes a program to its cache only once it has been running a while.
# With these 3 s a case, the next process ran 64K keys in 0.0845 ms and
# pairs in 0.0891 (session 22's call 1).
# PRIME_N (default 65536) sets the sizes: large sorts run other programs
# (wide tiles from 12M keys at radix_bits 8), which 64K does not prime.
prime_shader_cache() {
  local bench=$1; shift
  "$bench" "$@" --n "${PRIME_N:-65536}" --repeat 1 --warmup 3000 >/dev/null 2>&1 || true
}
