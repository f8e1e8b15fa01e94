#!/bin/bash
# Boots the qemu-arm64 image (Debian's kernel and initramfs from its FAT partition, its root and
# data partitions; the virtual board's vkms, v4l2loopback and gpio-sim as the image's own modules)
# on QEMU's virt machine (TCG), the whole card as one virtio disk grown to 2 GiB, and checks from
# inside the booted system: the booth reaches READY with a STATUS line a person reads, a photo
# taken through the display's writeback shows the subject over the backdrop (judged on the host
# against `backdrop render` of the same camera frame), a SIGSTOPped loop is killed by systemd's
# watchdog and the service comes back to READY, no unit failed, the data partition grew. QEMU runs
# no start4.elf, so the Pi's config.txt is not exercised here; the kernel command line is the
# image's cmdline.txt with the virt machine's console.
#
# The camera is the end-to-end test's (tests/e2e): a producer loops one known RGB-D frame into the
# loopback nodes. It, its frame and the report script go onto the data partition (debugfs on an
# extracted copy, no mount), and systemd.run runs the report, which prints between markers and
# powers off. The photo is read back from the data partition the same way.
#
# make test runs the acceptance part only (BOOT_TEST_STICK=0, about two minutes less): READY and
# STATUS, the photo, the watchdog, no failed unit. BOOT_TEST_STICK=1 (make image-boot-test
# IMAGE_BOOT_STICK=1) adds the QMP hot-plugged USB stick and its import. Nothing waits without a
# bound: every wait in the guest has one, and QEMU itself is killed after the timeout. On a failure
# the serial log's tail and the journal of every failed unit are printed.
#
# Usage: tests/image/boot-qemu.sh build/image/backdrop-qemu-arm64.img|IMAGE.img.xz [timeout-seconds]
set -euo pipefail
# The body is one function so bash parses all of it first: editing this file mid-run is then safe.
main() {
xzimg=${1:?usage: boot-qemu.sh IMAGE.img|IMAGE.img.xz [timeout]}
timeout=${2:-1800}
stick=${BOOT_TEST_STICK:-1}
case $stick in 0|1) ;; *) echo "boot-qemu: BOOT_TEST_STICK must be 0 or 1, not '$stick'"; exit 2 ;; esac
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
host_backdrop=${HOST_BACKDROP:-$repo/.build/release/backdrop}
[ -x "$host_backdrop" ] || { echo "boot-qemu: no host build at $host_backdrop (make build): it renders the expected frame"; exit 1; }
tmp=$(mktemp -d /tmp/backdrop-boot.XXXXXX)
qemu_pid=
cleanup() { [ -z "$qemu_pid" ] || kill "$qemu_pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
img=$tmp/disk.img
case $xzimg in *.xz) xz -dc "$xzimg" > "$img" ;; *) cp --sparse=always "$xzimg" "$img" ;; esac
truncate -s 2G "$img"
part() { sfdisk --json "$img" | python3 -c "import json,sys; p=json.load(sys.stdin)['partitiontable']['partitions'][$1]; print(p['start'], p['size'])"; }
read -r boot_start _ < <(part 0)
read -r data_start data_size < <(part 2)
fat="$img@@$((boot_start * 512))"
mcopy -i "$fat" ::/vmlinuz "$tmp/vmlinuz"
mcopy -i "$fat" ::/initrd.img "$tmp/initrd.img"
cmdline=$(mtype -i "$fat" ::/cmdline.txt | head -1 | sed 's/console=[^ ]*//g')

