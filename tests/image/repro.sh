#!/bin/bash
# A cold image build, timed, and the reproducibility check: builds BOARD from nothing in a cache
# folder of its own (IMAGE_CACHE, so the shared /var/cache/backdrop-image is not wiped), then
# compares what its partitions hold with the shared cache's build of the same inputs (the same
# image key): file lists with type, mode, owner, links, size, mtime and sha256
# (image-build/tree-manifest.py), the raw root partition, the whole card (.img, or .img.xz and the
# .img it holds) and its .bmap byte for byte. Any difference fails.
#
# Usage: tests/image/repro.sh BOARD [COLD_CACHE]    (root; COLD_CACHE default /var/cache/backdrop-image-cold,
#                                                    emptied first: it is this script's own)
set -euo pipefail
board=${1:?usage: repro.sh rpi4|qemu-arm64 [COLD_CACHE]}
cold=${2:-/var/cache/backdrop-image-cold}
shared=${IMAGE_CACHE:-/var/cache/backdrop-image}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[ "$cold" != "$shared" ] || { echo "repro: the cold cache must not be the shared one ($shared)" >&2; exit 2; }

case $cold in /var/cache/backdrop-image-*|/tmp/*) rm -rf "$cold" ;; *) echo "repro: will not empty $cold (not under /var/cache/backdrop-image-* or /tmp)" >&2; exit 2 ;; esac
t=$(date +%s)
IMAGE_CACHE=$cold bash "$repo/image-build/build.sh" "$board"
cold_s=$(( $(date +%s) - t ))
echo "repro[$board]: cold build in $cold_s s ($((cold_s / 60)) min $((cold_s % 60)) s)"
# Then the shared cache's build of the same inputs: a cache hit, or a re-assembly from its own
# (older) base root when the image's inputs changed since it was last built.
IMAGE_CACHE=$shared bash "$repo/image-build/build.sh" "$board"

a=$(ls -d "$cold/image-$board"-*/ | head -1); a=${a%/}
b=$shared/$(basename "$a")
[ -d "$b" ] || { echo "repro[$board]: the shared cache has no $(basename "$a"): the two builds saw different inputs" >&2; exit 1; }
fail=0
for list in root-files.txt data-files.txt; do
  if [ ! -f "$b/$list" ]; then echo "repro[$board]: $b has no $list (built before the lists existed)"; fail=1; continue; fi
  if cmp -s "$a/$list" "$b/$list"; then
    echo "repro[$board]: $list identical ($(wc -l < "$a/$list") paths)"
  else
    echo "repro[$board]: $list differs ($(diff "$a/$list" "$b/$list" | grep -c '^[<>]') lines):"
    diff "$b/$list" "$a/$list" | head -40 || true
    fail=1
  fi
done
cmp -s "$a/root.ext4" "$b/root.ext4" && echo "repro[$board]: root.ext4 identical byte for byte" ||
  { echo "repro[$board]: root.ext4 differs: $(cmp -l "$a/root.ext4" "$b/root.ext4" | wc -l) bytes"; fail=1; }
# The whole card: .img.xz, or a sparse .img for a board whose image-format says so (one of the two
# exists: not `ls` of both, whose status for the missing one ended the script under pipefail).
whole=backdrop-$board.img
[ -f "$a/$whole" ] || whole=$whole.xz
if cmp -s "$a/$whole" "$b/$whole"; then
  echo "repro[$board]: $whole identical"
elif [ "${whole%.xz}" != "$whole" ] && cmp -s <(xz -dc "$a/$whole") <(xz -dc "$b/$whole"); then
  echo "repro[$board]: $whole differs, the .img it holds is identical (the compressor, not the build)"; fail=1
else
  echo "repro[$board]: $whole differs"; fail=1
fi
cmp -s "$a/backdrop-$board.img.bmap" "$b/backdrop-$board.img.bmap" && echo "repro[$board]: backdrop-$board.img.bmap identical" ||
  { echo "repro[$board]: backdrop-$board.img.bmap differs:"; diff "$b/backdrop-$board.img.bmap" "$a/backdrop-$board.img.bmap" | head -20 || true; fail=1; }
exit $fail
