#!/usr/bin/env bash
# Scanout against a real KMS driver: boots the virtual board (vkms with overlay and writeback) and
# runs the KMSSinkDeviceTests there: modeset, N page flips with monotonic flip times, writeback
# read-back equal to what was drawn, overlay-plane blending; then ScaledPlaneDeviceTests: the
# display scales a camera-sized layer (vboard/patches/0005) to the CPU path's composite; then
# CameraViewDeviceTests: vivid's own YUYV buffers imported as framebuffers on the overlay plane
# (zero-copy, vboard/patches/0006) show as the CPU path converts them.
# PASS/FAIL line; exit status 0 on PASS.
#   tests/vboard/scanout.sh [--arch x86_64]      SCRATCH=DIR  SwiftPM scratch path (default .build)
exec "$(dirname "${BASH_SOURCE[0]}")/run-device-tests.sh" scanout "KMSSinkDeviceTests|ScaledPlaneDeviceTests|CameraViewDeviceTests" "$@"
