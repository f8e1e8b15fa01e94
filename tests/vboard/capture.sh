#!/usr/bin/env bash
# Capture against real V4L2 drivers: builds the test bundle on the host, boots the virtual board and
# runs CaptureTests there: vivid streaming with monotonic kernel timestamps, the depth node found by
# `auto`, loopback nodes fed with known colour and Z16 frames, and vivid's Disconnect control
# followed by a module reload (disconnected state, then reopen with back-off).
# Prints "PASS vboard capture" or "FAIL vboard capture" last; exit status 0 only on PASS.
#   tests/vboard/capture.sh [--arch x86_64]      SCRATCH=DIR  SwiftPM scratch path (default .build)
set -euo pipefail
arch=x86_64
[ "${1:-}" = --arch ] && arch=${2:?}
[ "$arch" = x86_64 ] || { echo "SKIP vboard capture: the test bundle is built for x86_64 only"; exit 0; }
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
scratch=${SCRATCH:-$repo/.build}
export PATH=/opt/swift/usr/bin:$PATH
cd "$repo"
swift build --build-tests --scratch-path "$scratch" >/dev/null
bundle=$scratch/debug/BackdropPackageTests.xctest
[ -x "$bundle" ] || { echo "FAIL vboard capture: no test bundle at $bundle"; exit 1; }
set +e
vboard/run --arch "$arch" --timeout 240 -- sh "$repo/tests/vboard/capture-guest.sh" "$bundle"
status=$?
set -e
if [ $status = 0 ]; then echo "PASS vboard capture"; else echo "FAIL vboard capture (status $status)"; fi
exit $status
