source bench/_call.sh
build main "-O2"
gcc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude -Ithird_party/glad/include bench/_floor.c -o /tmp/floor -L/tmp/b_main/src -lglradix -Wl,-rpath,/tmp/b_main/src -ldl || echo "floor build failed"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv > $out/gpu.txt 2>&1
/tmp/floor 200000 2>&1 | tee $out/floor.txt
/tmp/floor 2000000 2>&1 | tail -5 | tee -a $out/floor.txt