# The camera: the e2e scene (a subject at 1.2 m before a wall at 3 m) and its producer.
mkdir -p "$tmp/scene" "$tmp/guest"
python3 "$repo/tests/e2e/scene.py" "$tmp/scene"
aarch64-linux-gnu-gcc -O2 -Wall -static -o "$tmp/guest/producer" "$repo/tests/e2e/producer.c"
gcc -O2 -Wall -o "$tmp/framecheck" "$repo/tests/image/framecheck.c" $(pkg-config --cflags --libs spng libturbojpeg)
cp "$tmp/scene/colour.yuyv" "$tmp/scene/depth.z16" "$tmp/guest/"
# A backdrop in the boot partition's backdrop/ folder, as a user would copy it there from a PC:
# taken in at boot (backdrop-boot-import.service), it replaces the first generation's set, so the
# photo must show the subject over it.
mcopy -i "$fat" "$tmp/scene/backdrops/b.png" ::/backdrop/backgrounds/orange.png
# The USB stick: a new backdrop and a new config, FAT made by mkfs.vfat and mtools (no loop mount).
mkfs.vfat -C -n STICK "$tmp/stick.img" 32768 > /dev/null
mmd -i "$tmp/stick.img" ::/backdrop ::/backdrop/backgrounds
mcopy -i "$tmp/stick.img" "$tmp/scene/backdrops/c.png" ::/backdrop/backgrounds/green.png
printf '[matte]\r\nfar_mm = 2500\r\n' > "$tmp/stick.conf"
mcopy -i "$tmp/stick.img" "$tmp/stick.conf" ::/backdrop/backdrop.conf
qmp() {  # one QMP command on the board's socket; fails on an error answer or after 60 s
  timeout 60 python3 - "$tmp/qmp.sock" "$1" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rw")
f.readline(); f.write('{"execute":"qmp_capabilities"}\n'); f.flush(); f.readline()
f.write(sys.argv[2] + "\n"); f.flush()
while True:
    answer = json.loads(f.readline())
    if "return" in answer: sys.exit(0)
    if "error" in answer: print(answer["error"], file=sys.stderr); sys.exit(1)
PY
}

# The report, run once the system has settled. systemd.run makes its own unit the boot's goal, so
# the report starts the box's real target itself and waits until every other job has left the
# queue (is-system-running --wait would wait for the report too). Times are the guest's uptime.
echo "stick=$stick" > "$tmp/guest/report.sh"
cat >> "$tmp/guest/report.sh" <<'EOF'
t=/var/boot-test
up() { cut -d" " -f1 /proc/uptime; }
prop() { systemctl show -p "$1" --value backdrop.service; }
n=0; until [ -e /dev/video11 ] || [ $n -ge 120 ]; do sleep 1; n=$((n+1)); done
$t/producer /dev/video10 /dev/video11 640 480 $t/colour.yuyv $t/depth.z16 30 > $t/producer.log 2>&1 &
systemctl start --no-block multi-user.target; sleep 1
n=0; while systemctl list-jobs --no-legend | grep -v -e kernel-command-line -e backdrop.service | grep -q . && [ $n -lt 600 ]; do sleep 2; n=$((n+2)); done
n=0; until [ "$(prop ActiveState)" = active ] || [ $n -ge 600 ]; do sleep 2; n=$((n+2)); done
echo GEN-CURRENT=$(readlink /var/lib/backdrop/current)
echo BOOT-IMPORT-RESULT=$(systemctl show -p Result --value backdrop-boot-import.service)/$(systemctl show -p ExecMainStatus --value backdrop-boot-import.service)
echo BOOT-IMPORT-BEFORE-BOOTH=$(systemctl show -p ExecMainExitTimestampMonotonic --value backdrop-boot-import.service),$(prop ExecMainStartTimestampMonotonic)
journalctl -b -u backdrop-boot-import.service -o cat --no-pager | sed "s/^/BOOT-IMPORT: /"
echo READY-STATE=$(prop ActiveState)/$(prop SubState)
echo READY-AT-US=$(prop ActiveEnterTimestampMonotonic)
echo READY-STATUS=$(prop StatusText)
# READY comes once the booth's loop runs, camera or not: the shutter waits for the first frame.
n=0; until prop StatusText | grep -q '^showing: ' || [ $n -ge 300 ]; do sleep 1; n=$((n+1)); done
echo SHOWING-STATUS=$(prop StatusText)
# The shutter (GPIO22, offset 2 of the simulated chip): pressed low for 300 ms. Up to three
# presses: on a loaded host the emulated display can miss the booth's 2 s for delivering the
# writeback capture ("photo not saved: the display did not deliver the capture"), which the booth
# reports and survives; the presses are counted.
chip=$(ls -d /sys/devices/platform/gpio-sim.*/gpiochip* | head -1)
for press in 1 2 3; do
  echo PHOTO-PRESS=$press
  echo pull-down > $chip/sim_gpio2/pull; sleep 0.3; echo pull-up > $chip/sim_gpio2/pull
  n=0; until ls /var/lib/backdrop/photos | grep -q '^photo-' || [ $n -ge 60 ]; do sleep 1; n=$((n+1)); done
  ls /var/lib/backdrop/photos | grep -q '^photo-' && break
