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
#          a sparse 3 GiB file.
# For each: the import's exit status and outcome file, the data folder's generation and content
# before and after, the decoys' content, and screen captures (SIGUSR2, writeback) taken after the
# import, all handed back on stdout (@@EVENT, @@FILE ... @@END) for the host to judge.
#   board-guest.sh WORK BACKDROP
work=${1:?usage: board-guest.sh WORK BACKDROP}
backdrop=${2:?}
tmp=$(mktemp -d)
data=$tmp/data
photos=$tmp/photos
mkdir -p "$photos"

event() { echo "@@EVENT $*"; }
emit() { echo "@@FILE $1"; [ -f "$2" ] && base64 < "$2"; echo "@@END"; }
wait_until() {
  local limit=$1 up deadline; shift
  read -r up _ < /proc/uptime; deadline=$(( ${up%.*} + limit ))
  until "$@"; do
    read -r up _ < /proc/uptime
    [ "${up%.*}" -lt "$deadline" ] || return 1
    sleep 0.1
  done
}
log_has() { grep -q "$2" "$1"; }
newest_screen() { ls "$photos/screens" 2>/dev/null | grep '^photo-.*\.jpg$' | tail -n 1; }
screen_changed() { [ "$(newest_screen)" != "$1" ] && [ -n "$(newest_screen)" ]; }
screen() { # NAME [BEFORE]: one capture of what the display shows, emitted as NAME.jpg; with
  # BEFORE (the newest capture before a request someone else sent) only waited for
  local before=${2-$(newest_screen)}
  [ $# -ge 2 ] || kill -USR2 "$bd"
  if wait_until 30 screen_changed "$before"; then
    local file; file=$(newest_screen)
    emit "$1.jpg" "$photos/screens/$file"
    # The capture's CLOCK_MONOTONIC milliseconds are in its name.
    event "$(echo "$1" | tr - _)_uptime=$(echo "$file" | sed -n 's/.*-0*\([0-9][0-9]*\)\.jpg$/\1/p' | awk '{ printf "%.2f", $1 / 1000 }')"
  else
    event "screen_missing=$1"
  fi
}
generation_state() { # what current is and holds: its link, its files' hashes
  echo "current=$(readlink "$data/current")"
  (cd "$data/current" 2>/dev/null && find . -type f | LC_ALL=C sort | xargs -d '\n' sha256sum)
}

modprobe -r vivid 2>/dev/null
modprobe vivid n_devs=2 node_types=0x1,0x1 || { event setup=vivid-failed; exit 1; }

# The box: generation 1 from a good stick, with this board's run config as the box's own.
mkdir -p "$tmp/good/backdrop/backgrounds"
cp "$work/backdrops/a.png" "$tmp/good/backdrop/backgrounds/"
sed "s|@PHOTOS@|$photos|" "$work/box.conf" > "$tmp/box.conf"
"$backdrop" import "$tmp/good" --data "$data" --config "$tmp/box.conf" > "$tmp/first-import.log" 2>&1
event "first_import_exit=$?"
emit first-import.log "$tmp/first-import.log"

log=$tmp/backdrop-run.log
# The output-sized layer: `render-message` draws the message at the output's size, which a
# comparison within 24 levels matches exactly; the camera-sized layer the display scales (a 640x480
# camera on vkms's 1024x768) shows it within a stretched pixel, about 91 % of the region.
export BACKDROP_TEST_REFUSE_SCALING=1
"$backdrop" run --config "$data/current/backdrop.conf" > "$log" 2>&1 &
bd=$!
echo "$bd" > "$tmp/booth.pid"
if ! wait_until 120 log_has "$log" "running:"; then
  event setup=booth-not-running; emit backdrop-run.log "$log"; kill -TERM "$bd"; exit 1
fi
sleep 3
screen before

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

run_stick() { # NAME ROOT: the unit's import line on the mounted stick, then captures
  local name=$1 root=$2
  generation_state > "$tmp/$name.state-before"
  local before_screen; before_screen=$(newest_screen)
  rm -f "$tmp/booth.pid.hup"
  STICK=$root DATA=$data BACKDROP=$backdrop SYSTEMCTL=$work/systemctl-hup BOOTH_PID_FILE=$tmp/booth.pid \
    sh "$work/unit-import.sh" > "$tmp/$name.import.log" 2>&1
  event "${name}_import_exit=$?"
  generation_state > "$tmp/$name.state-after"
  emit "$name.import.log" "$tmp/$name.import.log"
  emit "$name.outcome" "$data/import-outcome"
  emit "$name.state-before" "$tmp/$name.state-before"
  emit "$name.state-after" "$tmp/$name.state-after"
  event "${name}_hup_uptime=$(head -n 1 "$tmp/booth.pid.hup" 2>/dev/null)"
  # The notice is shown for about 6 s: the stub asked for a capture half a second after its
  # SIGHUP; two more follow, one after another.
  screen "$name-1" "$before_screen"
  for n in 2 3; do screen "$name-$n"; done
  # Nothing left of the import in the data folder but the outcome.
  event "${name}_generations=$(ls -A "$data/generations" | tr '\n' ' ')"
}

# 1. The FAT stick, hot-plugged on the xHCI bus and mounted as the unit mounts it.
stick_present() { [ -b /dev/sda ]; }
vboard-qmp "{\"execute\":\"blockdev-add\",\"arguments\":{\"node-name\":\"stick\",\"driver\":\"raw\",\"read-only\":true,\"file\":{\"driver\":\"file\",\"filename\":\"$work/fat.img\",\"read-only\":true}}}" > /dev/null &&
  vboard-qmp '{"execute":"device_add","arguments":{"driver":"usb-storage","bus":"xhci.0","drive":"stick","id":"stick","removable":true}}' > /dev/null
if wait_until 60 stick_present; then
  mkdir -p /run/backdrop-stick/sda/root
  if mount -o ro,nosuid,nodev,noexec,noatime /dev/sda /run/backdrop-stick/sda/root; then
    run_stick fat /run/backdrop-stick/sda/root
    umount /run/backdrop-stick/sda/root
  else
    event fat_mount=0
  fi
  vboard-qmp '{"execute":"device_del","arguments":{"id":"stick"}}' > /dev/null
else
  event fat_plugged=0; dmesg | tail -20
fi

# 2. The tree stick, bind-mounted read-only with the unit's options.
mkdir -p /run/backdrop-stick/tree/root
if mount --bind "$tree" /run/backdrop-stick/tree/root &&
   mount -o remount,bind,ro,nosuid,nodev,noexec,noatime /run/backdrop-stick/tree/root; then
  run_stick tree /run/backdrop-stick/tree/root
  umount /run/backdrop-stick/tree/root
else
  event tree_mount=0
fi

decoy_state > "$tmp/decoy.after"
if cmp -s "$tmp/decoy.before" "$tmp/decoy.after"; then event decoys_unchanged=1; else event decoys_unchanged=0; fi
emit decoy.after "$tmp/decoy.after"
if kill -0 "$bd" 2>/dev/null; then event booth_alive=1; else event booth_alive=0; fi
kill -TERM "$bd"; wait "$bd"
event "booth_exit=$?"
emit backdrop-run.log "$log"
rm -rf "$tmp"
event done=1
