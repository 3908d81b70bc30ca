source bench/_call.sh
build new "-O2"
gcc -O2 -Iinclude -Ithird_party/glad/include bench/_memprobe2.c -L/tmp/b_new/src -lglradix -Wl,-rpath,/tmp/b_new/src -ldl -o /tmp/memprobe2 || echo "probe build failed"
for m in alloc order; do echo "== memprobe2 $m"; timeout 150 /tmp/memprobe2 $m; done > $out/memprobe2.txt 2>&1
cat $out/memprobe2.txt
mkdir -p $out/t; OUT=$out/t timeout 240 bash tests/gpu_tests.sh; cp $out/t/ctest.txt $out/ctest.txt 2>/dev/null
rm -rf $out/t