done
sleep 2; sync
echo PHOTO=$(ls /var/lib/backdrop/photos | grep '^photo-' | head -1)
# The running line replaces READY's once a frame rate has been measured, 10 s after READY: the
# photo above can be saved sooner than that, so it is waited for (up to 60 s).
n=0; until prop StatusText | grep -q ' fps; backdrop ' || [ $n -ge 60 ]; do sleep 1; n=$((n+1)); done
echo RUNNING-STATUS=$(prop StatusText)
# The watchdog: the loop stopped, systemd must kill it (WatchdogSec) and start it again.
pid=$(prop MainPID); restarts=$(prop NRestarts)
echo WATCHDOG-SEC=$(( $(prop WatchdogUSec | sed 's/ //g; s/min/*60+/; s/s$//; s/+$//') ))
echo WATCHDOG-STOP-AT=$(up)
kill -STOP "$pid"
n=0; until [ "$(prop MainPID)" != "$pid" ] && [ "$(prop MainPID)" != 0 ] && [ "$(prop ActiveState)" = active ] || [ $n -ge 600 ]; do sleep 1; n=$((n+1)); done
echo WATCHDOG-READY-AGAIN-AT=$(up)
echo WATCHDOG-RESTARTS=$restarts,$(prop NRestarts)
echo WATCHDOG-PIDS=$pid,$(prop MainPID)
echo WATCHDOG-STATE=$(prop ActiveState)/$(prop SubState)
journalctl -b -u backdrop.service -o short-monotonic --no-pager | grep -i -e "watchdog timeout" -e "killing process" | head -3 | sed "s/^/WD-JOURNAL: /"
# A USB stick, hot-plugged by the host through QMP when it reads this line: the udev rule starts
# backdrop-import@sda.service, which imports, tells the booth (SIGHUP) and unmounts.
if [ "$stick" = 1 ]; then
echo HOTPLUG-NOW
stick_unit() { systemctl list-units --all --no-legend --plain 'backdrop-import@*' | awk '{ print $1 }' | head -1; }
n=0; until [ -n "$(stick_unit)" ] || [ $n -ge 180 ]; do sleep 1; n=$((n+1)); done
u=$(stick_unit)
# A finished oneshot instance may be unloaded at once (its properties gone): read its end from
# the journal.
stick_end() { journalctl -b -u "$u" -o cat --no-pager | grep -e "Deactivated successfully" -e "Failed with result" | head -1; }
n=0; until [ -n "$u" ] && [ -n "$(stick_end)" ] || [ $n -ge 300 ]; do sleep 1; n=$((n+1)); done
sleep 5
echo STICK-UNIT=$u
case $(stick_end) in *"Deactivated successfully"*) echo STICK-RESULT=success ;; *) echo "STICK-RESULT=$(stick_end)" ;; esac
echo STICK-CURRENT=$(readlink /var/lib/backdrop/current)
echo STICK-BACKDROPS=$(ls /var/lib/backdrop/current/backgrounds | tr "\n" " ")
echo STICK-FAR=$(grep "^far_mm" /var/lib/backdrop/current/backdrop.conf)
echo STICK-MOUNTS=$(grep -c backdrop-stick /proc/mounts)
journalctl -b -u "$u" -o cat --no-pager | sed "s/^/STICK-JOURNAL: /"
journalctl -b -u backdrop.service -o cat --no-pager | grep -e "config reloaded" -e "reload" | sed "s/^/STICK-BOOTH: /"
fi
echo BOOT-STATE=$(systemctl is-system-running)
systemctl --failed --no-legend --plain | sed "s/^/FAILED: /"
for u in $(systemctl --failed --no-legend --plain | awk '{ print $1 }'); do
  journalctl -b -u "$u" -o short-monotonic --no-pager | tail -25 | sed "s/^/FAILED-JOURNAL $u: /"
