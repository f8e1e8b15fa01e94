#!/usr/bin/env bash
# Makes (once) and prints the path of a Debian 12 arm64 sysroot holding the -dev packages the
# firmware links against and their runtime libraries. Packages are unpacked with dpkg-deb -x into a
# cache outside the work tree, so nothing arm64 is installed into the host system.
# Usage: firmware-sysroot.sh [extra-package ...]   (prints the sysroot directory on stdout)
set -euo pipefail

cache_root=${FIRMWARE_CACHE:-/var/cache/backdrop-firmware}
# The libraries the product uses or will use (Package.swift providers are added by the caller).
base_packages=(libc6-dev linux-libc-dev libinih-dev libspng-dev libturbojpeg0-dev libv4l-dev
               libgpiod-dev libdrm-dev libgbm-dev libudev-dev)
mapfile -t wanted < <(printf '%s\n' "${base_packages[@]}" "$@" | sed '/^$/d' | sort -u)

# The key names the package set (and this script's layout version): a new -dev package makes a
# fresh sysroot, an unchanged set is reused without touching apt. Delete the cache to pick up
# Debian point-release updates.
layout=2
key=$(printf '%s\n' "layout $layout" "${wanted[@]}" | sha256sum | cut -c1-12)
sysroot="$cache_root/sysroot-arm64-$key"
if [[ -f "$sysroot/.complete" ]]; then
    echo "$sysroot"
    exit 0
fi

log() { echo "firmware-sysroot: $*" >&2; }
apt_opts=(-o DPkg::Lock::Timeout=600 -o Acquire::Retries=3)

if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    log "adding arm64 as a foreign dpkg architecture (package lists only; nothing arm64 is installed)"
    dpkg --add-architecture arm64
    apt-get "${apt_opts[@]}" update >&2
elif ! apt-cache show libc6:arm64 >/dev/null 2>&1; then
    apt-get "${apt_opts[@]}" update >&2
fi

args=()
for p in "${wanted[@]}"; do args+=("$p:arm64"); done
# Closure over Depends only; virtual packages (<...>) and packages for other architectures are
# dropped: arch:all data packages carry nothing the linker or loader needs.
mapfile -t closure < <(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
        --no-breaks --no-replaces --no-enhances "${args[@]}" | grep -v '^ ' | grep ':arm64$' | sort -u)
log "${#closure[@]} arm64 packages for ${#wanted[@]} requested"

work="$cache_root/tmp-$key-$$"
rm -rf "$work"
mkdir -p "$work/debs" "$work/root"
trap 'rm -rf "$work"' EXIT
# apt-get download runs as _apt when it can; the folder must be writable for it.
chmod 777 "$work/debs"
(cd "$work/debs" && apt-get "${apt_opts[@]}" download "${closure[@]}" >&2)
# .files maps every unpacked path to its package, so the build can name the packages a board needs.
for deb in "$work"/debs/*.deb; do
    dpkg-deb -x "$deb" "$work/root"
    package=$(dpkg-deb -f "$deb" Package)
    dpkg-deb -c "$deb" | awk -v p="$package" '{ sub(/^\./, "", $6); print p "\t" $6 }' >>"$work/root/.files"
done
ls "$work"/debs/ > "$work/root/.packages"

# Debian 12 ships libc in /lib and the rest in /usr/lib; the loader path in the binary is
# /lib/ld-linux-aarch64.so.1, which qemu -L resolves inside the sysroot.
# Absolute symlinks (e.g. libfoo.so -> /lib/...) must resolve inside the sysroot for the linker.
while IFS= read -r link; do
    target=$(readlink "$link")
    if [[ "$target" == /* ]]; then
        ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$work/root$target")" "$link"
    fi
done < <(find "$work/root" -type l)

mkdir -p "$cache_root"
rm -rf "$sysroot"
mv "$work/root" "$sysroot"
touch "$sysroot/.complete"
log "sysroot ready: $sysroot"
echo "$sysroot"
