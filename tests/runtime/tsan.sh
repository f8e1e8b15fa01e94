#!/usr/bin/env bash
# ThreadSanitizer over the runtime (issue 9): the threaded modules' unit tests and a
# `backdrop run` (synthetic source, file sink, 600 frames) with SIGHUP x20 and SIGUSR1 x20 sent
# while it runs, built with -sanitize=thread in its own build path. Passes only with zero reports.
set -u
export PATH=/opt/swift/usr/bin:$PATH
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
build=${TSAN_BUILD_PATH:-.build-tsan}
flags=(-c release -Xswiftc -enable-testing --sanitize=thread --build-path "$build")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
RUNTIME_TMP=$tmp
if ! swift build "${flags[@]}" --build-tests > "$tmp/build.log" 2>&1; then
  if grep -qi "sanitizer.*not supported\|unsupported option.*sanitize" "$tmp/build.log"; then
    echo "SKIP tsan: this toolchain cannot build with -sanitize=thread"; tail -3 "$tmp/build.log"; exit 0
  fi
  echo "FAIL tsan: build failed"; tail -30 "$tmp/build.log"; exit 1
fi
failed=0
filter=${TSAN_FILTER:-"PipelineTests|KernelIOTests|ScanoutTests|ServiceTests|ComposeTests|PhotosTests|BoothTests|BackdropWorkerTests|BackdropSwitchTests"}
TSAN_OPTIONS="halt_on_error=0 allocator_may_return_null=1" swift test "${flags[@]}" --skip-build --filter "$filter" > "$tmp/unit.log" 2>&1
unit_status=$?
unit_reports=$(grep -c "WARNING: ThreadSanitizer" "$tmp/unit.log")
if [ $unit_status = 0 ] && [ "$unit_reports" = 0 ]; then
  echo "PASS tsan unit ($filter): $(grep -Eo 'Test run with [0-9]+ tests?' "$tmp/unit.log" | tail -1), 0 reports"
else
  echo "FAIL tsan unit: exit $unit_status, $unit_reports reports"; grep -A12 "WARNING: ThreadSanitizer" "$tmp/unit.log" | head -60
  grep -E "✘|error" "$tmp/unit.log" | head -10; failed=1
fi

write_config "$tmp/run.conf" file "$tmp/run.y4m" "workers = 2"
TSAN_OPTIONS="halt_on_error=0" "$build/release/backdrop" run --config "$tmp/run.conf" --frames 600 > "$tmp/run.out" 2> "$tmp/run.err" &
pid=$!
if wait_running "$tmp/run.err"; then
  for _ in $(seq 20); do
    kill -HUP $pid 2>/dev/null; sleep 0.05
    kill -USR1 $pid 2>/dev/null; sleep 0.3
  done
fi
wait $pid; run_status=$?
run_reports=$(grep -c "WARNING: ThreadSanitizer" "$tmp/run.err")
reloads=$(grep -c "config reloaded" "$tmp/run.err")
reports_printed=$(grep -c "^frames presented:" "$tmp/run.out")
if [ $run_status = 0 ] && [ "$run_reports" = 0 ] && [ "$reloads" = 20 ] && [ "$reports_printed" -ge 21 ]; then
  echo "PASS tsan run: 600 frames, $reloads reloads, $((reports_printed - 1)) statistics reports on SIGUSR1, 0 reports"
else
  echo "FAIL tsan run: exit $run_status, $run_reports reports, $reloads reloads, $reports_printed statistics printed"
  grep -A14 "WARNING: ThreadSanitizer" "$tmp/run.err" | head -80; failed=1
fi
exit $failed
