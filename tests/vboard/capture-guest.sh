#!/bin/sh
# Guest half of capture.sh (runs inside the virtual board). Two vivid instances give `auto` a
# colour and a depth node (vivid lists Z16 with our patch); v4l2loopback's video10/video11 come
# from the board's init. Fails when a hardware test was skipped rather than run.
#   capture-guest.sh BUNDLE
bundle=$1
out=/tmp/capture-tests.out
modprobe -r vivid 2>/dev/null
modprobe vivid n_devs=2 node_types=0x1,0x1 || { echo "capture-guest: cannot load vivid"; exit 1; }
for node in /dev/video*; do
  echo "capture-guest: $node: $(cat "/sys/class/video4linux/${node#/dev/}/name" 2>/dev/null)"
done
BACKDROP_VBOARD_FAULTS=1 "$bundle" --testing-library swift-testing --filter 'CaptureTests\.' > "$out" 2>&1
status=$?
cat "$out"
if grep -q "skipped" "$out"; then
  echo "capture-guest: a hardware test was skipped on the board"
  exit 1
fi
exit $status
