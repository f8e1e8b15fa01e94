#!/bin/bash
# The booth's unit, judged by systemd's own exposure score (systemd-analyze security, offline, on
# the file in the recipe): 1.5 at most. Also the facts the box relies on that the score does not
# cover: notify + watchdog, restart with a start limit that reboots, its own user and groups, the
# device list ordered after the modules that register the majors.
set -euo pipefail
cd "$(dirname "$0")/../.."
unit=image-build/rootfs/etc/systemd/system/backdrop.service
fail=0
check() { if grep -qx -- "$1" "$unit"; then echo "ok: $1"; else echo "FAIL: $unit lacks '$1'"; fail=1; fi; }
command -v systemd-analyze >/dev/null ||
  { echo "FAIL: systemd-analyze not found (Debian package systemd; make deps installs it)"; exit 1; }
# The score's lines are shown when it fails; grep finding none of them must not end the script first.
out=$(systemd-analyze security --offline=true --threshold=15 "$unit" 2>&1) || {
  echo "$out" | grep -E '✗|Overall' || echo "$out"
  echo "FAIL: exposure above 1.5"; exit 1; }
echo "$out" | grep 'Overall exposure'
for line in Type=notify NotifyAccess=main WatchdogSec=20 Restart=always StartLimitAction=reboot \
    User=backdrop 'SupplementaryGroups=video render gpio' ProtectSystem=strict ReadWritePaths=/var/lib/backdrop \
    PrivateNetwork=yes IPAddressDeny=any DevicePolicy=closed 'DeviceAllow=char-drm rw' \
    'DeviceAllow=char-video4linux rw' 'DeviceAllow=char-gpiochip rw' \
    'Wants=modprobe@drm.service modprobe@videodev.service'; do
  check "$line"
done
grep -q '^After=.*modprobe@drm.service' "$unit" && grep -q '^After=.*modprobe@videodev.service' "$unit" ||
  { echo "FAIL: not ordered after modprobe@drm and modprobe@videodev"; fail=1; }
# The groups the unit names exist in the image (sysusers.d) and udev gives gpiochips the gpio group.
grep -q '^g gpio ' image-build/rootfs/usr/lib/sysusers.d/backdrop.conf || { echo "FAIL: no gpio group in sysusers.d"; fail=1; }
grep -q 'KERNEL=="gpiochip\[0-9\]\*", GROUP="gpio"' image-build/rootfs/etc/udev/rules.d/60-backdrop-gpio.rules ||
  { echo "FAIL: no udev rule giving gpiochips the gpio group"; fail=1; }
# The boot partition's import runs as root (like the stick's): confined to the data folder.
boot_import=image-build/rootfs/etc/systemd/system/backdrop-boot-import.service
out=$(systemd-analyze security --offline=true --threshold=15 "$boot_import" 2>&1) &&
  echo "$out" | grep 'Overall exposure' || { echo "FAIL: $boot_import exposure above 1.5"; fail=1; }
grep -qx 'Before=backdrop.service' "$boot_import" && grep -qx 'SuccessExitStatus=2' "$boot_import" &&
  grep -qx 'ExecStart=/usr/bin/backdrop import /boot/firmware --data /var/lib/backdrop' "$boot_import" ||
  { echo "FAIL: $boot_import is not the same import, before the booth, with 2 as success"; fail=1; }
# The stick's unit: root for mount, no mount namespace (see its comment), so its score is 6.9; it
# must not get worse. Its steps in order: import and export each tell the booth (SIGHUP) after
# they end, the export only once the stick is synced and read-only again; "you can remove the
# stick" (stick-released) only after a successful umount and only while the device is still there.
stick_unit=image-build/rootfs/etc/systemd/system/backdrop-import@.service
out=$(systemd-analyze security --offline=true --threshold=69 "$stick_unit" 2>&1) &&
  echo "$out" | grep 'Overall exposure' || { echo "FAIL: $stick_unit exposure above 6.9"; fail=1; }
grep -q '^ExecStart=.* --signal=HUP backdrop.service .*; exit \$\$status.$' <(grep -m1 '^ExecStart=' "$stick_unit") ||
  { echo "FAIL: $stick_unit: the import's ExecStart does not tell the booth after the import"; fail=1; }
grep -q '^ExecStart=.*export-photos .*; sync -f [^;]*; mount -o remount,ro [^;]*; /bin/systemctl kill --kill-whom=main --signal=HUP backdrop.service || true; exit \$\$status.$' "$stick_unit" ||
  { echo "FAIL: $stick_unit: the export's ExecStart does not sync, remount read-only, then tell the booth"; fail=1; }
grep -qx "ExecStopPost=-/bin/sh -c '/bin/umount /run/backdrop-stick/%i/root || exit 0; \[ -b /dev/%i \] || exit 0; /usr/bin/backdrop stick-released --data /var/lib/backdrop \&\& /bin/systemctl kill --kill-whom=main --signal=HUP backdrop.service'" "$stick_unit" ||
  { echo "FAIL: $stick_unit: 'you can remove the stick' is not said only after a successful unmount of a stick still there"; fail=1; }
[ "$(grep -c '^ExecStopPost=' "$stick_unit")" = 1 ] || { echo "FAIL: $stick_unit: more than the one ExecStopPost (the unmount and its notice)"; fail=1; }
# What a hostile stick reaches: FAT or exFAT only (udev starts the unit for no other type, and the
# mount names the types), nothing followed through a symlink, and a memory cap on both imports.
grep -qx 'ExecStartPre=/bin/mount -t vfat,exfat -o ro,nosuid,nodev,noexec,noatime,nosymfollow /dev/%i /run/backdrop-stick/%i/root' "$stick_unit" ||
  { echo "FAIL: $stick_unit: the stick is not mounted as vfat/exfat only, read-only, nosymfollow"; fail=1; }
grep -q '^ExecStart=.*mount -o remount,rw,nosuid,nodev,noexec,noatime,nosymfollow ' "$stick_unit" ||
  { echo "FAIL: $stick_unit: the photo step's read-write remount drops nosymfollow"; fail=1; }
stick_rule=image-build/rootfs/etc/udev/rules.d/80-backdrop-stick.rules
grep -q 'ENV{ID_FS_TYPE}=="vfat|exfat", ' "$stick_rule" && ! grep -q 'ext4' <(grep -v '^#' "$stick_rule") ||
  { echo "FAIL: $stick_rule starts the import for other file systems than vfat and exfat"; fail=1; }
for u in "$stick_unit" "$boot_import"; do
  grep -qE '^MemoryMax=[0-9]+M$' "$u" && echo "ok: $(basename "$u") $(grep '^MemoryMax=' "$u")" ||
    { echo "FAIL: $u has no MemoryMax"; fail=1; }
done
[ $fail = 0 ] && echo "unit-security: PASS"
exit $fail
