# Session 24 call 5: why 64K keys with 30-bit keys took 0.14 ms and with
# 32-bit keys 0.085 ms on the subgroup path (three reports). main's programs.
source bench/_call.sh
build head "-O2" bench/_head
b=/tmp/b_head/bench/glradix-bench
prime_shader_cache $b --bits 8 --key-bits 30
prime_shader_cache $b --bits 8 --key-bits 32
r() { echo "== $*"; $b --csv --verify --repeat 50 "$@" 2>&1 | grep -v '^impl'; }
{
r --n 64K --keys-only --key-bits 30
r --n 64K --keys-only --key-bits 32
r --n 64K --keys-only --key-bits 30 --end-bit 32
r --n 64K --keys-only --key-bits 24 --end-bit 32
r --n 64K --keys-only --key-bits 24
r --n 64K --keys-only --key-bits 32,30
r --n 64K --keys-only --key-bits 30,32
r --n 64K --keys-only --key-bits 30,32 --portable
r --n 16K,32K,64K,128K,256K,512K --keys-only --key-bits 32,30
r --n 64K --pairs --key-bits 32,30
for kb in 30 32; do $b --stages --n 64K --keys-only --key-bits $kb --repeat 50 2>&1 | grep stages:; done
$b --trace --n 64K --keys-only --key-bits 30 --repeat 20 --warmup 0 2>&1 | tail -30
} > $OUT/probe64k.txt 2>&1
