#!/bin/bash
# Builds (or finds in the cache) the virtual board for one architecture and prints the folder holding
# `kernel`, `initramfs.cpio.gz`, `kernel.release` and (arm64) `guest-root`, the folder of guest tools.
#
# Usage: vboard/build.sh x86_64|arm64
#
# Everything lands under $VBOARD_CACHE (default /var/cache/backdrop-vboard), outside the work tree,
# keyed by a hash of every input, so a second run only hashes a few small files. Progress goes to
# stderr; only the result folder goes to stdout, so callers can capture it.
set -euo pipefail

# The body is one function so bash parses all of it first: editing this file mid-build is then safe.
main() {
arch=${1:?usage: build.sh x86_64|arm64}
[ "$arch" != amd64 ] || arch=x86_64
self=${BASH_SOURCE[0]}
here=$(cd "$(dirname "$self")" && pwd)
repo=$(dirname "$here")
board=$repo/board/qemu-$arch
[ -f "$board/board.conf" ] || { echo "vboard: unknown arch '$arch'" >&2; exit 2; }
# shellcheck source=/dev/null
. "$board/board.conf"

cache=${VBOARD_CACHE:-/var/cache/backdrop-vboard}
mkdir -p "$cache"
log() { echo "vboard[$arch]: $*" >&2; }

bash "$here/deps.sh" >&2

pkgver() { dpkg-query -W -f='${Package}=${Version}\n' "$@"; }
gcc_id=$("${CROSS_COMPILE}gcc" --version | head -1)

# The kernel depends on the source package, our fragment and patches, the compiler and this script.
src_key=$( { pkgver linux-source-6.1; cat "$here"/patches/*.patch; } | sha256sum | cut -c1-16)
kernel_key=$( {
  echo "$src_key"; echo "$gcc_id"; pkgver v4l2loopback-dkms; cat "$here"/patches/v4l2loopback/*.patch
  cat "$here/kernel-common.config" "$board/kernel.config"; grep -E '^(KARCH|CROSS_COMPILE|KIMAGE)=' "$board/board.conf"
  sed -n '/^# --- kernel ---/,/^# --- end kernel ---/p' "$self"
} | sha256sum | cut -c1-16)
# The initramfs (and guest tools) also depend on busybox, the guest init and the guest tool list.
# The libraries after the tools are the board binary's own (build/firmware/arm64/report.txt lists
# its NEEDED entries), installed as on the box, so the arm64 firmware runs on the board as it is.
guest_pkgs="busybox-static kmod v4l-utils libdrm-tests gpiod mount dosfstools libc-bin coreutils
  libdrm2 libgbm1 libgpiod2 libinih1 libspng0 libturbojpeg0"
out_key=$( {
  echo "$kernel_key"; pkgver busybox-static; echo "$guest_pkgs"
  cat "$here/guest-init" "$self"
} | sha256sum | cut -c1-16)
out=$cache/$arch-$out_key

if [ -f "$out/done" ]; then
  echo "$out"
  exit 0
fi

# One builder per architecture at a time; a second caller waits and then reuses the result.
exec 9>"$cache/$arch.lock"
flock -n 9 || { log "waiting for another build of this board (make test's background build, or another checkout)"; flock 9; }
if [ -f "$out/done" ]; then echo "$out"; exit 0; fi

t0=$(date +%s)
# --- kernel ---
src=$cache/src-$src_key
if [ ! -f "$src/.vboard-done" ]; then
  log "unpacking /usr/src/linux-source-6.1.tar.xz"
  rm -rf "$src" "$src.tmp"; mkdir -p "$src.tmp"
  tar -C "$src.tmp" -xf /usr/src/linux-source-6.1.tar.xz --strip-components=1
  for p in "$here"/patches/*.patch; do
    log "applying $(basename "$p")"
    patch -d "$src.tmp" -p1 --quiet --forward < "$p"
  done
  touch "$src.tmp/.vboard-done"
  mv "$src.tmp" "$src"
fi

kdir=$cache/kernel-$arch-$kernel_key
if [ ! -f "$kdir/done" ]; then
  # The object tree is kept per source, so a fragment change rebuilds incrementally.
  obj=$cache/obj-$arch-$src_key
  mkdir -p "$obj"
  kmake() { make -s -C "$src" O="$obj" ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE" "$@"; }
  log "configuring (tinyconfig + fragment)"
  kmake tinyconfig >/dev/null
  cat "$here/kernel-common.config" "$board/kernel.config" > "$obj/vboard.fragment"
  (cd "$obj" && ARCH=$KARCH CROSS_COMPILE=$CROSS_COMPILE "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
      "$obj/.config" "$obj/vboard.fragment" >/dev/null)
  kmake olddefconfig >/dev/null
  # A symbol that kconfig silently dropped (unmet dependency) would only show up as a missing device
  # at test time; fail here with its name instead.
  bad=0
  while IFS= read -r line; do
    case $line in CONFIG_*=*) ;; *) continue ;; esac
    grep -qx "$line" "$obj/.config" || { log "config: wanted $line, got: $(grep "^${line%%=*}=" "$obj/.config" || echo unset)"; bad=1; }
  done < "$obj/vboard.fragment"
  [ $bad = 0 ] || { log "kernel config does not hold the fragment"; exit 1; }
  log "building kernel and modules (make -j$(nproc))"
  kmake -j"$(nproc)" "$(basename "$KIMAGE")" modules
  krel=$(kmake -s kernelrelease)
  rm -rf "$kdir.tmp"; mkdir -p "$kdir.tmp"
  cp "$obj/$KIMAGE" "$kdir.tmp/kernel"
  cp "$obj/.config" "$kdir.tmp/config"
  # vboard/run names the functions a hung guest's vCPUs are in from this map.
  cp "$obj/System.map" "$kdir.tmp/System.map"
  echo "$krel" > "$kdir.tmp/kernel.release"
  kmake INSTALL_MOD_PATH="$kdir.tmp/modroot" INSTALL_MOD_STRIP=1 modules_install >/dev/null

  log "building v4l2loopback (out of tree)"
  lb=$obj/v4l2loopback
  rm -rf "$lb"; cp -r /usr/src/v4l2loopback-*/ "$lb"
  for p in "$here"/patches/v4l2loopback/*.patch; do patch -d "$lb" -p1 --quiet --forward < "$p"; done
  make -s -C "$obj" ARCH="$KARCH" CROSS_COMPILE="$CROSS_COMPILE" M="$lb" modules >&2
  mkdir -p "$kdir.tmp/modroot/lib/modules/$krel/extra"
  "${CROSS_COMPILE}strip" --strip-debug -o "$kdir.tmp/modroot/lib/modules/$krel/extra/v4l2loopback.ko" "$lb/v4l2loopback.ko"
  rm -f "$kdir.tmp/modroot/lib/modules/$krel/build" "$kdir.tmp/modroot/lib/modules/$krel/source"
  depmod -b "$kdir.tmp/modroot" "$krel"
  rm -rf "$kdir"; mv "$kdir.tmp" "$kdir"; touch "$kdir/done"
fi
# --- end kernel ---
krel=$(cat "$kdir/kernel.release")

rm -rf "$out.tmp"; mkdir -p "$out.tmp"

# Guest tools: the x86_64 guest runs the host's own binaries over 9p; the arm64 guest layers a folder
# of Debian arm64 packages (and their libraries) over the host tree.
if [ "$arch" != x86_64 ]; then
  root=$out.tmp/guest-root
  debs=$cache/debs-$DEB_ARCH
  mkdir -p "$root" "$debs"
  # A private apt state (lists, empty dpkg status) resolves and fetches the foreign packages without
  # touching the host's dpkg configuration.
  apt_dir=$cache/apt-$DEB_ARCH
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  touch "$apt_dir/status"
  aptf=(-o APT::Architecture="$DEB_ARCH" -o APT::Architectures="$DEB_ARCH" -o Dir::State::Lists="$apt_dir/lists"
        -o Dir::State::status="$apt_dir/status" -o Dir::Cache="$apt_dir/cache" -o Debug::NoLocking=1 -o APT::Sandbox::User=root -qq)
  ls "$apt_dir/lists/"*Packages* >/dev/null 2>&1 || { log "fetching $DEB_ARCH package lists"; apt-get "${aptf[@]}" update >&2; }
  want=$(apt-get "${aptf[@]}" -s --no-install-recommends install $guest_pkgs 2>/dev/null |
         awk '/^Inst /{print $2}' | sed 's/:.*$//' | sort -u)
  [ -n "$want" ] || { log "could not resolve $DEB_ARCH guest packages"; exit 1; }
  log "fetching $(echo "$want" | wc -w) $DEB_ARCH packages for the guest tools"
  (cd "$debs" && for p in $want; do
     ls "$debs/${p}_"*.deb >/dev/null 2>&1 || apt-get "${aptf[@]}" download "$p" >&2
   done)
  for p in $want; do
    for f in "$debs/${p}_"*.deb; do [ -f "$f" ] && dpkg-deb -x "$f" "$root"; done
  done
  # dash's /bin/sh link is made by its maintainer script, which we do not run; busybox stands in for
  # anything the packages do not ship.
  for a in $(busybox --list); do
    [ -e "$root/bin/$a" ] || [ -e "$root/usr/bin/$a" ] || [ -e "$root/sbin/$a" ] || [ -e "$root/usr/sbin/$a" ] ||
      ln -s busybox "$root/bin/$a"
  done
  [ -e "$root/bin/sh" ] || ln -s busybox "$root/bin/sh"
  rm -rf "$root/usr/share/doc" "$root/usr/share/man" "$root/usr/share/locale"
fi

log "making initramfs"
ir=$out.tmp/initramfs
mkdir -p "$ir"/{bin,sbin,dev,proc,sys,tmp,host,guestroot,job,newroot,rw,lib/modules}
if [ "$arch" = x86_64 ]; then
  cp /bin/busybox "$ir/bin/busybox"
else
  cp "$root/bin/busybox" "$ir/bin/busybox"
fi
cp -a "$kdir/modroot/lib/modules/$krel" "$ir/lib/modules/"
cp "$here/guest-init" "$ir/init"
chmod 755 "$ir/init"
(cd "$ir" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -6 > "$out.tmp/initramfs.cpio.gz")
rm -rf "$ir"
cp "$kdir/kernel" "$kdir/kernel.release" "$kdir/config" "$kdir/System.map" "$out.tmp/"
touch "$out.tmp/done"
rm -rf "$out"; mv "$out.tmp" "$out"
# Keep the few newest boards per arch (another checkout may still boot one), drop older ones.
# Pruning finds nothing on a cold cache: the globs then match nothing and the filters select no
# line, which under pipefail would fail a build that succeeded, so each prune tolerates that.
prune() { while read -r old; do rm -rf "$old"; done; }
{ ls -dt "$cache/$arch"-*/ "$cache/kernel-$arch"-*/ 2>/dev/null || true; } |
  awk -F/ '{ k = ($(NF-1) ~ /^kernel-/); if (++n[k] > 3) print }' | prune
# Unpacked sources (1.5 GB) and object trees are per patch set: keep this one and the newest other.
{ ls -dt "$cache"/src-*/ "$cache/obj-$arch"-*/ 2>/dev/null || true; } |
  { grep -v -e "/src-$src_key/\$" -e "/obj-$arch-$src_key/\$" || true; } |
  awk -F/ '{ if (++n[substr($(NF-1), 1, 3)] > 1) print }' | prune
log "ready in $(( $(date +%s) - t0 )) s: $out"
echo "$out"
}

main "$@"; exit $?
