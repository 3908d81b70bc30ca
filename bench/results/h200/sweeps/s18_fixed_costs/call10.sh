source bench/_call.sh
build base "-O2" bench/_base18e
build new "-O2"
for r in 1 2 3; do
  run $r base subgroup --pairs --key-bits 30 --n 256K,1M,2M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --n 256K,1M,2M --repeat 20
done
for r in 1 2; do
  run $r base subgroup --pairs --key-bits 30 --bits 2 --n 1M --repeat 20
  run $r new subgroup --pairs --key-bits 30 --bits 2 --n 1M --repeat 20
  run $r base subgroup --keys-only --key-bits 30 --n 1M --repeat 20
  run $r new subgroup --keys-only --key-bits 30 --n 1M --repeat 20
  run $r base portable --pairs --key-bits 30 --n 1M --repeat 20
  run $r new portable --pairs --key-bits 30 --n 1M --repeat 20
done
