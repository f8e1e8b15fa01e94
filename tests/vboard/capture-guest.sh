#!/bin/sh
# Guest half of capture.sh (runs inside the virtual board). Two vivid instances give `auto` a
# colour and a depth node (vivid lists Z16 with our patch). v4l2loopback is reloaded with a third
# node, video12, for MJPEG, and a fourth, video13, for UYVY (read through libv4lconvert): a loopback
# node keeps the format of its first writer.
# Fails when a hardware test was skipped rather than run.
#   capture-guest.sh BUNDLE
bundle=$1
out=/tmp/capture-tests.out
modprobe -r vivid 2>/dev/null
modprobe vivid n_devs=2 node_types=0x1,0x1 || { echo "capture-guest: cannot load vivid"; exit 1; }
modprobe -r v4l2loopback 2>/dev/null
modprobe v4l2loopback devices=4 video_nr=10,11,12,13 exclusive_caps=1,1,1,1 \
  card_label=vboard-colour,vboard-depth,vboard-mjpeg,vboard-uyvy max_buffers=4 ||
  { echo "capture-guest: cannot load v4l2loopback"; exit 1; }
for node in /dev/video*; do
  echo "capture-guest: $node: $(cat "/sys/class/video4linux/${node#/dev/}/name" 2>/dev/null)"
done
# Output streams as it comes (a hung test still shows how far it got); the status goes via a file.
{ BACKDROP_VBOARD_FAULTS=1 timeout 200 "$bundle" --testing-library swift-testing --filter 'CaptureTests\.' 2>&1
  echo $? > /tmp/capture-tests.rc; } | tee "$out"
status=$(cat /tmp/capture-tests.rc)
if grep -qE '\) skipped' "$out"; then
  echo "capture-guest: a hardware test was skipped on the board"
  exit 1
fi
exit $status
