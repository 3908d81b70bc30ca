# helpers for one device call (untracked): build NAME "FLAGS"; run ROUND NAME PATH args...
source bench/gpu_env.sh
out=${OUT:?}
build() { # name flags
  local b=/tmp/b_$1
  ( cmake -S "${3:-.}" -B "$b" -DCMAKE_BUILD_TYPE=Release -DGLRADIX_BUILD_TESTS=OFF -DGLRADIX_BUILD_DEMO=OFF \
      -DGLRADIX_BUILD_EXAMPLES=OFF "-DCMAKE_C_FLAGS=$2" > "$b.cmake.log" 2>&1 &&
    cmake --build "$b" -j 8 --target glradix-bench > "$b.build.log" 2>&1 ) || { echo "build $1 failed"; tail -20 "$b.build.log"; }
}
run() { # round name path args
  local r=$1 name=$2 path=$3; shift 3
  local extra=(); [ "$path" = portable ] && extra=(--portable)
  /tmp/b_${name%%_*}/bench/glradix-bench --csv --verify "${extra[@]}" "$@" 2>&1 | grep -v '^impl,' | sed "s/^/$r,$name,$path,/" | tee -a "$out/ab.csv"
}
stages() { # name args
  local name=$1; shift
  echo "== $name $*" >> "$out/stages.txt"
  /tmp/b_${name%%_*}/bench/glradix-bench --stages "$@" >> "$out/stages.txt" 2>&1
}
