#!/usr/bin/env bash
# `backdrop record` from the virtual board's vivid cameras (colour YUYV and Z16 depth found by
# `auto`): FRAMES frames recorded on the board, brought back, and played on the host through
# `backdrop render` (every frame composited, the mattes written) and `backdrop eval` against those
# mattes as truth (the same matte, so IoU and boundary F must be 1). Checks the layout: FRAMES colour
# and depth PNGs, recording.ini with the unit and registration.
# Prints "PASS vboard record" or "FAIL vboard record: why" last; exit status 0 only on PASS.
#   tests/vboard/record.sh [--frames N] [--binary PATH]   (x86_64 board; default the host release build)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
frames=5
binary=$repo/.build/release/backdrop
while [ $# -gt 0 ]; do
  case $1 in
    --frames) frames=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    *) echo "usage: tests/vboard/record.sh [--frames N] [--binary PATH]" >&2; exit 2 ;;
  esac
done
[ -x "$binary" ] || { echo "FAIL vboard record: no backdrop binary at $binary (swift build -c release)"; exit 1; }
work=$(mktemp -d /tmp/backdrop-record-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL vboard record: $*"; exit 1; }
set +e
"$repo/vboard/run" --arch x86_64 --timeout 300 -- sh "$repo/tests/vboard/record-guest.sh" "$binary" "$frames" \
  > "$work/guest.out" 2> "$work/guest.err"
status=$?
set -e
grep '^record-guest:' "$work/guest.out" | sed 's/^/  /' || true
[ $status = 0 ] || { tail -n 20 "$work/guest.err" | sed 's/^/  /'; fail "the board run ended with status $status"; }
awk '/^@@RECORDING$/ { inside = 1; next } /^@@END$/ { inside = 0; next } inside' "$work/guest.out" \
  | base64 -d > "$work/recording.tar" || fail "the recording did not come back intact"
mkdir -p "$work/rec"
tar xf "$work/recording.tar" -C "$work/rec" || fail "the recording's tar does not unpack"
colour=$(ls "$work/rec/color" 2>/dev/null | grep -c '\.png$' || true)
depth=$(ls "$work/rec/depth" 2>/dev/null | grep -c '\.png$' || true)
[ "$colour" = "$frames" ] && [ "$depth" = "$frames" ] || fail "$colour colour and $depth depth frames, wanted $frames of each"
grep -q '^unit_mm' "$work/rec/recording.ini" || fail "recording.ini has no unit_mm"
grep -q '^registered' "$work/rec/recording.ini" || fail "recording.ini has no registered line"
# A backdrop for the render: a 2x2 grey PNG written by the host binary's own maker.
"$binary" make-backdrops "$work/backdrops" > /dev/null 2>&1 || true
backdrop=$(ls "$work"/backdrops/*.png 2>/dev/null | head -n 1)
[ -n "$backdrop" ] || fail "no backdrop to render over (backdrop make-backdrops)"
"$binary" render "$work/rec" --background "$backdrop" --out "$work/render" --matte-out "$work/mattes" \
  > "$work/render.log" 2>&1 || { cat "$work/render.log"; fail "backdrop render of the recording failed"; }
rendered=$(ls "$work/render" | grep -c '\.png$' || true)
[ "$rendered" = "$frames" ] || fail "render wrote $rendered frames, wanted $frames"
"$binary" eval "$work/rec" --truth "$work/mattes" --json > "$work/eval.json" 2> "$work/eval.err" \
  || { cat "$work/eval.err"; fail "backdrop eval of the recording failed"; }
echo "  eval against render's mattes: $(cat "$work/eval.json")"
python3 - "$work/eval.json" "$frames" <<'PY' || fail "eval does not reproduce render's mattes"
import json, sys
e = json.load(open(sys.argv[1]))
assert e["frames"] == int(sys.argv[2]), e
assert e["iou_mean"] == 1 and e["iou_min"] == 1, e
PY
echo "PASS vboard record ($frames frames from vivid, rendered and evaluated)"
