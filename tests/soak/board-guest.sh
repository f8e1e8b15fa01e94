#!/bin/sh
# Guest half of the board soak (started by tests/soak/board.sh inside the virtual board): `backdrop
# run` with vivid as the camera and vkms as the display for MINUTES of guest time; a button press
# every tick (next, previous, shutter in turn), the camera unplugged (vivid's Disconnect control,
# then the module reloaded) every UNPLUG_S seconds; every tick one sample line for the host:
#   @@EVENT sample=SECONDS,RSS_KIB,FDS,PRESENTED,DROPPED_LATE,CAMERA   (CAMERA: up or away)
# Samples are taken before the tick's press, so no photo file is open while the fds are counted.
# POSIX sh (busybox on the arm64 board).
#   board-guest.sh WORKDIR BACKDROP_BINARY MINUTES UNPLUG_S TICK_S
work=${1:?usage: board-guest.sh WORKDIR BACKDROP MINUTES UNPLUG_S TICK_S}
backdrop=${2:?}
minutes=${3:?}
unplug_s=${4:?}
tick_s=${5:?}
photos=/tmp/soak-photos
log=/tmp/soak-backdrop.log
mkdir -p "$photos"
event() { echo "@@EVENT $*"; }
now() { read -r up _ < /proc/uptime; echo "${up%.*}"; }
wait_until() {
  limit=$1; shift
  deadline=$(( $(now) + limit ))
  until "$@"; do
    [ "$(now)" -lt "$deadline" ] || return 1
    sleep 0.2
  done
}
count_in() { grep -c "$2" "$1" 2>/dev/null || true; }
more_than() { [ "$(count_in "$1" "$3")" -gt "$2" ]; }
alive() { kill -0 "$1" 2>/dev/null; }
gone() { ! kill -0 "$1" 2>/dev/null; }

gpio_sim="sh $(dirname "$0")/../../vboard/gpio-sim"
lines=$($gpio_sim make backdrop-e2e BACKDROP_NEXT BACKDROP_PREV BACKDROP_SHUTTER) ||
  { event setup=gpio-sim-failed; exit 1; }
press() { echo pull-up > "$lines/sim_gpio$1/pull"; sleep 0.1; echo pull-down > "$lines/sim_gpio$1/pull"; }

modprobe -r v4l2loopback
modprobe -r vivid
modprobe vivid n_devs=2 node_types=0x1,0x1 || { event setup=vivid-failed; exit 1; }
BACKDROP_BOARD_DIR=$work/board "$backdrop" run --config "$work/soak.conf" > "$log" 2>&1 &
bd=$!
if ! wait_until 120 grep -q "running:" "$log"; then
  event setup=backdrop-not-running
  kill -TERM "$bd" 2>/dev/null
  exit 1
fi
event "started=$(now)"

# One statistics print (SIGUSR1), then this process's figures from /proc.
sample() {
  stats=$(count_in "$log" "frames presented:")
  kill -USR1 "$bd"
  wait_until 10 more_than "$log" "$stats" "frames presented:"
  counts=$(grep "frames presented:" "$log" | tail -n 1 | sed 's/frames presented: \([0-9]*\), dropped late: \([0-9]*\).*/\1,\2/')
  rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$bd/status")
  fds=$(ls "/proc/$bd/fd" | wc -l)
  event "sample=$(( $(now) - start )),$rss,$fds,$counts,$1"
}
# The camera goes away and comes back: the notice while it is away, then frames again.
unplug() {
  disconnects=$(count_in "$log" "camera disconnected")
  backs=$(count_in "$log" "camera back")
  # Held open so vivid keeps the nodes unplugged until the module is reloaded (as tests/e2e does).
  exec 3< /dev/video0
  v4l2-ctl -d /dev/video0 -c disconnect=1 > /dev/null 2>&1
  wait_until 30 more_than "$log" "$disconnects" "camera disconnected" || event "unplug_not_seen=$(( $(now) - start ))"
  sleep 5
  sample away
  exec 3<&-
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    modprobe -r vivid 2> /dev/null && break
    sleep 0.5
  done
  modprobe vivid n_devs=2 node_types=0x1,0x1
  if wait_until 60 more_than "$log" "$backs" "camera back"; then
    unplugs=$((unplugs + 1))
  else
    event "camera_not_back=$(( $(now) - start ))"
  fi
}

start=$(now)
end=$(( start + minutes * 60 ))
next_unplug=$(( start + unplug_s ))
unplugs=0 presses=0 turn=0
while [ "$(now)" -lt "$end" ] && alive "$bd"; do
  sample up
  case $turn in 0) press 0 ;; 1) press 1 ;; 2) press 2 ;; esac
  presses=$((presses + 1)) turn=$(( (turn + 1) % 3 ))
  # Photos pile up in the guest's RAM otherwise; only their count matters here.
  sleep "$tick_s"
  rm -f "$photos"/photo-*.jpg
  if [ "$(now)" -ge "$next_unplug" ]; then
    unplug
    next_unplug=$(( $(now) + unplug_s ))
    sleep 3
  fi
done
sample up
if alive "$bd"; then event alive=1; else event alive=0; fi
event "presses=$presses"
event "unplugs=$unplugs"
event "photos_logged=$(count_in "$log" "photo saved")"
kill -TERM "$bd"
wait_until 10 gone "$bd"
wait "$bd"
event "exit=$?"
sed 's/^/@@LOG /' "$log"
$gpio_sim remove backdrop-e2e
event done=1
