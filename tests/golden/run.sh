#!/usr/bin/env bash
# Golden outputs: the whole matte and compose path pinned by the SHA-256 of every matte and
# composite it writes on fixed inputs, compared with tests/golden/checksums.txt.
#   bash tests/golden/run.sh [BACKDROP] [--update]
# A refactor must leave every line of checksums.txt as it is. A mismatch lists the outputs that
# changed (and those missing or new); --update rewrites the file, and the commit that carries
# the new file must say why the bytes changed.
#
# Inputs, all made here or read in place:
#  - demo 640x480 (the synthetic camera at its own size) and demo 1920x1080 (the 640x480 camera
#    scaled to a 1080p output): the .y4m composite and the contact sheet (frames beside mattes);
#    the generated backdrops, never the machine's backgrounds folder;
#  - the hard scenes group, group-unregistered (reprojected depth) and group-still, recorded by
#    `backdrop record --scene`, rendered with --matte-out, in [matte] mode auto and fixed;
#  - the three real Kinect frames of ../shared/data/rgbd (read where they lie, never copied into
#    the repository), in auto and fixed; skipped with the reason when that folder is absent.
# The PNG checksums are of the files, so they also pin the encoder (libspng and zlib of the host,
# Debian 12): a different zlib would change them without any pixel changing.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
golden="$repo/tests/golden/checksums.txt"
backdrop="$repo/.build/release/backdrop"
update=0
for argument in "$@"; do
    case $argument in
        --update) update=1 ;;
        -*) echo "golden: unknown option $argument (usage: run.sh [BACKDROP] [--update])" >&2; exit 2 ;;
        *) backdrop=$argument ;;
    esac
done
backdrop=$(realpath "$backdrop")
[ -x "$backdrop" ] || { echo "golden: no executable at $backdrop (make build first)" >&2; exit 2; }
rgbd="$repo/../shared/data/rgbd"

work=$(mktemp -d /tmp/backdrop-golden.XXXXXX)
trap 'rm -rf "$work"' EXIT
out="$work/out"
mkdir -p "$out"

quiet() { "$@" >"$work/last.log" 2>&1 || { echo "golden: failed: $*" >&2; sed 's/^/    | /' "$work/last.log" >&2; exit 1; }; }

# An empty backgrounds folder makes the demo use the generated backdrops on any machine.
mkdir -p "$work/no-backgrounds"
mode_config() { # FILE MODE [EXTRA_CONFIG]: a config with [matte] mode = MODE (and fixed's band)
    {
        [ -n "${3:-}" ] && cat "$3"
        printf '[background]\ndirectory = %s\n[matte]\nmode = %s\n' "$work/no-backgrounds" "$2"
        # Fixed keeps 0.3-2.6 m: the group (2.3-2.9 m) and the Kinect corridor (1.8-4 m) are then
        # cut between people, which auto (everyone to 4 m) does not do, so the two modes differ.
        [ "$2" = fixed ] && printf 'far_mm = 2600\n'
        true
    } >"$1"
}
mode_config "$work/auto.conf" auto
mode_config "$work/fixed.conf" fixed

# The demo: 60 frames (two seconds: the person moves, the temporal stage has history).
for size in 640x480 1920x1080; do
    quiet "$backdrop" demo --frames 60 --size "$size" --config "$work/auto.conf" --out "$out/demo-$size.y4m"
done

quiet "$backdrop" make-backdrops "$work/backdrops" --size 320x240
backdrop_image="$work/backdrops/$(ls "$work/backdrops" | head -1)"

# The hard scenes, 10 frames each at the default 320x240.
for scene in group group-unregistered group-still; do
    quiet "$backdrop" record "$work/$scene" --scene "$scene" --frames 10
    for mode in auto fixed; do
        extra=""
        [ -f "$work/$scene/camera.conf" ] && extra="$work/$scene/camera.conf"
        mode_config "$work/$scene-$mode.conf" "$mode" "$extra"
        quiet "$backdrop" render "$work/$scene" --background "$backdrop_image" --config "$work/$scene-$mode.conf" \
            --out "$out/$scene-$mode/composite" --matte-out "$out/$scene-$mode/matte"
    done
done

skipped=()
for set in pcl_five_people open3d_tum_desk nyu_dining; do
    if [ ! -d "$rgbd/$set" ]; then
        skipped+=("$set")
        continue
    fi
    for mode in auto fixed; do
        quiet "$backdrop" render "$rgbd/$set" --background "$backdrop_image" --config "$work/$mode.conf" \
            --out "$out/kinect-$set-$mode/composite" --matte-out "$out/kinect-$set-$mode/matte"
    done
done

# A folder's .backdrop-output marker says which command made it (tests/cli.sh): not an output.
(cd "$out" && find . -type f ! -name .backdrop-output | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum) >"$work/checksums.txt"
count=$(wc -l <"$work/checksums.txt")

if [ "$update" = 1 ]; then
    if [ "${#skipped[@]}" -gt 0 ]; then
        echo "golden: refusing --update without the Kinect frames (${skipped[*]} absent at $rgbd)" >&2
        exit 2
    fi
    cp "$work/checksums.txt" "$golden"
    echo "golden: wrote $count checksums to tests/golden/checksums.txt; commit it saying why the bytes changed"
    exit 0
fi

# Without the Kinect folder, only the lines that do not need it are compared.
expected="$work/expected.txt"
cp "$golden" "$expected"
for set in "${skipped[@]}"; do
    echo "golden: skipped the Kinect frame $set: $rgbd/$set is absent (the shared data folder beside the repository)"
    grep -v " kinect-$set-" "$expected" >"$expected.tmp" || true
    mv "$expected.tmp" "$expected"
done

changed=0 passed=0
while read -r sum name; do
    want=$(awk -v n="$name" '$2 == n { print $1 }' "$expected")
    if [ -z "$want" ]; then
        echo "NEW     $name (not in checksums.txt)"; changed=$((changed + 1))
    elif [ "$want" != "$sum" ]; then
        echo "CHANGED $name"; changed=$((changed + 1))
    else
        passed=$((passed + 1))
    fi
done <"$work/checksums.txt"
while read -r _ name; do
    grep -q "  $name\$" "$work/checksums.txt" || { echo "MISSING $name (in checksums.txt, not written)"; changed=$((changed + 1)); }
done <"$expected"

echo "golden: $passed passed, $changed failed"
[ "$changed" -eq 0 ]
