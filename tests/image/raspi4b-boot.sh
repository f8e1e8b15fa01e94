#!/bin/bash
# Boots the rpi4 image's own kernel, device tree and initramfs on QEMU's emulated Raspberry Pi 4B
# (machine raspi4b, a BCM2711 with four Cortex-A72 under TCG), the whole image as its SD card and
# the image's own cmdline.txt, and reads the serial log until systemd starts. It checks the part of
# the Pi's boot that the virt-machine test (boot-qemu.sh) cannot: the Pi's DTB and the drivers the
# initramfs holds for it, on the way to the root, found as a real Pi 4 finds it:
#   1. the kernel finds the SD card on emmc2 (which takes its power from two regulators whose
#      drivers must be in the initramfs) and reads its three partitions;
#   2. the initramfs mounts the root named by cmdline.txt's root=PARTUUID=;
#   3. systemd starts from that root ("systemd[1]: ... running in system mode" or "Welcome to").
# QEMU is then killed: what follows needs devices raspi4b does not have (below). The time to each
# point is printed; on a failure (any point missing, a panic, the initramfs's shell, the timeout)
# the serial log's tail and its SD-card lines are printed, and the whole log is kept next to the
# image (backdrop-rpi4.raspi4b-serial.log).
#
# QEMU runs no GPU firmware: start4*.elf, fixup4*.dat and config.txt are not exercised here (the
# boot-chain checks in tests/image/inspect.sh derive them from config.txt instead). QEMU loads the
# files config.txt names (kernel=, initramfs, device_tree=) itself, as the firmware would.
#
# What raspi4b lacks that the box needs, so the boot is not followed past systemd's start:
#   - PCIe (QEMU removes the pcie node itself): no VL805 USB controller, so no USB camera and no
#     USB stick; the booth service cannot find its camera.
#   - the HDMI/display block (DVP, HDMI, their I2C, HVS/vc4): no display, no DRM device.
#   - GENET Ethernet, the RNG200, the thermal sensor (QEMU removes their nodes too), Wi-Fi (SDIO).
#   - the firmware's mailbox GPIO expander (which also drives the power LED and the camera GPIO).
#   - a usable mini UART interrupt: the box's serial console (ttyS1) and its getty are not followed.
#
# The emulation-only DTB: the image's bcm2711-rpi-4-b.dtb with these changes, each for something
# QEMU does not emulate, and nothing else (the test prints them; every node is checked by path and
# compatible first, so a kernel whose DTB differs makes the test fail, not silently change):
#   a. /soc/clock@7ef00000 (brcm,brcm2711-dvp) disabled: the HDMI block's clock and reset unit is
#      not emulated; the kernel's late clk_disable_unused reads its gate and takes a synchronous
#      external abort in clk_gate_is_enabled.
#   b. /soc/interrupt-controller@7ef00100 (brcm,bcm2711-l2-intc) disabled: the same block's L2
#      interrupt controller; its first register read aborts in brcmstb_l2_intc_of_init.
#   c. /soc/i2c@7ef04500 and /soc/i2c@7ef09500 (brcm,bcm2711-hdmi-i2c) disabled: the HDMI DDC buses,
#      in the same block; their probe aborts in brcmstb_i2c_probe.
#   d. /emmc2bus/mmc@7e340000 (brcm,bcm2711-emmc2) reg moved to 0x7e300000: QEMU's raspi4b puts
#      the SD card on the SoC's older Arasan SDHCI at 0x7e300000 (the GPIO block's SD bus switch
#      selects it at reset; hw/arm/bcm2838_peripherals.c, hw/gpio/bcm2838_gpio.c), never on its
#      emmc2, which has no card. Both are QEMU's same generic SDHCI (spec 3.0, same capabilities,
#      same interrupt line). The emmc2 node at the Arasan's registers keeps the Pi 4's own path to
#      the card: the same node, driver (sdhci-iproc), clock and supplies.
#   e. /soc/mmc@7e300000 (brcm,bcm2835-sdhci) disabled: the Wi-Fi SDIO node at those registers
#      (one driver per controller; its power sequence is on the firmware's GPIO expander anyway).
#   f. emmc2's vmmc-supply (regulator-fixed, sd_vcc_reg) gpio and vqmmc-supply (regulator-gpio,
#      sd_io_1v8_reg) gpios moved from the firmware's GPIO expander (raspberrypi,firmware-gpio) to
#      the SoC GPIO block's free lines 22 and 23: QEMU's mailbox does not answer the expander's
#      GPIO properties ("Failed to get GPIO n config", then the regulator's "can't get GPIO",
#      -EIO). The compatibles stay, so the initramfs still needs the same two regulator drivers
#      (fixed, gpio-regulator) as on a Pi 4.
# The command line is cmdline.txt's (root=PARTUUID=..., ro, rootwait, its console=ttyS1) followed
# by what emulation and this test need:
#   console=ttyAMA0,115200: the PL011 (QEMU's first serial port) becomes /dev/console. QEMU's mini
#     UART (ttyS1) prints the kernel's polled output, but its interrupt never clears once the port
#     is opened: with ttyS1 as /dev/console the kernel stalls (RCU) in __setup_irq as it opens it.
#     Nothing else opens ttyS1 before systemd starts, which is where this test stops.
#   earlycon=pl011,mmio32,0xfe201000: the kernel's first lines at once, so an abort before the
#     console driver is up is in the log (and the times are when things happened).
#   ignore_loglevel: the mmc and ext4 lines this test reads are info-level, which the image's
#     loglevel=4 keeps off the console.
# The SD card image is a copy of the image grown to a power of two (QEMU refuses other sizes).
# QEMU runs with -no-reboot, so cmdline.txt's panic= ends the run instead of rebooting.
#
# QEMU is Debian 13's qemu-system-arm (QEMU 10; Debian 12's 7.2 has no raspi4b), for this test only:
# an mmdebstrap minbase amd64 trixie root under $RASPI4B_QEMU_CACHE (default
# /var/cache/backdrop-qemu-trixie), keyed by its inputs and built under a lock, apt sources from
# this machine's own mirror (scripts/debian-mirror.sh); nothing from trixie is installed on the
# host, and QEMU is started through the root's own dynamic loader and libraries.
# Host tools (Debian 12, installed when missing): mmdebstrap, mtools, device-tree-compiler, fdisk,
# xz-utils. Cost here (2 cores shared with other builds, load 8-14): the QEMU root once, 117-207 s
# (network bound, 124 packages, 190 MB); then each run 2-3 min: 4-15 s to unpack the image, and
# QEMU 106-161 s to systemd's start (SD card at 54-87 s, root mounted at 96-153 s: udev's
# coldplug and the initramfs's wait for the by-partuuid link are slow under TCG). An image whose
# initramfs lacks the regulator drivers makes the initramfs give up after 69-154 s of QEMU.
# Checked with Debian 12's kernel 6.1 (the image's) and, on a hand-made card with a busybox
# initramfs, Debian 13's 6.12 and its DTB (regulators renamed there; found through emmc2's phandles).
#
# Usage: tests/image/raspi4b-boot.sh build/image/backdrop-rpi4.img.xz [timeout-seconds]   (root)
#        RASPI4B_WITHOUT=LETTERS ... leaves those DTB changes out (a-f above): the run then shows the
#        abort or missing card that each change is there for, and fails.
#        tests/image/raspi4b-boot.sh --deps     (only the host tools: make test-deps, one apt at a time)
# Exit: 0 systemd started from the image's root; 1 it did not (or a tool failed); 2 usage.
set -euo pipefail
# The body is one function so bash parses all of it first: editing this file mid-run is then safe.
main() {
self=${BASH_SOURCE[0]}
repo=$(cd "$(dirname "$self")/../.." && pwd)
log() { echo "raspi4b: $*"; }
if [ "${1:-}" = --deps ] && [ $# = 1 ]; then host_tools; exit 0; fi
xzimg=${1:-}
timeout=${2:-600}
if [ -z "$xzimg" ] || [ $# -gt 2 ]; then
  echo "usage: raspi4b-boot.sh IMAGE.img.xz [timeout-seconds]" >&2; exit 2
fi
[ -f "$xzimg" ] || { echo "raspi4b: no image at $xzimg (make image BOARD=rpi4 builds it)" >&2; exit 2; }
case ${RASPI4B_WITHOUT:-} in *[!a-f]*) echo "raspi4b: RASPI4B_WITHOUT takes letters a-f (the header's DTB changes), not '$RASPI4B_WITHOUT'" >&2; exit 2 ;; esac
case $timeout in ''|*[!0-9]*) echo "raspi4b: the timeout must be whole seconds, not '$timeout'" >&2; exit 2 ;; esac
[ "$(id -u)" = 0 ] || { echo "raspi4b: must run as root (mmdebstrap --mode=root builds QEMU's root)" >&2; exit 1; }

host_tools
qemu_root   # sets $qroot, holds a shared lock on the QEMU cache until exit

tmp=$(mktemp -d /tmp/backdrop-raspi4b.XXXXXX)
qemu_pid=
cleanup() { [ -z "$qemu_pid" ] || kill "$qemu_pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT

# --- the image: partitions and the boot partition's files, without mounting anything ---
t=$(date +%s)
img=$tmp/sd.img
xz -dc "$xzimg" > "$img"   # sparse: xz writes zero runs as holes
size=$(stat -c %s "$img")
sd_size=1
while [ "$sd_size" -lt "$size" ]; do sd_size=$((sd_size * 2)); done
truncate -s "$sd_size" "$img"
read -r disk_id boot_start nparts < <(sfdisk --json "$img" | python3 -c '
import json, sys
t = json.load(sys.stdin)["partitiontable"]
print(t["id"].removeprefix("0x"), t["partitions"][0]["start"], len(t["partitions"]))')
fat="$img@@$((boot_start * 512))"
mtype -i "$fat" ::/config.txt > "$tmp/config.txt" || { echo "raspi4b: the boot partition has no config.txt"; exit 1; }
# The names config.txt gives (the firmware's defaults where it gives none).
kernel=$(sed -n 's/^kernel=//p' "$tmp/config.txt" | tail -1); kernel=${kernel:-kernel8.img}
dtbname=$(sed -n 's/^device_tree=//p' "$tmp/config.txt" | tail -1); dtbname=${dtbname:-bcm2711-rpi-4-b.dtb}
initrd=$(sed -n 's/^initramfs[ \t]\+\([^ \t]*\).*/\1/p' "$tmp/config.txt" | tail -1)
[ -n "$initrd" ] || { echo "raspi4b: config.txt names no initramfs: the root's drivers are modules, so the Pi needs one"; exit 1; }
for f in "$kernel" "$dtbname" "$initrd" cmdline.txt; do
  mcopy -n -i "$fat" "::/$f" "$tmp/boot-$f" 2>/dev/null || { echo "raspi4b: the boot partition lacks $f"; exit 1; }
done
cmdline=$(head -1 "$tmp/boot-cmdline.txt" | tr -s ' \t\r' '  ' | sed 's/ $//')
# An MBR partition's PARTUUID is the disk signature and its number: root= names the partition.
root_arg=$(grep -o 'root=[^ ]*' <<< "$cmdline" | tail -1 || true)
root_puuid=${root_arg#root=PARTUUID=}
root_index=$(sed -n "s/^$disk_id-0*\([1-9][0-9]*\)\$/\1/p" <<< "$root_puuid")
[ -n "$root_index" ] && [ "$root_index" -le "$nparts" ] ||
  { echo "raspi4b: cmdline.txt says '${root_arg:-no root=}', which is none of this card's partitions (disk $disk_id, $nparts partitions)"; exit 1; }
log "image unpacked in $(( $(date +%s) - t )) s: SD card $((sd_size >> 20)) MiB (disk $disk_id), kernel $kernel, DTB $dtbname, initramfs $initrd"

# --- the emulation-only DTB (header: a-f) ---
dtb=$tmp/emulation.dtb
cp "$tmp/boot-$dtbname" "$dtb"
check_node /soc/gpio@7e200000 brcm,bcm2711-gpio
gpio=$(fdtget -t u "$dtb" /soc/gpio@7e200000 phandle)
check_node /soc/firmware/gpio raspberrypi,firmware-gpio
expander=$(fdtget -t u "$dtb" /soc/firmware/gpio phandle)
emmc2=/emmc2bus/mmc@7e340000
check_node "$emmc2" brcm,bcm2711-emmc2
[ "$(fdtget -t x "$dtb" "$emmc2" reg)" = "0 7e340000 100" ] ||
  { echo "FAIL: $emmc2's reg is '$(fdtget -t x "$dtb" "$emmc2" reg)', not 0 7e340000 100 (this test's emulation changes need updating)"; exit 1; }
log "emulation-only DTB changes (QEMU does not emulate what each names):"
edit a /soc/clock@7ef00000 brcm,brcm2711-dvp s status "status=disabled" \
  "the HDMI block's clock and reset unit (clk_disable_unused's read of its gate aborts)" disabled
edit b /soc/interrupt-controller@7ef00100 brcm,bcm2711-l2-intc s status "status=disabled" \
  "the HDMI block's L2 interrupt controller (its first read aborts)" disabled
edit c /soc/i2c@7ef04500 brcm,bcm2711-hdmi-i2c s status "status=disabled" "HDMI0's DDC I2C (its probe aborts)" disabled
edit c /soc/i2c@7ef09500 brcm,bcm2711-hdmi-i2c s status "status=disabled" "HDMI1's DDC I2C (its probe aborts)" disabled
edit d "$emmc2" brcm,bcm2711-emmc2 x reg "reg=<0 0x7e300000 0x100>" \
  "an SD card on emmc2 (QEMU wires it to the Arasan SDHCI at 0x7e300000)" 0 7e300000 100
edit e /soc/mmc@7e300000 brcm,bcm2835-sdhci s status "status=disabled" "Wi-Fi SDIO (its registers now serve emmc2)" disabled
# emmc2's two supplies, found through its own phandles: only their GPIO controller changes.
for supply in vmmc-supply:regulator-fixed:22 vqmmc-supply:regulator-gpio:23; do
  IFS=: read -r prop compat line <<< "$supply"
  ph=$(fdtget -t u "$dtb" "$emmc2" "$prop" 2>/dev/null) ||
    { echo "FAIL: $emmc2 has no $prop in the image's DTB (this test's emulation changes need updating)"; exit 1; }
  reg=$(node_with_phandle "$ph" /) || { echo "FAIL: no node has phandle $ph, $emmc2's $prop"; exit 1; }
  gprop=gpios
  fdtget "$dtb" "$reg" gpios > /dev/null 2>&1 || gprop=gpio
  cells=$(fdtget -t u "$dtb" "$reg" "$gprop" 2>/dev/null || true)
  [ "${cells%% *}" = "$expander" ] ||
    { echo "FAIL: $reg's $gprop is '$cells', not a line of the firmware's GPIO expander (this test's emulation changes need updating)"; exit 1; }
  edit f "$reg" "$compat" u "$gprop" "$gprop=<&gpio $line 0> ($prop of emmc2)" \
    "the firmware's GPIO expander (mailbox GPIO properties); the SoC's free GPIO$line instead" "$gpio" "$line" 0
done
append="$cmdline console=ttyAMA0,115200 earlycon=pl011,mmio32,0xfe201000 ignore_loglevel"
log "command line: $append"
log "  (cmdline.txt's, then the PL011 as console and early console, and ignore_loglevel for this test's info-level lines)"

# --- boot, reading the serial log ---
serial=$tmp/serial.log
: > "$serial"
keep=$(dirname "$xzimg")/$(basename "$xzimg" .img.xz).raspi4b-serial.log
qemu=("$qroot/usr/lib64/ld-linux-x86-64.so.2" --library-path "$qroot/usr/lib/x86_64-linux-gnu" "$qroot/usr/bin/qemu-system-aarch64")
t0=$(date +%s)
"${qemu[@]}" -M raspi4b -nodefaults -display none -monitor none -no-reboot \
  -kernel "$tmp/boot-$kernel" -initrd "$tmp/boot-$initrd" -dtb "$dtb" -append "$append" \
  -drive "file=$img,format=raw,if=sd" -serial "file:$serial" -serial null 2> "$tmp/qemu.err" &
qemu_pid=$!
log "QEMU $qemu_version (pid $qemu_pid), timeout ${timeout} s"
# The points, in the order the boot reaches them: a name, then the first serial line that proves it.
names=(kernel initramfs card root systemd)
declare -A what=(
  [kernel]="the kernel starts (its first line on the early console)"
  [card]="the kernel finds the SD card and its partitions (mmc)"
  [initramfs]="the initramfs runs"
  [root]="the initramfs mounts the root, partition $root_index = PARTUUID=$root_puuid"
  [systemd]="systemd starts from that root"
)
declare -A pattern=(
  [kernel]='^\[ *[0-9]+\.[0-9]+\] '
  [card]="mmcblk[0-9]+: $(seq -s ' ' -f 'p%g' 1 "$nparts")"
  [initramfs]='Run /init as init process'
  [root]="EXT4-fs \\(mmcblk[0-9]+p$root_index\\): mounted filesystem"
  [systemd]='systemd\[1\]: .*running in system mode|Welcome to '
)
declare -A at=()
fatal='Kernel panic|ALERT!|Dropping to a shell|Gave up waiting|self-detected stall'
verdict=timeout
while :; do
  now=$(( $(date +%s) - t0 ))
  for n in "${names[@]}"; do
    [ -z "${at[$n]:-}" ] || continue
    line=$(grep -a -m1 -E "${pattern[$n]}" "$serial" || true)
    [ -z "$line" ] || at[$n]="$now s (guest $(guest_time "$line"))"
  done
  [ -z "${at[systemd]:-}" ] || { verdict=ok; break; }
  if grep -a -q -E "$fatal" "$serial"; then sleep 2; verdict=fatal; break; fi
  kill -0 "$qemu_pid" 2>/dev/null || { verdict=exited; break; }
  [ "$now" -lt "$timeout" ] || break
  sleep 1
done
kill "$qemu_pid" 2>/dev/null || true
wait "$qemu_pid" 2>/dev/null || true
qemu_pid=
cp "$serial" "$keep" 2>/dev/null || keep=
log "serial log: ${keep:-not kept}; QEMU ran $(( $(date +%s) - t0 )) s"
fail=0
for n in "${names[@]}"; do
  if [ -n "${at[$n]:-}" ]; then echo "ok: ${what[$n]}: after ${at[$n]} of QEMU"
  else echo "FAIL: ${what[$n]}: not seen (/${pattern[$n]}/)"; fail=1; fi
done
[ "$fail" = 0 ] && [ "$verdict" = ok ] && { log "passed"; exit 0; }
case $verdict in
  fatal)   echo "FAIL: the boot stopped: $(grep -a -m1 -E "$fatal" "$serial" | tr -d '\r')" ;;
  exited)  echo "FAIL: QEMU exited early: $(tr '\n' ' ' < "$tmp/qemu.err")" ;;
  timeout) echo "FAIL: systemd had not started after $timeout s" ;;
esac
if [ -z "${at[card]:-}" ]; then
  echo "The SD card was never found. emmc2 probes only once its vmmc/vqmmc supplies (regulator-fixed,"
  echo "regulator-gpio) have drivers: the initramfs must hold the fixed and gpio-regulator modules, as on a Pi 4."
fi
echo "--- the serial log's SD-card, regulator and deferred-probe lines ---"
grep -a -i -E 'mmc|sdhci|regulat|defer|PARTUUID' "$serial" | tail -30 | tr -d '\r' || true
echo "--- the serial log's last 40 lines ---"
tail -40 "$serial" | tr -d '\r'
exit 1
}

