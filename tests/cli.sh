#!/usr/bin/env bash
# Command-level checks of the real executable: each bad input gives a clear message and the
# documented exit code (0 success, 1 runtime failure, 2 usage or invalid input), never a crash.
# Prints one line per check and closes with "cli: N passed, N failed".
set -u
backdrop=$(realpath "$1")
work=$(mktemp -d /tmp/backdrop-cli.XXXXXX)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

# expect NAME CODE PATTERN -- COMMAND...: exit code must be CODE and stdout+stderr match PATTERN.
expect() {
    local name=$1 code=$2 pattern=$3; shift 4
    local output status
    output=$("$@" 2>&1); status=$?
    if [ "$status" -eq "$code" ] && grep -Eq -- "$pattern" <<<"$output"; then
        passed=$((passed + 1)); echo "PASS $name"
    else
        failed=$((failed + 1)); echo "FAIL $name (exit $status, wanted $code; output must match /$pattern/)"
        sed 's/^/    | /' <<<"$output" | head -20
    fi
}

repo=$(cd "$(dirname "$0")/.." && pwd)
rgbd="$repo/../shared/data/rgbd"

# Test images and recordings are made here by the binary itself (demo writes PNG frames),
# so no fixture files are checked in.
"$backdrop" demo --frames 2 --size 64x48 --out "$work/frames" >/dev/null 2>&1
good_png=$(ls "$work"/frames/*.png 2>/dev/null | head -1)

expect "help lists the commands" 0 "check-config" -- "$backdrop" --help
expect "unknown command is a usage error" 2 "unknown command" -- "$backdrop" frobnicate
expect "unknown option is a usage error" 2 "unknown option --bogus" -- "$backdrop" demo --bogus
expect "bad frame count names the range" 2 "--frames.*1" -- "$backdrop" demo --frames -3
expect "bad size" 2 "--size" -- "$backdrop" demo --size 12xq
expect "demo writes a video" 0 "latency end-to-end" -- "$backdrop" demo --frames 5 --size 128x96 --out "$work/d.y4m"
expect "demo video has 5 frames" 0 "^5$" -- bash -c "grep -c FRAME '$work/d.y4m'"
expect "demo names its contact sheet last" 0 "contact sheet.*d-sheet.png$" -- bash -c "'$backdrop' demo --frames 7 --size 160x90 --out '$work/d.y4m' 2>/dev/null | tail -1"

printf '[matte]\nmode = auto\nnear_mm = 300\nfar_mm = 2000\n' > "$work/good.conf"
expect "good config passes" 0 "ok" -- "$backdrop" check-config "$work/good.conf"
printf '[matte]\nnear_mm = 3000\nfar_mm = 2000\nfeather_px = lots\n' > "$work/bad.conf"
expect "bad config lists every problem" 2 "feather_px" -- "$backdrop" check-config "$work/bad.conf"
expect "contradiction names both keys" 2 "near_mm.*far_mm|far_mm.*near_mm" -- "$backdrop" check-config "$work/bad.conf"
printf '[matte\nmode = auto\n' > "$work/syntax.conf"
expect "syntax error names its line" 2 "syntax.conf:1" -- "$backdrop" check-config "$work/syntax.conf"
printf '[matte]\ncolour = blue\n' > "$work/unknown.conf"
expect "unknown key warns but passes" 0 "warning.*colour" -- "$backdrop" check-config "$work/unknown.conf"
expect "missing config file" 2 "nothere.conf" -- "$backdrop" check-config "$work/nothere.conf"
"$backdrop" demo --frames 7 --size 1280x720 --out "$work/s.y4m" >/dev/null 2>&1
expect "contact sheet is a 1920x810 PNG (six frames beside their mattes)" 0 "^PNG 1920x810$" -- python3 -c "
import struct, sys
head = open(sys.argv[1], 'rb').read(24)
print(('PNG' if head[:8] == bytes([137, 80, 78, 71, 13, 10, 26, 10]) else 'not PNG') + ' %dx%d' % struct.unpack('>II', head[16:24]))" "$work/s-sheet.png"
expect "make-backdrops writes four PNGs" 0 "wrote 4 backdrops" -- "$backdrop" make-backdrops "$work/made" --size 320x180
expect "made backdrops form a clean backgrounds folder" 0 "ok" -- "$backdrop" check-config "$work/good.conf" --backgrounds "$work/made"
expect "make-backdrops --jpeg writes JPEGs the checker takes" 0 "ok; 4 backdrops in" -- bash -c "'$backdrop' make-backdrops '$work/made-jpeg' --size 320x180 --jpeg > /dev/null && ls '$work/made-jpeg'/*.jpg > /dev/null && '$backdrop' check-config /dev/null --backgrounds '$work/made-jpeg'"
expect "make-backdrops needs a folder" 2 "DIR" -- "$backdrop" make-backdrops
expect "render-message places a caption in the bottom band" 0 "region 684 938 552 88 of 1920x1080" -- "$backdrop" render-message "PHOTO SAVED" --out "$work/message.png"
expect "render-message draws countdown digits large" 0 "region 852 762 216 264 of 1920x1080" -- "$backdrop" render-message 3 --countdown --out "$work/digit.png"
expect "render-message wrote a PNG of the output size" 0 "^1920 1080$" -- python3 -c 'import struct,sys; print(*struct.unpack(">II", open(sys.argv[1], "rb").read(24)[16:24]))' "$work/message.png"
expect "render-message needs --out" 2 "--out" -- "$backdrop" render-message "HELLO"

mkdir -p "$work/bg"
cp "$good_png" "$work/bg/a-good.png"
head -c 100 "$good_png" > "$work/bg/b-truncated.png"
printf 'not an image at all' > "$work/bg/c-corrupt.png"
python3 - "$work/bg/d-huge.png" <<'PY'
import struct, sys, zlib
# A valid PNG header claiming 20000x20000 pixels: the decoder must refuse it from the header.
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
ihdr = struct.pack(">IIBBBBB", 20000, 20000, 8, 2, 0, 0, 0)
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))
PY
expect "bad backdrops are reported, good one loads" 2 "b-truncated.png.*|c-corrupt.png" -- "$backdrop" check-config "$work/good.conf" --backgrounds "$work/bg"
expect "huge backdrop refused from its header" 2 "d-huge.png.*(large|20000)" -- "$backdrop" check-config "$work/good.conf" --backgrounds "$work/bg"

mkdir -p "$work/rec/color" "$work/rec/depth"
printf '[depth]\nunit_mm = 1.0\nregistered = true\n' > "$work/rec/recording.ini"
expect "empty recording" 2 "no frames|empty" -- "$backdrop" render "$work/rec" --background "$good_png" --out "$work/o1"
cp "$good_png" "$work/rec/color/000000.png"; cp "$good_png" "$work/rec/color/000001.png"
cp "$good_png" "$work/rec/depth/000000.png"
expect "8-bit depth is refused (colour 1, without depth, would be skipped)" 2 "depth frames must be 16-bit" -- "$backdrop" render "$work/rec" --background "$good_png" --out "$work/o2"
# A small valid recording (8-bit RGB colour, 16-bit depth: a near square before a far wall).
python3 - "$work/good-rec" <<'PY'
import os, struct, sys, zlib
def png(path, width, height, depth_bits, colour_type, rows):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    raw = b"".join(b"\0" + row for row in rows)
    ihdr = struct.pack(">IIBBBBB", width, height, depth_bits, colour_type, 0, 0, 0)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
root = sys.argv[1]
os.makedirs(root + "/color"); os.makedirs(root + "/depth")
open(root + "/recording.ini", "w").write("[depth]\nunit_mm = 1.0\nregistered = true\n")
w, h = 64, 48
for frame in range(2):
    colour = [b"".join(bytes([x * 4 % 256, y * 5 % 256, 128]) for x in range(w)) for y in range(h)]
    depth = [b"".join(struct.pack(">H", 1200 if 16 <= x < 48 and 8 <= y < 44 else 3000) for x in range(w)) for y in range(h)]
    png("%s/color/%06d.png" % (root, frame), w, h, 8, 2, colour)
    png("%s/depth/%06d.png" % (root, frame), w, h, 16, 0, depth)
PY
expect "render a small recording" 0 "2 frames" -- "$backdrop" render "$work/good-rec" --background "$good_png" --out "$work/o0" --matte-out "$work/m0"
expect "near square is in the matte, wall is not" 0 "^255 0$" -- python3 -c "
import zlib,struct,sys
d=open('$work/m0/000000.png','rb').read()
ihdr=d[16:24]; w,h=struct.unpack('>II',ihdr)
i=8; idat=b''
while i<len(d):
    n=struct.unpack('>I',d[i:i+4])[0]; k=d[i+4:i+8]
    if k==b'IDAT': idat+=d[i+8:i+8+n]
    i+=12+n
raw=zlib.decompress(idat)
# Rows are filtered; the matte rows of interest use filter 0 or simple ones: unfilter properly.
stride=w; rows=[]; prev=bytearray(stride)
for y in range(h):
    f=raw[y*(stride+1)]; line=bytearray(raw[y*(stride+1)+1:(y+1)*(stride+1)])
    for x in range(stride):
        a=line[x-1] if x else 0; b=prev[x]; c=prev[x-1] if x else 0
        if f==1: line[x]=(line[x]+a)&255
        elif f==2: line[x]=(line[x]+b)&255
        elif f==3: line[x]=(line[x]+(a+b)//2)&255
        elif f==4:
            p=a+b-c; pa=abs(p-a); pb=abs(p-b); pc=abs(p-c)
            pr=a if pa<=pb and pa<=pc else (b if pb<=pc else c)
            line[x]=(line[x]+pr)&255
    rows.append(line); prev=line
print(rows[26][32], rows[2][2])
"
# Every matte path states whether depth is registered; run reprojects an unregistered recording
# from the recording's depth intrinsics and the config's colour intrinsics, as render does.
printf '[camera]\nsource = recording\nrecording = %s\n[output]\nsink = null\n' "$work/good-rec" > "$work/run-rec.conf"
expect "run says depth is registered" 0 "depth: registered" -- "$backdrop" run --config "$work/run-rec.conf" --frames 2
cp -r "$work/good-rec" "$work/unreg-rec"
printf '[depth]\nunit_mm = 1.0\nregistered = false\n[intrinsics]\nfx = 60\nfy = 60\ncx = 31.5\ncy = 23.5\n' > "$work/unreg-rec/recording.ini"
printf '[camera]\nsource = recording\nrecording = %s\nwidth = 64\nheight = 48\ncolor_fx = 70\ncolor_fy = 70\ncolor_cx = 31.5\ncolor_cy = 23.5\n[output]\nsink = null\n' "$work/unreg-rec" > "$work/run-unreg.conf"
expect "run reprojects unregistered depth" 0 "depth: not registered; reprojected" -- "$backdrop" run --config "$work/run-unreg.conf" --frames 2
expect "render reprojects unregistered depth" 0 "depth: not registered; reprojected" -- "$backdrop" render "$work/unreg-rec" --config "$work/run-unreg.conf" --background "$good_png" --out "$work/o5"
expect "missing backdrop image" 2 "missing.png" -- "$backdrop" render "$work/good-rec" --background "$work/missing.png" --out "$work/o3"
expect "corrupt backdrop image" 2 "c-corrupt.png" -- "$backdrop" render "$work/good-rec" --background "$work/bg/c-corrupt.png" --out "$work/o4"
expect "render needs --out" 2 "--out" -- "$backdrop" render "$work/rec" --background "$good_png"

if [ -d "$rgbd/pcl_five_people" ]; then
    expect "render a real recording" 0 "1 frame" -- "$backdrop" render "$rgbd/pcl_five_people" --background "$good_png" --out "$work/real" --matte-out "$work/realmatte"
    expect "render wrote frame and matte" 0 "000000.png" -- bash -c "ls '$work/real' && ls '$work/realmatte'"
else
    echo "SKIP render a real recording: $rgbd is absent"
fi
expect "record a hard scene with truth" 0 "3 frames.*truth" -- "$backdrop" record "$work/scene" --scene group --frames 3 --size 160x120
expect "record names the known scenes" 2 "unknown scene.*group-still" -- "$backdrop" record "$work/scene2" --scene nope
expect "eval scores against truth" 0 '"iou_mean".*"boundary_f_mean".*"flicker_levels_per_frame"' -- "$backdrop" eval "$work/scene" --truth "$work/scene/truth" --json
expect "eval needs --truth" 2 "--truth" -- "$backdrop" eval "$work/scene"
expect "eval names a missing truth mask" 2 "truth for frame 0" -- "$backdrop" eval "$work/scene" --truth "$work/nowhere"
expect "record re-records a recording source" 0 "2 frames" -- "$backdrop" record "$work/rerec" --config "$work/run-rec.conf" --frames 5
# record from the cameras ([camera] source = v4l2, the default): without video nodes it says so.
if ! ls /dev/video* >/dev/null 2>&1; then
    expect "record without a camera says so" 1 "cannot open the camera" -- "$backdrop" record "$work/live" --frames 2
else
    echo "SKIP record without a camera: this machine has video nodes (the board's vivid test records from them)"
fi
# The bench's JSON: every case a box runs is present with the fields other tools read; timings
# are printed, never asserted.
"$backdrop" bench --frames 1 --json > "$work/bench.json" 2>&1
expect "bench json: each case present with the contract fields" 0 "^ok 13$" -- python3 -c '
import json, sys
lines = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
want = {(c, "1920x1080", m) for c in ("640x480", "848x480", "1280x720", "1920x1080") for m in ("frame", "layer")}
want |= {("1280x720", "1280x720", m) for m in ("frame", "layer")}
want |= {(c, "1920x1080", "scaled-layer") for c in ("640x480", "848x480", "1280x720")}
got = {(l["camera"], l["size"], l["mode"]) for l in lines}
assert got == want and len(lines) == len(want), sorted(got ^ want)
for l in lines:
    for f in (l, l["all_workers"]):
        assert set(f["stages"]) == {"matte", "compose"} and set(f["stage_ratio_to_memcpy"]) == {"matte", "compose"}, f
        for k in ("pipeline_ns_per_px", "memcpy_ns_per_px", "ratio_to_memcpy", "threads"):
            assert isinstance(f[k], (int, float)), k
    assert l["threads"] == 1 and l["all_workers"]["threads"] >= 1
    assert set(l["stage_bytes_per_frame"]) == {"matte", "compose"} and l["bytes_per_frame"] > 0
print("ok", len(lines))' "$work/bench.json"
expect "bench's floor moves the case's bytes: 1080p CPU blend reads 8 B/px and writes 4" 0 '"camera": "1920x1080", "depth": "1920x1080", "mode": "frame", "fit": "fill", "bytes_per_frame": 24883200, .*"memcpy_bytes_per_px": 6.000' -- cat "$work/bench.json"
expect "bench one case by --camera and --mode" 0 '^\{"size": "1920x1080", "camera": "640x480", "depth": "640x480", "mode": "layer"' -- "$backdrop" bench --camera 640x480 --mode layer --frames 1 --json
expect "bench breaks the matte into its stages (ns per camera pixel)" 0 '"matte_stages_ns_per_camera_px": \{"depth": [0-9.]+, "band": [0-9.]+, "floor_fit": .*"decontamination": [0-9.]+\}' -- "$backdrop" bench --camera 640x480 --mode scaled-layer --frames 1 --json
expect "bench names a bad mode" 2 "--mode blend: expected frame" -- "$backdrop" bench --mode blend
expect "bench times a letterboxed case by --fit" 0 '^\{"size": "1920x1080", "camera": "848x480", "depth": "848x480", "mode": "frame", "fit": "fit"' -- "$backdrop" bench --camera 848x480 --mode frame --fit fit --frames 1 --json
expect "bench names a bad fit" 2 "--fit wide: expected fill, fit or stretch" -- "$backdrop" bench --fit wide

# The README's module list names only modules that exist.
expect "README names only existing modules" 0 "^ok$" -- bash -c "cd '$repo' && missing=\$(grep '^| \`Sources/\`' README.md | grep -o '\`[A-Za-z]*\`' | tr -d '\`' | while read m; do [ -d Sources/\$m ] || echo \$m; done); [ -z \"\$missing\" ] && echo ok || echo \"missing: \$missing\""

# Sizes a stage cannot hold are refused by the config check, never reached as a crash.
printf '[camera]\nsource = synthetic\ncolor_format = mjpeg\nwidth = 641\n[output]\nsink = null\n' > "$work/oddcam.conf"
expect "odd synthetic mjpeg width: config error" 2 "width = 641.*even width" -- "$backdrop" run --config "$work/oddcam.conf" --frames 2
printf '[camera]\nsource = synthetic\n[output]\nsink = file\npath = %s/odd.y4m\nwidth = 321\nheight = 240\n' "$work" > "$work/oddout.conf"
expect "odd .y4m output width: config error" 2 "width = 321.*must be even" -- "$backdrop" run --config "$work/oddout.conf" --frames 2
printf '[output]\nwidth = 321\nheight = 240\n' > "$work/odddemo.conf"
expect "demo to .y4m with an odd configured size: an error" 2 "width = 321.*even" -- "$backdrop" demo --config "$work/odddemo.conf" --frames 2 --out "$work/odd-demo.y4m"

# check-config --backgrounds counts and lists every bad file (a long list is not cut short), says
# "no usable image" apart from the count, and counts in words that agree with the number.
mkdir -p "$work/bad10" "$work/one" "$work/onebad"
for i in 0 1 2 3 4 5 6 7 8 9; do printf 'junk %d' $i > "$work/bad10/bad-$i-with-a-name-long-enough-to-make-the-list-long.png"; done
expect "ten bad backdrops: ten counted" 2 "10 backdrops would be skipped" -- "$backdrop" check-config "$work/good.conf" --backgrounds "$work/bad10"
expect "ten bad backdrops: ten listed" 0 "^10$" -- bash -c "'$backdrop' check-config '$work/good.conf' --backgrounds '$work/bad10' 2>&1 | grep -c 'skipped.*bad-[0-9]-with'"
expect "no usable image is said, not counted as a file" 2 "no usable image" -- "$backdrop" check-config "$work/good.conf" --backgrounds "$work/bad10"
cp "$good_png" "$work/one/only.png"
expect "one backdrop in the singular" 0 "ok; 1 backdrop in " -- "$backdrop" check-config "$work/good.conf" --backgrounds "$work/one"
cp "$good_png" "$work/onebad/good.png"; printf 'x' > "$work/onebad/bad.png"
expect "bench reports the backdrop switch time" 0 "backdrop switch, 1 backdrop.*shown after p50 .* ms.*prepared in" -- "$backdrop" bench --backgrounds "$work/one" --size 320x240
expect "one skipped in the singular" 2 ": 1 backdrop would be skipped" -- "$backdrop" check-config "$work/good.conf" --backgrounds "$work/onebad"

# Control characters from files are shown escaped, never sent to the terminal.
printf '[matte]\nmode = \033[2Jauto\n' > "$work/escape.conf"
expect "control bytes in a config value are escaped" 2 'mode.*\\x1b\[2Jauto' -- "$backdrop" check-config "$work/escape.conf"
expect "no raw escape byte reaches the terminal (config)" 0 "^0$" -- bash -c "'$backdrop' check-config '$work/escape.conf' 2>&1 | tr -dc '\033' | wc -c"
mkdir -p "$work/escbg"; printf 'x' > "$work/escbg/red"$'\033'"[31m.png"
expect "no raw escape byte reaches the terminal (file name)" 0 "^0$" -- bash -c "'$backdrop' check-config '$work/good.conf' --backgrounds '$work/escbg' 2>&1 | tr -dc '\033' | wc -c"

# A 64-megapixel backdrop (192 MiB decoded) on a box without that much memory: a message, not a crash.
# Under AddressSanitizer the address-space limit cannot apply (its shadow memory reserves terabytes).
if [ -z "${BACKDROP_SANITIZED:-}" ]; then
    mkdir -p "$work/huge"
    python3 - "$work/huge/sixty-four-megapixels.png" <<'PY'
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
side = 8192
packer = zlib.compressobj(9)
row = b"\0" + b"\x40\x80\xc0" * side
idat = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
ihdr = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b""))
PY
    expect "64-megapixel backdrop without the memory: a message" 2 "sixty-four-megapixels.png: not enough memory to decode a 8192x8192" -- bash -c "ulimit -v 180000; '$backdrop' check-config '$work/good.conf' --backgrounds '$work/huge'"
    # ENOMEM at start-up: the frame memory a run or a demo needs is not there. A message naming what
    # could not be had, exit status 1 (a runtime failure), no crash.
    # (The owners of frame memory are unit-tested one by one in StartUpMemoryTests with the
    # allocation refused by the fault injector.)
    printf '[camera]\nsource = synthetic\nwidth = 64\nheight = 48\n[output]\nsink = null\nwidth = 8192\nheight = 8192\n' > "$work/huge-output.conf"
    expect "run without memory for its frames: a message, exit 1" 1 "not enough memory for the backdrops at 8192x8192: allocating [0-9]+ bytes of frame memory" -- bash -c "ulimit -v 180000; '$backdrop' run --config '$work/huge-output.conf' --frames 1"
    expect "demo without memory for its backdrops: a message, exit 1" 1 "not enough memory for the backdrops at 8192x8192" -- bash -c "ulimit -v 180000; '$backdrop' demo --frames 1 --size 8192x8192 --out '$work/oom.y4m'"
    # A valid 8192x8192 camera: the synthetic scene's wall image (192 MiB) is the first thing it
    # allocates. It was a Swift allocation and trapped (SIGABRT) under this limit; now it comes
    # from the fallible funnel and is a message, exit 1.
    printf '[camera]\nsource = synthetic\nwidth = 8192\nheight = 8192\n[output]\nsink = null\nwidth = 64\nheight = 48\n' > "$work/huge-camera.conf"
    expect "run with a camera too big for the memory: a message, exit 1" 1 "not enough memory for the 8192x8192 synthetic camera's frames: allocating 201326592 bytes of frame memory" -- bash -c "ulimit -v 180000; '$backdrop' run --config '$work/huge-camera.conf' --frames 1"
    expect "record of a scene too big for the memory: a message, exit 1" 1 "not enough memory for the 8192x8192 synthetic scene: allocating 201326592 bytes of frame memory" -- bash -c "ulimit -v 180000; '$backdrop' record '$work/huge-recording' --config '$work/huge-camera.conf' --frames 1"
    # The camera's frames fit but the matte's planes (about 36 bytes a pixel, 600 MB at
    # 4096x4096) do not: they were Swift allocations and trapped (SIGABRT, exit 134) anywhere from
    # about 400 to 800 MB of address space; now a message naming the sizes, exit 1.
    printf '[camera]\nsource = synthetic\nwidth = 4096\nheight = 4096\n[output]\nsink = null\nwidth = 64\nheight = 48\n' > "$work/big-camera.conf"
    expect "run whose matte does not fit the memory: a message, exit 1" 1 "not enough memory for the matte and compose of a 4096x4096 camera \\(depth 4096x4096\\) on a 64x48 output: allocating [0-9]+ bytes of frame memory" -- bash -c "ulimit -v 600000; '$backdrop' run --config '$work/big-camera.conf' --frames 1"
else
    echo "SKIP 64-megapixel backdrop under a memory limit: sanitizer build"
    echo "SKIP start-up without memory (run, demo, a huge camera): sanitizer build"
fi

# The USB stick import (contract in the README): good stick, same stick again, nothing usable,
# a refused config beside good backdrops, rollback.
mkdir -p "$work/stick/backdrop/backgrounds" "$work/empty-stick"
cp "$good_png" "$work/stick/backdrop/backgrounds/a.png"
printf '[matte]\nfar_mm = 2500\n' > "$work/stick/backdrop/backdrop.conf"
expect "import takes a good stick" 0 "generation 000001 is current" -- "$backdrop" import "$work/stick" --data "$work/data" --config "$work/nothere.conf"
expect "imported generation passes check-config" 0 "ok; 1 backdrop in" -- "$backdrop" check-config "$work/data/current/backdrop.conf" --backgrounds "$work/data/current/backgrounds"
expect "the same stick again changes nothing (exit 2: no new generation)" 2 "nothing changed" -- "$backdrop" import "$work/stick" --data "$work/data"
expect "a stick with nothing usable" 2 "no backdrop/ folder" -- "$backdrop" import "$work/empty-stick" --data "$work/data"
printf '[matte]\nfar_mm = 90000\n' > "$work/stick/backdrop/backdrop.conf"
cp "$(ls "$work"/frames/*.png | tail -1)" "$work/stick/backdrop/backgrounds/b.png"
expect "a refused config keeps the current one" 0 "far_mm = 90000: out of range, allowed 100..10000" -- "$backdrop" import "$work/stick" --data "$work/data"
# The outcome for the booth's screen after every import (ImportNotice): the fourth import, status 0.
expect "import leaves its outcome for the screen" 0 "^backdrop-import-outcome 1 serial 4 status 0 text 2 BACKDROPS IN, CONFIG REFUSED, 1 SKIPPED $" -- bash -c "tr '\n' ' ' < '$work/data/import-outcome'"
# The photo export leaves its outcome for the screen too (ImportNotice, DIR/export-outcome): the
# copied count, then nothing new; a stick that did not ask for photos leaves none (exit 2, the
# import's text stays). After the unmount the unit's stick-released says the stick can be pulled.
mkdir -p "$work/data/photos" "$work/stick/backdrop/photos"
cp "$good_png" "$work/data/photos/photo-1.png"; cp "$good_png" "$work/data/photos/photo-2.png"
expect "export-photos copies the box's photos" 0 "2 photos copied" -- "$backdrop" export-photos "$work/stick" --data "$work/data"
expect "export-photos leaves its outcome for the screen" 0 "^backdrop-import-outcome 1 serial 1 status 0 text 2 PHOTOS COPIED $" -- bash -c "tr '\n' ' ' < '$work/data/export-outcome'"
expect "export-photos again: nothing new" 0 "0 photos copied" -- "$backdrop" export-photos "$work/stick" --data "$work/data"
expect "export-photos says nothing new on the screen" 0 "^backdrop-import-outcome 1 serial 2 status 0 text NO NEW PHOTOS TO COPY $" -- bash -c "tr '\n' ' ' < '$work/data/export-outcome'"
expect "export-photos onto a stick without photos/" 2 "no backdrop/photos/ on the stick" -- "$backdrop" export-photos "$work/empty-stick" --data "$work/data"
expect "a stick without photos/ leaves the screen's outcome as it was" 0 "serial 2 status 0 text NO NEW PHOTOS TO COPY $" -- bash -c "tr '\n' ' ' < '$work/data/export-outcome'"
expect "stick-released says the stick can be pulled" 0 "on screen: YOU CAN REMOVE THE STICK" -- "$backdrop" stick-released --data "$work/data"
expect "stick-released leaves it for the screen" 0 "^backdrop-import-outcome 1 serial 1 status 0 text YOU CAN REMOVE THE STICK $" -- bash -c "tr '\n' ' ' < '$work/data/unmount-outcome'"
expect "the import's outcome is untouched by the later steps" 0 "serial 4 status 0 text 2 BACKDROPS IN, CONFIG REFUSED, 1 SKIPPED $" -- bash -c "tr '\n' ' ' < '$work/data/import-outcome'"
expect "rollback goes back" 0 "generation 000001 is current again" -- "$backdrop" rollback --data "$work/data"
expect "rollback on an empty data folder" 2 "no previous generation" -- "$backdrop" rollback --data "$work/fresh-data"


# ---- Issue 36: a command line a user can trust. Each check below failed on the binary before it. ----

# 1. Outputs never touch inputs: an output that is, contains or lies inside an input (resolved: `..`
# and symlinks do not slip through) or another output is refused before anything is written.
colour_sum() { cat "$1"/color/*.png | md5sum; }
before=$(colour_sum "$work/good-rec")
expect "render --out inside the recording is refused" 2 "--out .*lies inside the input RECORDING.*nothing was written" -- "$backdrop" render "$work/good-rec" --background "$good_png" --out "$work/good-rec/color"
expect "... and the recording's colour frames are untouched" 0 "^same$" -- bash -c "[ \"\$(cat '$work'/good-rec/color/*.png | md5sum)\" = '$before' ] && echo same"
ln -s "$work/good-rec" "$work/rec-link"
expect "an output reached through a symlink is refused" 2 "lies inside the input RECORDING" -- "$backdrop" render "$work/good-rec" --background "$good_png" --out "$work/rec-link/depth"
expect "an output reached through .. is refused" 2 "lies inside the input RECORDING" -- "$backdrop" render "$work/good-rec" --background "$good_png" --out "$work/o-dots/../good-rec/new"
expect "an output containing the input is refused" 2 "contains the input RECORDING" -- "$backdrop" render "$work/good-rec" --background "$good_png" --out "$work"
expect "--out equal to --matte-out is refused" 2 "--out .* is --matte-out" -- "$backdrop" render "$work/good-rec" --background "$good_png" --out "$work/same-out" --matte-out "$work/same-out/"
cp -r "$work/scene/truth" "$work/truth-copy"
expect "eval --matte-out into its truth folder is refused" 2 "--matte-out .* is the input --truth" -- "$backdrop" eval "$work/scene" --truth "$work/truth-copy" --matte-out "$work/truth-copy"
printf '[background]\ndirectory = %s/made\n' "$work" > "$work/made-bg.conf"
expect "demo --out onto its backdrops is refused" 2 "--out .* is the input \[background\] directory" -- "$backdrop" demo --frames 1 --config "$work/made-bg.conf" --out "$work/made"
# A folder that is not the command's own earlier output is refused unless --force, which empties it.
"$backdrop" record "$work/old" --scene group --frames 4 --size 64x48 >/dev/null 2>&1
expect "render into a folder holding a recording is refused" 2 "--out .*already holds.*did not write.*--force" -- "$backdrop" render "$work/good-rec" --background "$good_png" --out "$work/old"
mkdir -p "$work/mine"; echo keep > "$work/mine/notes.txt"
expect "a re-record into a folder of other files is refused" 2 "OUT .*already holds 1 entry \(e.g. notes.txt\).*--force" -- "$backdrop" record "$work/mine" --scene group --frames 2 --size 64x48
expect "... and the file is still there" 0 "^keep$" -- cat "$work/mine/notes.txt"
expect "--force empties it first" 0 "2 frames" -- "$backdrop" record "$work/mine" --scene group --frames 2 --size 64x48 --force
expect "... so only the new recording is there" 0 "^color depth recording.ini truth $" -- bash -c "ls '$work/mine' | tr '\n' ' '"
expect "a re-record over its own earlier output leaves no stale frame" 0 "^2 2 2$" -- bash -c "'$backdrop' record '$work/old' --scene group-unregistered --frames 2 --size 64x48 >/dev/null 2>&1; echo \$(ls '$work/old/color' | wc -l) \$(ls '$work/old/truth' | wc -l) \$(ls '$work/old/depth' | wc -l)"
expect "... and a registered re-record drops the old camera.conf" 0 "^gone$" -- bash -c "'$backdrop' record '$work/old' --scene group --frames 2 --size 64x48 >/dev/null 2>&1; [ -e '$work/old/camera.conf' ] && echo stale || echo gone"

# 2. Recordings pair colour and depth by frame number; a frame without its partner is skipped and
# counted; registered depth of another size is refused naming both sizes unless recording.ini states it.
python3 - "$work" <<'PY'
import os, struct, sys, zlib
def png(path, width, height, depth_bits, colour_type, rows):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    raw = b"".join(b"\0" + row for row in rows)
    ihdr = struct.pack(">IIBBBBB", width, height, depth_bits, colour_type, 0, 0, 0)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
def recording(root, colour_frames, depth_frames, depth_size=(64, 48), ini="[depth]\nunit_mm = 1.0\nregistered = true\n"):
    os.makedirs(root + "/color"); os.makedirs(root + "/depth")
    open(root + "/recording.ini", "w").write(ini)
    for n in colour_frames:
        png("%s/color/%06d.png" % (root, n), 64, 48, 8, 2, [bytes([n * 40 % 256, y * 5, 128]) * 64 for y in range(48)])
    w, h = depth_size
    for n in depth_frames:
        # Each depth frame puts the near square somewhere else, so a mispairing changes the matte.
        rows = [b"".join(struct.pack(">H", 1200 if n * 4 <= x * 64 // w < n * 4 + 24 and 8 <= y * 48 // h < 44 else 3000) for x in range(w)) for y in range(h)]
        png("%s/depth/%06d.png" % (root, n), w, h, 16, 0, rows)
work = sys.argv[1]
recording(work + "/gappy", [0, 1, 2], [0, 2, 7])
recording(work + "/only2", [2], [2])
recording(work + "/short-depth", [0], [0], depth_size=(64, 24))
recording(work + "/stated-depth", [0], [0], depth_size=(64, 24), ini="[depth]\nregistered = true\nwidth = 64\nheight = 24\n")
PY
expect "frames without a partner are skipped and counted in one line" 0 "skipped 1 colour frame without depth \(1\) and 1 depth frame without colour \(7\)" -- "$backdrop" render "$work/gappy" --background "$good_png" --out "$work/gappy-out" --matte-out "$work/gappy-matte"
expect "... the outputs keep the frame numbers" 0 "^000000.png 000002.png $" -- bash -c "ls '$work/gappy-out' | tr '\n' ' '"
expect "... and frame 2 is matted by depth 2, as alone" 0 "^same$" -- bash -c "'$backdrop' render '$work/only2' --background '$good_png' --out '$work/only2-out' --matte-out '$work/only2-matte' >/dev/null 2>&1; cmp -s '$work/gappy-matte/000002.png' '$work/only2-matte/000002.png' && echo same"
expect "depth of another size is refused with both sizes" 2 "depth is 64x24 but colour is 64x48" -- "$backdrop" render "$work/short-depth" --background "$good_png" --out "$work/short-out"
expect "depth of a size recording.ini states is resampled, and said" 0 "depth: 64x24 resampled to the colour's 64x48, as recording.ini states" -- "$backdrop" render "$work/stated-depth" --background "$good_png" --out "$work/stated-out"

# 3. check-config is the device's validation, whole. run's own rules give the configs (one per
# source and sink, a recording missing or unset): check-config must refuse exactly those run
# refuses as invalid (exit 2). A run the file allows may fail at runtime here (no camera) or wait for a
# display: the timeout ends it, which is not a refusal.
mkdir -p "$work/rules"
expect "check-config and run agree on every config run's rules produce" 0 "^agree [0-9]+, run refused [1-9][0-9]*$" -- bash -c "
cd '$work/rules' && '$backdrop' check-config --run-rules > samples.txt || exit 1
csplit -s -z -f sample- samples.txt '/^# /' '{*}' || exit 1
agree=0 refused=0
for f in sample-*; do
    timeout 10 '$backdrop' run --config \$f --frames 1 >/dev/null 2>&1; r=\$?
    '$backdrop' check-config \$f >/dev/null 2>&1; c=\$?
    if [ \$r -eq 2 ]; then refused=\$((refused + 1)); fi
    if { [ \$r -eq 2 ] && [ \$c -eq 2 ]; } || { [ \$r -ne 2 ] && [ \$c -eq 0 ]; }; then agree=\$((agree + 1)); else echo \"disagree on \$(head -1 \$f): run \$r, check-config \$c\"; exit 1; fi
done
echo agree \$agree, run refused \$refused"
printf '[camera]\nsource = recording\nrecording = %s\n[output]\nsink = file\npath = %s/color\n' "$work/good-rec" "$work/good-rec" > "$work/run-into-rec.conf"
expect "run's file sink inside its recording is refused, by check-config too" 2 "path = .*/good-rec/color is, holds or lies inside \[camera\] recording" -- "$backdrop" check-config "$work/run-into-rec.conf"
printf '[camera]\nsource = synthetic\n' > "$work/synthetic-kms.conf"
expect "check-config refuses synthetic with the default kms sink, as run does" 2 "sink = kms needs \[camera\] source = v4l2" -- "$backdrop" check-config "$work/synthetic-kms.conf"
python3 -c "print('[matte]\nfar_mm = 2500\n' + '; padding\n' * 10000)" > "$work/big.conf"
expect "a 100 KB config is fine for the box" 0 "big.conf: ok" -- "$backdrop" check-config "$work/big.conf"
expect "... but --stick refuses it with the stick's limit" 2 "big.conf is [0-9]+ bytes; a stick's backdrop.conf is a small text file of at most 65536 bytes" -- "$backdrop" check-config "$work/big.conf" --stick
printf '[background]\ndirectory = /srv\n' > "$work/path.conf"
expect "--stick refuses a path key, as an import does" 2 "cannot set paths" -- "$backdrop" check-config "$work/path.conf" --stick
printf '[matt]\nfar_mm = 2500\n[matte]\nfar_mn = 2\n' > "$work/typo.conf"
expect "unknown sections and keys end in ok, with N warnings" 0 "typo.conf: ok, with 2 warnings$" -- "$backdrop" check-config "$work/typo.conf"
expect "a PNG given as a config is refused in one line" 0 "^1 .*is not a text file" -- bash -c "'$backdrop' check-config '$good_png' 2>&1 | grep -v '^see backdrop' | { n=0; while IFS= read -r l; do n=\$((n+1)); last=\$l; done; echo \"\$n \$last\"; }"
head -c 10485760 /dev/zero | tr '\0' ';' > "$work/huge.conf"
expect "a 10 MB config is refused by its size" 2 "huge.conf is 10485760 bytes; a config is a small text file" -- "$backdrop" check-config "$work/huge.conf"

# 4. A first generation made from the box's own config (the README's manual install copies
# config/backdrop.conf, which names /var/lib/backdrop/backgrounds) shows that generation's backdrops.
mkdir -p "$work/own-stick/backdrop/backgrounds"
cp "$good_png" "$work/own-stick/backdrop/backgrounds/a.png"
sed -e 's/^source = v4l2$/source = synthetic/' -e 's/^sink = kms$/sink = null/' "$repo/config/backdrop.conf" > "$work/box-own.conf"
"$backdrop" import "$work/own-stick" --data "$work/own-data" --config "$work/box-own.conf" >/dev/null 2>&1
expect "a first generation from the box's own config shows its own backdrops" 0 "backdrops: 1 from $work/own-data/current/backgrounds" -- "$backdrop" run --config "$work/own-data/current/backdrop.conf" --frames 1

# 5. One rule for exit codes, every command: usage 2, bad input 2, an output that cannot be written
# 1 (nothing can be made under /proc, even as root), help 0. One row per case: CODE|ARGUMENTS.
printf '[camera]\nsource = synthetic\nwidth = 64\nheight = 48\n[output]\nsink = file\npath = /proc/backdrop-cli/run.y4m\nwidth = 64\nheight = 48\n' > "$work/unwritable-run.conf"
mkdir -p "$work/photo-stick/backdrop/photos"
while IFS='|' read -r code args; do
    [ -z "$code" ] && continue
    eval "set -- $args"
    expect "exit $code: backdrop $args" "$code" "" -- "$backdrop" "$@"
done <<ROWS
2|frobnicate
2|demo --bogus
2|render --bogus
2|check-config --bogus
2|bench --bogus
2|run --bogus
2|make-backdrops --bogus
2|eval --bogus
2|record --bogus
2|render-message --bogus
2|import --bogus
2|rollback --bogus
2|export-photos --bogus
2|stick-released --bogus
2|looks --bogus
2|cameras --bogus
0|help demo
0|--version
2|demo --frames 1 --config '$work/nothere.conf'
2|render '$work/nowhere' --background '$good_png' --out '$work/x1'
2|check-config '$work/nothere.conf'
2|run --config '$work/nothere.conf'
2|eval '$work/nowhere' --truth '$work/scene/truth'
2|record '$work/x2' --config '$work/nothere.conf'
2|import '$work/nowhere' --data '$work/x3'
2|export-photos '$work/photo-stick' --data '$work/data' --photos '$work/no-such-photos'
2|make-backdrops
2|render-message HELLO
1|demo --frames 1 --size 64x48 --out /proc/backdrop-cli/d.y4m
1|demo --frames 1 --size 64x48 --out /proc/backdrop-cli/frames
1|render '$work/good-rec' --background '$good_png' --out /proc/backdrop-cli/r
1|eval '$work/scene' --truth '$work/scene/truth' --matte-out /proc/backdrop-cli/m
1|record /proc/backdrop-cli/rec --scene group --frames 1 --size 64x48
1|make-backdrops /proc/backdrop-cli/b --size 64x48
1|render-message HELLO --out /proc/backdrop-cli/m.png
1|run --config '$work/unwritable-run.conf' --frames 1
1|import '$work/stick' --data /proc/backdrop-cli/data
1|rollback --data /proc/backdrop-cli/data
1|stick-released --data /proc/backdrop-cli/data
ROWS
# Every command's help, its usage line in the README and the options its parser takes are one set.
expect "help texts, the README and the binary's options agree" 0 "^ok (1[3-9]|[2-9][0-9])$" -- python3 - "$backdrop" "$repo/README.md" <<'PY'
import re, subprocess, sys
backdrop, readme = sys.argv[1], open(sys.argv[2]).read()
overview = subprocess.run([backdrop, "--help"], capture_output=True, text=True).stdout
commands = re.findall(r"^  ([a-z-]+)  +\S", overview.split("commands:")[1], re.M)
block = readme.split("## The commands of the binary")[1].split("```")[1]
bad = []
for c in commands:
    help_text = subprocess.run([backdrop, c, "--help"], capture_output=True, text=True).stdout
    if help_text != subprocess.run([backdrop, "help", c], capture_output=True, text=True).stdout:
        bad.append(f"{c}: help {c} differs from {c} --help")
    error = subprocess.run([backdrop, c, "--no-such-option"], capture_output=True, text=True).stderr
    known = set(re.findall(r"--[a-z-]+", error.split("known:")[1].splitlines()[0])) if "known:" in error else set()
    usage = help_text.split("\n\n")[0]
    described = set(re.findall(r"^ +(--[a-z-]+)", help_text, re.M))
    in_usage = set(re.findall(r"--[a-z-]+", usage))
    in_readme = set(re.findall(r"--[a-z-]+", " ".join(l for l in block.splitlines() if l.startswith(f"backdrop {c} "))))
    for name, got in (("described in --help", described), ("in the usage line", in_usage), ("in the README", in_readme)):
        if got != known:
            bad.append(f"{c}: options {name} {sorted(got)} but the binary takes {sorted(known)}")
readme_commands = {l.split()[1] for l in block.splitlines() if l.startswith("backdrop ") and not l.startswith("backdrop --")}
if readme_commands != set(commands):
    bad.append(f"README lists {sorted(readme_commands)}, --help {sorted(commands)}")
print("\n".join(bad) if bad else f"ok {len(commands)}")
PY

# 6. A progress line on a terminal (frames done, rate, time left), none in a pipe or with --quiet;
# Ctrl-C finishes the frame in hand and still writes the summary and the contact sheet.
in_pty() {  # runs the command with stderr on a pseudo-terminal; prints what the terminal got
    python3 - "$@" <<'PY'
import os, pty, subprocess, sys
master, slave = pty.openpty()
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=slave)
os.close(slave)
chunks = []
while True:
    try:
        data = os.read(master, 4096)
    except OSError:
        break
    if not data:
        break
    chunks.append(data)
process.wait()
sys.stdout.write(b"".join(chunks).decode("utf-8", "replace").replace("\r", "<CR>").replace("\x1b", "<ESC>"))
PY
}
expect "record draws a progress line on a terminal" 0 "<CR>record: 1/3 frames, [0-9]+\.[0-9] fps, [0-9]+ s left<ESC>\[K" -- in_pty "$backdrop" record "$work/pty-rec" --scene group --frames 3 --size 64x48
expect "render draws one too" 0 "<CR>render: 1/2 frames, [0-9]+\.[0-9] fps" -- in_pty "$backdrop" render "$work/good-rec" --background "$good_png" --out "$work/pty-render"
expect "eval draws one too" 0 "<CR>eval: 1/3 frames" -- in_pty "$backdrop" eval "$work/scene" --truth "$work/scene/truth"
expect "demo draws one too" 0 "<CR>demo: [0-9]+/3 frames" -- in_pty "$backdrop" demo --frames 3 --size 64x48 --out "$work/pty-demo.y4m"
expect "import counts the stick's files on a terminal" 0 "<CR>import: 1 files read" -- in_pty "$backdrop" import "$work/own-stick" --data "$work/pty-data" --config "$work/nothere.conf"
expect "--quiet: no progress line on a terminal" 0 "^none$" -- bash -c "$(declare -f in_pty); in_pty '$backdrop' record '$work/pty-rec' --scene group --frames 3 --size 64x48 --quiet | grep -q '1/3 frames' && echo drawn || echo none"
expect "no progress line in a pipe" 0 "^none$" -- bash -c "'$backdrop' record '$work/pty-rec' --scene group --frames 3 --size 64x48 2>&1 | tr '\r' '\n' | grep -q '1/3 frames' && echo drawn || echo none"
# (Started from Python with SIGINT at its default: a shell's background job would have it ignored.)
expect "Ctrl-C on demo: exit 1, the summary, and the contact sheet of the frames done" 0 "^1 latency stopped sheet$" -- python3 - "$backdrop" "$work" <<'PY'
import os, signal, subprocess, sys, time
backdrop, work = sys.argv[1:3]
video = work + "/int.y4m"
demo = subprocess.Popen([backdrop, "demo", "--frames", "100000", "--size", "64x48", "--out", video],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
for _ in range(300):  # until a few frames are out (30 s at most)
    if os.path.exists(video) and open(video, "rb").read().count(b"FRAME") >= 3:
        break
    time.sleep(0.1)
demo.send_signal(signal.SIGINT)
try:
    output, _ = demo.communicate(timeout=60)
except subprocess.TimeoutExpired:
    demo.kill()
    output, _ = demo.communicate()
words = [str(demo.returncode)]
words += ["latency"] if "latency end-to-end" in output else []
words += ["stopped"] if "stopped by SIGINT after" in output and "of 100000 frames" in output else []
sheet = work + "/int-sheet.png"
words += ["sheet"] if os.path.exists(sheet) and os.path.getsize(sheet) > 0 else []
print(" ".join(words))
PY

# 7. Pictures: eval --report (the worst frames' overlay, IoU per frame), render --sheet, and bench's
# frames-per-second line per case.
png_info() {  # prints WIDTH HEIGHT and whether a pixel of the given RGB is in an 8-bit RGB PNG
    python3 - "$@" <<'PY'
import struct, sys, zlib
path, want = sys.argv[1], tuple(int(v) for v in sys.argv[2:5]) if len(sys.argv) > 4 else None
data = open(path, "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
width, height, bits, kind = struct.unpack(">IIBB", data[16:26])
idat, i = b"", 8
while i < len(data):
    n = struct.unpack(">I", data[i:i + 4])[0]
    if data[i + 4:i + 8] == b"IDAT": idat += data[i + 8:i + 8 + n]
    i += 12 + n
channels = {2: 3, 6: 4, 0: 1}[kind]
stride, raw, prev, found = width * channels, zlib.decompress(idat), bytearray(width * channels), False
for y in range(height):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - channels] if x >= channels else 0; b = prev[x]; c = prev[x - channels] if x >= channels else 0
        p = a + b - c
        line[x] = (line[x] + [0, a, b, (a + b) // 2, a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else (b if abs(p - b) <= abs(p - c) else c)][f]) & 255
    if want and channels >= 3:
        found = found or any(tuple(line[x:x + 3]) == want for x in range(0, stride, channels))
    prev = line
print(width, height, ("has" if found else "lacks") if want else "")
PY
}
expect "eval --report writes the worst frames' overlays" 0 "worst-1-000[0-9]{3}.png, worst-2-.*worst-3-.*iou.png" -- "$backdrop" eval "$work/scene" --truth "$work/scene/truth" --report "$work/report"
expect "... the worst shows missed pixels in red" 0 "^160 120 has$" -- bash -c "$(declare -f png_info); png_info \$(ls '$work'/report/worst-1-*.png) 255 0 0"
expect "... and the IoU plot is a PNG a column per frame wide" 0 "^600 200 $" -- bash -c "$(declare -f png_info); png_info '$work/report/iou.png'"
expect "render --sheet writes a contact sheet" 0 "contact sheet $work/sheet.png" -- "$backdrop" render "$work/good-rec" --background "$good_png" --out "$work/sheet-out" --sheet "$work/sheet.png"
expect "... of six thumbnails beside their mattes" 0 "^1920 1080 $" -- bash -c "$(declare -f png_info); png_info '$work/sheet.png'"
expect "bench ends with frames per second per case" 0 "^summary, frames per second on this machine.*\|  camera 640x480 -> 1920x1080, .*: [0-9]+\.[0-9] fps$" -- bash -c "'$backdrop' bench --camera 640x480 --mode layer --frames 1 2>/dev/null | tail -2 | paste -sd '|'"

# 8. --version names the revision and the build date; demo makes out/ in a fresh folder; an output
# name of a kind this build cannot write is refused.
expect "--version: revision and build date" 0 "^backdrop revision [0-9a-f]{12}(-dirty)?, built 20[0-9]{2}-[0-9]{2}-[0-9]{2}$" -- "$backdrop" --version
mkdir -p "$work/fresh"
expect "demo in a fresh folder makes out/" 0 "wrote 2 frames to out/demo.y4m" -- bash -c "cd '$work/fresh' && '$backdrop' demo --frames 2 --size 64x48"
expect "demo --out x.mp4 is refused, not a folder of PNGs" 2 "x.mp4: this build writes a .y4m video.*.mp4 is neither" -- "$backdrop" demo --frames 2 --size 64x48 --out "$work/x.mp4"
expect "... and nothing was made" 0 "^absent$" -- bash -c "[ -e '$work/x.mp4' ] && echo made || echo absent"
expect "render-message --out x.jpg is refused" 2 "--out .*x.jpg: this build writes .png" -- "$backdrop" render-message HI --out "$work/x.jpg"

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