done
systemctl show -p StatusText -p NRestarts -p ActiveState -p SubState backdrop.service | sed "s/^/BACKDROP-/"
pid=$(prop MainPID)
grep -E "^(Uid|Gid|Groups):" /proc/$pid/status | tr "\t" " " | sed "s/^/BACKDROP-PROCESS-/"
echo BACKDROP-GROUPS-NAMED=$(getent group video render gpio | cut -d: -f1,3 | tr "\n" " ")
echo DATA-SIZE-MB=$(( $(stat -f -c "%b*%S" /var) / 1048576 ))
echo UPTIME=$(up)
echo GETTYS=$(systemctl list-units --no-legend --plain "getty@*" "serial-getty@*" | cut -d" " -f1 | tr "\n" " ")
journalctl -b -u backdrop.service -u backdrop-grow-data.service -u backdrop-vboard-buttons.service --no-pager -o cat | tail -40 | sed "s/^/JOURNAL: /"
sed "s/^/PRODUCER: /" $t/producer.log
sync
EOF
dd if="$img" of="$tmp/data.ext4" bs=512 skip="$data_start" count="$data_size" status=none
{ echo "mkdir boot-test"
  for f in report.sh producer colour.yuyv depth.z16; do echo "write $tmp/guest/$f boot-test/$f"; done
} > "$tmp/debugfs.cmds"
debugfs -w -f "$tmp/debugfs.cmds" "$tmp/data.ext4" >/dev/null 2>&1
dd if="$tmp/data.ext4" of="$img" bs=512 seek="$data_start" conv=notrunc,sparse status=none
# The serial getty would hang up the console under the report (vhangup), so it stays off here.
append="console=ttyAMA0 $cmdline panic=-1 systemd.show_status=false systemd.mask=serial-getty@ttyAMA0.service systemd.run=\"/bin/sh -c '/bin/sh /var/boot-test/report.sh > /dev/ttyAMA0 2>&1; echo REPORT-END > /dev/ttyAMA0; systemctl --force poweroff'\" systemd.run_success_action=poweroff systemd.run_failure_action=poweroff"
t0=$(date +%s)
nice -n 10 qemu-system-aarch64 -M virt -cpu cortex-a72 -accel tcg -smp 2 -m 1024 -nographic -no-reboot \
  -kernel "$tmp/vmlinuz" -initrd "$tmp/initrd.img" -append "$append" \
  -drive if=none,file="$img",format=raw,id=card -device virtio-blk-pci,drive=card \
  -device qemu-xhci,id=xhci -qmp unix:"$tmp/qmp.sock",server=on,wait=off \
  -serial mon:stdio > "$tmp/console.log" 2>&1 < /dev/null &
qemu_pid=$!
plugged=0
while kill -0 "$qemu_pid" 2>/dev/null; do
  if [ $plugged = 0 ] && grep -q HOTPLUG-NOW "$tmp/console.log"; then
    plugged=1
    qmp '{"execute":"blockdev-add","arguments":{"node-name":"stick","driver":"raw","read-only":true,"file":{"driver":"file","filename":"'"$tmp/stick.img"'","read-only":true}}}' &&
      qmp '{"execute":"device_add","arguments":{"driver":"usb-storage","bus":"xhci.0","drive":"stick","id":"stick","removable":true}}' ||
      echo "boot-qemu: the QMP hot-plug failed"
  fi
  if [ $(( $(date +%s) - t0 )) -gt "$timeout" ]; then echo "boot-qemu: no report within $timeout s"; tail -40 "$tmp/console.log"; exit 124; fi
  # Emergency mode (a failed mount or another unit local-fs.target needs; here seen once when a host
  # load of 25 held systemd back 209 s) never runs the report: fail now rather than at the timeout.
  if grep -q "You are in emergency mode" "$tmp/console.log"; then
    echo "boot-qemu: the guest fell into emergency mode after $(( $(date +%s) - t0 )) s (a mount or a unit local-fs.target needs failed); console:"
    tr -d '\r' < "$tmp/console.log" | tail -40; exit 1
  fi
  sleep 2
done
qemu_pid=
elapsed=$(( $(date +%s) - t0 ))
tr -d '\r' < "$tmp/console.log" > "$tmp/console.txt"
cp "$tmp/console.txt" "${BOOT_LOG:-/tmp/backdrop-boot-console.txt}"
grep -E '^(STICK|GEN-CURRENT|BOOT-IMPORT|READY|RUNNING|PHOTO|WATCHDOG|WD-JOURNAL|BOOT-STATE|FAILED|BACKDROP|DATA-SIZE|UPTIME|GETTYS|JOURNAL|PRODUCER)' "$tmp/console.txt" ||
  { echo "boot-qemu: no report; console:"; tail -60 "$tmp/console.txt"; exit 1; }
