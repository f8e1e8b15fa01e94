#!/bin/sh
# Guest half of the end-to-end scenarios (runs inside the virtual board, started by tests/e2e/run.sh).
# It only drives: starts the producer and `backdrop run`, presses gpio-sim buttons, stalls and unplugs
# the cameras, and hands everything back on stdout for the host to judge:
#   @@EVENT key=value            facts (times, exit status, device checks)
#   @@FILE name / base64 / @@END   photos and logs (the guest's writes vanish with it)
# POSIX sh so it runs under busybox on the arm64 board too.
#   guest.sh WORKDIR BACKDROP_BINARY PRODUCER_BINARY [PARTS]   (PARTS: "loopback vivid", the default)
work=${1:?usage: guest.sh WORKDIR BACKDROP PRODUCER [PARTS]}
backdrop=${2:?}
producer=${3:?}
parts=${4:-loopback vivid}
part() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }
photos=/tmp/e2e-photos
tmp=$(mktemp -d)
mkdir -p "$photos"

event() { echo "@@EVENT $*"; }
say() { echo "e2e-guest: $*"; }
emit() {
  echo "@@FILE $1"
  if [ -f "$2" ]; then base64 < "$2"; fi
  echo "@@END"
}
uptime_s() { read -r up _ < /proc/uptime; echo "$up"; }
# Polls a condition until it holds or LIMIT seconds of guest time pass (TCG runs slowly when the
# host is loaded, so limits are in time, not tries).
wait_until() {
  limit=$1; shift
  read -r up _ < /proc/uptime
  deadline=$(( ${up%.*} + limit ))
  until "$@"; do
    read -r up _ < /proc/uptime
    [ "${up%.*}" -lt "$deadline" ] || return 1
    sleep 0.05
  done
}
log_has() { grep -q "$2" "$1"; }
reloaded_more() { [ "$(count_in "$1" "$3")" -gt "$2" ]; }
count_in() { grep -c "$2" "$1" 2>/dev/null || true; }
alive() { kill -0 "$1" 2>/dev/null; }
gone() { ! kill -0 "$1" 2>/dev/null; }

# --- buttons: a gpio-sim chip whose lines carry the names tests/e2e/board/qemu-e2e/buttons.conf uses
gpio_sim="sh $(dirname "$0")/../../vboard/gpio-sim"
lines=$($gpio_sim make backdrop-e2e BACKDROP_NEXT BACKDROP_PREV BACKDROP_SHUTTER) ||
  { event setup=gpio-sim-failed; exit 1; }
