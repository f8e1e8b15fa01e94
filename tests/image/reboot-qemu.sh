#!/bin/bash
# Boots one card several times in a row on QEMU's virt machine (TCG), its emulated RTC at
# 1970-01-01 like a Pi without RTC or network, and checks what must hold across boots:
#   - the journal keeps one directory, named by the machine ID the command line gives
#     (systemd.machine_id=), so SystemMaxUse bounds it;
#   - the clock never starts earlier than the build's epoch (/usr/lib/clock-epoch), nor earlier
#     than the time systemd-timesyncd saved on the data partition in the boot before.
# The image's own kernel, initramfs and cmdline.txt (from its FAT partition, through mtools) boot
# the whole card as a virtio disk, as tests/image/boot-qemu.sh does; systemd.run makes a report
# the boot's goal (the booth itself does not start), which waits past timesyncd's SaveIntervalSec
# so this boot's time is on the data partition, and powers off. Works on the rpi4 image (its
# initramfs holds the virtio modules too) and on the qemu-arm64 one.
#
# Usage: tests/image/reboot-qemu.sh IMAGE.img|IMAGE.img.xz [boots (default 5)] [timeout per boot, s]
set -euo pipefail
main() {
src=${1:?usage: reboot-qemu.sh IMAGE.img|IMAGE.img.xz [boots] [timeout]}
boots=${2:-5}
timeout=${3:-900}
tmp=$(mktemp -d /tmp/backdrop-reboot.XXXXXX)
qemu_pid=
cleanup() { [ -z "$qemu_pid" ] || kill "$qemu_pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
img=$tmp/disk.img
case $src in *.xz) xz -dc "$src" > "$img" ;; *) cp --sparse=always "$src" "$img" ;; esac
truncate -s 2G "$img"
part() { sfdisk --json "$img" | python3 -c "import json,sys; p=json.load(sys.stdin)['partitiontable']['partitions'][$1]; print(p['start'], p['size'])"; }
read -r boot_start _ < <(part 0)
read -r data_start data_size < <(part 2)
fat="$img@@$((boot_start * 512))"
mcopy -i "$fat" ::/vmlinuz "$tmp/vmlinuz"
mcopy -i "$fat" ::/initrd.img "$tmp/initrd.img"
cmdline=$(mtype -i "$fat" ::/cmdline.txt | head -1 | sed 's/console=[^ ]*//g')

cat > "$tmp/report.sh" <<'EOF'
n=0; until systemctl is-active -q systemd-timesyncd.service || [ $n -ge 300 ]; do sleep 1; n=$((n+1)); done
echo TIMESYNCD=$(systemctl is-active systemd-timesyncd.service)
echo CLOCK-START=$(date +%s)
echo EPOCH=$(stat -c %Y /usr/lib/clock-epoch)
echo MACHINE-ID=$(cat /etc/machine-id)
n=0; until [ -n "$(ls /var/log/journal 2>/dev/null)" ] || [ $n -ge 120 ]; do sleep 1; n=$((n+1)); done
echo JOURNAL-DIRS=$(ls /var/log/journal | tr '\n' ' ')
echo JOURNAL-BOOTS=$(journalctl --list-boots --no-pager 2>/dev/null | grep -cE '[0-9a-f]{32}')
journalctl --list-boots --no-pager 2>/dev/null | sed 's/^/JOURNAL-BOOT-LIST: /'

journalctl -b -u systemd-timesyncd.service -o cat --no-pager | head -5 | sed 's/^/TIMESYNCD-LOG: /'
# timesyncd saves the time every SaveIntervalSec (60 s) while it has no server: wait past one.
sleep 70
echo CLOCK-SAVED=$(stat -c %Y /var/lib/systemd/timesync/clock 2>/dev/null || echo none)
echo CLOCK-END=$(date +%s)
sync
EOF
dd if="$img" of="$tmp/data.ext4" bs=512 skip="$data_start" count="$data_size" status=none
printf 'mkdir reboot-test\nwrite %s reboot-test/report.sh\n' "$tmp/report.sh" > "$tmp/debugfs.cmds"
debugfs -w -f "$tmp/debugfs.cmds" "$tmp/data.ext4" >/dev/null 2>&1
dd if="$tmp/data.ext4" of="$img" bs=512 seek="$data_start" conv=notrunc,sparse status=none

