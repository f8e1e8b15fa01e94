#!/bin/bash
# The virtual board's test drivers, built as modules for the image's own Debian kernel, so the
# qemu-arm64 image boots QEMU's virt machine with a display (vkms, with writeback), cameras
# (v4l2loopback fed by a producer, and vivid with Z16 depth) and buttons (gpio-sim).
#
# Why not boot the virtual board's kernel itself: it is a tinyconfig kernel for a busybox PID 1
# (no cgroups, ext4, virtio-blk, fhandle, autofs, seccomp or BPF), on which systemd cannot run; and
# changing its config would rebuild it for everyone. Debian's kernel has everything systemd needs
# but neither vkms nor gpio-sim, and its vivid lacks Z16. So the drivers come from the same
# source (linux-source-6.1) with the virtual board's own patches (vboard/patches: Z16 in vivid,
# vkms's possible_clones and its two race fixes), compiled out of tree against Debian's headers
# for the root's kernel, and installed under updates/ (which depmod prefers over Debian's vivid).
#
# Usage: modules.sh ROOT KERNEL_VERSION CACHE_DIR REPO    (ROOT's lib/modules/KERNEL_VERSION gains updates/)
set -euo pipefail
root=$1 ver=$2 cache=$3 repo=$4
log() { echo "image[qemu-arm64]: $*" >&2; }
# The headers must be those of the root's kernel package (Module.symvers, vermagic, .config).
pkgver=$(chroot "$root" dpkg-query -W -f='${Version}' "linux-image-$ver")
flavour=${ver##*-}
abi=${ver%-"$flavour"}
key=$( { echo "$ver $pkgver"; dpkg-query -W linux-source-6.1 v4l2loopback-dkms gcc-aarch64-linux-gnu
         cat "$repo"/vboard/patches/*.patch "$repo"/vboard/patches/v4l2loopback/*.patch "$0"; } | sha256sum | cut -c1-16)
out=$cache/modules-$key
if [ ! -f "$out/done" ]; then
  t=$(date +%s)
  rm -rf "$out.tmp"; mkdir -p "$out.tmp/debs" "$out.tmp/x" "$out.tmp/src" "$out.tmp/ko"
  # Host apt (arm64 is a foreign architecture of this machine's dpkg): the arm64 headers and the
  # amd64 build tools (modpost, fixdep) of exactly that kernel version.
  (cd "$out.tmp/debs" && apt-get -qq download "linux-headers-$ver:arm64=$pkgver" "linux-headers-$abi-common=$pkgver" \
       "linux-kbuild-${abi%%.0-*}=$pkgver" 2>/dev/null) ||
    { log "cannot download the headers of linux-image-$ver $pkgver (apt-get download)"; exit 1; }
  for d in "$out.tmp"/debs/*.deb; do dpkg-deb -x "$d" "$out.tmp/x"; done
  hdr=$out.tmp/x/usr/src/linux-headers-$ver
  # Its Makefile includes the common part by absolute path; the rest links relatively.
  echo "include $out.tmp/x/usr/src/linux-headers-$abi-common/Makefile" > "$hdr/Makefile"
  src=$out.tmp/src
  tar -C "$src" -xf /usr/src/linux-source-6.1.tar.xz --strip-components=1 \
      linux-source-6.1/drivers/gpu/drm/vkms linux-source-6.1/drivers/media/test-drivers/vivid \
      linux-source-6.1/drivers/gpio/gpio-sim.c linux-source-6.1/drivers/gpio/gpiolib.h linux-source-6.1/kernel/irq/irq_sim.c
  for p in "$repo"/vboard/patches/*.patch; do patch -d "$src" -p1 --quiet --forward < "$p"; done
  # gpio-sim needs the interrupt simulator (CONFIG_IRQ_SIM, which Debian does not build): it is
  # linked into the module. irq_to_desc() is not exported to modules; generic_handle_irq() runs
  # the same flow handler (handle_simple_irq, set by the simulator's domain map).
  mkdir -p "$src/gpio-sim"
  cp "$src/drivers/gpio/gpio-sim.c" "$src/gpio-sim/gpio-sim-main.c"
  cp "$src/drivers/gpio/gpiolib.h" "$src/gpio-sim/"
  sed 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$src/kernel/irq/irq_sim.c" > "$src/gpio-sim/irq_sim.c"
  grep -q 'generic_handle_irq(irqnum)' "$src/gpio-sim/irq_sim.c" || { log "irq_sim.c changed: the irq_to_desc substitution no longer applies"; exit 1; }
  printf 'obj-m += gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' > "$src/gpio-sim/Kbuild"
  cp -r /usr/src/v4l2loopback-*/ "$src/v4l2loopback"
  for p in "$repo"/vboard/patches/v4l2loopback/*.patch; do patch -d "$src/v4l2loopback" -p1 --quiet --forward < "$p"; done
  # The sources and headers sit under this cache's own folder, whose path __FILE__ (WARN_ON's and
  # BUG's messages) would carry into the modules: two caches then built different modules, and so
  # different roots (tests/image/repro.sh). The prefix map writes the same path for every cache.
  kmake() { nice -n 10 make -s -C "$hdr" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- KCFLAGS="-ffile-prefix-map=$out.tmp/=/backdrop-modules/" "$@" 2>&1 | grep -v -e '^Skipping BTF' >&2 || true; }
  kmake M="$src/drivers/gpu/drm/vkms" CONFIG_DRM_VKMS=m -j2 modules
  kmake M="$src/drivers/media/test-drivers/vivid" -j2 modules
  kmake M="$src/gpio-sim" modules
  kmake M="$src/v4l2loopback" modules
  for m in drivers/gpu/drm/vkms/vkms drivers/media/test-drivers/vivid/vivid gpio-sim/gpio-sim v4l2loopback/v4l2loopback; do
    [ -f "$src/$m.ko" ] || { log "module $(basename "$m") did not build"; exit 1; }
    aarch64-linux-gnu-strip --strip-debug -o "$out.tmp/ko/$(basename "$m").ko" "$src/$m.ko"
  done
  rm -rf "$out.tmp/x" "$out.tmp/src" "$out.tmp/debs"
  touch "$out.tmp/done"
  rm -rf "$out"; mv "$out.tmp" "$out"
  log "test drivers built in $(( $(date +%s) - t )) s"
fi
mkdir -p "$root/lib/modules/$ver/updates"
cp "$out"/ko/*.ko "$root/lib/modules/$ver/updates/"
depmod -b "$root" "$ver"
