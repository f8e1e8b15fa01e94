#!/usr/bin/env bash
# `make bench-arm64-count`: the arm64 firmware's instructions per frame, per function, under
# qemu-aarch64 with a counting plugin (bench/qemu-insn-count.c), and the share of them that are
# NEON vector instructions. Counts, not times: they do not depend on how busy the machine is.
#   bench/count-arm64.sh [CAMERA] [MODE] [BENCH OPTION...]   defaults 640x480 scaled-layer (output 1920x1080);
#   further words go to `backdrop bench` (e.g. --depth 848x480 --registered, --size 640x480; --look sepia
#   composes each frame again with that look on the people, so Looks' ColourLookup.apply* show per frame)
# The bench runs F frames on one thread and F on all workers after two warm-up frames each; two
# runs with different F are subtracted, so start-up and the scene set-up cancel out.
set -euo pipefail
camera=${1:-640x480}
mode=${2:-scaled-layer}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
bash scripts/firmware.sh deps arm64
sysroot=$(bash scripts/firmware.sh sysroot | tail -1)
out=$repo/build/bench
mkdir -p "$out"
bash scripts/firmware.sh build arm64 >"$out/firmware-build.log" 2>&1 || { cat "$out/firmware-build.log" >&2; exit 1; }
# The unstripped link of the same binary: QEMU names functions from its symbol table.
binary=$repo/build/firmware/arm64/obj/backdrop.debug
gcc -O2 -Wall -shared -fPIC -o "$out/qemu-insn-count.so" bench/qemu-insn-count.c
few=4 many=16
for frames in $few $many; do
    qemu-aarch64 -L "$sysroot" -plugin "$out/qemu-insn-count.so,out=$out/count-$frames.txt" \
        "$binary" bench --camera "$camera" --mode "$mode" --frames "$frames" "${@:3}" >/dev/null
done
demangle=$(command -v swift-demangle || echo /opt/swift/usr/bin/swift-demangle)
python3 - "$out/count-$few.txt" "$out/count-$many.txt" $((2 * (many - few))) "$demangle" "$camera" "$mode ${*:3}" <<'PY'
import subprocess, sys
few, many, frames, demangle, camera, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
def load(path):
    counts = {}
    for line in open(path):
        total, vector, symbol = line.rstrip("\n").split("\t")
        old = counts.get(symbol, (0, 0))
        counts[symbol] = (old[0] + int(total), old[1] + int(vector))
    return counts
a, b = load(few), load(many)
per_frame = {s: ((b[s][0] - a.get(s, (0, 0))[0]) / frames, (b[s][1] - a.get(s, (0, 0))[1]) / frames) for s in b}
symbols = list(per_frame)
names = subprocess.run([demangle, "--simplified"], input="\n".join(symbols), capture_output=True, text=True).stdout.splitlines()
if len(names) != len(symbols):
    names = symbols
def module(symbol):
    # Embedded Swift mangles as $e<length><module>...; the rest are C (libc, the C shims) or unnamed.
    if symbol.startswith("$e") and symbol[2:3].isdigit():
        digits = ""
        for ch in symbol[2:]:
            if not ch.isdigit(): break
            digits += ch
        return symbol[2 + len(digits):2 + len(digits) + int(digits)]
    if symbol.startswith("$e"):
        return "Swift standard library, specialised"
    return "C shims and the Swift runtime" if symbol != "?" else "outside the binary (libc, ld.so)"
totals = {}
for s, (n, v) in per_frame.items():
    t = totals.setdefault(module(s), [0, 0])
    t[0] += n; t[1] += v
print(f"arm64 firmware under qemu-aarch64, bench --camera {camera} --mode {mode} (output 1920x1080): instructions per frame")
print("(the bench's own scene generator is Scenes, and its memcpy floor is in libc: neither is the box's work)")
for m, (n, v) in sorted(totals.items(), key=lambda kv: -kv[1][0]):
    if n >= 1000:
        print(f"  {m:36s} {n/1e6:9.3f} M  vector {max(0.0, 100 * v / n):5.1f} %")
for wanted in ("Matte", "Compose", "Looks", "Swift standard library, specialised"):
    print(f"{wanted}: functions over 1 % of it, instructions per frame, share, vector share:")
    rows = [(per_frame[s][0], per_frame[s][1], names[i]) for i, s in enumerate(symbols) if module(s) == wanted]
    whole = sum(r[0] for r in rows) or 1
    for n, v, name in sorted(rows, reverse=True):
        if n / whole < 0.01: break
        print(f"  {n/1e6:8.3f} M {100 * n / whole:5.1f} %  vector {max(0.0, 100 * v / n) if n else 0:5.1f} %  {name[:110]}")
PY
