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
  --inline-suppr -I include -I src -I "$build/src/generated" src/*.c
echo "clang-tidy (.clang-tidy, $build/compile_commands.json):"
# Every src/ file is compiled into the library and three test-only
# variants, and clang-tidy analyses each compile command of a file. The
# variants differ only where a file reads GLRADIX_TEST_* macros, so only
# those files keep them (the whole set took 74 s of a 2-core CI run).
db=$(mktemp -d)
trap 'rm -rf "$db"' EXIT
test_files=$(grep -l "GLRADIX_TEST_" src/*.c | sed 's|^src/||; s|\.c$||' | paste -sd '|' -)
awk -v files="\"file\": \"[^\"]*/src/($test_files)\\.c\"" '
  /^\{/ { entry = $0; next }
  /^\}/ { if (entry ~ /glradix\.dir\// || entry ~ files) kept[n++] = entry "\n}"; entry = ""; next }
  entry != "" { entry = entry "\n" $0 }
  END { print "["; for (i = 0; i < n; i++) print kept[i] (i + 1 < n ? "," : ""); print "]" }
' "$build/compile_commands.json" > "$db/compile_commands.json"
clang-tidy --quiet -p "$db" src/*.c
echo "static checks clean"
