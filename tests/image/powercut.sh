#!/bin/bash
# Power cuts during a USB stick import, on the image itself: QEMU (the image's own kernel, its root
# and data partitions, a FAT stick as a second disk) is killed with SIGKILL at a random point of a
# `backdrop import`, then the data partition is checked the way the box would find it at the next
# boot: its ext4 journal replayed (e2fsck, as the kernel does at mount), `current` must name a whole
# generation, the old one or the new one, never a mix, and its config must pass `backdrop
# check-config` with its backdrops. Unlike tests/import-crash.sh (a process killed, the page cache
# surviving), nothing that was not on the virtual disk survives here, so this proves the fsync
# placement too. What it does not model: a card whose own volatile cache loses or reorders writes
# the guest issued but did not flush (QEMU writes each request to the host file as it comes).
#
# How the points are chosen: a first run imports to the end and times the import (from the line
# the guest prints just before it to the line after it, seen on the host); each trial then kills
# QEMU after a delay drawn uniformly from 0 to 1.2 times that duration after the start line, so the
# points spread over every phase (staging, fsyncs, the two link switches, the final prune) in
# proportion to the time each takes. A trial whose import finished first counts as "finished".
#
# The guest runs no systemd: the kernel's init is a script (written into the test's copy of the
# root partition with debugfs) that mounts the data partition and the stick and runs the import,
# so one trial is one kernel boot.
#
# Usage: tests/image/powercut.sh IMAGE.img|IMAGE.img.xz [TRIALS]    (TRIALS default 200)
set -euo pipefail
# The body is one function so bash parses all of it first: editing this file mid-run is then safe.
main() {
xzimg=${1:?usage: powercut.sh IMAGE.img|IMAGE.img.xz [TRIALS]}
trials=${2:-200}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
host_backdrop=${HOST_BACKDROP:-$repo/.build/release/backdrop}
[ -x "$host_backdrop" ] || { echo "powercut: no host build at $host_backdrop (make build)"; exit 1; }
tmp=$(mktemp -d /tmp/backdrop-powercut.XXXXXX)
qemu_pid=
cleanup() { [ -z "$qemu_pid" ] || kill -9 "$qemu_pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
base=$tmp/base.img
case $xzimg in *.xz) xz -dc "$xzimg" > "$base" ;; *) cp --sparse=always "$xzimg" "$base" ;; esac
part() { sfdisk --json "$base" | python3 -c "import json,sys; p=json.load(sys.stdin)['partitiontable']['partitions'][$1]; print(p['start'], p['size'])"; }
read -r boot_start _ < <(part 0)
read -r root_start root_size < <(part 1)
read -r data_start data_size < <(part 2)
fat="$base@@$((boot_start * 512))"
mcopy -i "$fat" ::/vmlinuz "$tmp/vmlinuz"
mcopy -i "$fat" ::/initrd.img "$tmp/initrd.img"
rootdev=$(mtype -i "$fat" ::/cmdline.txt | grep -o 'root=PARTUUID=[^ ]*')

# The guest's init: the trial, then a power-off (a finished calibration run).
cat > "$tmp/powercut-init" <<'EOF'
#!/bin/sh
PATH=/usr/sbin:/usr/bin:/sbin:/bin
mountpoint -q /proc || mount -t proc proc /proc
mountpoint -q /sys || mount -t sysfs sys /sys
mountpoint -q /dev || mount -t devtmpfs dev /dev
mount -t tmpfs -o mode=0755 tmpfs /run
mount -t tmpfs tmpfs /tmp
mount -o rw,noatime,nosuid,nodev /dev/vda3 /var
modprobe vfat
mkdir /tmp/stick
mount -o ro,nosuid,nodev,noexec,noatime /dev/vdb /tmp/stick
echo IMPORT-START > /dev/ttyAMA0
/usr/bin/backdrop import /tmp/stick --data /var/lib/backdrop > /tmp/import.log 2>&1
echo "IMPORT-END $?" > /dev/ttyAMA0
sed 's/^/IMPORT: /' /tmp/import.log > /dev/ttyAMA0
umount /var
echo o > /proc/sysrq-trigger
sleep 10
EOF
chmod 755 "$tmp/powercut-init"
dd if="$base" of="$tmp/root.ext4" bs=512 skip="$root_start" count="$root_size" status=none
debugfs -w -f <(printf 'cd /usr/lib/backdrop\nwrite %s powercut-init\n' "$tmp/powercut-init") "$tmp/root.ext4" >/dev/null 2>&1
dd if="$tmp/root.ext4" of="$base" bs=512 seek="$root_start" conv=notrunc status=none
rm "$tmp/root.ext4"

