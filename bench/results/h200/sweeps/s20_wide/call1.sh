source bench/_call.sh
build base "-O2" &
build t10 "-O2 -DGLRADIX_TUNE_ITEMS=10"
wait
for r in 1 2 3; do
  run $r base subgroup --pairs --key-bits 30 --n 16M,24M,32M,48M,64M --repeat 20
  run $r t10 subgroup --pairs --key-bits 30 --n 16M,24M,32M,48M,64M --repeat 20
done
for r in 1 2; do
  run $r base subgroup --keys-only --key-bits 30 --n 32M,64M --repeat 20
  run $r t10 subgroup --keys-only --key-bits 30 --n 32M,64M --repeat 20
  run $r base portable --pairs --key-bits 30 --n 32M,64M --repeat 20
  run $r t10 portable --pairs --key-bits 30 --n 32M,64M --repeat 20
done
for t in base t10; do
  stages $t --pairs --key-bits 30 --n 32M,64M --repeat 20
done
