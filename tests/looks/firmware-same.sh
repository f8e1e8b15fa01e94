#!/usr/bin/env bash
# tests/looks/firmware-same.sh : the Embedded firmware (make firmware ARCH=amd64) renders every
# look like the host build, byte for byte: render of a real recording with each built-in look,
# and the looks contact sheet. Needs both binaries built.
set -euo pipefail
cd "$(dirname "$0")/../.."
host=.build/release/backdrop firmware=build/firmware/amd64/backdrop
recording=${RECORDING:-../shared/data/rgbd/pcl_five_people}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$host" make-backdrops "$work/bd" --size 320x240 >/dev/null
status=0
for look in $("$host" looks | cut -d' ' -f1); do
    for side in host firmware; do
        "${!side}" render "$recording" --background "$work/bd/sunset.png" --out "$work/$side-$look" --size 640x360 --look "$look" >/dev/null 2>&1
    done
    if cmp -s "$work/host-$look/000000.png" "$work/firmware-$look/000000.png"; then echo "same: $look"; else echo "DIFFER: $look"; status=1; fi
done
"$host" looks --sheet "$work/host-sheet.png" "$work/host-none/000000.png" >/dev/null
"$firmware" looks --sheet "$work/firmware-sheet.png" "$work/host-none/000000.png" >/dev/null
if cmp -s "$work/host-sheet.png" "$work/firmware-sheet.png"; then echo "same: looks --sheet"; else echo "DIFFER: looks --sheet"; status=1; fi
exit $status