chip=${lines##*/}
NEXT=0 PREV=1 SHUTTER=2
# The sim's lines idle low; a press pulls one up (active high, as buttons.conf says).
down() { echo pull-up > "$lines/sim_gpio$1/pull"; }
up() { echo pull-down > "$lines/sim_gpio$1/pull"; }
# press LINE [SECONDS [BOUNCES]]: one process writes the edges (tests/e2e/press.c), so the press
# lasts SECONDS in kernel time even on a loaded emulated CPU; what it measured goes to $tmp/presses.
press() { echo "$1 ${2:-0.1} $("$work/press" "$lines/sim_gpio$1/pull" "${2:-0.1}" "${3:-0}")" >> "$tmp/presses"; }

# Photos are named by sequence number, so the newest sorts last; temporaries start with '.'.
newest_photo() { ls "$photos" 2>/dev/null | grep '^photo-.*[0-9]\.jpg$' | tail -n 1; }
newest_screen() { ls "$photos/screens" 2>/dev/null | grep '^photo-.*\.jpg$' | tail -n 1; }
# Presses the shutter and waits for a new photo; emits it as NAME (or an event when none came).
# A photo appears under its final name only once written whole (temporary, fsync, rename).
photo() {
  name=$1
  before=$(newest_photo)
  press $SHUTTER 0.1
  if wait_until 20 photo_changed "$before"; then
    emit "$name.jpg" "$photos/$(newest_photo)"
  else
    event "photo_missing=$name"
  fi
}
photo_changed() { [ "$(newest_photo)" != "$1" ] && [ -n "$(newest_photo)" ]; }
# SIGUSR2: what the display shows (its writeback) into $photos/screens; emits it as NAME.
screen() {
  name=$1
  before=$(newest_screen)
  kill -USR2 "$bd"
  if wait_until ${2:-10} screen_changed "$before"; then
    emit "$name.jpg" "$photos/screens/$(newest_screen)"
  else
    event "screen_missing=$name"
  fi
}
screen_changed() { [ "$(newest_screen)" != "$1" ] && [ -n "$(newest_screen)" ]; }
# "frames presented: N, dropped late: L, dropped by sink: S" as N,L,S, from the statistics SIGUSR1 prints.
frame_counts() {
  kill -USR1 "$1"
  sleep 0.3
  grep "frames presented:" "$2" | tail -n 1 | sed 's/frames presented: \([0-9]*\), dropped late: \([0-9]*\), dropped by sink: \([0-9]*\).*/\1,\2,\3/'
}

partial_present() { ls -a "$photos" | grep -q '^\.photo-.*\.partial$'; }
loopback_capturing() { v4l2-ctl -d "$1" -D 2>/dev/null | sed -n '/Device Caps/,$p' | grep -q "Video Capture"; }

# Frames presented so far, from the statistics SIGUSR1 prints.
presented() {
  kill -USR1 "$1"
  sleep 0.3
  grep "frames presented:" "$2" | tail -n 1 | sed 's/frames presented: \([0-9]*\).*/\1/'
}
# The loop's own count of epoll_wait returns, from the same statistics.
wakeups() {
  kill -USR1 "$1"
  sleep 0.3
  grep "event loop:" "$2" | tail -n 1 | sed 's/event loop: \([0-9]*\) wake-ups.*/\1/'
}
enough_frames() { n=$(presented "$1" "$2"); [ -n "$n" ] && [ "$n" -ge "$3" ]; }

# Sends SIGTERM and measures until the process is gone, in guest time. `wait` returns when it
# exits (a watchdog kills it after 10 s): polling with `kill -0` and `sleep 0.05` measured the
# poll loop too (a fork and exec per turn on a loaded emulated CPU, and a zombie stays "alive"
# until the shell reaps it between commands), on top of the process's own stop.
terminate() {
  pid=$1 label=$2
  ( sleep 10; kill -KILL "$pid" 2>/dev/null ) &
  dog=$!
  # `read` rather than $(uptime_s): a command substitution forks.
  read -r t0 _ < /proc/uptime
  kill -TERM "$pid"
  wait "$pid"
  status=$?
  read -r t1 _ < /proc/uptime
  kill "$dog" 2>/dev/null
  event "${label}_exit=$status"
  event "${label}_term_seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
  # /proc/uptime is CLOCK_BOOTTIME, the box's CLOCK_MONOTONIC on a board that never suspended.
  event "${label}_term_sent_exited=$t0,$t1"
}

# While $tmp/display-away exists the display reads as unplugged (vkms cannot unplug its connector).
# With $work/refuse-scaling (E2E_REFUSE_SCALING=1) the display refuses the scaled camera layer, as
# a driver that cannot scale would (BACKDROP_TEST_REFUSE_SCALING).
if [ -e "$work/refuse-scaling" ]; then export BACKDROP_TEST_REFUSE_SCALING=1; fi
start_backdrop() {
  BACKDROP_TEST_DISPLAY_AWAY_FILE=$tmp/display-away BACKDROP_BOARD_DIR=$work/board "$backdrop" run --config "$1" > "$2" 2>&1 &
  echo $! > "$tmp/pid"
}

# display_away NAME [LOG]: the display goes away (the connector reads unplugged) and comes back;
# facts NAME_lost, NAME_alive, NAME_back.
display_away() {
  name=$1 log=${2:-$log1}
  lost=$(count_in "$log" "display unplugged"); back=$(count_in "$log" "display back")
  touch "$tmp/display-away"
  if wait_until 30 reloaded_more "$log" "$lost" "display unplugged"; then event "${name}_lost=1"; else event "${name}_lost=0"; fi
  sleep 1
  if alive "$bd"; then event "${name}_alive=1"; else event "${name}_alive=0"; fi
  rm -f "$tmp/display-away"
  if wait_until 30 reloaded_more "$log" "$back" "display back"; then event "${name}_back=1"; else event "${name}_back=0"; fi
}

# ===== Run 1: the loopback camera (the producer's known frames) on vkms
if part loopback; then
"$producer" /dev/video10 /dev/video11 640 480 "$work/colour.yuyv" "$work/depth.z16" 30 > "$tmp/producer.log" 2>&1 &
prod=$!
if ! wait_until 30 loopback_capturing /dev/video11 || ! wait_until 10 loopback_capturing /dev/video10; then
  emit producer.log "$tmp/producer.log"
  event setup=producer-failed
  exit 1
fi
log1=$tmp/backdrop-loopback.log
# A copy of the config the guest may change (countdown_s) before a SIGHUP.
cp "$work/e2e.conf" "$tmp/e2e.conf"
start_backdrop "$tmp/e2e.conf" "$log1"
bd=$(cat "$tmp/pid")
if ! wait_until 90 log_has "$log1" "running:"; then
  event setup=backdrop-not-running
  emit backdrop-loopback.log "$log1"
  kill -TERM "$bd" 2>/dev/null
  exit 1
fi
say "backdrop is running on the loopback camera"
sleep 2
photo live-a

# Buttons. Next, then the shutter two frame periods (at 30 fps) later.
press $NEXT 0.1
sleep 0.067
photo next-b
# A bouncing press: five edges written back to back by the presser, inside the 250 ms debounce
# window, then held 0.4 s and released.
nexts_before=$(count_in "$log1" "button: next backdrop")
press $NEXT 0.4 2
sleep 0.5
event "bounce_next_intents=$(( $(count_in "$log1" "button: next backdrop") - nexts_before ))"
photo bounce-c
# A long press toggles the matte view (the shutter is refused there: a screen capture shows
# it); a second one toggles it back.
press $NEXT 6
sleep 0.3
screen matte
press $NEXT 6
sleep 0.3
press $PREV 0.1
sleep 0.3
photo previous-b

# Fault: the camera stalls (the producer stops writing) for 3 s.
before_stall=$(presented "$bd" "$log1")
kill -USR1 "$prod"
sleep 0.5
w0=$(wakeups "$bd" "$log1"); u0=$(uptime_s)
sleep 2.5
w1=$(wakeups "$bd" "$log1"); u1=$(uptime_s)
event "stall_wakeups=$(awk -v a="$w0" -v b="$w1" -v s="$u0" -v t="$u1" 'BEGIN { printf "%d in %.1f s", b - a, t - s }')"
if alive "$bd"; then event stall_alive=1; else event stall_alive=0; fi
during_stall=$(presented "$bd" "$log1")
kill -USR2 "$prod"
sleep 2
after_stall=$(presented "$bd" "$log1")
event "stall_frames=${before_stall:-0},${during_stall:-0},${after_stall:-0}"
photo after-stall-b

# The countdown: SIGHUP with countdown_s = 10 (the longest allowed: a loaded emulated board takes
# seconds per screen capture; the reload also rescans the backdrop folder), then the shutter; screen captures while the
# digits count down, then the photo taken at zero. The frame counts before and after say whether
# frames kept flowing and how many were dropped.
reloads=$(count_in "$log1" "config reloaded")
rescans=$(count_in "$log1" "backdrops rescanned")
sed 's/^countdown_s = .*/countdown_s = 10/' "$work/e2e.conf" > "$tmp/e2e.conf"
kill -HUP "$bd"
if wait_until 20 reloaded_more "$log1" "$reloads" "config reloaded" && wait_until 30 reloaded_more "$log1" "$rescans" "backdrops rescanned"; then
  event reload_rescan=1
else
  event reload_rescan=0
fi
sleep 0.5
counts_before=$(frame_counts "$bd" "$log1")
before=$(newest_photo)
screens_before=$(ls "$photos/screens" 2>/dev/null | grep -c '^photo-' || true)
t0=$(uptime_s)
event "countdown_press_uptime=$t0"
press $SHUTTER 0.1
# A screen capture asked for every half second through the countdown and the save (one at a
# time: a request while one is under way, or while the photo holds the writeback, is refused and
# logged). No look at the folder in between: forks are slow on a loaded emulated board.
asks=0
while [ $asks -lt 28 ]; do
  asks=$((asks + 1))
  kill -USR2 "$bd"
  sleep 0.5
done
event "countdown_screen_requests=$asks"
if wait_until 20 photo_changed "$before"; then
  event "countdown_photo_after=$(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { printf "%.2f", b - a }')"
  emit "countdown-photo-$(newest_photo)" "$photos/$(newest_photo)"
else
  event photo_missing=countdown-photo
fi
sleep 1
n=0
for name in $(ls "$photos/screens" | grep '^photo-' | tail -n +$((screens_before + 1))); do
  n=$((n + 1))
  emit "countdown-$n-$name" "$photos/screens/$name"
done
sleep 1
counts_after=$(frame_counts "$bd" "$log1")
event "countdown_counts=$counts_before,$counts_after"
event "countdown_elapsed=$(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { printf "%.2f", b - a }')"

# The display goes away (the connector reads unplugged; vkms cannot unplug, see start_backdrop)
# and comes back, first while idle, then during a countdown (countdown_s is still 10): the box must
# live through both, set the mode again, show frames after, and not take the photo it was
# counting down to (the screen says it was cancelled). The shutter afterwards takes a photo.
away_before=$(presented "$bd" "$log1")
display_away display_idle
sleep 2
event "display_idle_frames=${away_before:-0},$(presented "$bd" "$log1")"
before=$(newest_photo)
press $SHUTTER 0.1
sleep 2
display_away display_countdown
# Longer than what was left of the countdown, and the save: no photo may come of it.
sleep 14
if [ "$(newest_photo)" = "$before" ]; then event display_countdown_photo=0; else event display_countdown_photo=1; fi
after_before=$(presented "$bd" "$log1")
sleep 2
event "display_back_frames=${after_before:-0},$(presented "$bd" "$log1")"
before=$(newest_photo)
press $SHUTTER 0.1
if wait_until 60 photo_changed "$before"; then emit "display-back.jpg" "$photos/$(newest_photo)"; else event photo_missing=display-back; fi

# Latency needs 300 frames; wait for them (bounded), then stop with SIGTERM.
wait_until 120 enough_frames "$bd" "$log1" 320 || say "fewer than 320 frames presented"
terminate "$bd" loopback
emit backdrop-loopback.log "$log1"

# Every device is free again: DRM master (modetest sets a mode), the GPIO lines, the camera nodes.
modetest -M vkms -c > "$tmp/conn" 2>&1
conn=$(awk '$3 == "connected" && $4 ~ /^Virtual/ {print $1; exit}' "$tmp/conn")
crtc=$(modetest -M vkms -p 2>/dev/null | awk '/^CRTCs:/{getline; getline; print $1; exit}')
if timeout 30 modetest -M vkms -s "$conn@$crtc:1024x768" < /dev/null > "$tmp/modetest" 2>&1 &&
   grep -q "setting mode" "$tmp/modetest"; then event released_drm=1; else event released_drm=0; emit modetest.log "$tmp/modetest"; fi
if gpioget "$chip" 0 1 2 > /dev/null 2>&1; then event released_gpio=1; else event released_gpio=0; fi
if timeout 20 v4l2-ctl -d /dev/video10 --stream-mmap=3 --stream-count=2 --stream-to=/dev/null > /dev/null 2>&1 &&
   timeout 20 v4l2-ctl -d /dev/video11 --stream-mmap=3 --stream-count=2 --stream-to=/dev/null > /dev/null 2>&1; then
  event released_v4l2=1
else
  event released_v4l2=0
fi
# Killed mid-save: every photo file waits 60 s written under its temporary name before the
# rename (BACKDROP_TEST_RENAME_DELAY_MS); SIGKILL lands in that window. No file may appear under
# a final name, and the temporary is what is left. The window was 3 s and once closed before the
# kill on a loaded host: the poll below forks a `ls` and a `sleep` per turn, each seconds under a
# busy TCG, so the rename beat the kill. The kill comes as soon as the temporary is seen, so a long
# window costs nothing; the wait for it allows the countdown and the encode on a slow board.
log3=$tmp/backdrop-kill.log
BACKDROP_TEST_RENAME_DELAY_MS=60000 BACKDROP_BOARD_DIR=$work/board "$backdrop" run --config "$work/e2e.conf" > "$log3" 2>&1 &
bd=$!
if wait_until 90 log_has "$log3" "running:"; then
  sleep 1
  finals_before=$(ls "$photos" | grep -c '^photo-' || true)
  press $SHUTTER 0.1
  if wait_until 50 partial_present; then
    kill -KILL "$bd"
    wait "$bd" 2>/dev/null
    event kill_partial_seen=1
  else
    event kill_partial_seen=0
    kill -KILL "$bd"; wait "$bd" 2>/dev/null
  fi
  event "kill_new_finals=$(( $(ls "$photos" | grep -c '^photo-' || true) - finals_before ))"
  event "kill_partials=$(ls -a "$photos" | grep -c '^\.photo-.*\.partial$' || true)"
else
  event kill_setup=0
  kill -KILL "$bd" 2>/dev/null
fi
emit backdrop-kill.log "$log3"

# The rollback gesture: a data folder with two generations (two imports: the e2e config as the
# box's own, then a stick with one more backdrop), the box run from DIR/current/backdrop.conf as
# the service runs it; next and previous held together 7 s (two pressers at once: together for
# at least 5 s however late the second starts) must switch current back to the first generation,
# reload, and count as no press of either button.
data=$tmp/data
mkdir -p "$tmp/stick1/backdrop/backgrounds" "$tmp/stick2/backdrop/backgrounds"
cp "$work/backdrops/a.png" "$tmp/stick1/backdrop/backgrounds/"
cp "$work/backdrops/a.png" "$work/backdrops/b.png" "$tmp/stick2/backdrop/backgrounds/"
"$backdrop" import "$tmp/stick1" --data "$data" --config "$work/e2e.conf" > "$tmp/import.log" 2>&1
"$backdrop" import "$tmp/stick2" --data "$data" >> "$tmp/import.log" 2>&1
log4=$tmp/backdrop-rollback.log
start_backdrop "$data/current/backdrop.conf" "$log4"
bd=$(cat "$tmp/pid")
if wait_until 90 log_has "$log4" "running:"; then
  sleep 1
  before_link=$(readlink "$data/current")
  reloads=$(count_in "$log4" "config reloaded")
  "$work/press" "$lines/sim_gpio$NEXT/pull" 7 > /dev/null & p1=$!
  "$work/press" "$lines/sim_gpio$PREV/pull" 7 > /dev/null & p2=$!
  wait $p1; wait $p2
  if wait_until 30 log_has "$log4" "rollback: generation"; then event rollback_logged=1; else event rollback_logged=0; fi
  if wait_until 30 reloaded_more "$log4" "$reloads" "config reloaded"; then event rollback_reloaded=1; else event rollback_reloaded=0; fi
  event "rollback_links=$before_link,$(readlink "$data/current")"
  event "rollback_single_presses=$(grep -cE 'button: (next backdrop|previous backdrop|toggle matte view)' "$log4")"
  kill -TERM "$bd"; wait "$bd"
else
  event rollback_setup=0
  kill -KILL "$bd" 2>/dev/null
fi
emit backdrop-rollback.log "$log4"
emit import.log "$tmp/import.log"
kill -TERM "$prod"; wait "$prod"
emit producer.log "$tmp/producer.log"
fi

# ===== Run 2: vivid as the camera, unplugged (its Disconnect control) and reloaded
if part vivid; then
modprobe -r v4l2loopback
modprobe -r vivid
modprobe vivid n_devs=2 node_types=0x1,0x1 || { event setup=vivid-failed; exit 1; }
log2=$tmp/backdrop-vivid.log
start_backdrop "$work/e2e-vivid.conf" "$log2"
bd=$(cat "$tmp/pid")
if ! wait_until 90 log_has "$log2" "running:"; then
  event setup=backdrop-vivid-not-running
  emit backdrop-vivid.log "$log2"
  kill -TERM "$bd" 2>/dev/null
  exit 1
fi
sleep 2
photo vivid-live
# Hold a node of the first instance open: vivid re-registers unplugged nodes once their last fd
# closes, and the notice should stay up until the module is reloaded.
exec 3< /dev/video0
v4l2-ctl -d /dev/video0 -c disconnect=1 > "$tmp/disconnect" 2>&1 || { event disconnect_control=0; emit disconnect.log "$tmp/disconnect"; }
if wait_until 20 log_has "$log2" "camera disconnected"; then event disconnected_logged=1; else event disconnected_logged=0; fi
sleep 1
if alive "$bd"; then event unplug_alive=1; else event unplug_alive=0; fi
# Idle: the camera away, the loop waiting for it (back-off deadlines, the heartbeat); 10 s quiet.
w0=$(wakeups "$bd" "$log2"); u0=$(uptime_s)
sleep 10
w1=$(wakeups "$bd" "$log2"); u1=$(uptime_s)
event "away_wakeups=$(awk -v a="$w0" -v b="$w1" -v s="$u0" -v t="$u1" 'BEGIN { printf "%d in %.1f s", b - a, t - s }')"
# The shutter does nothing while the camera is away: a screen capture shows the notice.
screen notice
exec 3<&-
reloaded=0
for attempt in 1 2 3 4 5 6 7 8 9 10; do
  if modprobe -r vivid 2> "$tmp/modprobe"; then reloaded=1; break; fi
  sleep 0.3
done
event "vivid_unloaded=$reloaded"
modprobe vivid n_devs=2 node_types=0x1,0x1
if wait_until 30 log_has "$log2" "camera back"; then event camera_back=1; else event camera_back=0; fi
sleep 2
after_back=$(presented "$bd" "$log2")
sleep 1
later=$(presented "$bd" "$log2")
event "back_frames=${after_back:-0},${later:-0}"
photo vivid-back
# The camera view (a long press of previous): vivid exports its buffers, so the display shows
# them as they are where it takes them (the log says whether it does and why). The count of
# camera buffers shown grows while the view is up, and again after the display went away and
# came back in it (the mode is set again showing a camera buffer); it stops once a second long
# press leaves the view, and composed frames go on after.
direct_counts() {
  kill -USR1 "$1"
  sleep 0.3
  grep "camera buffers shown as they are:" "$2" | tail -n 1 |
    sed 's/frames presented: \([0-9]*\),.*camera buffers shown as they are: \([0-9]*\).*/\1,\2/'
}
k0=$(direct_counts "$bd" "$log2")
press $PREV 2
sleep 1
k1=$(direct_counts "$bd" "$log2")
sleep 2
k2=$(direct_counts "$bd" "$log2")
display_away camera_view_display "$log2"
sleep 1
k3=$(direct_counts "$bd" "$log2")
sleep 2
k4=$(direct_counts "$bd" "$log2")
screen camera-view 20
press $PREV 2
sleep 1
k5=$(direct_counts "$bd" "$log2")
sleep 2
k6=$(direct_counts "$bd" "$log2")
# Each as "presented,shown directly".
event "camera_view_counts=$k0;$k1;$k2;$k3;$k4;$k5;$k6"
photo camera-view-left
terminate "$bd" vivid
emit backdrop-vivid.log "$log2"
fi

emit presses "$tmp/presses"
$gpio_sim remove backdrop-e2e
rm -rf "$tmp"
event done=1
