#!/usr/bin/env bash
# Proves the Embedded firmware behaves exactly like the host SwiftPM build: builds the firmware for
# amd64 and arm64, runs the same commands with all three binaries (arm64 under qemu-aarch64 with its
# sysroot) and requires identical exit codes, identical help and error text, and byte-identical output
# files. A difference names the first differing frame and pixel. Called by `scripts/firmware.sh test`.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
export PATH="/opt/swift/usr/bin:$PATH"
fw="$root/scripts/firmware.sh"
compare="$root/scripts/firmware-compare.py"
data=${FIRMWARE_RGBD:-$root/../shared/data/rgbd}
work="$root/build/firmware/test"
passed=0
failed=0

pass() { echo "PASS $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
finish() {
    echo "firmware: $passed passed, $failed failed"
    exit $((failed == 0 ? 0 : 1))
}

# The two arches build at once: each compiles its modules one after the other, and a whole-module
# swiftc uses one core, so one build at a time left the other core idle for about four minutes of a
# cold run. Their packages and the arm64 sysroot come first, one caller at a time (apt and dpkg
# refuse a second one), and each build's log is shown whole when it ends, not interleaved.
mkdir -p "$work.logs"
for arch in amd64 arm64; do
    "$fw" deps "$arch" || { fail "packages for the $arch firmware build"; finish; }
done
declare -A builder
for arch in amd64 arm64; do
    "$fw" build "$arch" >"$work.logs/build-$arch.log" 2>&1 &
    builder[$arch]=$!
done
built=1
for arch in amd64 arm64; do
    status=0
    wait "${builder[$arch]}" || status=$?
    cat "$work.logs/build-$arch.log"
    if ((status == 0)); then
        pass "Embedded build of the whole executable for $arch"
    else
        fail "Embedded build of the whole executable for $arch"
        built=0
    fi
done
((built)) || finish

scratch=${FIRMWARE_HOST_SCRATCH:-$root/.build}
config=${FIRMWARE_HOST_CONFIG:-release}
mkdir -p "$(dirname "$work")"
# The Makefile's flags (SWIFT_FLAGS): a build without -enable-testing is another configuration of the
# same .build, so it recompiled every module here and the next `make build` compiled them all again.
host_flags=(-c "$config" -Xswiftc -enable-testing)
if ! swift build "${host_flags[@]}" --product backdrop --scratch-path "$scratch" >"$work.host-build.log" 2>&1; then
    tail -30 "$work.host-build.log"
    fail "host SwiftPM build of backdrop"
    finish
fi
host_binary="$(swift build "${host_flags[@]}" --product backdrop --scratch-path "$scratch" --show-bin-path)/backdrop"

rm -rf "$work"
mkdir -p "$work"/{host,amd64,arm64}

# invoke FLAVOUR NAME ARGS...: runs one binary in its own output folder ({OUT} in ARGS is replaced by
# it), keeping stdout, stderr and the exit code.
invoke() {
    local flavour=$1 name=$2; shift 2
    local out="$work/$flavour" args=() a
    for a in "$@"; do args+=("${a//\{OUT\}/$out}"); done
    local code=0
    case $flavour in
        host) timeout 900 "$host_binary" "${args[@]}" >"$out/$name.stdout" 2>"$out/$name.stderr" || code=$? ;;
        *) timeout 900 "$fw" run-built "$flavour" "${args[@]}" >"$out/$name.stdout" 2>"$out/$name.stderr" || code=$? ;;
    esac
    echo "$code" >"$out/$name.code"
}

# same_text NAME: the three binaries gave the same exit code, stdout and stderr.
same_text() {
    local name=$1 flavour ok=1
    for flavour in amd64 arm64; do
        for part in code stdout stderr; do
            if ! cmp -s "$work/host/$name.$part" "$work/$flavour/$name.$part"; then
                fail "$name: $flavour $part differs from the host build's:"
                diff "$work/host/$name.$part" "$work/$flavour/$name.$part" | head -8
                ok=0
            fi
        done
    done
    ((ok)) && pass "$name: same exit code ($(cat "$work/host/$name.code")), stdout and stderr on host, amd64 and arm64"
}

# same_files NAME PATH...: exit code 0 everywhere, and each PATH (relative to the output folder)
# byte-identical to the host's.
same_files() {
    local name=$1 flavour path ok=1; shift
    for flavour in host amd64 arm64; do
        if [[ $(cat "$work/$flavour/$name.code") != 0 ]]; then
            fail "$name: $flavour exited with $(cat "$work/$flavour/$name.code")"
            tail -5 "$work/$flavour/$name.stderr"
            ok=0
        fi
    done
    ((ok)) || return 0
    for path in "$@"; do
        for flavour in amd64 arm64; do
            if python3 "$compare" --label "$name $flavour $path" "$work/host/$path" "$work/$flavour/$path"; then
                pass "$name: $flavour $path byte-identical to the host build's"
            else
                fail "$name: $flavour $path differs from the host build's"
            fi
        done
    done
}

run_all() {
    local name=$1 flavour; shift
    for flavour in host amd64 arm64; do
        invoke "$flavour" "$name" "$@"
    done
}

# Command surface: help text and exit codes, including a usage error.
run_all help --help
same_text help
for command in demo render check-config bench run; do
    run_all "help-$command" "$command" --help
    same_text "help-$command"
done
run_all usage-error no-such-command
same_text usage-error
# --version: the firmware names the revision and date it was built from, as the host build does.
run_all version --version
same_text version
if grep -Eq '^backdrop revision [0-9a-f]{12}(-dirty)?, built [0-9]{4}-[0-9]{2}-[0-9]{2}$' "$work/arm64/version.stdout"; then
    pass "version: the arm64 firmware names its revision and build date"
else
    fail "version: the arm64 firmware printed '$(cat "$work/arm64/version.stdout")'"
fi
if [[ -f config/backdrop.conf ]]; then
    run_all check-config check-config config/backdrop.conf
    same_text check-config
fi

# The synthetic demo: 120 composited frames.
run_all demo demo --frames 120 --out "{OUT}/demo.y4m"
same_files demo demo.y4m

# A real recording, in fixed and in auto mode, with the colour output and the matte.
recording="$data/pcl_five_people"
background="$data/nyu_dining/color/000000.png"
if [[ -d $recording && -f $background ]]; then
    for flavour in host amd64 arm64; do
        printf '[matte]\nmode = fixed\nnear_mm = 500\nfar_mm = 2600\nfeather_px = 3\n\n[background]\nfit = fill\n' \
            >"$work/$flavour/fixed.conf"
        printf '[matte]\nmode = auto\nmargin_mm = 250\n\n[background]\nfit = fit\n' >"$work/$flavour/auto.conf"
    done
    for mode in fixed auto; do
        run_all "render-$mode" render "$recording" --background "$background" --out "{OUT}/render-$mode" \
            --matte-out "{OUT}/matte-$mode" --config "{OUT}/$mode.conf"
        same_files "render-$mode" "render-$mode" "matte-$mode"
    done
else
    echo "SKIP render comparison: $recording or $background is missing (shared RGB-D data not present)"
fi

finish
