source bench/_call.sh
build base "-O2" &
build t10 "-O2 -DGLRADIX_TUNE_ITEMS=10"
wait
for r in 1 2; do
  for t in base t10; do
    run $r $t subgroup --key-type uint64 --key-bits 63 --pairs --n 4M,16M,64M --repeat 20
    run $r $t subgroup --key-type uint64 --key-bits 63 --keys-only --n 16M,64M --repeat 20
  done
done
echo "== first size twice" >> $out/stages.txt
/tmp/b_base/bench/glradix-bench --csv --verify --pairs --key-bits 30 --n 65536,65536,1048576,65536 --repeat 20 >> $out/stages.txt 2>&1
/tmp/b_base/bench/glradix-bench --csv --verify --pairs --key-bits 30 --bits 2,4,8 --n 65536,1048576 --repeat 20 >> $out/stages.txt 2>&1
