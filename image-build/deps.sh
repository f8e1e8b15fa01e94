#!/bin/bash
# Host packages the image build needs; installs only what is missing.
set -euo pipefail
# arch-test: mmdebstrap refuses a foreign-architecture root without it ("E: install arch-test for
# foreign architecture support"), and it is only a Recommends, which --no-install-recommends skips.
# kmod: base-root.sh runs depmod on the pruned modules from the host. zstd: tests/image/bootchain.py
# lists the initramfs.
# qemu-system-arm: the boot tests (tests/image/boot-qemu.sh, reboot-qemu.sh) run the image on virt.
need=(mmdebstrap arch-test qemu-user-static genimage bmap-tools mtools dosfstools e2fsprogs fdisk xz-utils systemd kmod zstd
      qemu-system-arm)
missing=()
for p in "${need[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
((${#missing[@]})) || exit 0
echo "image: installing ${missing[*]}" >&2
apt-get -o DPkg::Lock::Timeout=600 update >&2
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}" >&2
