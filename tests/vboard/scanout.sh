#!/usr/bin/env bash
# Scanout against a real KMS driver: boots the virtual board (vkms with overlay and writeback) and
# runs the KMSSinkDeviceTests there: modeset, N page flips with monotonic flip times, writeback
# read-back equal to what was drawn, overlay-plane blending; then ScaledPlaneDeviceTests: the
# display scales a camera-sized layer (vboard/patches/0005) to the CPU path's composite; then
# CameraViewDeviceTests: vivid's own YUYV buffers imported as framebuffers on the overlay plane
# (zero-copy, vboard/patches/0006) show as the CPU path converts them.
# Two boots, a PASS/FAIL line each; exit status 0 when both pass. KMSSinkDeviceTests injects faults,
# which exist in the debug bundle only; the other two compare the display with the CPU path, whose
# debug build under TCG took most of the 600 s time-out in one boot with the first (469 s warm,
# past 600 s on a cold, loaded run), so they run from the release bundle.
#   tests/vboard/scanout.sh [--arch x86_64]      SCRATCH=DIR  SwiftPM scratch path (default .build)
here=$(dirname "${BASH_SOURCE[0]}")
status=0
"$here/run-device-tests.sh" scanout KMSSinkDeviceTests "$@" || status=1
DEVICE_TESTS_CONFIG=release "$here/run-device-tests.sh" scanout "ScaledPlaneDeviceTests|CameraViewDeviceTests" "$@" || status=1
exit $status
