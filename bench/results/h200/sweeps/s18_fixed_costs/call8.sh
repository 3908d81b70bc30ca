source bench/_call.sh
build nochain "-O2" bench/_nochain
B=/tmp/b_nochain/bench/glradix-bench
for r in 1 2; do
for v in none NOCHAIN NOSCAN; do
  echo "== round $r variant $v" >> $OUT/stages.txt
  env GLRADIX_TRIAL_$v=1 $B --stages --pairs --key-bits 30 --n 1M,4M,16M,64M --repeat 20 >> $OUT/stages.txt 2>&1
  env GLRADIX_TRIAL_$v=1 $B --stages --pairs --key-bits 30 --bits 2 --n 1M,16M --repeat 20 >> $OUT/stages.txt 2>&1
done; done
