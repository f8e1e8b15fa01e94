#!/usr/bin/env bash
# The launcher's promises, on the x86_64 board: COMMAND's status and output come back; a command
# that outlives --timeout, a board that does not boot and a guest kernel that stops are each
# reported as a failure (124 / 125) with the guest console, never a hang.
#   tests/vboard/launcher.sh [--arch x86_64|arm64]
set -uo pipefail
arch=x86_64
[ "${1:-}" != --arch ] || arch=${2:?--arch needs x86_64 or arm64}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run=$here/../../vboard/run
out=$(mktemp -d /tmp/vboard-launcher-XXXXXX)
trap 'rm -rf "$out"' EXIT
passed=0 failed=0

# expect NAME WANT_STATUS PATTERN... -- LAUNCHER_ARGS: every PATTERN must appear in the output.
expect() {
  local name=$1 want=$2 patterns=() t0 t1 rc
  shift 2
  while [ "$1" != -- ]; do patterns+=("$1"); shift; done
  shift
  t0=$(date +%s.%N)
  "$run" --arch "$arch" --quiet-build "$@" > "$out/log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  local took missing=
  took=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  for p in "${patterns[@]}"; do grep -qE -- "$p" "$out/log" || missing+=" '$p'"; done
  if [ "$rc" = "$want" ] && [ -z "$missing" ]; then
    echo "PASS $name (status $rc, reported after $took s)"
    passed=$((passed + 1))
  else
    echo "FAIL $name: status $rc (want $want)${missing:+, output lacks$missing}"
    sed 's/^/    /' "$out/log" | tail -n 40
    failed=$((failed + 1))
  fi
}

expect "status and output pass through" 7 '^hello from the board$' -- \
  -- sh -c 'echo hello from the board; exit 7'
expect "a command past --timeout ends with 124 and the console" 124 'did not finish within 5 s' \
  'guest console' 'vboard-init: ready' -- --timeout 5 -- sleep 600
# Without the initramfs's init the kernel falls back to a root disk that never comes (rootwait):
# a boot that hangs.
expect "a boot that hangs ends with 125 and the console" 125 'did not boot within 20 s' \
  'guest console' 'Waiting for root device /dev/vdz' -- --boot-timeout 20 --cmdline 'rdinit=/no/such/init root=/dev/vdz rootwait' -- true
# With no root disk to fall back to, a missing init panics the kernel (panic=-1, -no-reboot): QEMU exits.
expect "a boot that fails ends with 125 and the console" 125 'QEMU exited' 'Kernel panic' -- \
  --cmdline rdinit=/no/such/init -- true
# Pausing every vCPU through QMP freezes the guest as a kernel deadlock would: no more heartbeats.
expect "a guest kernel that stops ends with 124, the vCPUs and the console" 124 \
  'guest kernel stopped: no heartbeat for 10 s' 'vCPU 0 at [0-9a-f]+ [a-z_]' 'vCPU 1 at' \
  'called from [a-z_]+\+0x' 'guest console' -- \
  --stall-timeout 10 -- sh -c 'vboard-qmp "{\"execute\":\"stop\"}"; sleep 600'

echo "launcher[$arch]: $passed passed, $failed failed"
[ "$failed" = 0 ]
