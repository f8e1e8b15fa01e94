#!/usr/bin/env bash
# tests/looks/same-bytes.sh [BASE_COMMIT] : proves that, with no look, the release binary of this
# tree writes the same bytes as the one of BASE_COMMIT (default: where this branch left main), on
# the offline outputs that pin the frame path: demo video and contact sheet (scaled 1280x720
# output; 640x480 output, the direct path), and render of a real recording over a backdrop
# (scaled, with mattes). The base binary is built once per commit under
# /var/cache/backdrop-looks/base-COMMIT (a git worktree with its own SwiftPM scratch).
# Prints one line per output and exits 1 on the first difference.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH=/opt/swift/usr/bin:$PATH
root=$PWD
base=${1:-$(git merge-base HEAD "$(git rev-parse --verify -q main || echo origin/main)")}
cache=/var/cache/backdrop-looks
tree=$cache/base-$base
mkdir -p "$cache"
if [[ ! -x $tree/.build/release/backdrop ]]; then
    [[ -d $tree ]] || git worktree add -f --detach "$tree" "$base" >&2
    (cd "$tree" && nice swift build -c release -Xswiftc -enable-testing --product backdrop >&2)
fi
[[ -x .build/release/backdrop ]] || nice swift build -c release -Xswiftc -enable-testing --product backdrop >&2
recordings=${RECORDINGS:-/work/shared/data/rgbd}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$root/.build/release/backdrop" make-backdrops "$work/backdrops" --size 640x480 >/dev/null
backdrop=$(ls "$work/backdrops"/*.png | head -1)
run() {   # run NAME ARGS... with both binaries, output under $work/{base,new}/NAME
    local name=$1; shift
    for side in base new; do
        local bin=$tree/.build/release/backdrop
        [[ $side == new ]] && bin=$root/.build/release/backdrop
        mkdir -p "$work/$side/$name"
        (cd "$work/$side/$name" && "$bin" "$@" >/dev/null 2>&1) || { echo "same-bytes: $side $name failed"; exit 1; }
    done
    local a b
    a=$(cd "$work/base/$name" && find . -type f | sort | xargs sha256sum | sha256sum | cut -c1-16)
    b=$(cd "$work/new/$name" && find . -type f | sort | xargs sha256sum | sha256sum | cut -c1-16)
    local count
    count=$(find "$work/new/$name" -type f | wc -l)
    if [[ $a != "$b" ]]; then echo "same-bytes: $name DIFFERS ($count files)"; exit 1; fi
    echo "same-bytes: $name same ($count files, $a)"
}
run demo-720 demo --frames 12 --out demo.y4m --size 1280x720
run demo-480 demo --frames 12 --out demo.y4m --size 640x480
for recording in "$recordings"/*/; do
    [[ -f $recording/recording.ini ]] || continue
    name=$(basename "$recording")
    run "render-$name" render "$recording" --background "$backdrop" --out frames --matte-out mattes --size 1280x720
    run "render-$name-same-size" render "$recording" --background "$backdrop" --out frames
done
