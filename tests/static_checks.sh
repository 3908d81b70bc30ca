#!/bin/sh
# Static checks on the library's sources, both must be clean (ctest
# static_checks; CI installs the tools). Configuration: .clang-tidy, and the
# cppcheck options below.
#   sh tests/static_checks.sh SOURCE_DIR BUILD_DIR
set -eu
src=$1
build=$2
cd "$src"
echo "cppcheck:"
cppcheck --enable=warning,style,performance,portability --std=c11 --error-exitcode=1 --quiet \
  --inline-suppr -I include -I src -I "$build/src/generated" src/*.c src/*/*.c
echo "clang-tidy (.clang-tidy, $build/compile_commands.json):"
clang-tidy --quiet -p "$build" src/*.c src/*/*.c
echo "static checks clean"
