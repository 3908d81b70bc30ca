source bench/_call.sh
build base "-O2" &
build i6 "-O2 -DGLRADIX_TUNE_ITEMS=6" &
build i10 "-O2 -DGLRADIX_TUNE_ITEMS=10" &
build i12 "-O2 -DGLRADIX_TUNE_ITEMS=12" &
build w10m1 "-O2 -DGLRADIX_TUNE_ITEMS=10 -DGLRADIX_TUNE_MOVE_SHARED=1"
wait
for r in 1 2; do
  for t in base i6 i10 i12; do
    run $r $t subgroup --pairs --key-bits 30 --bits 2 --n 4M,16M,64M --repeat 20
  done
  for t in base i10 w10m1; do
    run $r $t subgroup --pairs --key-bits 30 --bits 8 --n 16M,64M --repeat 20
  done
done
for t in base i6 i10 i12; do stages $t --pairs --key-bits 30 --bits 2 --n 16M --repeat 20; done
