#!/bin/sh
# mmdebstrap essential hook ($1 = the root): until the customize hook, update-initramfs is a no-op.
# Package triggers (the kernel, udev, kmod, ...) would otherwise run mkinitramfs with MODULES=most
# several times under emulation, about 12 minutes each; the customize hook builds it once instead.
set -eu
chroot "$1" dpkg-divert --quiet --local --rename --divert /usr/sbin/update-initramfs.backdrop --add /usr/sbin/update-initramfs
mkdir -p "$1/usr/sbin"
printf '#!/bin/sh\n# Diverted while the image is built (image-build/hooks/divert-initramfs.sh).\nexit 0\n' > "$1/usr/sbin/update-initramfs"
chmod 755 "$1/usr/sbin/update-initramfs"
