#!/bin/sh
# demo_headless smoke test: run glradix-demo --headless into a fresh
# directory, then check each PNG's IHDR size (640x360), that it is not blank
# by its byte size (a one-colour 640x360 PNG deflates to ~1.7 kB, the final
# sorted curve at n = 16384 to ~2.9 kB, the input scatter and the LBVH view
# to over 10 kB, the ray view's shaded balls to ~59 kB, its background and
# floor alone to under 20 kB) and that the first and last sort steps
# differ. The demo itself fails (and so this script) when a sort step or
# the ray view's pixels disagree with the CPU: it checks 208 pixels of
# rays.png's trace, 64 of them on spheres' centres, against a brute-force
# closest hit.
# Usage: check_png.sh DEMO OUTDIR
set -eu
demo=$1
out=$2
rm -rf "$out"
"$demo" --headless --n 16384 --out "$out"

fail() { echo "check_png: $*" >&2; exit 1; }
# Big-endian 32-bit integer at byte offset $2 of file $1.
be32() { od -An -tu1 -j"$2" -N4 "$1" | awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }'; }

n=0
for f in "$out"/sort_*.png "$out"/lbvh.png "$out"/rays.png; do
  [ -f "$f" ] || fail "missing $f"
  [ "$(od -An -c -j12 -N4 "$f" | tr -d ' ')" = IHDR ] || fail "$f: no IHDR"
  w=$(be32 "$f" 16)
  h=$(be32 "$f" 20)
  [ "$w" -eq 640 ] && [ "$h" -eq 360 ] || fail "$f: ${w}x${h}, want 640x360"
  size=$(wc -c < "$f")
  min=2400
  case "$f" in */sort_00.png | */lbvh.png) min=8000 ;; */rays.png) min=20000 ;; esac
  [ "$size" -gt "$min" ] || fail "$f: $size bytes (want > $min), looks blank"
  n=$((n + 1))
done
[ "$n" -eq 33 ] || fail "expected 33 PNGs (31 sort steps, LBVH, rays), found $n"
cmp -s "$out/sort_00.png" "$out/sort_30.png" && fail "first and last sort steps are identical"
cmp -s "$out/sort_15.png" "$out/sort_16.png" && fail "a pass's shuffle and scatter steps are identical"
echo "check_png: $n PNGs ok"
