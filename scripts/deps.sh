#!/usr/bin/env bash
# Installs what building and testing the host build needs on Debian 12, and nothing when it is
# all there already (so `make demo` and `make test` stay fast on a prepared machine).
set -euo pipefail

packages=(pkg-config libinih-dev libspng-dev libturbojpeg0-dev libv4l-dev libgpiod-dev libdrm-dev
          libgbm-dev libudev-dev)
# What the Swift toolchain itself needs on Debian 12 (its tarball ships none of it): the C toolchain
# it links with, and the libraries its driver, package manager and Foundation load. A desktop or
# server install has them; a minimal root does not.
packages+=(binutils gcc libc6-dev libstdc++-12-dev libcurl4 libxml2 libsqlite3-0 libncurses6
           tzdata zlib1g-dev python3)
# tests/runtime/io-blocking.sh traces the I/O thread's system calls.
packages+=(strace)
# tests/image/unit-security.sh scores the booth's unit with systemd-analyze, which a minimal root
# (no init system installed) lacks.
packages+=(systemd)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "deps: installing ${missing[*]}" >&2
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
    if [ -x /opt/swift/usr/bin/swift ]; then
        echo "deps: swift is at /opt/swift/usr/bin; add it to PATH" >&2
    else
        echo "deps: no Swift 6 toolchain found. Install one from swift.org (Debian 12 tarball) into /opt/swift." >&2
    fi
    exit 1
fi
