#!/usr/bin/env bash
# Thread placement (issue 9): with io_cpu = 0 and worker_cpus = 1 the I/O thread (the process's
# main thread) runs on CPU 0 and every worker on CPU 1; with worker_cpus = all the workers keep
# every CPU the process started with, whatever io_cpu pinned. Read from /proc/PID/task/*/status.
set -u
backdrop=${1:-.build/release/backdrop}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
if [ "$(nproc)" -lt 2 ]; then echo "SKIP placement: needs 2 CPUs (have $(nproc))"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
RUNTIME_TMP=$tmp
initial=$(awk '/^Cpus_allowed_list/ {print $2}' /proc/self/status)
failed=0

check() {  # label, worker_cpus value, expected worker list
  local label=$1 workers=$2 expect_worker=$3
  write_config "$tmp/$label.conf" null "" "workers = 2" "io_cpu = 0" "worker_cpus = $workers"
  "$backdrop" run --config "$tmp/$label.conf" > "$tmp/$label.log" 2>&1 &
  local pid=$!
  if ! wait_running "$tmp/$label.log"; then echo "FAIL placement $label: run did not start"; cat "$tmp/$label.log"; kill $pid; failed=1; return; fi
  local io worker_lists="" count=0 bad=0
  io=$(awk '/^Cpus_allowed_list/ {print $2}' /proc/$pid/task/$pid/status)
  for task in /proc/$pid/task/*; do
    local tid=${task##*/}
    [ "$tid" = "$pid" ] && continue
    local list; list=$(awk '/^Cpus_allowed_list/ {print $2}' "$task/status")
    worker_lists="$worker_lists $tid:$list"; count=$((count + 1))
    [ "$list" = "$expect_worker" ] || bad=1
  done
  kill -TERM $pid; wait $pid
  if [ "$io" = 0 ] && [ $bad = 0 ] && [ $count -ge 2 ]; then
    echo "PASS placement $label: I/O thread on $io; $count workers on $expect_worker"
  else
    echo "FAIL placement $label: I/O thread on $io (want 0); workers$worker_lists (want $expect_worker)"; failed=1
  fi
}

check pinned 1 1
check all all "$initial"
exit $failed
