#!/usr/bin/env bash
# The I/O thread blocks only in epoll_wait (issue 9): a 150-frame run with the synthetic source
# and the null sink under strace; the main thread (the I/O thread) may not call any other
# sleeping or polling system call. Workers may (they wait on their own semaphores).
set -u
backdrop=${1:-.build/release/backdrop}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
if ! command -v strace > /dev/null; then echo "SKIP io-blocking: strace not installed (apt-get install strace)"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
RUNTIME_TMP=$tmp
write_config "$tmp/run.conf" null "" "workers = 2"
calls=nanosleep,clock_nanosleep,poll,ppoll,select,pselect6,epoll_wait,epoll_pwait,epoll_pwait2
strace -f -qq -e trace=$calls -o "$tmp/trace" "$backdrop" run --config "$tmp/run.conf" --frames 150 > "$tmp/out" 2>&1 &
tracer=$!
wait $tracer || { echo "FAIL io-blocking: run failed"; cat "$tmp/out"; exit 1; }
# The first line of the trace with a pid prefix names the main thread (strace starts it first).
main=$(awk 'NR==1 {print $1}' "$tmp/trace")
waits=$(awk -v m="$main" '$1 == m && $2 ~ /^epoll_wait\(/' "$tmp/trace" | wc -l)
others=$(awk -v m="$main" '$1 == m && $2 !~ /^epoll_wait\(/ && $2 !~ /^<\.\.\./' "$tmp/trace")
presented=$(grep -o "frames presented: [0-9]*" "$tmp/out" | grep -o "[0-9]*$")
if [ -z "$others" ] && [ "$waits" -gt 0 ] && [ "${presented:-0}" -ge 140 ]; then
  echo "PASS io-blocking: the I/O thread slept $waits times, always in epoll_wait ($presented frames)"
else
  echo "FAIL io-blocking: epoll_wait $waits, frames ${presented:-none}; other sleeping calls on the I/O thread:"
  echo "$others" | sort | cut -c1-120 | uniq -c | head -20
  exit 1
fi
