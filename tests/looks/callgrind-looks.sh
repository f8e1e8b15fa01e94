#!/usr/bin/env bash
# tests/looks/callgrind-looks.sh [BINARY] : x86-64 instructions per frame of the people's look
# against the matte's, counted by callgrind (counts, not times: a busy machine does not blur
# them). For each look form (see LOOKS below) and camera (640x480, 1280x720 under 1920x1080, the CPU blend), runs
# `bench --frames 2 --look L` (every frame composed without and then with the look; 2 warm-up
# frames; once on one thread, once on all workers: 8 frames of each) and prints the look's own
# functions (ColourLookup.apply*) and FrameProcessor.buildMatte per frame, and their ratio.
# MODES="frame scaled-layer" also counts the overlay path (the camera-sized layer);
# LOOKS="a b" picks the looks (default: sepia, the affine form; vintage, the 33^3 lattice;
# mono, the luma ramp; poster, the per-channel tables).
# The board's figure is the arm64 count (make bench-arm64-count LOOK=...); this one guides.
set -euo pipefail
binary=$(realpath "${1:-$(dirname "$0")/../../.build/release/backdrop}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind 3.19 gives up on the Swift toolchain's DWARF 5; the symbol table is all it needs.
strip --strip-debug -o "$work/backdrop" "$binary"
binary=$work/backdrop
frames=8
for mode in ${MODES:-frame}; do
for look in ${LOOKS:-sepia vintage mono poster}; do
    for camera in 640x480 1280x720; do
        out=$work/$look-$camera.out
        echo -n "$mode " 
        nice valgrind --tool=callgrind --callgrind-out-file="$out" "$binary" bench --camera "$camera" --size 1920x1080 \
            --mode "$mode" --frames 2 --look "$look" >/dev/null 2>&1
        callgrind_annotate --inclusive=yes "$out" 2>/dev/null | python3 -c '
import re, sys
look, camera, frames = sys.argv[1], sys.argv[2], int(sys.argv[3])
lookIr = matteIr = 0
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+)\s", line)
    if not m: continue
    ir, name = int(m.group(1).replace(",", "")), line
    if re.search(r"ColourLookupC(12applyLattice|13applyGradient|13applyChannels|11applyAffine)", name) and "Looks" in name: lookIr += ir
    elif re.search(r"FrameProcessorC10buildMatte", name) and matteIr == 0: matteIr = ir
print(f"{look:7s} {camera:9s} look {lookIr / frames / 1e6:7.3f} M instructions/frame, "
      f"matte {matteIr / frames / 1e6:7.3f} M, look/matte {100 * lookIr / max(matteIr, 1):5.1f} %")
' "$look" "$camera" "$frames"
    done
done
done