# Device and start jobs get 10 minutes instead of 90 s: under TCG on a loaded host udev has taken
# longer than 90 s to announce the data partition (the boot then drops to emergency mode).
append="console=ttyAMA0 $cmdline panic=-1 systemd.default_timeout_start_sec=600 systemd.show_status=false systemd.mask=serial-getty@ttyAMA0.service systemd.run=\"/bin/sh -c '/bin/sh /var/reboot-test/report.sh > /dev/ttyAMA0 2>&1; echo REPORT-END > /dev/ttyAMA0'\" systemd.run_success_action=poweroff systemd.run_failure_action=poweroff"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
prev_saved= prev_end= dirs_seen=
for boot in $(seq 1 "$boots"); do
  t0=$(date +%s)
  nice -n 10 qemu-system-aarch64 -M virt -cpu cortex-a72 -accel tcg -smp 2 -m 1024 -nographic -no-reboot \
    -rtc base=1970-01-01T00:00:00,clock=vm \
    -kernel "$tmp/vmlinuz" -initrd "$tmp/initrd.img" -append "$append" \
    -drive if=none,file="$img",format=raw,id=card -device virtio-blk-pci,drive=card \
    -serial mon:stdio > "$tmp/console.log" 2>&1 < /dev/null &
  qemu_pid=$!
  while kill -0 "$qemu_pid" 2>/dev/null; do
    if [ $(( $(date +%s) - t0 )) -gt "$timeout" ]; then echo "reboot-qemu: boot $boot: no report within $timeout s"; tr -d '\r' < "$tmp/console.log" | tail -40; exit 124; fi
    if grep -q "You are in emergency mode" "$tmp/console.log"; then
      echo "reboot-qemu: boot $boot fell into emergency mode after $(( $(date +%s) - t0 )) s; console:"; tr -d '\r' < "$tmp/console.log" | tail -30; exit 1
    fi
    sleep 2
  done
  qemu_pid=
  tr -d '\r' < "$tmp/console.log" > "$tmp/console.txt"
  grep -q REPORT-END "$tmp/console.txt" || { echo "reboot-qemu: boot $boot: no report"; tail -40 "$tmp/console.txt"; exit 1; }
  val() { sed -n "s/^$1=//p" "$tmp/console.txt" | tail -1; }
  start=$(val CLOCK-START) epoch=$(val EPOCH) saved=$(val CLOCK-SAVED) end=$(val CLOCK-END) dirs=$(val JOURNAL-DIRS)
  echo "boot $boot ($(( $(date +%s) - t0 )) s): clock at start $start, epoch $epoch, saved $saved, at end $end; timesyncd $(val TIMESYNCD); machine id $(val MACHINE-ID); journal dirs: $dirs; boots in the journal: $(val JOURNAL-BOOTS)"
  grep -e '^TIMESYNCD-LOG' -e '^JOURNAL-BOOT-LIST' "$tmp/console.txt" || true
  [ "$start" -ge "$epoch" ] 2>/dev/null || bad "boot $boot started its clock at $start, before the build's epoch $epoch"
  if [ -n "$prev_saved" ]; then
    [ "$start" -ge "$prev_saved" ] 2>/dev/null || bad "boot $boot started at $start, before the time boot $((boot - 1)) saved ($prev_saved)"
  fi
  [ "$saved" != none ] || bad "boot $boot: timesyncd saved no clock file on the data partition"
  [ "$(wc -w <<< "$dirs")" = 1 ] || bad "boot $boot: $(wc -w <<< "$dirs") journal directories ($dirs)"
  [ "${dirs// /}" = "$(val MACHINE-ID)" ] || bad "boot $boot: the journal directory $dirs is not the machine ID $(val MACHINE-ID)"
  [ -z "$dirs_seen" ] || [ "$dirs_seen" = "$dirs" ] || bad "boot $boot: the journal directory changed ($dirs_seen -> $dirs)"
  [ "$(val JOURNAL-BOOTS)" = "$boot" ] || bad "boot $boot: the journal lists $(val JOURNAL-BOOTS) boots, not $boot (one directory for all)"
  dirs_seen=$dirs prev_saved=$saved prev_end=$end
done
[ $fail = 0 ] && echo "reboot-qemu: PASS ($boots boots: one journal directory, the clock never earlier than the epoch or the last boot's saved time)"
exit $fail
}
main "$@"; exit $?
