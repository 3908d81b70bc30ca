#!/bin/sh
# Package test: install the built tree into a temporary prefix, then build
# and run the consumer two ways (find_package and pkg-config). When the
# library is shared, its dynamic symbol table must export only the public
# glradix_* functions (and the linker's _init/_fini, where it adds them).
#
# usage: run.sh <build-dir> <consumer-source-dir> [c-compiler [cmake]]
set -eu

build=$1
consumer=$2
cc=${3:-cc}
cmake=${4:-cmake}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/glradix-package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
prefix=$tmp/prefix

echo "== cmake --install $build --prefix $prefix"
"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" || {
  cat "$tmp/install.log"; exit 1; }

libdir=
for d in "$prefix"/lib "$prefix"/lib64 "$prefix"/lib/*-linux-gnu; do
  if [ -e "$d/pkgconfig/glradix.pc" ]; then libdir=$d; break; fi
done
[ -n "$libdir" ] || { echo "FAIL: no glradix.pc installed under $prefix"; exit 1; }
shared=no
[ -e "$libdir/libglradix.so" ] && shared=yes
echo "libdir: $libdir (shared: $shared)"

for f in "$prefix/include/glradix/glradix.h" "$prefix/include/glradix/headless.h" \
         "$libdir/cmake/glradix/glradixConfig.cmake" \
         "$libdir/cmake/glradix/glradixConfigVersion.cmake"; do
  [ -e "$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done

if [ "$shared" = yes ]; then
  echo "== exported symbols of libglradix.so"
  # type and name: functions (T) named glradix_*, or the linker's _init/_fini
  nm -D --defined-only "$libdir/libglradix.so" | awk '{ print $(NF-1), $NF }' | sort -k2 \
    >"$tmp/syms"
  cat "$tmp/syms"
  grep -v -e '^T glradix_' -e '^T _init$' -e '^T _fini$' "$tmp/syms" >"$tmp/bad" || true
  if [ -s "$tmp/bad" ]; then
    echo "FAIL: libglradix.so exports symbols outside glradix_*:"
    cat "$tmp/bad"
    exit 1
  fi
fi

echo "== find_package(glradix CONFIG) consumer"
"$cmake" -S "$consumer" -B "$tmp/consumer-build" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >"$tmp/cfg.log" || {
  cat "$tmp/cfg.log"; exit 1; }
"$cmake" --build "$tmp/consumer-build" >"$tmp/build.log" || {
  cat "$tmp/build.log"; exit 1; }

echo "== pkg-config consumer"
PKG_CONFIG_PATH=$libdir/pkgconfig
export PKG_CONFIG_PATH
static=
[ "$shared" = yes ] || static=--static
flags=$(pkg-config $static --cflags --libs glradix)
echo "pkg-config: $flags"
case "$flags" in
  *"$prefix"*) ;;
  *) echo "FAIL: glradix.pc does not point into the install prefix (not relocatable)"; exit 1 ;;
esac
# shellcheck disable=SC2086 # flags are words
"$cc" -std=c11 -Wall -Wextra -Wpedantic -o "$tmp/consumer-pc" "$consumer/main.c" $flags

LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
for exe in "$tmp/consumer-build/consumer" "$tmp/consumer-pc"; do
  echo "== run $exe"
  out=$("$exe")
  echo "$out"
  [ "$out" = "package ok" ] || { echo "FAIL: $exe did not print 'package ok'"; exit 1; }
done
echo "package test passed"
