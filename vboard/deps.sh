#!/bin/bash
# Installs every host package the virtual board needs, so a fresh Debian 12 machine (and CI, as root)
# can build and boot it. `apt-get update` runs only when something is missing, to keep warm runs free.
set -euo pipefail
pkgs=(
  linux-source-6.1 v4l2loopback-dkms
  qemu-system-x86 qemu-system-arm qemu-utils
  gcc make gcc-aarch64-linux-gnu libc6-dev-arm64-cross libc6-dev bc flex bison libelf-dev libssl-dev cpio xz-utils kmod
  busybox-static v4l-utils libdrm-tests libdrm-dev pkg-config gpiod dosfstools mtools python3
  # Mesa's DRI drivers: kms_swrast lets libgbm serve vkms, so the x86_64 board's device tests
  # (tests/vboard/scanout.sh, which see the host's root) run the GBM scanout buffers. Tests only:
  # the box's image has libgbm1 without them and falls back to dumb buffers.
  libgl1-mesa-dri
  mount  # the self-test mounts the guest's shares; not essential on Debian 12, so a minimal root lacks it
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "vboard deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # v4l2loopback-dkms would try to build for the host kernel; we only want its source.
  $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
  $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
