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
