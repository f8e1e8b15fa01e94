#!/usr/bin/env bash
# Proves Sources/CGpioShim compiles against libgpiod 2.x as well as the 1.6 it links on Debian 12:
# fetches Debian 13 (trixie)'s libgpiod-dev package file with a private apt sources list (on the
# machine's own mirror) (nothing is
# installed, the host's apt state is untouched), unpacks its headers with dpkg-deb -x and compiles
# the shim with -DBK_GPIOD_V2, then again letting the shim detect the version from the header.
# Also compiles it against the installed 1.6 headers. Prints one PASS/FAIL line per build.
#   GPIOD2_CACHE=DIR   where the unpacked package is kept (default /var/cache/backdrop-gpiod2, else /tmp)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
shim=$repo/Sources/CGpioShim
cache=${GPIOD2_CACHE:-/var/cache/backdrop-gpiod2}
mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ] || cache=/tmp/backdrop-gpiod2
mkdir -p "$cache"
arch=$(dpkg --print-architecture)
root=$cache/root-$arch

if [ ! -f "$root/usr/include/gpiod.h" ]; then
    apt_dir=$(mktemp -d /tmp/gpiod2-apt.XXXXXX)
    trap 'rm -rf "$apt_dir"' EXIT
    mkdir -p "$apt_dir"/{lists/partial,cache/archives/partial,etc/preferences.d,etc/apt.conf.d}
    # The mirror is the one this machine's apt already uses; only the suite differs.
    mirror=$(bash "$repo/scripts/debian-mirror.sh")
    echo "deb $mirror trixie main" > "$apt_dir/etc/sources.list"
    apt_opts=(-o Dir::Etc::SourceList="$apt_dir/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null
              -o Dir::Etc::Preferences="$apt_dir/etc/preferences" -o Dir::Etc::PreferencesParts="$apt_dir/etc/preferences.d"
              -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache"
              -o Debug::NoLocking=1 -o APT::Architecture="$arch" -o Acquire::Languages=none
              -o Acquire::Retries=3 -o APT::Sandbox::User=root)
    apt-get "${apt_opts[@]}" update >/dev/null
    (cd "$apt_dir" && apt-get "${apt_opts[@]}" download libgpiod-dev >/dev/null)
    deb=$(ls "$apt_dir"/libgpiod-dev_*.deb)
    rm -rf "$root" && mkdir -p "$root"
    dpkg-deb -x "$deb" "$root"
    basename "$deb" > "$root/PACKAGE"
fi

flags=(-std=gnu11 -Wall -Wextra -Werror -fsyntax-only -I "$shim/include")
failed=0
check() {
    local name=$1; shift
    if output=$(gcc "${flags[@]}" "$@" "$shim/CGpioShim.c" 2>&1); then
        echo "PASS $name"
    else
        echo "FAIL $name"; sed 's/^/    | /' <<<"$output" | head -30; failed=1
    fi
}
version=$(sed -n 's/^libgpiod-dev_\([^_]*\)_.*/\1/p' "$root/PACKAGE")
check "gpiod shim against libgpiod $version headers (-DBK_GPIOD_V2)" -I "$root/usr/include" -DBK_GPIOD_V2
check "gpiod shim against libgpiod $version headers (detected)" -I "$root/usr/include"
# The detection must really pick the 2.x API from that header, not compile the 1.x branch by luck.
if printf '#include <gpiod.h>\n#ifdef GPIOD_LINE_BULK_MAX_LINES\n#error 1.x header\n#endif\n' |
        gcc -fsyntax-only -I "$root/usr/include" -x c - 2>/dev/null; then
    echo "PASS libgpiod $version header is detected as 2.x"
else
    echo "FAIL libgpiod $version header looks like 1.x"; failed=1
fi
if [ -f /usr/include/gpiod.h ]; then
    check "gpiod shim against the installed libgpiod headers"
fi
exit $failed
