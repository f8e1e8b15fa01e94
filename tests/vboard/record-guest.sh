#!/bin/sh
# Guest half of record.sh (runs inside the virtual board): two vivid instances give `auto` a
# colour and a Z16 depth node; `backdrop record` writes FRAMES frames from them; the recording
# comes back on stdout as a base64 tar between @@RECORDING and @@END, the exit status after it.
#   record-guest.sh BACKDROP_BINARY FRAMES
binary=$1
frames=$2
. "$(dirname "$0")/board-camera.sh"
work=/tmp/record-test
rm -rf "$work"
mkdir -p "$work"
modprobe -r vivid 2>/dev/null
modprobe vivid n_devs=2 node_types=0x1,0x1 || { echo "record-guest: cannot load vivid"; exit 1; }
cat > "$work/record.conf" <<CONF
$BOARD_CAMERA_CONFIG
CONF
timeout 200 "$binary" record "$work/out" --frames "$frames" --config "$work/record.conf" > "$work/record.log" 2>&1
status=$?
sed 's/^/record-guest: /' "$work/record.log"
echo "@@RECORDING"
if [ -d "$work/out" ]; then (cd "$work/out" && tar cf - .) | base64; fi
echo "@@END"
echo "record-guest: record exit $status"
exit $status
