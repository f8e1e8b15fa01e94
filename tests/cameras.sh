#!/usr/bin/env bash
# `backdrop cameras`: the calibration read from saved RealSense replies (made here from the
# documented layout by tests/cameras/make-dump.py, not by the parser under test), the messages for
# replies that do not parse, and the listing with no cameras. A live D4xx is the virtual board's
# business (tests/vboard). Prints one line per check and closes with "cameras: N passed, N failed".
set -u
backdrop=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/backdrop-cameras.XXXXXX)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

expect() {
    local name=$1 code=$2 pattern=$3; shift 4
    local output status
    output=$("$@" 2>&1); status=$?
    if [ "$status" -eq "$code" ] && grep -Eq -- "$pattern" <<<"$output"; then
        passed=$((passed + 1)); echo "PASS $name"
    else
        failed=$((failed + 1)); echo "FAIL $name (exit $status, wanted $code; output must match /$pattern/)"
        sed 's/^/    | /' <<<"$output" | head -20
    fi
}

dump() { python3 "$here/cameras/make-dump.py" "$work/$1" "${@:2}"; }
dump good; dump crc --bad-crc; dump refused --refused; dump short --short; dump zero --zero-fx; dump nan --nan
dump d405 --d405-units
mkdir -p "$work/nodev" "$work/half" && cp "$work/good/depth.bin" "$work/half/"

expect "depth 848x480 from the table" 0 "depth  848x480: fx 421.500 fy 421.500 cx 424.200 cy 238.900" -- \
    "$backdrop" cameras --calibration-from "$work/good"
expect "colour 1280x720 from the normalised matrix" 0 "colour 1280x720: fx 613.376 fy 613.368 cx 646.464 cy 357.948" -- \
    "$backdrop" cameras --calibration-from "$work/good"
expect "colour centre in the depth frame" 0 "translation \(-14.900, -0.100, -0.300\) mm" -- \
    "$backdrop" cameras --calibration-from "$work/good"
expect "depth unit from GET_ADV" 0 "depth unit 1.0000 mm" -- "$backdrop" cameras --calibration-from "$work/good"
expect "D405 depth unit" 0 "depth unit 0.1000 mm" -- "$backdrop" cameras --calibration-from "$work/d405"
expect "other sizes: 640x480 both" 0 "depth  640x480: fx 383.200 .*colour 640x480: fx 408.917 fy 408.912 cx 324.309 cy 238.632" -- \
    bash -c "'$backdrop' cameras --calibration-from '$work/good' --depth-size 640x480 --color-size 640x480 | tr '\n' ' '"
expect "json" 0 '^\{"source": "saved replies in .*"depth": \{"fx": 421.5000, "fy": 421.5000, "cx": 424.2000, "cy": 238.9000\}.*"translation_mm": \[-14.9000, -0.1000, -0.3000\], "depth_unit_mm": 1.0000\}$' -- \
    "$backdrop" cameras --calibration-from "$work/good" --json
expect "bad CRC names both values" 2 "depth.bin: depth \(25\) table: CRC32 is 0x[0-9a-f]{8} but the header says 0x[0-9a-f]{8}" -- \
    "$backdrop" cameras --calibration-from "$work/crc"
expect "error opcode" 2 "color.bin: camera refused GETINTCAL: it answered with error code -7" -- \
    "$backdrop" cameras --calibration-from "$work/refused"
expect "short reply" 2 "depth.bin: GETINTCAL reply: 600 bytes, the layout needs 1024" -- \
    "$backdrop" cameras --calibration-from "$work/short"
expect "zero focal length" 2 "depth \(25\) table: fx at 848x480 is 0.000, which no camera has" -- \
    "$backdrop" cameras --calibration-from "$work/zero"
expect "zero focal length only where it is" 0 "depth  640x480: fx 383.200" -- \
    "$backdrop" cameras --calibration-from "$work/zero" --depth-size 640x480
expect "NaN" 2 "color.bin: colour \(32\) table: normalised fx is nan" -- "$backdrop" cameras --calibration-from "$work/nan"
expect "missing colour reply" 2 "color.bin.*as backdrop cameras --dump writes them" -- "$backdrop" cameras --calibration-from "$work/half"
expect "sizes only with a dump" 2 "go with --calibration-from" -- "$backdrop" cameras --depth-size 640x480
expect "bad size" 2 "--color-size 12xq" -- "$backdrop" cameras --calibration-from "$work/good" --color-size 12xq
expect "no cameras in an empty folder" 0 "no V4L2 cameras in $work/nodev" -- "$backdrop" cameras --dev "$work/nodev"
expect "no cameras, json" 0 '^\{"cameras": \[\]\}$' -- "$backdrop" cameras --dev "$work/nodev" --json
expect "dump with no RealSense fails" 1 "no RealSense D4xx answered" -- "$backdrop" cameras --dev "$work/nodev" --dump "$work/out"
expect "help" 0 "calibration-from DIR" -- "$backdrop" cameras --help

echo "cameras: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
