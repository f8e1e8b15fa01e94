#!/usr/bin/env bash
# Shared host half of tests/vboard/scanout.sh and buttons.sh: builds the test bundle, boots the
# virtual board with vboard/run and runs one Swift Testing suite in it through device-guest.sh.
# Prints "PASS vboard NAME" or "FAIL vboard NAME" last; exit status 0 only on PASS.
#   DEVICE_TESTS_CONFIG=release runs the release bundle `make unit` builds (-enable-testing) instead
#   of the debug one: for suites that need no fault injection (debug builds only) and whose CPU
#   reference work, unoptimised under TCG, would take most of the board's time-out.
set -euo pipefail
name=$1 suite=$2; shift 2
arch=x86_64
[ "${1:-}" = --arch ] && arch=${2:?}
[ "$arch" = x86_64 ] || { echo "SKIP vboard $name: the test bundle is built for x86_64 only"; exit 0; }
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
scratch=${SCRATCH:-$repo/.build}
export PATH=/opt/swift/usr/bin:$PATH
cd "$repo"
config=${DEVICE_TESTS_CONFIG:-debug}
case $config in
  debug) flags=() ;;
  release) flags=(-c release -Xswiftc -enable-testing) ;;
  *) echo "FAIL vboard $name: DEVICE_TESTS_CONFIG must be debug or release, not '$config'"; exit 2 ;;
esac
if ! build_log=$(swift build "${flags[@]}" --build-tests --scratch-path "$scratch" 2>&1); then
    grep -E "error:" <<<"$build_log" | head -20
    echo "FAIL vboard $name: the test bundle did not build"
    exit 1
fi
bundle=$scratch/$config/BackdropPackageTests.xctest
[ -x "$bundle" ] || { echo "FAIL vboard $name: no test bundle at $bundle"; exit 1; }
set +e
vboard/run --arch "$arch" --timeout 600 -- sh "$repo/tests/vboard/device-guest.sh" "$name" "$suite" "$bundle"
status=$?
set -e
if [ $status = 0 ]; then echo "PASS vboard $name ($suite, $config bundle)"; else echo "FAIL vboard $name ($suite, $config bundle; status $status)"; fi
exit $status
