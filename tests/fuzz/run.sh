#!/usr/bin/env bash
# tests/fuzz/run.sh BINARY MINIMUM_EXECUTIONS LIBFUZZER_OPTION... : runs every fuzz target once
# (or those FUZZ_TARGETS names) with the options given, over its seeds (tests/fuzz/corpus/T), its kept crash inputs
# (tests/fuzz/regressions/T, replayed first) and the inputs earlier runs found (.build/fuzz/corpus/T).
# Prints executions and executions per second per target; fails on a crash or too few executions.
set -u
binary=$1 minimum=$2; shift 2
cd "$(dirname "$0")/../.."
status=0
for target in ${FUZZ_TARGETS:-config recording image import looks calibration}; do
    work=.build/fuzz/corpus/$target log=.build/fuzz/$target.log
    mkdir -p "$work" tests/fuzz/crashes "tests/fuzz/regressions/$target"
    started=$EPOCHREALTIME
    if ! ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=0 "$binary" "$target" \
            -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 "$@" \
            -artifact_prefix="tests/fuzz/crashes/$target-" \
            "$work" "tests/fuzz/corpus/$target" "tests/fuzz/regressions/$target" > "$log" 2>&1; then
        tail -40 "$log"
        echo "fuzz $target: FAILED; the input is in tests/fuzz/crashes/"
        status=1
        continue
    fi
    executions=$(awk '/stat::number_of_executed_units/{print $2}' "$log")
    # libFuzzer's own average is whole executions per whole second of its run, so a target that
    # finishes within a second reports 0: the rate here is over this script's wall clock.
    rate=$(awk -v n="${executions:-0}" -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", n / (b - a) }')
    echo "fuzz $target: ${executions:-0} executions, ${rate:-0} per second, no crash"
    if [ "${executions:-0}" -lt "$minimum" ]; then echo "fuzz $target: fewer than $minimum executions"; status=1; fi
done
exit $status
