source bench/_call.sh
build probe "-DGLRADIX_PROBE" bench/_probe
build base ""
nvidia-smi -q -d CLOCK > $out/clocks.txt 2>&1
pr() { # tag args
  local tag=$1; shift
  GLRADIX_PROBE_OUT=$out/probe_$tag.bin /tmp/b_probe/bench/glradix-bench --csv --verify "$@" > $out/probe_$tag.csv 2>&1 ||
  { echo "retry 450 $tag"; GLRADIX_PROBE_450=1 GLRADIX_PROBE_OUT=$out/probe_$tag.bin /tmp/b_probe/bench/glradix-bench --csv --verify "$@" > $out/probe_$tag.csv 2>&1; }
  tail -1 $out/probe_$tag.csv
}
pr 16m --n 16777216 --pairs --key-bits 30 --repeat 5
pr 1m --n 1048576 --pairs --key-bits 30 --repeat 5
pr 64m --n 67108864 --pairs --key-bits 30 --repeat 5
pr 16m_portable --n 16777216 --pairs --key-bits 30 --repeat 5 --portable
pr 16m_keys --n 16777216 --keys-only --key-bits 30 --repeat 5
pr 16m_r4 --n 16777216 --pairs --key-bits 30 --repeat 5 --bits 4
run 1 base subgroup --n 1048576,16777216,67108864 --pairs --key-bits 30
run 1 probe subgroup --n 16777216 --pairs --key-bits 30
stages base --n 16777216,67108864 --pairs --key-bits 30
nvidia-smi -q -d CLOCK > $out/clocks_after.txt 2>&1
