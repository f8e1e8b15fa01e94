#!/usr/bin/env bash
# Buttons against a real GPIO driver: boots the virtual board, makes a gpio-sim chip whose lines
# are named BACKDROP_NEXT / BACKDROP_PREV / BACKDROP_SHUTTER, and runs the ButtonPanelDeviceTests
# there: lines found by name, edge times on CLOCK_MONOTONIC, a press on next becomes "next
# backdrop", bounces inside the window count once, a long press toggles the matte view.
#   tests/vboard/buttons.sh [--arch x86_64]      SCRATCH=DIR  SwiftPM scratch path (default .build)
exec "$(dirname "${BASH_SOURCE[0]}")/run-device-tests.sh" buttons ButtonPanelDeviceTests "$@"
