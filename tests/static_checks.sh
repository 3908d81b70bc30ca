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
# vulkan.c's structs mirror Vulkan's: the driver reads their members.
cppcheck --enable=warning,style,performance,portability --std=c11 --error-exitcode=1 --quiet \
  --inline-suppr --suppress=unusedStructMember:src/memory/vulkan.c \
  -I include -I src -I "$build/src/generated" src/*.c src/*/*.c
echo "clang-tidy (.clang-tidy, $build/compile_commands.json):"
# The analyzer's shallow mode (less inlining, fewer paths a function): the
# default mode took most of the test command's static-check time, in path
# explosions through the GL error loops and the plan's fixed-bound loops.
clang-tidy --quiet -p "$build" --extra-arg=-Xclang --extra-arg=-analyzer-config \
  --extra-arg=-Xclang --extra-arg=mode=shallow src/*.c src/*/*.c
echo "static checks clean"