echo "boot-qemu: QEMU ran $elapsed s"
r=$tmp/console.txt
# systemd's status lines share the console: a report line may follow their spaces and escapes.
val() { sed -n "s/^\(.*[^A-Z-]\)\{0,1\}$1=//p" "$r" | head -1; }
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# The boot partition's folder, taken in before the booth started
gen=$(val GEN-CURRENT) order=$(val BOOT-IMPORT-BEFORE-BOOTH)
[ "$gen" = generations/000002 ] && [ "$(val BOOT-IMPORT-RESULT)" = success/0 ] &&
  grep -q '^BOOT-IMPORT: .*orange.png' "$r" && [ "${order%,*}" -gt 0 ] && [ "${order%,*}" -le "${order#*,}" ] &&
  ok "the boot partition's backdrop/ was imported before the booth started: current -> $gen ($(grep '^BOOT-IMPORT: ' "$r" | grep orange.png | head -1 | sed 's/^BOOT-IMPORT: //'))" ||
  bad "boot partition import: current -> '$gen', result $(val BOOT-IMPORT-RESULT), import ended/booth started at $order (us)"

# READY and STATUS
ready=$(val READY-STATE) ready_us=$(val READY-AT-US)
[ "$ready" = active/running ] && [ "${ready_us:-0}" -gt 0 ] &&
  ok "backdrop.service reached READY (event loop running) $(awk -v u="$ready_us" 'BEGIN { printf "%.1f", u / 1e6 }') s after boot" ||
  bad "backdrop.service never reached READY (state $ready)"
status=$(val RUNNING-STATUS)
case $status in
  "showing: camera "*"; display "*" fps; backdrop "*) ok "STATUS: $status" ;;
  *) bad "STATUS is not the running line: '$status' (at READY: '$(val READY-STATUS)')" ;;
esac

# The written-back photo against the host's render of the same frame over the same backdrop (the
# one the boot partition brought), with and without the subject.
photo=$(val PHOTO)
if [ -n "$photo" ]; then
  # The data partition grew at first boot: read its extent again.
  read -r data_start data_size < <(part 2)
  dd if="$img" of="$tmp/data.ext4" bs=512 skip="$data_start" count="$data_size" status=none
  debugfs -R "dump /lib/backdrop/photos/$photo $tmp/$photo" "$tmp/data.ext4" >/dev/null 2>&1
  mkdir -p "$tmp/backdrops" "$tmp/conf"
  cp "$tmp/scene/backdrops/b.png" "$tmp/backdrops/orange.png"
  first=orange.png
  debugfs -R "dump /lib/backdrop/generations/000002/backdrop.conf $tmp/conf/backdrop.conf" "$tmp/data.ext4" >/dev/null 2>&1
  size=$("$tmp/framecheck" size "$tmp/$photo")
  # The same camera frame with the subject gone (the wall everywhere).
  cp -r "$tmp/scene/recording" "$tmp/empty-recording"
  python3 -c "import sys; sys.path.insert(0, '$repo/tests/e2e'); import scene; scene.png('$tmp/empty-recording/depth/000000.png', 640, 480, [b'\x0b\xb8' * 640] * 480, 0, 16)"
  "$host_backdrop" render "$tmp/scene/recording" --background "$tmp/backdrops/$first" --config "$tmp/conf/backdrop.conf" --size "$size" --out "$tmp/expected" > /dev/null
  "$host_backdrop" render "$tmp/empty-recording" --background "$tmp/backdrops/$first" --config "$tmp/conf/backdrop.conf" --size "$size" --out "$tmp/backdrop-only" > /dev/null
  if verdict=$("$tmp/framecheck" "$tmp/$photo" "$tmp/expected/000000.png" "$tmp/backdrop-only/000000.png" 12 90); then
    ok "the written-back photo $photo (shutter press $(grep '^PHOTO-PRESS=' "$r" | tail -1 | cut -d= -f2) of 3) shows the subject over backdrop $first: $verdict"
  else
    bad "the written-back photo $photo is not the subject over backdrop $first: $verdict"
    cp "$tmp/$photo" "/tmp/backdrop-boot-$photo" 2>/dev/null && echo "    kept as /tmp/backdrop-boot-$photo"
  fi
else
  bad "the shutter brought no photo"
fi

# The watchdog
wd=$(val WATCHDOG-SEC) stop_at=$(val WATCHDOG-STOP-AT)
kill_line=$(grep '^WD-JOURNAL: ' "$r" | grep -i 'watchdog timeout' | head -1 || true)
kill_at=$(sed -n 's/^WD-JOURNAL: \[ *\([0-9.]*\)\].*/\1/p' <<< "$kill_line")
restarts=$(val WATCHDOG-RESTARTS) pids=$(val WATCHDOG-PIDS)
if [ -n "$kill_at" ] && [ -n "$stop_at" ] && awk -v k="$kill_at" -v s="$stop_at" -v w="${wd:-0}" 'BEGIN { exit !(k - s <= w + 5) }'; then
  ok "the stopped loop was killed by the watchdog $(awk -v k="$kill_at" -v s="$stop_at" 'BEGIN { printf "%.1f", k - s }') s after SIGSTOP (WatchdogSec $wd s)"
