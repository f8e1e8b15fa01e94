#!/usr/bin/env bash
# `make bench-libyuv`: the compose stage against the libyuv chain doing the same work (scale +
# convert + blend, bench/libyuv-chain.c), case by case in one invocation, each pair measured
# back to back so both figures come from the same minutes of a shared machine.
#   bench/compare-libyuv.sh BACKDROP [FRAMES]
# libyuv-dev is a bench-only dependency, not in the setup path: installed here when missing.
set -euo pipefail
backdrop=${1:?usage: compare-libyuv.sh BACKDROP [FRAMES]}
frames=${2:-60}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ ! -f /usr/include/libyuv.h ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "bench-libyuv: installing libyuv-dev (the reference chain's library; the product does not use it)" >&2
        apt-get install -y -q libyuv-dev >&2 || { echo "bench-libyuv: apt-get install libyuv-dev failed: run apt-get update, then again" >&2; exit 1; }
    else
        echo "bench-libyuv: needs libyuv-dev (sudo apt-get install libyuv-dev), for the reference chain only" >&2
        exit 1
    fi
fi
tool=$repo/build/bench/libyuv-chain
mkdir -p "$(dirname "$tool")"
# libyuv picks its SIMD at run time (the isa field says which), and is run again held to SSE2
# (--isa sse2, MaskCpuFlags), the level of Backdrop's build; the chain's own glue is -O2.
gcc -O2 -Wall -o "$tool" "$repo/bench/libyuv-chain.c" -lyuv
cases="640x480:1920x1080 848x480:1920x1080 1280x720:1920x1080 1920x1080:1920x1080"
for c in $cases; do
    camera=${c%%:*} size=${c##*:}
    ours=$("$backdrop" bench --camera "$camera" --size "$size" --mode frame --frames "$frames" --json)
    theirs=$("$tool" --frames "$frames" "$c")
    # The same chain held to SSE2, the instruction-set level of Backdrop's x86-64 build.
    baseline=$("$tool" --frames "$frames" --isa sse2 "$c")
    python3 - "$ours" "$theirs" "$baseline" <<'PY'
import json, sys
ours, theirs, baseline = (json.loads(a) for a in sys.argv[1:4])
compose = ours["stages"]["compose"]
print(f'camera {ours["camera"]} -> {ours["size"]}, CPU blend, 1 thread: compose {compose:.3f} ns/px '
      f'(pipeline {ours["pipeline_ns_per_px"]:.3f}, memcpy floor {ours["memcpy_ns_per_px"]:.3f}); '
      f'libyuv chain {theirs["libyuv_ns_per_px"]:.3f} ns/px ({theirs["isa"]}; best frame {theirs["libyuv_best_ns_per_px"]:.3f}, '
      f'its memcpy floor {theirs["memcpy_ns_per_px"]:.3f}); compose / libyuv = {compose / theirs["libyuv_ns_per_px"]:.2f}; '
      f'libyuv at {baseline["isa"]} {baseline["libyuv_ns_per_px"]:.3f} ns/px, compose / that = {compose / baseline["libyuv_ns_per_px"]:.2f}')
PY
done
echo "(Backdrop's compose: swiftc's x86-64 baseline, SSE2, on x86_64; NEON on arm64. Medians of $frames frames.)"
