#!/usr/bin/env bash
# Installs what glradix needs to build, test and run headless on Debian 12
# (as root), with the Vulkan loader and lavapipe for the imported-memory
# tests. Safe to run again: apt-get skips what is installed.
set -euo pipefail
pkgs=(build-essential cmake pkg-config check libglfw3-dev libcglm-dev libpng-dev
      libegl1 libegl-mesa0 libgl1-mesa-dri mesa-utils xvfb xauth clang-tidy cppcheck
      glslang-tools libvulkan1 mesa-vulkan-drivers)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
