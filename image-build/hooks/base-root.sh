#!/bin/bash
# mmdebstrap customize hook ($1 = the root, $2 = image-build/): prunes the kernel's modules, builds
# the one initramfs, and strips what does not run. Runs on the host; only mkinitramfs (and the
# dpkg-divert call) run arm64 code under emulation.
set -euo pipefail
root=$1 recipe=$2
log() { echo "image: $*" >&2; }
ver=$(ls "$root/lib/modules")
[ "$(echo "$ver" | wc -w)" = 1 ] || { log "expected one kernel in the root, found: $ver"; exit 1; }

t=$(date +%s)
before=$(du -sm "$root/lib/modules/$ver" | cut -f1)
python3 "$recipe/hooks/prune-modules.py" "$root/lib/modules/$ver" "$recipe/modules-keep.txt" "$recipe/initramfs-modules.txt"
depmod -b "$root" "$ver"
log "modules: ${before} MB -> $(du -sm "$root/lib/modules/$ver" | cut -f1) MB ($(( $(date +%s) - t )) s)"

# The one initramfs: only the listed modules (and their dependencies), built once.
t=$(date +%s)
mkdir -p "$root/etc/initramfs-tools/conf.d"
printf 'MODULES=list\nCOMPRESS=zstd\n' > "$root/etc/initramfs-tools/conf.d/backdrop.conf"
{ echo "# The modules the box boots with (image-build/initramfs-modules.txt)."
  grep -v -e '^#' -e '^$' "$recipe/initramfs-modules.txt"; } > "$root/etc/initramfs-tools/modules"
rm "$root/usr/sbin/update-initramfs"
chroot "$root" dpkg-divert --quiet --local --rename --remove /usr/sbin/update-initramfs
rm -f "$root/boot/initrd.img-$ver"
chroot "$root" mkinitramfs -o "/boot/initrd.img-$ver" "$ver"
log "initramfs: $(du -k "$root/boot/initrd.img-$ver" | cut -f1) KiB ($(( $(date +%s) - t )) s)"

# What only built the initramfs does not run on the box: purged, with the initramfs kept aside
# (a purge script may clean /boot). The kernel package's dependency on an initramfs tool is left
# unmet on purpose: nothing installs into this root after the build.
t=$(date +%s)
keep=$(mktemp)
cp "$root/boot/initrd.img-$ver" "$keep"
build_only=$(chroot "$root" dpkg-query -W -f='${Package}\n' initramfs-tools initramfs-tools-core klibc-utils libklibc cpio zstd 2>/dev/null || true)
# shellcheck disable=SC2086
chroot "$root" dpkg --purge --force-depends $build_only >&2
cp "$keep" "$root/boot/initrd.img-$ver"; rm -f "$keep"
rm -rf "$root/etc/initramfs-tools" "$root/var/lib/initramfs-tools" "$root/usr/share/initramfs-tools"
log "purged the build-only packages ($(echo $build_only)) ($(( $(date +%s) - t )) s)"

# raspi-firmware's hook filled /boot/firmware for every Pi; the recipe writes the boot partition.
rm -rf "$root/boot/firmware"; mkdir -p "$root/boot/firmware"
rm -rf "$root/var/cache/apt" "$root/var/lib/apt/lists" "$root/var/cache/debconf"/*-old
mkdir -p "$root/var/cache/apt" "$root/var/lib/apt/lists"
find "$root/var/log" -type f -delete
# The machine id is made at each boot (the root is read-only): empty, as systemd expects for that.
: > "$root/etc/machine-id"
rm -f "$root/var/lib/dbus/machine-id"
