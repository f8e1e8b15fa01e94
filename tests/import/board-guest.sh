#!/bin/bash
# Guest half of tests/import/board.sh (runs inside the x86_64 virtual board; bash from the host's
# root). The booth runs from DIR/current/backdrop.conf as the service runs it (vivid camera, vkms
# with writeback); two hostile sticks are imported by the stick unit's own ExecStart line (the
# host wrote it to $work/unit-import.sh with this board's paths; its systemctl sends SIGHUP to
# this booth), each mounted as the unit mounts it (ro,nosuid,nodev,noexec,noatime):
#   fat    a FAT image hot-plugged on the board's xHCI through QMP (usb-storage, /dev/sda):
#          odd names, a file over the byte limit, images that are not images, a refused config;
#   tree   a folder (bind mount) with what FAT cannot hold: symlinks to decoy files and a decoy
#          folder this script made, a fifo, a device node, names with a newline or invalid UTF-8,
#          a sparse 3 GiB file;
#   photos a writable FAT image (/dev/sdb) with an empty backdrop/photos/: the unit's photo line
#          (remount read-write, export-photos, sync, read-only again, SIGHUP) and its ExecStopPost
#          line (umount, stick-released, SIGHUP), each followed by captures for its outcome's text.
# For each: the import's exit status and outcome file, the data folder's generation and content
# before and after, the decoys' content, and screen captures (SIGUSR2, writeback) taken after the
# import, all handed back on stdout (@@EVENT, @@FILE ... @@END) for the host to judge, with the
# guest uptime at each phase (phase_NAME=SECONDS) for the host to say where the time went.
#
# What makes it short and not timing-dependent: the sticks are made, plugged and mounted before
# the booth starts (under TCG the running booth slows every other process); no fixed sleeps, every
# wait is for its event (the booth's log line, a capture's file), polled without forking; the
# booth holds an import's notice on screen (BACKDROP_TEST_IMPORT_NOTICE_S) until the next one
# instead of its 6 s, so a capture cannot come too late for it; after an import the captures stop
# at the first that shows the notice (the host's comparison, WORK/imagecheck on what `backdrop
# render-message` draws), at most six: the first may carry a frame composed just before the
# notice was published, and the booth keeps the previous step's notice up at least 3 s before
# showing the next (a capture every ~0.7 s on a fast board).
# A good FAT stick (sdc) is hot-plugged last, while the booth runs, and imported by the unit's
# line; captures after its rescan for its green backdrop.
#   board-guest.sh WORK BACKDROP
work=${1:?usage: board-guest.sh WORK BACKDROP}
backdrop=${2:?}
tmp=$(mktemp -d)
data=$tmp/data
photos=$tmp/photos
mkdir -p "$photos/screens"

