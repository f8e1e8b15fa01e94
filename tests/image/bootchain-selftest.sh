#!/bin/bash
# Shows that tests/image/bootchain.py fails where the Pi 4 would not boot: config.txt fixtures for
# the firmware rules, and the image's own DTB and modules with the initramfs list from before the
# regulator fix (tests/image/fixtures/). Run by inspect.sh on every image.
#
# Usage: tests/image/bootchain-selftest.sh DTB MODDIR IMAGE
#   MODDIR holds the image's modules.alias, modules.builtin.modinfo, modules.dep and config;
#   IMAGE is its uncompressed kernel.
set -euo pipefail
usage="usage: bootchain-selftest.sh DTB MODDIR IMAGE"
dtb=${1:?$usage} moddir=${2:?$usage} kernel=${3:?$usage}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/backdrop-bootchain.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0 cases=0
expect() {   # expect RC WHAT -- command...: the command must exit with RC
  local want=$1 what=$2 got=0; shift 3
  cases=$((cases + 1))
  "$@" > "$tmp/out" 2>&1 || got=$?
  if [ "$got" = "$want" ]; then echo "ok: $what (exit $got)"
  else echo "FAIL: $what: exit $got, want $want"; sed 's/^/    /' "$tmp/out"; failures=$((failures + 1)); fi
}
# A boot partition with config.txt's lines ($1) and the named files.
card() {
  rm -rf "$tmp/boot"; mkdir "$tmp/boot"
  printf '%b' "$1" > "$tmp/boot/config.txt"; shift
  for f in "$@"; do : > "$tmp/boot/$f"; done
}
base='arm_64bit=1\nkernel=vmlinuz\ninitramfs initrd.img followkernel\ndevice_tree=bcm2711-rpi-4-b.dtb\n'
common=(vmlinuz initrd.img bcm2711-rpi-4-b.dtb cmdline.txt)
fw() { python3 "$here/bootchain.py" firmware "$tmp/boot"; }

card "${base}gpu_mem=16\n" start4.elf fixup4.dat "${common[@]}"
expect 1 "gpu_mem=16 with only start4.elf/fixup4.dat (the card before the fix)" -- fw
card "${base}gpu_mem=16\n" start4cd.elf fixup4cd.dat "${common[@]}"
expect 0 "gpu_mem=16 with start4cd.elf/fixup4cd.dat" -- fw
card "${base}gpu_mem=16\ngpu_mem_1024=64\n" start4cd.elf fixup4cd.dat "${common[@]}"
expect 1 "gpu_mem_1024=64 overrides gpu_mem=16 on every Pi 4: start4.elf is needed" -- fw
card "${base}[pi3]\ngpu_mem=16\n[all]\n" start4.elf fixup4.dat "${common[@]}"
expect 0 "a [pi3] section does not apply to a Pi 4" -- fw
card "${base}[pi4]\nstart_x=1\ngpu_mem=128\n" start4x.elf fixup4x.dat "${common[@]}"
expect 0 "[pi4] start_x=1 with start4x.elf/fixup4x.dat" -- fw
card "${base}[pi4]\nstart_x=1\ngpu_mem=128\n" start4.elf fixup4.dat "${common[@]}"
expect 1 "[pi4] start_x=1 without any start_x firmware" -- fw
card "${base}start_file=start4db.elf\nfixup_file=fixup4db.dat\n" start4db.elf fixup4db.dat "${common[@]}"
expect 0 "start_file/fixup_file name the pair" -- fw
card "${base}gpu_mem=16\n" start4cd.elf fixup4cd.dat start.elf "${common[@]}"
expect 1 "another board's start.elf on the card" -- fw
card "${base}[HDMI:0]\ngpu_mem=16\n" start4cd.elf fixup4cd.dat "${common[@]}"
expect 2 "a filter only the board can decide is refused, not guessed" -- fw
card "${base}gpu_mem=16\ndtoverlay=vc4-kms-v3d\n" start4cd.elf fixup4cd.dat "${common[@]}"
expect 1 "dtoverlay= needs overlays/NAME.dtbo" -- fw

# The supplier walk on the image's own DTB and modules, with the initramfs that list made.
python3 "$here/bootchain.py" closure "$moddir" "$here/fixtures/initramfs-modules-without-regulators.txt" > "$tmp/old-initramfs"
[ -s "$tmp/old-initramfs" ] || { echo "FAIL: no module of the old list is in $moddir"; exit 1; }
sup() { python3 "$here/bootchain.py" suppliers "$dtb" "$moddir" "$1" --start brcm,bcm2711-emmc2 --need mmc_block --need ext4 --kernel "$kernel"; }
expect 1 "the initramfs without regulator drivers" -- sup "$tmp/old-initramfs"
grep -q 'FAIL: .*regulator-fixed.*needs module .*fixed' "$tmp/out" && grep -q 'FAIL: .*regulator-gpio.*needs module .*gpio.regulator' "$tmp/out" &&
  echo "ok: it names regulator-fixed (fixed) and regulator-gpio (gpio-regulator)" ||
  { echo "FAIL: the failure does not name both SD regulators"; sed 's/^/    /' "$tmp/out"; failures=$((failures + 1)); }
cases=$((cases + 1))
grep '^FAIL' "$tmp/out" | sed 's/^/    before the fix: /'

[ $failures = 0 ] || { echo "bootchain self-test: $failures of $cases cases wrong"; exit 1; }
echo "$cases cases"
