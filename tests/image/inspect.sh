#!/bin/bash
# Reads the rpi4 image without mounting anything (sfdisk, mtools, debugfs) and checks what the Pi 4
# needs to boot it and what the box must (not) carry.
#
# Usage: tests/image/inspect.sh build/image/backdrop-rpi4.img.xz
set -euo pipefail
xzimg=${1:?usage: inspect.sh IMAGE.img.xz}
tmp=$(mktemp -d /tmp/backdrop-image-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

size=$(stat -c %s "$xzimg")
[ "$size" -lt $((200 * 1024 * 1024)) ] && ok "$xzimg is $((size / 1024 / 1024)) MB (under 200 MB)" ||
  bad "$xzimg is $((size / 1024 / 1024)) MB, over 200 MB"
img=$tmp/backdrop.img
xz -dc "$xzimg" > "$img"   # xz writes zero runs as holes: the file stays sparse
[ -f "${xzimg%.xz}.bmap" ] && grep -q '<ImageSize>' "${xzimg%.xz}.bmap" && ok "block map present" || bad "no ${xzimg%.xz}.bmap"

# --- partition table ---
table=$(sfdisk --json "$img")
python3 - "$table" > "$tmp/parts" <<'PY' || fail=1
import json, sys
t = json.loads(sys.argv[1])["partitiontable"]
ok = True
def check(cond, text):
    global ok
    print(("ok: " if cond else "FAIL: ") + text)
    ok = ok and cond
p = t["partitions"]
check(t["label"] == "dos", f"MBR partition table ({t['label']})")
check(len(p) == 3, f"three partitions ({len(p)})")
if len(p) == 3:
    check(p[0]["type"] == "c" and p[0].get("bootable", False), f"partition 1 is FAT32 LBA, bootable (type {p[0]['type']})")
    check(p[1]["type"] == "83" and p[2]["type"] == "83", "partitions 2 and 3 are Linux")
    check(p[0]["start"] * 512 % (4 << 20) == 0, "boot partition aligned to 4 MiB")
    sig = t["id"].removeprefix("0x")
    for i, part in enumerate(p):
        print(f"PART{i+1} {part['start']} {part['size']} {sig}-{i+1:02d}")
sys.exit(0 if ok else 1)
PY
grep -v '^PART' "$tmp/parts"
read -r _ boot_start boot_size boot_puuid < <(grep '^PART1' "$tmp/parts")
read -r _ root_start root_size root_puuid < <(grep '^PART2' "$tmp/parts")
read -r _ data_start data_size data_puuid < <(grep '^PART3' "$tmp/parts")

# --- boot partition (FAT, through mtools at its byte offset) ---
fat="$img@@$((boot_start * 512))"
listing=$(mdir -i "$fat" -b ::/ 2>&1) || bad "mdir cannot read the boot partition: $listing"
grep -qx "::/backdrop/" <<< "$listing" && ok "boot partition has backdrop/" || bad "boot partition lacks backdrop/"
# Every file config.txt makes the Pi 4 load (GPU firmware pair, kernel, DTB, initramfs), derived
# by the firmware's rules, and no other board's firmware (tests/image/bootchain.py).
mkdir "$tmp/boot"
mcopy -s -n -i "$fat" '::/*' "$tmp/boot/"
bootchain=$(dirname "$0")/bootchain.py
if out=$(python3 "$bootchain" firmware "$tmp/boot" 2>&1); then echo "$out"; ok "config.txt's boot chain is on the partition"
else echo "$out"; bad "config.txt makes the Pi 4 load files the partition lacks, or the partition carries other boards' firmware"; fi
mtype -i "$fat" ::/cmdline.txt > "$tmp/cmdline.txt"
mtype -i "$fat" ::/config.txt > "$tmp/config.txt"
[ "$(wc -l < "$tmp/cmdline.txt")" -le 1 ] && ok "cmdline.txt is one line" || bad "cmdline.txt has several lines (the Pi reads only the first)"
root_arg=$(grep -o 'root=PARTUUID=[^ ]*' "$tmp/cmdline.txt" | cut -d= -f3 || true)
[ "$root_arg" = "$root_puuid" ] && ok "cmdline.txt root=PARTUUID=$root_arg is partition 2" ||
  bad "cmdline.txt root=PARTUUID=$root_arg, partition 2 is $root_puuid"
grep -q 'console=ttyS1,115200' "$tmp/cmdline.txt" && ok "serial console ttyS1" || bad "no serial console in cmdline.txt"
grep -qw ro "$tmp/cmdline.txt" && ok "root mounted read-only" || bad "cmdline.txt lacks ro"
for key in kernel device_tree; do
  want=$(sed -n "s/^$key=//p" "$tmp/config.txt")
  grep -qx "::/$want" <<< "$listing" && ok "config.txt $key=$want exists" || bad "config.txt $key=$want is not on the partition"
done
initrd=$(sed -n 's/^initramfs \([^ ]*\) followkernel/\1/p' "$tmp/config.txt")
grep -qx "::/$initrd" <<< "$listing" && ok "config.txt initramfs $initrd exists" || bad "config.txt initramfs '$initrd' missing"
grep -qx 'arm_64bit=1' "$tmp/config.txt" && ok "arm_64bit=1" || bad "config.txt lacks arm_64bit=1"
# The kernel: an arm64 Image ("ARMd" magic at byte 56), as Debian ships it, or gzip-compressed.
mcopy -i "$fat" ::/vmlinuz "$tmp/vmlinuz"
if [ "$(head -c 2 "$tmp/vmlinuz" | od -An -tx1 | tr -d ' ')" = 1f8b ]; then zcat "$tmp/vmlinuz" > "$tmp/Image"; else cp "$tmp/vmlinuz" "$tmp/Image"; fi
magic=$(dd if="$tmp/Image" bs=1 skip=56 count=4 status=none)
[ "$magic" = "ARMd" ] && ok "vmlinuz is an arm64 kernel Image" || bad "vmlinuz is not an arm64 Image (magic '$magic')"
mcopy -i "$fat" ::/bcm2711-rpi-4-b.dtb "$tmp/dtb"
[ "$(head -c 4 "$tmp/dtb" | od -An -tx1 | tr -d ' ')" = d00dfeed ] && ok "the DTB is a flattened device tree" || bad "bcm2711-rpi-4-b.dtb is not a DTB"

# --- root partition (ext4, through debugfs on an extracted copy) ---
rootfs=$tmp/root.ext4
dd if="$img" of="$rootfs" bs=512 skip="$root_start" count="$root_size" conv=sparse status=none
dbg() { debugfs -R "$1" "$rootfs" 2>/dev/null; }
# Outputs are captured before grep reads them: grep -q on a pipe would fail the writer (pipefail).
exists() { local out; out=$(debugfs -R "stat $1" "$rootfs" 2>&1 || true); grep -q '^Inode:' <<< "$out"; }
dbg "dump /usr/bin/backdrop $tmp/backdrop"
if [ -s "$tmp/backdrop" ]; then
  hdr=$(readelf -h "$tmp/backdrop")
  grep -q 'Machine:.*AArch64' <<< "$hdr" && grep -q 'Type:.*\(EXEC\|DYN\)' <<< "$hdr" &&
    ok "/usr/bin/backdrop is an aarch64 executable" || bad "/usr/bin/backdrop is not an aarch64 executable"
  interp=$(readelf -l "$tmp/backdrop" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
  exists "$interp" && ok "its interpreter $interp is present" || bad "its interpreter $interp is missing"
  libs=$(dbg "ls -l /usr/lib/aarch64-linux-gnu" | awk '{ print $NF }')
  for lib in $(readelf -d "$tmp/backdrop" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    grep -qx "$lib" <<< "$libs" && ok "NEEDED $lib is in /usr/lib/aarch64-linux-gnu" || bad "NEEDED $lib is missing from the root"
  done
else
  bad "no /usr/bin/backdrop in the root partition"
fi
compilers=$(for d in /usr/bin /usr/sbin; do dbg "ls -l $d" | awk '{ print $NF }'; done |
            grep -E '^(gcc|g\+\+|cc|c\+\+|cpp|clang|as|ld|ld\.bfd|ld\.gold|swiftc|rustc)(-[0-9.]+)?$|^aarch64-linux-gnu-(gcc|as|ld)' || true)
[ -z "$compilers" ] && ok "no compiler, assembler or linker in /usr/bin" || bad "compilers in the root: $compilers"
cc1=""
for v in $(dbg "ls /usr/lib/gcc/aarch64-linux-gnu" | tr -s ' ' '\n' | grep -E '^[0-9]' || true); do
  exists "/usr/lib/gcc/aarch64-linux-gnu/$v/cc1" && cc1="$cc1 $v"
done
[ -z "$cc1" ] && ok "no cc1 under /usr/lib/gcc" || bad "cc1 in /usr/lib/gcc/aarch64-linux-gnu/$cc1"
names() { dbg "ls $1" | tr -s ' ' '\n' | grep -v -E '^(\.|\.\.|[0-9]+|\([0-9]+\))?$' || true; }
for d in /usr/share/man /usr/share/locale /usr/share/info; do
  [ -z "$(names "$d")" ] && ok "$d empty or absent" || bad "$d has content: $(names "$d" | head -3 | tr '\n' ' ')"
done
for p in systemd libc6 udev; do
  extra=$(names "/usr/share/doc/$p" | grep -vx copyright || true)
  [ -z "$extra" ] && ok "/usr/share/doc/$p holds only its copyright" || bad "/usr/share/doc/$p holds $extra"
done
exists /etc/systemd/system/backdrop.service && ok "backdrop.service installed" || bad "no backdrop.service"
exists /etc/systemd/system/multi-user.target.wants/backdrop.service && ok "backdrop.service enabled" || bad "backdrop.service not enabled"
for unit in getty@tty1.service getty-static.service; do
  link=$(dbg "stat /etc/systemd/system/$unit" | grep -o 'Fast link dest: "[^"]*"' || true)
  [ "$link" = 'Fast link dest: "/dev/null"' ] && ok "$unit masked (no login on HDMI)" || bad "$unit not masked ($link)"
done
dbg "dump /etc/fstab $tmp/fstab"
grep -q "^PARTUUID=$root_puuid  */  " "$tmp/fstab" && ok "fstab mounts partition 2 ($root_puuid) at /" || bad "fstab's / is not $root_puuid"
grep -q "^PARTUUID=$data_puuid  */var  " "$tmp/fstab" && ok "fstab mounts partition 3 ($data_puuid) at /var" || bad "fstab's /var is not $data_puuid"
passwd=$(dbg "cat /etc/passwd"); groups=$(dbg "cat /etc/group")
grep -q "^backdrop:x:[0-9]*:" <<< "$passwd" && ok "user backdrop exists" || bad "no backdrop user"
for g in video render gpio; do
  grep -q "^$g:x:[0-9]*:.*backdrop" <<< "$groups" && ok "backdrop is in $g" || bad "backdrop not in group $g"
done

# --- the way to the root: every device-tree supplier of the SD controller has its driver ---
ver=$(names /usr/lib/modules | head -1)
mkdir "$tmp/mod"
for f in modules.alias modules.builtin.modinfo modules.dep; do dbg "dump /usr/lib/modules/$ver/$f $tmp/mod/$f"; done
dbg "dump /boot/config-$ver $tmp/mod/config"
python3 "$bootchain" initramfs-modules "$tmp/boot/$initrd" > "$tmp/initramfs-modules" ||
  bad "cannot list the modules in $initrd"
dtb=$(sed -n "s/^device_tree=//p" "$tmp/config.txt")
if out=$(python3 "$bootchain" suppliers "$tmp/boot/$dtb" "$tmp/mod" "$tmp/initramfs-modules" \
           --start brcm,bcm2711-emmc2 --need mmc_block --need ext4 --kernel "$tmp/Image" 2>&1); then
  echo "$out"; ok "emmc2 and all its suppliers have drivers at boot (kernel $ver)"
else echo "$out"; bad "a device on the way to the root has no driver in the kernel or the initramfs"; fi
# The check itself: with the initramfs list before the regulator fix it must fail.
bash "$(dirname "$0")/bootchain-selftest.sh" "$tmp/boot/$dtb" "$tmp/mod" "$tmp/Image" > "$tmp/selftest" 2>&1 &&
  ok "bootchain.py fails on the known-bad fixtures ($(tail -1 "$tmp/selftest"))" ||
  { cat "$tmp/selftest"; bad "bootchain-selftest.sh"; }

# --- hygiene: the build host's traces, what a keyboard can do, build-only packages ---
[ "$(dbg "cat /etc/hostname")" = backdrop ] && ok "hostname backdrop" || bad "/etc/hostname is '$(dbg "cat /etc/hostname")'"
! exists /etc/resolv.conf && ok "no resolv.conf (no network)" || bad "/etc/resolv.conf in the image (the build host's?)"
hostsfile=$(dbg "cat /etc/hosts")
! grep -qw "$(hostname)" <<< "$hostsfile" && ok "/etc/hosts does not name the build host" || bad "/etc/hosts names the build host $(hostname)"
grep -qw 'panic=10' "$tmp/cmdline.txt" && ok "panic=10: a failed boot restarts instead of waiting at a shell" || bad "cmdline.txt lacks panic=10"
grep -qw 'sysctl.kernel.sysrq=0' "$tmp/cmdline.txt" && ok "SysRq off from the kernel's start" || bad "cmdline.txt lacks sysctl.kernel.sysrq=0"
link=$(dbg "stat /etc/systemd/system/ctrl-alt-del.target" | grep -o 'Fast link dest: "[^"]*"' || true)
[ "$link" = 'Fast link dest: "/dev/null"' ] && ok "ctrl-alt-del.target masked" || bad "ctrl-alt-del.target not masked ($link)"
burst=$(for f in $(names /etc/systemd/system.conf.d); do dbg "cat /etc/systemd/system.conf.d/$f"; done | sed -n 's/^CtrlAltDelBurstAction=//p' | tail -1)
[ "$burst" = none ] && ok "CtrlAltDelBurstAction=none" || bad "CtrlAltDelBurstAction is '${burst:-reboot-force (default)}'"
# kernel.sysrq as systemd-sysctl leaves it: files from all sysctl.d folders in name order, /etc
# winning over /usr/lib for the same name.
sysrq=$( { for f in $(names /usr/lib/sysctl.d); do echo "$f /usr/lib/sysctl.d/$f"; done
           for f in $(names /etc/sysctl.d); do echo "$f /etc/sysctl.d/$f"; done; } | sort -k1,1 -s |
         awk '{ path[$1] = $2 } END { for (n in path) print n, path[n] }' | sort | while read -r _ path; do
           dbg "cat $path" < /dev/null | sed -n 's/^[[:space:]]*kernel\.sysrq[[:space:]]*=[[:space:]]*//p'; done | tail -1)
[ "$sysrq" = 0 ] && ok "kernel.sysrq = 0 after systemd-sysctl" || bad "kernel.sysrq ends as '${sysrq:-the kernel default}'"
rule=$(dbg "cat /etc/udev/rules.d/61-backdrop-usb-links.rules")
grep -q '^SUBSYSTEM=="block", SUBSYSTEMS=="usb", OPTIONS+="link_priority=-[0-9]*"' <<< "$rule" &&
  ok "USB disks rank below the card for its by-partuuid links" || bad "no USB link-priority rule (a flashed card on USB can take the box's PARTUUID links)"
for f in /usr/sbin/mkinitramfs /usr/bin/cpio /usr/bin/zstd /usr/lib/klibc; do
  ! exists "$f" && ok "no $f (build only)" || bad "$f is in the root (only the build needs it)"
done
for d in /usr/lib/raspi-firmware "/usr/lib/linux-image-$ver"; do
  ! exists "$d" && ok "no $d in the root (the boot partition has the Pi 4's)" || bad "$d in the root: other boards' firmware/DTBs"
done

# --- the journal's one directory and a clock that does not go back ---
grep -qE 'systemd\.machine_id=[0-9a-f]{32}( |$)' "$tmp/cmdline.txt" &&
  ok "machine ID fixed on the command line: one journal directory for every boot" || bad "cmdline.txt gives no systemd.machine_id="
# shellcheck source=/dev/null
epoch=$(. "$(dirname "$0")/../../image-build/image.conf"; echo "$SOURCE_DATE_EPOCH")
clock=$(dbg "stat /usr/lib/clock-epoch" | sed -n 's/^ *mtime: *0x\([0-9a-f]*\).*/\1/p')
[ -n "$clock" ] && [ $((16#$clock)) = "$epoch" ] && ok "/usr/lib/clock-epoch carries the build's time ($epoch)" ||
  bad "/usr/lib/clock-epoch missing or not at the build's time (${clock:+0x$clock})"
exists /etc/systemd/system/sysinit.target.wants/systemd-timesyncd.service &&
  ok "systemd-timesyncd enabled: keeps the last known time on /var" || bad "systemd-timesyncd not enabled"

# --- data partition: the first generation ---
datafs=$tmp/data.ext4
dd if="$img" of="$datafs" bs=512 skip="$data_start" count="$data_size" conv=sparse status=none
link=$(debugfs -R "stat /lib/backdrop/current" "$datafs" 2>/dev/null | grep -o 'Fast link dest: "[^"]*"' || true)
[ -n "$link" ] && ok "data partition: /var/lib/backdrop/current -> ${link#Fast link dest: }" || bad "no current generation on the data partition"
conf=$(debugfs -R "stat /lib/backdrop/generations/000001/backdrop.conf" "$datafs" 2>&1 || true)
grep -q '^Inode:' <<< "$conf" &&
  ok "the first generation holds backdrop.conf" || bad "first generation has no backdrop.conf"

status=$(debugfs -R "cat /lib/dpkg/status" "$datafs" 2>/dev/null)
installed=$(awk '/^Package: / { p = $2 } /^Status: install ok installed/ { print p }' <<< "$status")
[ "$(wc -l <<< "$installed")" -gt 50 ] && ok "dpkg status lists $(wc -l <<< "$installed") packages" || bad "cannot read dpkg's status"
for p in initramfs-tools initramfs-tools-core klibc-utils libklibc cpio zstd; do
  ! grep -qx "$p" <<< "$installed" && ok "package $p purged (build only)" || bad "package $p installed (build only)"
done

[ $fail = 0 ] && echo "image inspect: PASS" || echo "image inspect: FAIL"
exit $fail
