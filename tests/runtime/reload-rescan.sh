#!/usr/bin/env bash
# SIGHUP on the synthetic source means what it means on the devices (issue 9): the config is read
# again AND the backdrop folder rescanned. A run with one backdrop gets a second one in its folder
# and a SIGHUP: the log must say the folder was rescanned with two images; then a folder with
# nothing usable keeps the two.
set -u
backdrop=${1:-.build/release/backdrop}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
tmp=$(mktemp -d); trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
RUNTIME_TMP=$tmp
pid=
"$backdrop" make-backdrops "$tmp/made" --size 160x120 > /dev/null || { echo "FAIL reload-rescan: make-backdrops failed"; exit 1; }
mkdir "$tmp/no-backgrounds"
first=$(ls "$tmp/made" | head -n 1); second=$(ls "$tmp/made" | sed -n 2p)
cp "$tmp/made/$first" "$tmp/no-backgrounds/"
write_config "$tmp/run.conf" null ""
"$backdrop" run --config "$tmp/run.conf" > "$tmp/out" 2> "$tmp/err" &
pid=$!
# Polls for a log line (up to ~30 s; a loaded machine reads and prescales slowly).
wait_log() { for _ in $(seq 300); do grep -q "$1" "$tmp/err" && return 0; sleep 0.1; done; return 1; }
problems=""
wait_running "$tmp/err" || problems+="the run did not start; "
cp "$tmp/made/$second" "$tmp/no-backgrounds/"
kill -HUP $pid
wait_log "config reloaded" || problems+="no 'config reloaded' after SIGHUP; "
wait_log "backdrops rescanned: 2 image(s)" || problems+="no 'backdrops rescanned: 2 image(s)' after SIGHUP; "
rm "$tmp/no-backgrounds/"*.png
kill -HUP $pid
wait_log "rescan found no usable image; keeping the 2" || problems+="an empty folder did not keep the 2 backdrops; "
kill -TERM $pid; wait $pid; status=$?; pid=
[ $status = 0 ] || problems+="exit $status after SIGTERM; "
if [ -z "$problems" ]; then
  echo "PASS reload-rescan: SIGHUP on the synthetic source reloads the config and rescans the backdrops (1 -> 2 images; an empty folder keeps them)"
else
  echo "FAIL reload-rescan: $problems"; tail -n 20 "$tmp/err"; exit 1
fi
