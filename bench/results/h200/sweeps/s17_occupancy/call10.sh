w=/tmp/cubres; mkdir -p $w
nvcc -O3 -arch=sm_90 -o $w/cub_sort_bench .gpu/cub_sort_bench.cu 2>&1 | tail -3
cuobjdump --dump-resource-usage $w/cub_sort_bench > $OUT/cub_resource_usage.txt 2>&1
grep -i "onesweep\|histogram\|exclusive" $OUT/cub_resource_usage.txt | head -20
grep -c Function $OUT/cub_resource_usage.txt
$w/cub_sort_bench 16777216 | tee $OUT/cub_16m.csv
