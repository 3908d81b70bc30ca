source bench/_call.sh
build base "-O2" &
build e1 "-O2 -DGLRADIX_EXPERIMENT=1" &
build e5 "-O2 -DGLRADIX_EXPERIMENT=5"
wait
nvidia-smi --query-gpu=clocks.sm,clocks.mem,pstate --format=csv > $out/gpu0.txt 2>&1
# adaptive warm-up after the builds' idle time, with the SM clock sampled every 100 ms
nvidia-smi --query-gpu=timestamp,clocks.sm --format=csv,noheader -lms 100 > $out/clocks.txt 2>&1 &
smi=$!
/tmp/b_base/bench/glradix-bench --csv --trace --pairs --key-bits 30 --n 65536,1M,16M --repeat 20 > $out/warm_probe.txt 2>&1
sleep 1
/tmp/b_base/bench/glradix-bench --csv --trace --pairs --key-bits 30 --n 65536 --repeat 20 --warmup 1000 >> $out/warm_probe.txt 2>&1
kill $smi
for r in 1 2; do
  for t in base e1 e5; do
    run $r $t subgroup --pairs --key-bits 30 --n 1M,16M,64M --repeat 20
    run $r $t subgroup --pairs --key-bits 30 --bits 2 --n 16M --repeat 20
    run $r $t portable --pairs --key-bits 30 --n 16M --repeat 20
  done
done
for t in base e1 e5; do stages $t --pairs --key-bits 30 --n 16M --repeat 20; done
