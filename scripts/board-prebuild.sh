#!/usr/bin/env bash
# The two virtual boards' kernels built in the background while `make test` runs its first stages.
#
#   scripts/board-prebuild.sh start   installs the boards' packages (in the foreground: apt takes one
#                                     caller at a time), then builds x86_64 and arm64 in the background
#   scripts/board-prebuild.sh boost   brings a background build still running up to normal priority
#                                     (a lane is about to boot a board, so it would wait for it)
#   scripts/board-prebuild.sh stop    ends a background build still running (a stage failed first)
#
# Why: on a cold cache the kernels are about 13 minutes of both cores, and the stages before the
# first boot (unit tests, cli checks, crash trials, sanitizer and fuzz runs) leave a core idle for
# long stretches: single-threaded test binaries, links, strace. The build runs at the lowest priority,
# in a session of its own whose scheduling group is also niced (with autogroups, nice alone only
# orders processes within one session), so it takes what the stages leave and slows none of them.
# vboard/build.sh locks each board while building it: the first stage that boots a board waits for
# it there and then finds it built. With a warm cache this is a hash check of a few files.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
state=build/board-prebuild
mkdir -p build

case ${1:-} in
    start)
        bash vboard/deps.sh
        # A leftover from an interrupted run is ended first, so only one lane runs.
        "$0" stop
        setsid bash -c 'echo 19 > /proc/self/autogroup 2>/dev/null || true
                        exec nice -n 19 bash -c "bash vboard/build.sh x86_64 && bash vboard/build.sh arm64"' \
            > "$state.log" 2>&1 < /dev/null &
        echo $! > "$state.pid"
        echo "boards: building both kernels in the background (log: $state.log)"
        ;;
    boost)
        # At nice 19 the build takes only what the other lane leaves: a cold run's host lane waited
        # 16 minutes for the x86_64 kernel while the arm64 lane kept both cores busy. Once a lane
        # needs the board, waiting on it is the lane's own work, at the lane's priority.
        [ -f "$state.pid" ] || exit 0
        leader=$(cat "$state.pid")
        [ -d "/proc/$leader" ] || exit 0
        echo 0 > "/proc/$leader/autogroup" 2>/dev/null || true
        # The group's running compilers, and make, whose later children inherit its nice value.
        renice -n 0 -g "$leader" > /dev/null 2>&1 || true
        echo "boards: the background kernel build now runs at normal priority (a lane needs a board)"
        ;;
    stop)
        [ -f "$state.pid" ] || exit 0
        leader=$(cat "$state.pid")
        rm -f "$state.pid"
        # setsid made the builder a process group of its own: end the whole group, make and gcc included.
        kill -TERM -- "-$leader" 2>/dev/null || true
        ;;
    *)
        sed -n '2,8p' "$0" >&2
        exit 2
        ;;
esac
