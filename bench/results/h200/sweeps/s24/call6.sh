# Session 24 call 6: NVIDIA compiler pragmas. head = main; inl = common.glsl with
# "#pragma optionNV(inline all)" after "unroll all"; ifc = with "#pragma optionNV(ifcvt none)".
# The trees: bench/_head, _inl, _ifc = `git archive 0742895` each (bench/results
# dropped), the pragma added by sed after common.glsl's "#pragma optionNV(unroll all)".
source bench/_call.sh
build head "-O2" bench/_head &
build inl "-O2" bench/_inl &
build ifc "-O2" bench/_ifc
wait
for t in head inl ifc; do
  b=/tmp/b_$t/bench/glradix-bench
  PRIME_N=65536,16777216 prime_shader_cache $b --bits 8 --key-bits 30
  PRIME_N=16777216 prime_shader_cache $b --bits 2 --key-bits 30 --pairs
  PRIME_N=16777216 prime_shader_cache $b --bits 8 --key-bits 30 --pairs --portable
done
for r in 1 2 3; do
  for t in head inl ifc; do
    run $r $t subgroup --key-bits 30 --n 1M,16M,64M --repeat 20
    run $r $t subgroup --key-bits 30 --n 16M --pairs --bits 2 --repeat 20
    run $r $t portable --key-bits 30 --n 16M --pairs --repeat 20
  done
done
for t in head inl ifc; do stages $t --pairs --key-bits 30 --n 16M --repeat 20; done
# The Check suites on both variants' trees (the .tdebs packages unpacked first).
source bench/gpu_env.sh .tdebs > /dev/null 2>&1
for t in inl ifc; do
  mkdir -p $out/t_$t
  (cd bench/_$t && OUT=$out/t_$t timeout 200 bash tests/gpu_tests.sh) > $out/t_$t/log.txt 2>&1
done
