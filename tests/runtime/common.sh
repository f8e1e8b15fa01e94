# Shared by the runtime checks: a synthetic-source config and a way to wait for a started run.
# Usage: source tests/runtime/common.sh; write_config FILE SINK [PATH] [extra [pipeline] lines...]
write_config() {
  local file=$1 sink=$2 path=$3; shift 3
  {
    echo "[camera]"; echo "source = synthetic"; echo "width = 160"; echo "height = 120"
    echo "[output]"; echo "sink = $sink"; [ -n "$path" ] && echo "path = $path"
    echo "width = 160"; echo "height = 120"
    echo "[background]"; echo "directory = ${RUNTIME_TMP:-/tmp}/no-backgrounds"
    echo "[pipeline]"; for line in "$@"; do echo "$line"; done
  } > "$file"
}

# Waits until the run's log says it runs (up to ~30 s).
wait_running() {
  local log=$1
  for _ in $(seq 300); do grep -q "^compute: " "$log" 2>/dev/null && return 0; sleep 0.1; done
  return 1
}