# Installs the Debian 12 host tools the test reads the image and edits the DTB with.
host_tools() {
  local need=(mmdebstrap mtools device-tree-compiler fdisk xz-utils python3) missing=() p
  for p in "${need[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  log "installing ${missing[*]}"
  apt-get -o DPkg::Lock::Timeout=600 update >&2
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}" >&2
}

# Debian 13's QEMU in a root of its own, built once per input set; a shared lock on the cache while
# it is used, so no other run deletes it meanwhile.
qemu_root() {
  local cache=${RASPI4B_QEMU_CACHE:-/var/cache/backdrop-qemu-trixie} mirror key t
  mkdir -p "$cache"
  mirror=${IMAGE_MIRROR:-$(bash "$repo/scripts/debian-mirror.sh")}
# --- qemu root ---
  key=$( { echo "$mirror"; dpkg-query -W -f='${Version}\n' mmdebstrap
           sed -n '/^# --- qemu root ---/,/^# --- end qemu root ---/p' "$self"; } | sha256sum | cut -c1-16)
  qroot=$cache/root-$key/root
  exec 7>"$cache/lock"
  flock 7
  if [ ! -f "$cache/root-$key/done" ]; then
    t=$(date +%s)
    rm -rf "$cache/root-$key"
    log "mmdebstrap: Debian 13 (trixie) amd64 root with qemu-system-arm from $mirror (QEMU root $key)"
    mkdir -p "$cache/root-$key"
    nice -n 10 mmdebstrap --mode=root --variant=minbase --architectures=amd64 --include=qemu-system-arm \
      --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
      --dpkgopt='path-exclude=/usr/share/locale/*' \
      trixie "$qroot" "deb $mirror trixie main" "deb $mirror trixie-updates main" >&2
    touch "$cache/root-$key/done"
    log "QEMU root in $(( $(date +%s) - t )) s, $(du -sm "$qroot" | cut -f1) MB"
  fi
  # Roots of other input sets are unused once this one exists (no run holds the lock meanwhile).
  find "$cache" -mindepth 1 -maxdepth 1 -name 'root-*' ! -name "root-$key" -exec rm -rf {} +
  flock -s 7
# --- end qemu root ---
  qemu_version=$("$qroot/usr/lib64/ld-linux-x86-64.so.2" --library-path "$qroot/usr/lib/x86_64-linux-gnu" \
    "$qroot/usr/bin/qemu-system-aarch64" --version | head -1 | sed 's/^QEMU emulator version //')
}

