#!/usr/bin/env bash
# tests/import/figures.sh BACKDROP [COUNT] : figures, not a test (nothing is asserted on time).
# COUNT (default 20) backdrops of 1920x1080, JPEG, are imported from a stick folder by
# `backdrop import` (a process of its own, as the stick's unit runs it) while `backdrop run` shows
# a synthetic 640x480 camera live (paced at 30 fps, late frames dropped) over 1920x1080 into the
# null sink, on the same machine. Prints the import's time (the shell's clock around the
# command) and the frames presented and dropped during the import (the run's own counters, read
# with SIGUSR1 before and after), next to the same figures for an idle window as long as the
# import, so the drops the import causes stand apart from those of a loaded machine.
set -euo pipefail
backdrop=$1 count=${2:-20}
tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

"$backdrop" make-backdrops "$tmp/generated" --size 1920x1080 --jpeg > /dev/null
mkdir -p "$tmp/stick/backdrop/backgrounds"
sources=("$tmp"/generated/*.jpg)
for i in $(seq 1 "$count"); do
  cp "${sources[$(( (i - 1) % ${#sources[@]} ))]}" "$tmp/stick/backdrop/backgrounds/backdrop-$(printf %02d "$i").jpg"
done
bytes=$(du -sb "$tmp/stick/backdrop/backgrounds" | cut -f1)

cat > "$tmp/run.conf" <<CONF
[camera]
source = synthetic
width = 640
height = 480
fps = 30
[output]
sink = null
width = 1920
height = 1080
[background]
directory = $tmp/no-backgrounds
CONF
"$backdrop" run --config "$tmp/run.conf" > "$tmp/run.out" 2> "$tmp/run.err" &
pid=$!
for _ in $(seq 300); do grep -q "^compute: " "$tmp/run.err" 2>/dev/null && break; sleep 0.1; done
sleep 3  # past the start-up

# The run's counters now: "frames presented: N, dropped late: D, dropped by sink: S".
counters() {
  local before
  before=$(grep -c "^frames presented:" "$tmp/run.out" || true)
  kill -USR1 "$pid"
  for _ in $(seq 100); do
    [ "$(grep -c "^frames presented:" "$tmp/run.out" || true)" -gt "$before" ] && break
    sleep 0.05
  done
  grep "^frames presented:" "$tmp/run.out" | tail -1 | sed -E 's/frames presented: ([0-9]+), dropped late: ([0-9]+), dropped by sink: ([0-9]+)/\1 \2 \3/'
}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

read -r p0 d0 s0 <<<"$(counters)"
start=$(now_ms)
status=0
"$backdrop" import "$tmp/stick" --data "$tmp/data" --config "$tmp/none.conf" > "$tmp/import.out" || status=$?
end=$(now_ms)
read -r p1 d1 s1 <<<"$(counters)"
took=$((end - start))
# An idle window as long as the import.
sleep "$(awk -v ms="$took" 'BEGIN { printf "%.3f", ms / 1000 }')"
read -r p2 d2 s2 <<<"$(counters)"

taken=$(grep -c "^taken: " "$tmp/import.out" || true)
echo "import: $taken of $count backdrops (1920x1080 JPEG, $((bytes / 1024)) KiB) in $took ms, exit $status ($(grep -c '' "$tmp/import.out") lines)"
echo "booth during the import: $((p1 - p0)) frames presented, $((d1 - d0)) dropped late, $((s1 - s0)) dropped by the sink"
echo "booth idle, same length: $((p2 - p1)) frames presented, $((d2 - d1)) dropped late, $((s2 - s1)) dropped by the sink"
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