else
  bad "no watchdog kill within WatchdogSec ($wd s) + 5 s of the SIGSTOP (stopped at ${stop_at:-?}, journal: ${kill_line:-none})"
fi
[ "$(val WATCHDOG-STATE)" = active/running ] && [ "${restarts%,*}" != "${restarts#*,}" ] && [ "${pids%,*}" != "${pids#*,}" ] &&
  ok "restarted (restarts $restarts, PID $pids) and READY again $(awk -v a="$(val WATCHDOG-READY-AGAIN-AT)" -v s="$stop_at" 'BEGIN { printf "%.1f", a - s }') s after the SIGSTOP" ||
  bad "not READY again after the watchdog (state $(val WATCHDOG-STATE), restarts $restarts, PIDs $pids)"

# The hot-plugged stick
if [ "$stick" = 1 ]; then
sc=$(val STICK-CURRENT)
[ "$(val STICK-RESULT)" = success ] && [ "$sc" = generations/000003 ] && [ "$(val STICK-BACKDROPS)" = green.png ] &&
  [ "$(val STICK-FAR)" = "far_mm = 2500" ] && ok "a hot-plugged USB stick (QMP) was imported by $(val STICK-UNIT): current -> $sc, its backdrop and config" ||
  bad "the hot-plugged stick: unit '$(val STICK-UNIT)' $(val STICK-RESULT), current -> '$sc', backdrops '$(val STICK-BACKDROPS)', '$(val STICK-FAR)'"
[ "$(val STICK-MOUNTS)" = 0 ] && ok "no stick mount left after the import" || bad "$(val STICK-MOUNTS) stick mount(s) left"
grep -q '^STICK-BOOTH: .*config reloaded' "$r" && ok "the booth took the new generation without a restart (SIGHUP): $(grep '^STICK-BOOTH: ' "$r" | head -1 | sed 's/^STICK-BOOTH: //')" ||
  bad "the booth was not told of the new generation (no 'config reloaded' in its journal)"
fi

# The system around it
failed=$(grep '^FAILED: ' "$r" || true)
[ -z "$failed" ] && ok "no unit failed" || bad "failed units: $failed"
mb=$(val DATA-SIZE-MB)
[ "${mb:-0}" -gt 1024 ] && ok "the data partition grew to the disk at first boot (${mb} MB)" || bad "data partition not grown (${mb:-?} MB)"
uid=$(awk '/^BACKDROP-PROCESS-Uid:/ { print $2 }' "$r")
[ -n "$uid" ] && [ "$uid" != 0 ] && ok "backdrop runs unprivileged (uid $uid)" || bad "backdrop's uid is '${uid}'"
groups=$(sed -n 's/^BACKDROP-PROCESS-Groups: *//p' "$r")
for g in video render gpio; do
  gid=$(grep '^BACKDROP-GROUPS-NAMED=' "$r" | grep -o "$g:[0-9]*" | cut -d: -f2)
  [ -n "$gid" ] && grep -qw "$gid" <<< "$groups" && ok "backdrop holds group $g ($gid)" || bad "backdrop lacks group $g (groups: $groups)"
done
gettys=$(val GETTYS)
[ -z "$(tr -d ' ' <<< "$gettys")" ] && ok "no getty on any VT" || bad "gettys running: $gettys"
if [ $fail = 0 ]; then echo "boot-qemu: PASS"; else
  echo "--- the booth's journal and the producer (last 30 lines)"; grep -E '^(JOURNAL|PRODUCER)' "$r" | tail -30
  echo "--- the journal of each failed unit"; grep '^FAILED-JOURNAL ' "$r" || echo "(no unit failed)"
  echo "--- the serial log (last 40 lines; all of it in ${BOOT_LOG:-/tmp/backdrop-boot-console.txt})"
  grep -v -E '^(JOURNAL|PRODUCER|FAILED-JOURNAL|STICK-JOURNAL|BOOT-IMPORT): ' "$r" | tail -40
  echo "boot-qemu: FAIL"
fi
exit $fail
}

main "$@"; exit $?