# The path of the node under PATH whose phandle is PHANDLE (decimal).
node_with_phandle() {
  local want=$1 path=$2 child sub
  for child in $(fdtget -l "$dtb" "$path"); do
    sub=${path%/}/$child
    [ "$(fdtget -t u "$dtb" "$sub" phandle 2>/dev/null)" != "$want" ] || { echo "$sub"; return 0; }
    node_with_phandle "$want" "$sub" && return 0
  done
  return 1
}

# Fails the test unless PATH exists in the DTB and lists COMPATIBLE.
check_node() {
  local compat
  compat=$(fdtget "$dtb" "$1" compatible 2>/dev/null) ||
    { echo "FAIL: the image's DTB has no node $1 (this test's emulation changes need updating for it)"; exit 1; }
  grep -qw -- "$2" <<< "$compat" ||
    { echo "FAIL: $1 in the image's DTB is '$compat', not $2 (this test's emulation changes need updating)"; exit 1; }
}

# edit LETTER PATH COMPATIBLE TYPE PROPERTY SHOWN REASON VALUE...: one change to the emulation DTB
# (the header's LETTER; fdtput's TYPE: s a string, x hex cells, u decimal), printed with what QEMU
# does not emulate. A LETTER in RASPI4B_WITHOUT leaves the change out, to show why it is there.
edit() {
  local letter=$1 path=$2 compat=$3 type=$4 prop=$5 shown=$6 reason=$7
  shift 7
  check_node "$path" "$compat"
  if [[ ${RASPI4B_WITHOUT:-} == *$letter* ]]; then
    echo "  $letter. $path ($compat): LEFT OUT (RASPI4B_WITHOUT=$RASPI4B_WITHOUT), so this run is expected to fail"
    return 0
  fi
  fdtput -t "$type" "$dtb" "$path" "$prop" "$@"
  echo "  $letter. $path ($compat): $shown; not emulated: $reason"
}

# The printk timestamp of a serial line ("[    6.123] ..."), or "-" for a line without one.
guest_time() {
  sed -n 's/^[^[]*\[ *\([0-9]*\.[0-9]*\)\].*/\1 s/p' <<< "$1" | head -1 | grep . || echo -
}

main "$@"