# The stick: ten backdrops and a config, FAT built by mkfs.vfat and mtools (no loop mount).
"$host_backdrop" demo --frames 10 --size 640x360 --out "$tmp/frames" > /dev/null 2>&1
mkfs.vfat -C -n STICK "$tmp/stick.img" 65536 > /dev/null
mmd -i "$tmp/stick.img" ::/backdrop ::/backdrop/backgrounds
i=0
for f in "$tmp"/frames/*.png; do mcopy -i "$tmp/stick.img" "$f" "::/backdrop/backgrounds/frame-$i.png"; i=$((i + 1)); done
printf '[matte]\nfar_mm = 3000\n' > "$tmp/stick.conf"
mcopy -i "$tmp/stick.img" "$tmp/stick.conf" ::/backdrop/backdrop.conf

# A generation's content: its backdrops' hashes and its config's far_mm line.
manifest() { (cd "$1" && { sha256sum backgrounds/* 2>/dev/null || true; } | sort; grep '^far_mm' backdrop.conf || true); }
# What the next boot finds on DISK's data partition: its journal replayed, then `current` read.
# Prints the generation's name; its files land in $tmp/found.
inspect() {
  local disk=$1
  rm -rf "$tmp/data.ext4" "$tmp/found"; mkdir -p "$tmp/found"
  dd if="$disk" of="$tmp/data.ext4" bs=512 skip="$data_start" count="$data_size" status=none
  e2fsck -fy "$tmp/data.ext4" > "$tmp/fsck.log" 2>&1 || [ $? -le 1 ] || { echo "fsck-failed"; return; }
  local target
  target=$(debugfs -R "stat /lib/backdrop/current" "$tmp/data.ext4" 2>/dev/null | sed -n 's/^Fast link dest: "\(.*\)"$/\1/p')
  [ -n "$target" ] || { echo "no-current"; return; }
  rm -rf "$tmp/dump"; mkdir -p "$tmp/dump"
  debugfs -R "rdump /lib/backdrop/$target $tmp/dump" "$tmp/data.ext4" > /dev/null 2>&1
  rmdir "$tmp/found"; mv "$tmp/dump/${target##*/}" "$tmp/found" 2>/dev/null || mkdir -p "$tmp/found"
  echo "$target"
}
boot() {  # DISK -> console in $tmp/console.txt; kills QEMU DELAY seconds after IMPORT-START (never when empty)
  local disk=$1 delay=${2:-}
  : > "$tmp/console.txt"
  nice -n 10 qemu-system-aarch64 -M virt -cpu cortex-a72 -accel tcg -smp 2 -m 1024 -nographic -no-reboot \
    -kernel "$tmp/vmlinuz" -initrd "$tmp/initrd.img" \
    -append "console=ttyAMA0 $rootdev rootfstype=ext4 ro rootwait panic=-1 loglevel=3 init=/usr/lib/backdrop/powercut-init" \
    -drive if=none,file="$disk",format=raw,id=card -device virtio-blk-pci,drive=card \
    -drive if=none,file="$tmp/stick.img",format=raw,id=stick,readonly=on -device virtio-blk-pci,drive=stick \
    -serial file:"$tmp/console.txt" -monitor none -display none < /dev/null > /dev/null 2>&1 &
  qemu_pid=$!
  local t0=$SECONDS started=
  while kill -0 "$qemu_pid" 2>/dev/null; do
    if [ -z "$started" ] && grep -q IMPORT-START "$tmp/console.txt"; then
      started=$(date +%s.%N)
      if [ -n "$delay" ]; then
        sleep "$delay"
        kill -9 "$qemu_pid" 2>/dev/null || true
        break
      fi
    fi
    [ $((SECONDS - t0)) -lt 600 ] || { kill -9 "$qemu_pid"; echo "powercut: a boot took over 600 s"; tail -20 "$tmp/console.txt"; exit 1; }
    sleep 0.05
  done
  wait "$qemu_pid" 2>/dev/null || true
  qemu_pid=
  ended=$(date +%s.%N)
  import_seconds=$(awk -v a="${started:-$ended}" -v b="$ended" 'BEGIN { printf "%.2f", b - a }')
}

