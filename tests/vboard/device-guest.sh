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
  gpio_sim="sh $(dirname "$0")/../../vboard/gpio-sim"
  BACKDROP_GPIO_SIM=$($gpio_sim make backdrop-buttons BACKDROP_NEXT BACKDROP_PREV BACKDROP_SHUTTER) || exit 1
  export BACKDROP_GPIO_SIM
  cleanup() { $gpio_sim remove backdrop-buttons; }
  ;;
esac

# One test at a time: suites of one device (the DRM card has one master) must not overlap.
"$bundle" --testing-library swift-testing --no-parallel --filter "$suite" > "$out" 2>&1
status=$?
cleanup
# Colour codes off, so the log reads cleanly in CI.
sed 's/\x1b\[[0-9;]*m//g' "$out"
grep -q "skipped" "$out" && { echo "a suite of $suite was skipped on the board"; exit 1; }
grep -q "Suite ${suite%%|*} passed" "$out" || status=1
grep -Eq "Test run with [0-9]+ tests? in [0-9]+ suites? passed" "$out" || status=1
exit $status
