#!/usr/bin/env bash
# The looks' command-line behaviour with the real executable (make looks-cli-test): --look on
# render and demo, looks --sheet, and refusals of bad names and hostile .cube files with their
# line and exit 2. Closes with "looks-cli: N passed, N failed".
set -u
backdrop=$(realpath "$1")
work=$(mktemp -d /tmp/backdrop-looks-cli.XXXXXX)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
expect() {   # expect NAME CODE PATTERN -- COMMAND...
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
check() {    # check NAME CONDITION...
    local name=$1; shift
    if "$@"; then passed=$((passed + 1)); echo "PASS $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}
repo=$(cd "$(dirname "$0")/../.." && pwd)
recording=$repo/../shared/data/rgbd/pcl_five_people
"$backdrop" make-backdrops "$work/bd" --size 160x120 >/dev/null 2>&1
backdrop_png=$(ls "$work"/bd/*.png | head -1)

expect "demo --look sepia" 0 "demo: wrote 3 frames" -- "$backdrop" demo --frames 3 --size 160x120 --out "$work/sepia.y4m" --look sepia
expect "demo without a look" 0 "demo: wrote 3 frames" -- "$backdrop" demo --frames 3 --size 160x120 --out "$work/plain.y4m"
differ() { ! cmp -s "$1" "$2"; }
check "the look changes the video" differ "$work/sepia.y4m" "$work/plain.y4m"
expect "unknown look" 2 "no look named sparkle: the built-in looks are none, mono" -- \
    "$backdrop" demo --frames 1 --size 160x120 --out "$work/x.y4m" --look sparkle
printf 'LUT_3D_SIZE 2\n0 0 0\n1 0 0\nnan 1 0\n' > "$work/hostile.cube"
expect "hostile .cube names its line" 2 "hostile.cube: line 4: value 'nan' is not a number" -- \
    "$backdrop" render "$recording" --background "$backdrop_png" --out "$work/r" --look "$work/hostile.cube"
expect "missing .cube" 2 "cannot read" -- \
    "$backdrop" render "$recording" --background "$backdrop_png" --out "$work/r" --look "$work/none.cube"
# An inverting 3D table: render with it equals render with the built-in negative look.
{ echo 'TITLE "invert"'; echo 'LUT_3D_SIZE 2'
  for b in 1 0; do for g in 1 0; do for r in 1 0; do echo "$r $g $b"; done; done; done; } > "$work/invert.cube"
if [ -d "$recording" ]; then
    expect "render --look FILE.cube" 0 "render: 1 frame" -- \
        "$backdrop" render "$recording" --background "$backdrop_png" --out "$work/cube" --look "$work/invert.cube"
    expect "render --look negative" 0 "render: 1 frame" -- \
        "$backdrop" render "$recording" --background "$backdrop_png" --out "$work/negative" --look negative
    check "a .cube inverting equals the negative look" cmp -s "$work/cube/000000.png" "$work/negative/000000.png"
    expect "looks --sheet" 0 "looks: 17 looks on" -- "$backdrop" looks --sheet "$work/sheet.png" "$work/negative/000000.png"
    check "the sheet is a PNG" bash -c "head -c 8 '$work/sheet.png' | od -An -tx1 | grep -q '89 50 4e 47'"
fi
expect "looks lists the built-ins" 0 "^thermal \(both\): 1 step" -- "$backdrop" looks
expect "looks --sheet needs FRAME" 2 "FRAME" -- "$backdrop" looks --sheet "$work/s.png"
echo "looks-cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
