source bench/_call.sh
mkdir -p $out/p
build s16 "-DGLRADIX_PROBE" bench/_slot16
pr() { # tag env n args
  local tag=$1 e=$2 n=$3; shift 3
  GLRADIX_SLOT16=$e GLRADIX_PROBE_OUT=$out/p/$tag.bin /tmp/b_s16/bench/glradix-bench --csv --verify --n $n --key-bits 30 --repeat 3 "$@" 2>&1 | tail -1 | sed "s/^/$tag,/" | tee -a $out/p/runs.csv
}
pr slot16_16m 1 16777216 --pairs
pr slot16_16m_keys 1 16777216 --keys-only
pr slot16_16m_portable 1 16777216 --pairs --portable
for r in 1 2; do for e in 0 1; do
  GLRADIX_SLOT16=$e run $r s16_$e subgroup --n 1048576,16777216,67108864 --pairs --key-bits 30
  GLRADIX_SLOT16=$e run $r s16_$e subgroup --n 16777216,67108864 --keys-only --key-bits 30
  GLRADIX_SLOT16=$e run $r s16_$e portable --n 16777216,67108864 --pairs --key-bits 30
done; done
for e in 0 1; do GLRADIX_SLOT16=$e stages s16_$e --n 16777216,67108864 --pairs --key-bits 30; done
(cd $out && tar czf probe.tgz p && rm -rf p)
