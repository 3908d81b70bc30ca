source bench/_call.sh
build base "-O2" bench/_base19 &
build new "-O2"
wait
for r in 1 2 3; do
  run $r base subgroup --pairs --key-bits 30 --n 1M,4M,16M,32M,64M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --n 1M,4M,16M,32M,64M --repeat 20
done
for r in 1 2; do
  run $r base subgroup --keys-only --key-bits 30 --n 16M,64M --repeat 20
  run $r new subgroup --keys-only --key-bits 30 --n 16M,64M --repeat 20
  run $r base subgroup --pairs --key-bits 30 --bits 4 --n 1M,16M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --bits 4 --n 1M,16M --repeat 20
  run $r base portable --pairs --key-bits 30 --n 16M --repeat 20
  run $r new portable --pairs --key-bits 30 --n 16M --repeat 20
done
for t in base new; do
  stages $t --pairs --key-bits 30 --n 16M,64M --repeat 20
  stages $t --keys-only --key-bits 30 --n 16M --repeat 20
  stages $t --pairs --key-bits 30 --bits 4 --n 16M --repeat 20
done
