#!/bin/sh
# Guest half (runs inside the virtual board): prepares the device a suite needs, runs that suite
# of the host-built test bundle, and fails when the suite was skipped rather than run.
#   device-guest.sh scanout|buttons SUITES BUNDLE     (SUITES: one name, or several joined by |;
#   the first must run, the others run where compiled in)
name=$1 suite=$2 bundle=$3
out=/tmp/device-tests.out
cleanup() { :; }

case $name in
scanout)
  ls /dev/dri/card* >/dev/null 2>&1 || { echo "no /dev/dri/card*: vkms missing"; exit 1; }
  ;;
buttons)
  sim=/sys/kernel/config/gpio-sim/backdrop-buttons
  mkdir "$sim" "$sim/bank0" || exit 1
  echo 3 > "$sim/bank0/num_lines"
  i=0
  for line in BACKDROP_NEXT BACKDROP_PREV BACKDROP_SHUTTER; do
    mkdir "$sim/bank0/line$i" && echo "$line" > "$sim/bank0/line$i/name"
    i=$((i + 1))
  done
  echo 1 > "$sim/live" || exit 1
  BACKDROP_GPIO_SIM=/sys/devices/platform/$(cat "$sim/dev_name")/$(cat "$sim/bank0/chip_name")
  export BACKDROP_GPIO_SIM
  cleanup() {
    echo 0 > "$sim/live"
    rmdir "$sim/bank0/line0" "$sim/bank0/line1" "$sim/bank0/line2" "$sim/bank0" "$sim"
  }
  ;;
esac

"$bundle" --testing-library swift-testing --filter "$suite" > "$out" 2>&1
status=$?
cleanup
# Colour codes off, so the log reads cleanly in CI.
sed 's/\x1b\[[0-9;]*m//g' "$out"
grep -q "skipped" "$out" && { echo "a suite of $suite was skipped on the board"; exit 1; }
grep -q "Suite ${suite%%|*} passed" "$out" || status=1
grep -Eq "Test run with [0-9]+ tests? in [0-9]+ suites? passed" "$out" || status=1
exit $status