# The old generation, and the new one by a calibration run that is not cut.
old=$(inspect "$base")
manifest "$tmp/found" > "$tmp/old.manifest"
cp --sparse=always "$base" "$tmp/disk.img"
boot "$tmp/disk.img"
grep -q '^IMPORT-END 0' "$tmp/console.txt" || { echo "powercut: the calibration import did not finish with 0:"; grep -a IMPORT "$tmp/console.txt" | tail; exit 1; }
new=$(inspect "$tmp/disk.img")
manifest "$tmp/found" > "$tmp/new.manifest"
cmp -s "$tmp/old.manifest" "$tmp/new.manifest" && { echo "powercut: the stick made no different generation"; exit 1; }
duration=$import_seconds
echo "powercut: old generation $old, new $new; an uncut import took $duration s (host time, TCG)"

n_old=0 n_new=0 n_done=0 n_bad=0
for trial in $(seq 1 "$trials"); do
  cp --sparse=always "$base" "$tmp/disk.img"
  # $RANDOM (0..32767) scaled, not an awk srand seed: mawk's srand folds large seeds together.
  delay=$(awk -v d="$duration" -v r="$RANDOM" 'BEGIN { printf "%.3f", r / 32767 * d * 1.2 }')
  boot "$tmp/disk.img" "$delay"
  finished=0; grep -q '^IMPORT-END' "$tmp/console.txt" && finished=1
  found=$(inspect "$tmp/disk.img")
  verdict=
  if [ "$found" = fsck-failed ] || [ "$found" = no-current ]; then
    verdict="BAD: $found"
  else
    manifest "$tmp/found" > "$tmp/found.manifest"
    if cmp -s "$tmp/found.manifest" "$tmp/old.manifest" && [ "$found" = "$old" ]; then which=old
    elif cmp -s "$tmp/found.manifest" "$tmp/new.manifest"; then which=new
    else which=mix; fi
    if [ $which = mix ]; then verdict="BAD: $found is neither the old nor the new generation"
    elif ! "$host_backdrop" check-config "$tmp/found/backdrop.conf" --backgrounds "$tmp/found/backgrounds" > "$tmp/check.log" 2>&1; then
      verdict="BAD: check-config refused $found: $(head -2 "$tmp/check.log" | tr '\n' ' ')"
    else verdict="ok: $which ($found)"; fi
  fi
  case $verdict in
    BAD*) n_bad=$((n_bad + 1)) ;;
    *old*) n_old=$((n_old + 1)) ;;
    *new*) n_new=$((n_new + 1)) ;;
  esac
  [ $finished = 0 ] || n_done=$((n_done + 1))
  echo "trial $trial: cut ${delay} s after the start$([ $finished = 1 ] && echo " (the import had finished)"): $verdict"
done
echo "powercut: $trials trials: $n_old old, $n_new new ($n_done of them after the import finished), $n_bad bad"
[ $n_bad = 0 ]
}

main "$@"; exit $?
