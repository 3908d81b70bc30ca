source bench/_call.sh
build new "-O2" &
build cbg0 "-O2 -DGLRADIX_TUNE_COPY_BY_GROUP=0"
wait
gcc -O2 -Iinclude -Ithird_party/glad/include bench/_memprobe.c -L/tmp/b_new/src -lglradix -Wl,-rpath,/tmp/b_new/src -ldl -o /tmp/memprobe || echo "probe build failed"
for m in sizes filler big; do echo "== memprobe $m"; /tmp/memprobe $m; done > $out/memprobe.txt 2>&1
cat $out/memprobe.txt
# priming check: 3 s a case, then report-like small rows
prime_shader_cache /tmp/b_new/bench/glradix-bench --bits 2,4,8 --key-bits 30
run 0 new subgroup --key-bits 30 --n 65536,1M --repeat 20
prime_shader_cache /tmp/b_cbg0/bench/glradix-bench --pairs --key-bits 24 --end-bit 32
for r in 1 2 3; do
  for t in new cbg0; do
    run $r $t subgroup --pairs --key-bits 24 --end-bit 32 --n 16M,32M --repeat 20
    run $r $t subgroup --keys-only --key-bits 24 --end-bit 32 --n 16M --repeat 20
  done
done