event() { echo "@@EVENT $*"; }
phase() { local up; read -r up _ < /proc/uptime; event "phase_$1=$up"; }
emit() { echo "@@FILE $1"; [ -f "$2" ] && base64 < "$2"; echo "@@END"; }
# While the booth runs every process is slow (TCG): files are emitted after it stopped, each
# NAME=PATH kept here meanwhile.
later=()
# A pause without a process: read with a timeout on a fifo nobody writes to (opened read-write,
# so the open does not wait for a writer).
mkfifo "$tmp/pause" && exec {pause}<> "$tmp/pause" || { event setup=no-pause-fifo; exit 1; }
wait_until() { # SECONDS COMMAND...: until COMMAND (a shell function: no fork per look) is true
  local limit=$1 up deadline; shift
  read -r up _ < /proc/uptime; deadline=$(( ${up%.*} + limit ))
  until "$@"; do
    read -r up _ < /proc/uptime
    [ "${up%.*}" -lt "$deadline" ] || return 1
    read -r -t 0.2 -u "$pause" _
  done
  return 0  # not the timed-out read's status
}
log_has() { local text=""; IFS= read -r -d '' text < "$1"; [[ $text == *"$2"* ]]; }
# The newest capture's name (they sort by the CLOCK_MONOTONIC milliseconds in it) into $newest.
find_newest() {
  local files=("$photos"/screens/photo-*.jpg)
  newest=""; [ -e "${files[-1]}" ] && newest=${files[-1]##*/}
}
screen_changed() { find_newest; [ -n "$newest" ] && [ "$newest" != "$1" ]; }
screen() { # NAME [BEFORE]: one capture of what the display shows, emitted as NAME.jpg; with
  # BEFORE (the newest capture before a request someone else sent) only waited for
  local before
  if [ $# -ge 2 ]; then before=$2; else find_newest; before=$newest; kill -USR2 "$bd"; fi
  if wait_until 30 screen_changed "$before"; then
    later+=("$1.jpg=$photos/screens/$newest")
    # The capture's CLOCK_MONOTONIC milliseconds are in its name.
    local ms=${newest##*-}; ms=${ms%.jpg}; ms=$((10#$ms))
    event "${1//-/_}_uptime=$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
  else
    event "screen_missing=$1"
  fi
}
generation_state() { # what current is and holds: its link, its files' hashes
  echo "current=$(readlink "$data/current")"
  (cd "$data/current" 2>/dev/null && find . -type f | LC_ALL=C sort | xargs -d '\n' sha256sum)
}

# Hot-plugs $work/NAME.img read-only through QMP as a usb-storage device on the board's xHCI.
plug_read_only() {
  vboard-qmp "{\"execute\":\"blockdev-add\",\"arguments\":{\"node-name\":\"$1\",\"driver\":\"raw\",\"read-only\":true,\"file\":{\"driver\":\"file\",\"filename\":\"$work/$1.img\",\"read-only\":true}}}" > /dev/null &&
    vboard-qmp "{\"execute\":\"device_add\",\"arguments\":{\"driver\":\"usb-storage\",\"bus\":\"xhci.0\",\"drive\":\"$1\",\"id\":\"$1\",\"removable\":true}}" > /dev/null
}

phase setup
# The FAT stick is hot-plugged first, on the board's xHCI: the guest enumerates it while the rest
# is made, and it is mounted once everything else is ready.
vboard-qmp "{\"execute\":\"blockdev-add\",\"arguments\":{\"node-name\":\"stick\",\"driver\":\"raw\",\"read-only\":true,\"file\":{\"driver\":\"file\",\"filename\":\"$work/fat.img\",\"read-only\":true}}}" > /dev/null &&
  vboard-qmp '{"execute":"device_add","arguments":{"driver":"usb-storage","bus":"xhci.0","drive":"stick","id":"stick","removable":true}}' > /dev/null &
plugging=$!
modprobe -r vivid 2>/dev/null
modprobe vivid n_devs=2 node_types=0x1,0x1 || { event setup=vivid-failed; exit 1; }

# The box: generation 1 from a good stick, with this board's run config as the box's own.
mkdir -p "$tmp/good/backdrop/backgrounds"
cp "$work/backdrops/a.png" "$tmp/good/backdrop/backgrounds/"
sed "s|@PHOTOS@|$photos|" "$work/box.conf" > "$tmp/box.conf"
"$backdrop" import "$tmp/good" --data "$data" --config "$tmp/box.conf" > "$tmp/first-import.log" 2>&1
event "first_import_exit=$?"
emit first-import.log "$tmp/first-import.log"

# Two photos taken by the box, for the photo stick.
mkdir -p "$data/photos"
cp "$work/backdrops/a.png" "$data/photos/photo-1.png"
cp "$work/backdrops/b.png" "$data/photos/photo-2.png"

# The decoys a hostile stick's links point at, made here; their content is checked afterwards.
decoy=$tmp/decoy
mkdir -p "$decoy/folder"
cp "$work/backdrops/b.png" "$decoy/real.png"
echo "decoy text" > "$decoy/folder/inside.txt"
decoy_state() { (cd "$decoy" && find . | LC_ALL=C sort; find . -type f | LC_ALL=C sort | xargs -d '\n' sha256sum); }
decoy_state > "$tmp/decoy.before"

# The tree stick: what only a Linux filesystem can hold.
tree=$tmp/tree
b=$tree/backdrop/backgrounds
mkdir -p "$b"
ln -s "$decoy/real.png" "$b/link.png"
ln -s "$decoy/folder" "$b/folder.png"
ln -s "$decoy/folder" "$tree/backdrop/photos"
ln -s "$decoy/real.png" "$tree/backdrop/backdrop.conf"
mkfifo "$b/pipe.png"
mknod "$b/null.png" c 1 3
cp "$work/backdrops/b.png" "$b/$(printf 'new\nline.png')"
cp "$work/backdrops/b.png" "$b/$(printf 'bad\377utf8.png')"
cp "$work/backdrops/b.png" "$b/$(printf 'bell\a.png')"
cp "$work/backdrops/b.png" "$b/-leading.png"
cp "$work/backdrops/b.png" "$b/..png"
cp "$work/backdrops/b.png" "$b/$(head -c 120 /dev/zero | tr '\0' 'x').png"
truncate -s 3G "$b/sparse.png"
head -c 5000 /dev/urandom > "$b/noise.png"
cp "$work/backdrops/b.png" "$b/sunset.tif"

# The FAT stick mounted as the unit mounts it, the tree stick bind-mounted read-only with the
# unit's options. Both before the booth starts: neither is read until its import, which runs
# while the booth does.
phase mount
stick_present() { [ -b /dev/sda ]; }
fat=/run/backdrop-stick/sda/root
fat_ready=0
if wait "$plugging" && wait_until 60 stick_present; then
  mkdir -p "$fat"
  if mount -o ro,nosuid,nodev,noexec,noatime /dev/sda "$fat"; then fat_ready=1; else event fat_mount=0; fi
else
  event fat_plugged=0; dmesg | tail -20
fi
# The photo stick, writable, plugged once the first is there (so it is sdb).
photosroot=/run/backdrop-stick/sdb/root
photos_ready=0
photos_present() { [ -b /dev/sdb ]; }
if vboard-qmp "{\"execute\":\"blockdev-add\",\"arguments\":{\"node-name\":\"photos\",\"driver\":\"raw\",\"file\":{\"driver\":\"file\",\"filename\":\"$work/photos.img\"}}}" > /dev/null &&
   vboard-qmp '{"execute":"device_add","arguments":{"driver":"usb-storage","bus":"xhci.0","drive":"photos","id":"photos","removable":true}}' > /dev/null &&
   wait_until 60 photos_present; then
  mkdir -p "$photosroot"
  if mount -o ro,nosuid,nodev,noexec,noatime /dev/sdb "$photosroot"; then photos_ready=1; else event photos_mount=0; fi
else
  event photos_plugged=0
fi
treeroot=/run/backdrop-stick/tree/root
tree_ready=0
mkdir -p "$treeroot"
if mount --bind "$tree" "$treeroot" && mount -o remount,bind,ro,nosuid,nodev,noexec,noatime "$treeroot"; then
  tree_ready=1
else
  event tree_mount=0
fi

log=$tmp/backdrop-run.log
# The output-sized layer: `render-message` draws the message at the output's size, which a
# comparison within 24 levels matches exactly; the camera-sized layer the display scales (a 640x480
# camera on vkms's 1024x768) shows it within a stretched pixel, about 91 % of the region.
export BACKDROP_TEST_REFUSE_SCALING=1
# Held until the next import's notice replaces it: a capture cannot come too late for it.
export BACKDROP_TEST_IMPORT_NOTICE_S=3600
phase booth_start
"$backdrop" run --config "$data/current/backdrop.conf" > "$log" 2>&1 &
bd=$!
echo "$bd" > "$tmp/booth.pid"
if ! wait_until 120 log_has "$log" "running:"; then
  event setup=booth-not-running; emit backdrop-run.log "$log"; kill -TERM "$bd"; exit 1
fi
phase capture_before
# The first capture waits for the first commit after the request; asked again if the booth gave
# it up (no frame within its 5 s while the camera was still starting).
screen before
find_newest; [ -n "$newest" ] || { screen before; find_newest; }
size=$([ -n "$newest" ] && "$work/imagecheck" size "$photos/screens/$newest" 2>/dev/null)

shows_notice() { # CAPTURE: its message region is what render-message draws for the notice
  [ -n "$region" ] || return 1
  # shellcheck disable=SC2086
  "$work/imagecheck" digit "$1" "$tmp/notice.png" $region 24 95 > /dev/null 2>&1
}

notice_captures() { # NAME OUTCOME_FILE BEFORE_SCREEN: captures after a step until one shows its text
  local name=$1 file=$2 before_screen=$3 text="" line
  # The stub asked for the first capture with its SIGHUP; more, one after another, only while
  # none shows the notice.
  while IFS= read -r line; do [[ $line == "text "* ]] && text=${line#text }; done < "$file"
  region=""
  [ -n "$size" ] && region=$("$backdrop" render-message "$text" --size "$size" --out "$tmp/notice.png" 2>/dev/null |
    sed -n 's/.*region \([0-9]*\) \([0-9]*\) \([0-9]*\) \([0-9]*\).*/\1 \2 \3 \4/p')
  screen "$name-1" "$before_screen"
  for n in 2 3 4 5 6; do
    find_newest
    [ "$newest" != "$before_screen" ] && shows_notice "$photos/screens/$newest" && break
    screen "$name-$n"
  done
}

run_step() { # NAME SCRIPT OUTCOME: one of the unit's later lines on the photo stick, then captures
  local name=$1 script=$2 outcome=$3
  phase "${name}_run"
  find_newest; local before_screen=$newest
  rm -f "$tmp/booth.pid.hup"
  STICK=$photosroot DEV=/dev/sdb DATA=$data BACKDROP=$backdrop SYSTEMCTL=$work/systemctl-hup BOOTH_PID_FILE=$tmp/booth.pid \
    sh "$work/$script" > "$tmp/$name.log" 2>&1
  event "${name}_exit=$?"
  phase "${name}_capture"
  local hup=""
  [ -f "$tmp/booth.pid.hup" ] && read -r hup < "$tmp/booth.pid.hup"
  event "${name}_hup_uptime=$hup"
  [ -n "$hup" ] && notice_captures "$name" "$data/$outcome" "$before_screen"
  local kept=""; [ -f "$data/$outcome" ] && IFS= read -r -d '' kept < "$data/$outcome"; printf '%s' "$kept" > "$tmp/$name.outcome"
  later+=("$name.import.log=$tmp/$name.log" "$name.outcome=$tmp/$name.outcome")
}

run_stick() { # NAME ROOT: the unit's import line on the mounted stick, then captures
  local name=$1 root=$2
  phase "${name}_import"
  generation_state > "$tmp/$name.state-before"
  find_newest; local before_screen=$newest
  rm -f "$tmp/booth.pid.hup"
  STICK=$root DATA=$data BACKDROP=$backdrop SYSTEMCTL=$work/systemctl-hup BOOTH_PID_FILE=$tmp/booth.pid \
    sh "$work/unit-import.sh" > "$tmp/$name.import.log" 2>&1
  event "${name}_import_exit=$?"
  phase "${name}_capture"
  notice_captures "$name" "$data/import-outcome" "$before_screen"
  phase "${name}_state"
  generation_state > "$tmp/$name.state-after"
  local outcome=""; IFS= read -r -d '' outcome < "$data/import-outcome"; printf '%s' "$outcome" > "$tmp/$name.outcome"
  local file
  for file in import.log outcome state-before state-after; do later+=("$name.$file=$tmp/$name.$file"); done
  local hup=""; read -r hup < "$tmp/booth.pid.hup"
  event "${name}_hup_uptime=$hup"
  # Nothing left of the import in the data folder but the outcome.
  local generations=("$data"/generations/* "$data"/generations/.*) kept="" entry
  for entry in "${generations[@]}"; do
    entry=${entry##*/}
    [ -e "$data/generations/$entry" ] && [ "$entry" != . ] && [ "$entry" != .. ] && kept+="$entry "
  done
  event "${name}_generations=$kept"
}

[ $fat_ready = 1 ] && run_stick fat "$fat"
[ $tree_ready = 1 ] && run_stick tree "$treeroot"
if [ $photos_ready = 1 ]; then
  run_step export unit-export.sh export-outcome
  run_step unmount unit-unmount.sh unmount-outcome
  if grep -q " $photosroot " /proc/mounts; then event photos_mounted_after=1; else event photos_mounted_after=0; fi
fi
# The good stick: hot-plugged now, while the booth runs (sdc: the other two are still plugged),
# mounted as the unit mounts it and imported by its line; then captures until one shows its green
# over most of the picture (the host's check), at most three, after the booth's rescan of the new
# generation.
good_ready=0
goodroot=/run/backdrop-stick/sdc/root
good_present() { [ -b /dev/sdc ]; }
log_has_after() { local text=""; IFS= read -r -d '' text < "$1"; [[ ${text:$2} == *"$3"* ]]; }
phase good_plug
if plug_read_only good && wait_until 60 good_present; then
  mkdir -p "$goodroot"
  if mount -o ro,nosuid,nodev,noexec,noatime /dev/sdc "$goodroot"; then good_ready=1; else event good_mount=0; fi
else
  event good_plugged=0
fi
if [ $good_ready = 1 ]; then
  log_before=""; IFS= read -r -d '' log_before < "$log"; log_before=${#log_before}
  run_stick good "$goodroot"
  phase good_backdrop
  if wait_until 60 log_has_after "$log" "$log_before" "backdrops rescanned: "; then event good_rescanned=1; else event good_rescanned=0; fi
  for n in 1 2 3; do
    screen "good-backdrop-$n"
    find_newest
    [ -n "$newest" ] && "$work/imagecheck" colour "$photos/screens/$newest" 30 200 60 24 60 > /dev/null 2>&1 && break
  done
fi
# The pulled stick (sdd, 40 uncompressed 6 MiB PNGs, so its import takes a while): imported by
# the unit's line in the background, pulled out through QMP (device_del) once the import's staging
# folder exists, then the unit's ExecStopPost line as systemd runs it after a stop.
pulled_ready=0
pulledroot=/run/backdrop-stick/sdd/root
pulled_present() { [ -b /dev/sdd ]; }
pulled_gone() { [ ! -b /dev/sdd ]; }
staging_present() { local found=("$data"/generations/.staging-*); [ -e "${found[0]}" ]; }
import_done() { ! kill -0 "$imp" 2>/dev/null; }
phase pulled_plug
if plug_read_only pulled && wait_until 60 pulled_present; then
  mkdir -p "$pulledroot"
  if mount -o ro,nosuid,nodev,noexec,noatime /dev/sdd "$pulledroot"; then pulled_ready=1; else event pulled_mount=0; fi
else
  event pulled_plugged=0
fi
if [ $pulled_ready = 1 ]; then
  phase pulled_import
  generation_state > "$tmp/pulled.state-before"
  STICK=$pulledroot DATA=$data BACKDROP=$backdrop SYSTEMCTL=$work/systemctl-hup BOOTH_PID_FILE=$tmp/booth.pid \
    sh "$work/unit-import.sh" > "$tmp/pulled.import.log" 2>&1 &
  imp=$!
  if wait_until 60 staging_present; then event pulled_staging_seen=1; else event pulled_staging_seen=0; fi
  if kill -0 "$imp" 2>/dev/null; then event pulled_running_at_del=1; else event pulled_running_at_del=0; fi
  vboard-qmp '{"execute":"device_del","arguments":{"id":"pulled"}}' > /dev/null
  if wait_until 60 pulled_gone; then event pulled_gone=1; else event pulled_gone=0; fi
  wait_until 60 import_done
  wait "$imp"
  event "pulled_import_exit=$?"
  phase pulled_unmount
  STICK=$pulledroot DEV=/dev/sdd DATA=$data BACKDROP=$backdrop SYSTEMCTL=$work/systemctl-hup BOOTH_PID_FILE=$tmp/booth.pid \
    sh "$work/unit-unmount.sh" > "$tmp/pulled.unmount.log" 2>&1
  event "pulled_unmount_exit=$?"
  if grep -q " $pulledroot " /proc/mounts; then event pulled_mounted_after=1; else event pulled_mounted_after=0; fi
  generation_state > "$tmp/pulled.state-after"
  kept=""
  for entry in "$data"/generations/* "$data"/generations/.*; do
    entry=${entry##*/}
    [ -e "$data/generations/$entry" ] && [ "$entry" != . ] && [ "$entry" != .. ] && kept+="$entry "
  done
  event "pulled_generations=$kept"
  later+=("pulled.import.log=$tmp/pulled.import.log" "pulled.state-before=$tmp/pulled.state-before" "pulled.state-after=$tmp/pulled.state-after")
fi

phase finish
if kill -0 "$bd" 2>/dev/null; then event booth_alive=1; else event booth_alive=0; fi
kill -TERM "$bd"; wait "$bd"
event "booth_exit=$?"
phase report
[ $fat_ready = 1 ] && umount "$fat"
[ $tree_ready = 1 ] && umount "$treeroot"
[ $photos_ready = 1 ] && grep -q " $photosroot " /proc/mounts && umount "$photosroot"
[ $good_ready = 1 ] && umount "$goodroot"
decoy_state > "$tmp/decoy.after"
if cmp -s "$tmp/decoy.before" "$tmp/decoy.after"; then event decoys_unchanged=1; else event decoys_unchanged=0; fi
emit decoy.after "$tmp/decoy.after"
for kept in "${later[@]}"; do emit "${kept%%=*}" "${kept#*=}"; done
emit backdrop-run.log "$log"
phase end
rm -rf "$tmp"
event done=1
