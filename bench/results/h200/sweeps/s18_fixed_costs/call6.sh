source bench/_call.sh
build new "-O2"
/tmp/b_new/bench/glradix-bench --stages --copy --pairs --key-bits 30 --n 1M,16M,64M --repeat 20 > $OUT/stages_copy.txt 2>&1
/tmp/b_new/bench/glradix-bench --lbvh --n 1M,16M --repeat 10 > $OUT/lbvh.txt 2>&1
/tmp/b_new/bench/glradix-bench --stages --pairs --key-bits 30 --bits 2 --n 16M --copy --repeat 20 > $OUT/r2_stages_copy.txt 2>&1
