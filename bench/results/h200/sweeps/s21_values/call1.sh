source bench/_call.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,pstate --format=csv > $out/gpu0.txt 2>&1
build base "-O2"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,pstate --format=csv > $out/gpu1.txt 2>&1
B=/tmp/b_base/bench/glradix-bench
# first-case probe: cold shader cache (after builds), warm cache, cold cache again
export GLRADIX_BENCH_TRACE=1
__GL_SHADER_DISK_CACHE_PATH=/tmp/nvc1 $B --csv --pairs --key-bits 30 --n 4M,4M --repeat 20 > $out/probe1.txt 2>&1
__GL_SHADER_DISK_CACHE_PATH=/tmp/nvc1 $B --csv --pairs --key-bits 30 --n 4M,4M --repeat 20 > $out/probe2.txt 2>&1
__GL_SHADER_DISK_CACHE_PATH=/tmp/nvc2 $B --csv --pairs --key-bits 30 --n 4M,4M --repeat 20 > $out/probe3.txt 2>&1
__GL_SHADER_DISK_CACHE=0 $B --csv --pairs --key-bits 30 --n 65536,4M --repeat 20 > $out/probe4.txt 2>&1
unset GLRADIX_BENCH_TRACE
# CUB reference
nvcc -O3 -arch=sm_90 -o /tmp/cub .gpu/cub_sort_bench.cu > $out/nvcc.txt 2>&1
# interleaved rounds
for r in 1 2 3 4; do
  /tmp/cub 16777216,67108864 | grep ',30,1,' | sed "s/^/$r,/" >> $out/rounds.csv
  $B --csv --verify --pairs --key-bits 30 --n 16M,64M --repeat 20 | grep '^glradix' | sed "s/^/$r,/" >> $out/rounds.csv
done
# Check suites at HEAD
mkdir -p $out/t; OUT=$out/t bash tests/gpu_tests.sh > $out/t/log.txt 2>&1
tail -3 $out/t/log.txt
cat $out/rounds.csv
