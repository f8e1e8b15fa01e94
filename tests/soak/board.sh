#!/usr/bin/env bash
# The board soak (issue 14): `backdrop run` on the virtual board with vivid as the camera and vkms
# as the display for MINUTES (default 30), a button press every TICK_S seconds (next, previous,
# shutter in turn) and a camera unplug every UNPLUG_S seconds (default 180). The guest half
# (board-guest.sh) samples the process's RSS, open fds and frame counts each tick; this half judges
# them: after the warm-up (the first tenth of the run, and at least until the camera first came
# back: closing the first camera gives back start-up memory, RSS falls once) RSS within 1 MiB and the fd count unchanged
# among the samples taken while the camera is up, frames presented growing between every two such
# samples, every unplug followed by the camera's return, and a clean exit on SIGTERM.
#
#   tests/soak/board.sh [--arch x86_64|arm64] [--minutes N] [--unplug-s S] [--tick-s S] [--binary PATH]
#
# Not part of `make test` (it runs half an hour); `make board-soak` runs it. Exit 0 when flat.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$repo/tests/vboard/board-camera.sh"
arch=x86_64 minutes=30 unplug_s=180 tick_s=10 binary=
while (($#)); do
  case $1 in
    --arch) arch=$2; shift 2 ;;
    --minutes) minutes=$2; shift 2 ;;
    --unplug-s) unplug_s=$2; shift 2 ;;
    --tick-s) tick_s=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    *) echo "usage: tests/soak/board.sh [--arch x86_64|arm64] [--minutes N] [--unplug-s S] [--tick-s S] [--binary PATH]" >&2; exit 2 ;;
  esac
done
for n in "$minutes" "$unplug_s" "$tick_s"; do
  case $n in ''|*[!0-9]*|0) echo "board.sh: --minutes, --unplug-s and --tick-s want positive whole numbers, got '$n'" >&2; exit 2 ;; esac
done
case $arch in
  x86_64) binary=${binary:-$repo/.build/release/backdrop} ;;
  arm64) binary=${binary:-$repo/build/firmware/arm64/backdrop} ;;
  *) echo "board.sh: unknown arch '$arch' (x86_64 or arm64)" >&2; exit 2 ;;
esac
[ -x "$binary" ] || { echo "board.sh: no binary at $binary (make build; for arm64 make firmware ARCH=arm64)" >&2; exit 1; }

work=$(mktemp -d /tmp/backdrop-board-soak.XXXXXX)
chmod 755 "$work"
# A copy, so a rebuild during the half hour does not change the binary under the run.
cp "$binary" "$work/backdrop"
python3 "$repo/tests/e2e/scene.py" "$work" > /dev/null || { echo "board.sh: scene.py failed" >&2; exit 1; }
cp -r "$repo/tests/e2e/board" "$work/board"
cat > "$work/soak.conf" <<CONF
[matte]
mode = fixed
near_mm = 300
far_mm = 2000
[background]
fit = fill
directory = $work/backdrops
$BOARD_CAMERA_CONFIG
[output]
sink = kms
[buttons]
board = qemu-e2e
debounce_ms = 250
long_press_ms = 5000
[photos]
directory = /tmp/soak-photos
countdown_s = 0
CONF

echo "board soak ($arch): $minutes min, a press every $tick_s s, an unplug every $unplug_s s; work folder $work"
status=0
"$repo/vboard/run" --arch "$arch" --timeout $((minutes * 60 + 900)) -- \
  sh "$repo/tests/soak/board-guest.sh" "$work" "$work/backdrop" "$minutes" "$unplug_s" "$tick_s" \
  > "$work/guest.out" 2> "$work/guest.err" || status=$?
sed -n 's/^@@EVENT //p' "$work/guest.out" > "$work/events"
sed -n 's/^@@LOG //p' "$work/guest.out" > "$work/backdrop.log"
fact() { sed -n "s/^$1=//p" "$work/events" | tail -n 1; }
sed -n 's/^sample=//p' "$work/events" > "$work/samples"
if [ "$status" != 0 ] || [ "$(fact done)" != 1 ]; then
  echo "FAIL board soak: the board run ended early (vboard/run status $status, setup: $(fact setup))"
  tail -n 30 "$work/guest.out" "$work/guest.err" | sed 's/^/    /'
  exit 1
fi
# Judge: samples are SECONDS,RSS,FDS,PRESENTED,DROPPED,CAMERA.
verdict=$(awk -F, -v warm=$((minutes * 6)) '
  $6 == "up" { n++; t[n] = $1; rss[n] = $2; fds[n] = $3; pres[n] = $4; drop[n] = $5; if (away && !back) back = $1 }
  $6 == "away" { away++ }
  END {
    if (back > warm) warm = back
    problems = ""
    for (i = 1; i <= n; i++) if (t[i] >= warm) { if (!first) first = i; last = i }
    if (!first || last - first < 2) { print "too few samples after the warm-up"; exit 1 }
    lo = hi = rss[first]; fd0 = fds[first]
    for (i = first; i <= last; i++) {
      if (rss[i] < lo) lo = rss[i]; if (rss[i] > hi) hi = rss[i]
      if (fds[i] != fd0) problems = problems sprintf("fds %d at %d s (first %d); ", fds[i], t[i], fd0)
    }
    for (i = 2; i <= n; i++) if (pres[i] <= pres[i - 1]) problems = problems sprintf("no new frames between %d s and %d s; ", t[i - 1], t[i])
    if (hi - lo > 1024) problems = problems sprintf("RSS moved %d KiB; ", hi - lo)
    printf "%d samples with the camera up (%d after the warm-up at %d s, %d while away): RSS %d at the start, %d -> %d KiB after the warm-up (range %d KiB), fds %d at the start, %d -> %d after, frames presented %d -> %d (dropped late %d -> %d), %d s\n", n, last - first + 1, warm, away, rss[1], rss[first], rss[last], hi - lo, fds[1], fds[first], fds[last], pres[1], pres[n], drop[1], drop[n], t[n]
    if (problems != "") { print problems; exit 1 }
  }' "$work/samples")
judged=$?
echo "    $verdict" | head -n 1
echo "    presses $(fact presses), photos saved $(fact photos_logged), unplugs survived $(fact unplugs), exit on SIGTERM $(fact exit)"
expected_unplugs=$(( (minutes * 60) / (unplug_s * 2) ))
problems=""
[ $judged = 0 ] || problems+="$(echo "$verdict" | tail -n +2) "
[ "$(fact alive)" = 1 ] || problems+="backdrop died during the run; "
[ "$(fact exit)" = 0 ] || problems+="exit status $(fact exit) on SIGTERM; "
[ -z "$(fact camera_not_back)" ] || problems+="the camera did not come back after the unplug at $(fact camera_not_back) s; "
[ "${expected_unplugs}" -le "$(fact unplugs)" ] || problems+="only $(fact unplugs) unplugs (expected at least $expected_unplugs); "
[ "$(fact photos_logged)" -gt 0 ] || problems+="no photo saved; "
if [ -z "$problems" ]; then
  echo "PASS board soak ($arch): samples in $work/samples, log $work/backdrop.log"
else
  echo "FAIL board soak ($arch): $problems (samples in $work/samples, log $work/backdrop.log)"
  exit 1
fi
