#!/usr/bin/env bash
# The Embedded Swift firmware: build it for amd64 or arm64, run it (arm64 under qemu-aarch64), and
# prove that it behaves exactly like the host SwiftPM build.
#
#   scripts/firmware.sh build [amd64|arm64]       -> build/firmware/<arch>/backdrop (+ report.txt)
#   scripts/firmware.sh run   [amd64|arm64] ARGS  -> builds if needed, then runs backdrop ARGS
#   scripts/firmware.sh test                      -> builds both, runs both, compares with the host build
#   scripts/firmware.sh sysroot                   -> prints the arm64 sysroot folder (makes it once)
#   scripts/firmware.sh deps  [amd64|arm64]       -> installs what a build needs, builds nothing
#
# Works on a fresh Debian 12 machine with the Swift toolchain: installs the cross compiler, qemu and
# the -dev packages it lacks with apt-get. Environment:
#   FIRMWARE_OPT=-O|-Osize          Swift optimisation (default -O)
#   FIRMWARE_CACHE=DIR              sysroot cache (default /var/cache/backdrop-firmware)
#   FIRMWARE_HOST_SCRATCH=DIR       SwiftPM scratch path for the host build in `test` (default .build)
#   FIRMWARE_HOST_CONFIG=release|debug  host build configuration in `test` (default release)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
scripts=$root/scripts
export PATH="/opt/swift/usr/bin:$PATH"

log() { echo "firmware: $*" >&2; }
die() { echo "firmware: error: $*" >&2; exit 1; }

apt_updated=
apt_install() {
    local missing=() pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
    done
    ((${#missing[@]})) || return 0
    [[ $(id -u) == 0 ]] || die "missing packages ${missing[*]}; install them as root"
    log "installing ${missing[*]}"
    local opts=(-o DPkg::Lock::Timeout=600 -o Acquire::Retries=3)
    if [[ -z $apt_updated ]]; then
        apt-get "${opts[@]}" update >&2
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get "${opts[@]}" install -y --no-install-recommends "${missing[@]}" >&2
}

ensure_host_tools() {
    command -v swiftc >/dev/null || die "no Swift toolchain on PATH or in /opt/swift (run scripts/deps.sh)"
    apt_install gcc binutils pkg-config python3
}

# The -dev packages named by the system-library targets the executable uses (Package.swift providers).
product_apt_packages() {
    python3 "$scripts/firmware-build.py" --package "$root" --out "$root/build/firmware/amd64" --print-apt
}

sysroot_dir=
ensure_arch() {
    local arch=$1
    ensure_host_tools
    case $arch in
        amd64)
            mapfile -t pkgs < <(product_apt_packages)
            apt_install "${pkgs[@]}"
            ;;
        arm64)
            apt_install gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu
            mapfile -t pkgs < <(product_apt_packages)
            sysroot_dir=$("$scripts/firmware-sysroot.sh" "${pkgs[@]}")
            ;;
        *) die "unknown ARCH '$arch' (amd64 or arm64)" ;;
    esac
}

build() {
    local arch=$1
    ensure_arch "$arch"
    local args=(--package "$root" --arch "$arch" --out "$root/build/firmware/$arch" "--opt=${FIRMWARE_OPT:--O}")
    [[ $arch == arm64 ]] && args+=(--sysroot "$sysroot_dir")
    bash "$scripts/build-info.sh"
    python3 "$scripts/firmware-build.py" "${args[@]}"
}

# Runs a built firmware binary: natively for amd64, under qemu-aarch64 with the sysroot for arm64.
run_binary() {
    local arch=$1; shift
    local binary=$root/build/firmware/$arch/backdrop
    if [[ $arch == arm64 ]]; then
        qemu-aarch64 -L "$sysroot_dir" "$binary" "$@"
    else
        "$binary" "$@"
    fi
}

case ${1:-build} in
    build)
        build "${2:-amd64}"
        ;;
    run)
        arch=${2:-amd64}
        shift 2 || shift $#
        [[ $arch == arm64 ]] && apt_install qemu-user
        build "$arch" >&2
        run_binary "$arch" "$@"
        ;;
    sysroot)
        ensure_arch arm64
        echo "$sysroot_dir"
        ;;
    deps)
        # What a build of ARCH needs (packages, and the arm64 sysroot) and, for arm64, running it
        # under qemu-aarch64; nothing is built.
        ensure_arch "${2:-amd64}"
        if [[ ${2:-amd64} == arm64 ]]; then apt_install qemu-user; fi
        ;;
    test)
        apt_install qemu-user
        exec "$scripts/firmware-test.sh"
        ;;
    run-built)
        # Internal: run an already built binary (used by firmware-test.sh).
        arch=$2; shift 2
        if [[ $arch == arm64 ]]; then
            mapfile -t pkgs < <(product_apt_packages)
            sysroot_dir=$("$scripts/firmware-sysroot.sh" "${pkgs[@]}")
        fi
        run_binary "$arch" "$@"
        ;;
    *)
        sed -n '2,16p' "$0" >&2
        exit 2
        ;;
esac
