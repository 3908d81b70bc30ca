source bench/_call.sh
mkdir -p $out/p
build s16 "-DGLRADIX_PROBE" bench/_slot16
pr() { # tag n args (env from caller)
  local tag=$1 n=$2; shift 2
  GLRADIX_PROBE_OUT=$out/p/$tag.bin /tmp/b_s16/bench/glradix-bench --csv --verify --n $n --key-bits 30 --repeat 3 "$@" 2>&1 | tail -1 | sed "s/^/$tag,/" | tee -a $out/p/runs.csv
}
GLRADIX_SLOT16=1 GLRADIX_SLOT16_MOVES=1 pr halves_16m 16777216 --pairs
GLRADIX_SLOT16=1 GLRADIX_SLOT16_MOVES=1 GLRADIX_PROBE_PAD_SCATTER=3072 pr halves_pad_16m 16777216 --pairs
for r in 1 2; do
  GLRADIX_SLOT16=0 run $r s16_base subgroup --n 1048576,16777216,67108864 --pairs --key-bits 30
  GLRADIX_SLOT16=1 GLRADIX_SLOT16_MOVES=1 run $r s16_halves subgroup --n 1048576,16777216,67108864 --pairs --key-bits 30
  GLRADIX_SLOT16=1 run $r s16_gather subgroup --n 16777216 --pairs --key-bits 30
done
GLRADIX_SLOT16=0 stages s16_base --n 16777216 --pairs --key-bits 30
GLRADIX_SLOT16=1 GLRADIX_SLOT16_MOVES=1 stages s16_halves --n 16777216 --pairs --key-bits 30
(cd $out && tar czf probe.tgz p && rm -rf p)
