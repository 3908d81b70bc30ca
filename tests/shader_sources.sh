#!/bin/sh
# Every program's source, as the library assembles it for llvmpipe and as it
# would for GPUs (48 KB and 32 KB of shared memory, with and without
# GL_KHR_shader_subgroup, and OpenGL ES 3.1's least limits), through glslangValidator, the reference GLSL
# front end: stricter than some drivers (it rejects `#if ITEMS % 4` when
# ITEMS is 8u, which NVIDIA and Mesa take), so what passes here is portable
# GLSL 4.30 as far as a compiler can tell without the hardware. The same
# programs as an OpenGL ES context gets them (GLRADIX_EGL_API=gles:
# `#version 310 es`, and ES's fill program) go through it as GLSL ES 3.10.
#   sh tests/shader_sources.sh DUMP_SHADERS_EXE WORK_DIR
set -eu
exe=$1
work=$2
rm -rf "$work"
mkdir -p "$work/seen" "$work/gl" "$work/gles"
GLRADIX_EGL_API=gl "$exe" "$work/gl" || { echo "dump_shaders failed"; exit 1; }
GLRADIX_EGL_API=gles "$exe" "$work/gles" || { echo "dump_shaders (gles) failed"; exit 1; }
total=0
unique=0
for api in gl gles; do
for config in cpu gpu48 gpu48_subgroup32 gpu32 gpu16_128; do
  for bits in 2 4 8; do
    dir="$work/$api/$config/r$bits"
    # Identical sources (a program that a form leaves alone is the same in
    # several configurations) are checked once: md5sum's first of each.
    count=$(ls "$dir"/*.comp | wc -l)
    total=$((total + count))
    for f in "$dir"/*.comp; do
      sum=$(md5sum <"$f" | cut -c1-32)
      if [ -e "$work/seen/$sum" ]; then rm "$f"; else : >"$work/seen/$sum"; fi
    done
    unique=$((unique + $(ls "$dir"/*.comp 2>/dev/null | wc -l)))
    [ -n "$(ls "$dir"/*.comp 2>/dev/null)" ] || continue
    # One glslangValidator for the directory: it compiles each file on its
    # own (no linking), names each file before its messages and exits
    # nonzero if any fails; one process per file took most of this test.
    if ! out=$(glslangValidator -S comp "$dir"/*.comp 2>&1); then
      echo "FAIL $api $config radix_bits $bits:"
      # each failing file's name and first errors; all of it if none says ERROR
      if echo "$out" | grep -q ERROR; then echo "$out" | grep -B1 -A3 ERROR | head -40
      else echo "$out" | head -40; fi
      exit 1
    fi
  done
done
done
[ "$total" -ge 600 ] || { echo "only $total sources were written"; exit 1; }
echo "shader sources: $total programs ($unique distinct) pass glslangValidator"
