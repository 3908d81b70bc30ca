# Ran as session 24's call 1, from the branch s23/copy-loaded rebased on main 15a7f66
# (b1fbc7d); bench/_head = git archive of 15a7f66.
# Planned for the next session with a GPU (session 23 had no device time
# left). From this branch: mkdir -p bench/_head && git archive main | tar -x -C bench/_head
# (drop bench/_head/bench/results), cp this to bench/_c1.sh, and run it with
# carry [".gl", "bench/_call.sh", "bench/_c1.sh", "bench/_head"]; about 250 s
# by our estimate. head = main (no group copy), g1 = the group copy from
# global memory (session 22's form), g2 = the group copy of the keys and
# values the group loaded, through s_work (this branch). Rows: 30-bit keys
# and pairs (nothing skipped: does g1 cost 16M 4.5% side by side, as
# session 23's report suggests, and does g2?) and 24-bit ones on 32 bits
# (one pass skipped: what g1 gained, 6.5-8.2%, and g2). The 16M programs
# are primed (PRIME_N), which session 23's report did not do.
source bench/_call.sh
build head "-O2" bench/_head &
build g1 "-O2 -DGLRADIX_TUNE_COPY_BY_GROUP=1" &
build g2 "-O2 -DGLRADIX_TUNE_COPY_BY_GROUP=2"
wait
for t in head g1 g2; do
  PRIME_N=65536,16777216 prime_shader_cache /tmp/b_$t/bench/glradix-bench --bits 8 --key-bits 30
  PRIME_N=16777216 prime_shader_cache /tmp/b_$t/bench/glradix-bench --bits 8 --key-bits 24 --end-bit 32
done
for r in 1 2 3; do
  for t in head g1 g2; do
    run $r $t subgroup --key-bits 30 --n 16M,64M --repeat 20
    run $r $t subgroup --key-bits 24 --end-bit 32 --n 16M,32M --repeat 20
  done
done
for t in head g1 g2; do stages $t --pairs --key-bits 30 --n 16M --repeat 20; done
