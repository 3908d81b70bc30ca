source bench/_call.sh
build new "-O2"
gcc -O2 -Iinclude -Ithird_party/glad/include bench/_orderprobe.c -L/tmp/b_new/src -lglradix -Wl,-rpath,/tmp/b_new/src -ldl -o /tmp/orderprobe && timeout 60 /tmp/orderprobe > $out/orderprobe.txt 2>&1
cat $out/orderprobe.txt
mkdir -p $out/t; OUT=$out/t timeout 240 bash tests/gpu_tests.sh; cp $out/t/ctest.txt $out/ctest.txt 2>/dev/null
rm -rf $out/t
