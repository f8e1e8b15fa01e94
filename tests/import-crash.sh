#!/usr/bin/env bash
# Crash trials for `backdrop import`: the import is killed (SIGKILL, injected by strace) just
# before its Nth call of each system call that changes the data folder or makes it durable
# (openat, mkdirat, linkat, symlinkat, renameat, unlinkat, fsync, write), for every N the import
# makes, in two scenarios:
#   update  the box holds generations 1 and 2 (2 current); the stick brings a new config and half
#           new backdrops, so the import writes, links, seals, switches `previous` then `current`,
#           and prunes generation 1;
#   first   an empty data folder initialised by the first import (no `current` before).
# So the points cover each phase: pruning leftovers, reading the stick, staging every file,
# sealing, both link switches, the final prune and the outcome file.
#
# After each kill the data folder must hold a whole generation, old or new: `current` names one of
# the two (or, in `first`, is absent or the new one), its config passes `check-config` with its
# backdrops, its config and backdrop set are exactly the old ones or exactly the new ones, never a
# mix, and `previous`, when present, names a whole generation too. Then a second import, not
# killed, must finish the job from whatever the crash left (staging folders, `.current.switch`).
#
# The switch: the points from the `symlinkat` of `.previous.switch` to the call after the fsync
# that follows the rename of `.current.switch` to `current` are the switch window; every one of
# them runs in every mode, and there the outcome is checked exactly: killed before that rename,
# `current` must be the old generation; killed after it, the new one.
#
# This is a process crash, not a power cut: the page cache survives the kill, so it proves the
# order of the steps (nothing visible before it is whole), not the fsync placement. The power cut
# (QEMU killed on the virtual board, the data disk checked afterwards) is tests/image/powercut.py.
#
#   tests/import-crash.sh BACKDROP [MAX_TRIALS]
# MAX_TRIALS 0 or absent: every point of both scenarios. Otherwise the switch window of `update`
# plus MAX_TRIALS minus those points spread evenly over the rest of `update` (make test's version).
set -u
backdrop=$(realpath "$1")
max_trials=${2:-0}
command -v strace >/dev/null || { echo "import-crash: strace is needed (apt-get install strace)"; exit 1; }
work=$(mktemp -d /tmp/backdrop-crash.XXXXXX)
trap 'rm -rf "$work"' EXIT
calls_traced=openat,mkdirat,linkat,symlinkat,renameat,unlinkat,fsync,write
SECONDS=0

# The box before the trial: generation 1 from stick A (20 backdrops, far_mm 2500), generation 2
# from A with a new config (its backdrops hard links to generation 1's). The trial imports stick B:
# 10 of A's backdrops (linked) and 10 others, far_mm 3000.
"$backdrop" demo --frames 30 --size 320x180 --out "$work/frames" >/dev/null 2>&1 || { echo "import-crash: demo failed"; exit 1; }
frames=("$work"/frames/*.png)
[ "${#frames[@]}" -ge 30 ] || { echo "import-crash: demo wrote ${#frames[@]} frames, wanted 30"; exit 1; }
for stick in A B; do mkdir -p "$work/$stick/backdrop/backgrounds"; done
for i in $(seq 0 19); do cp "${frames[$i]}" "$work/A/backdrop/backgrounds/a-$i.png"; done
for i in $(seq 0 9); do cp "${frames[$i]}" "$work/B/backdrop/backgrounds/a-$i.png"; done
for i in $(seq 20 29); do cp "${frames[$i]}" "$work/B/backdrop/backgrounds/b-$i.png"; done
printf '[matte]\nfar_mm = 2500\n' > "$work/A/backdrop/backdrop.conf"
printf '[matte]\nfar_mm = 3000\n' > "$work/B/backdrop/backdrop.conf"

# A generation's content: its backdrops' hashes and its config's far_mm line (the stored config
# is the stick's text plus the box's own backdrop-folder lines).
manifest() { (cd "$1" && sha256sum backgrounds/* 2>/dev/null | sort; grep '^far_mm' backdrop.conf); }
manifest "$work/B/backdrop" > "$work/B.manifest"

mkdir "$work/base-update" "$work/base-first"
"$backdrop" import "$work/A" --data "$work/base-update/data" --config /nonexistent >/dev/null || { echo "import-crash: first import failed"; exit 1; }
printf '[matte]\nfar_mm = 2600\n' > "$work/A/backdrop/backdrop.conf"
"$backdrop" import "$work/A" --data "$work/base-update/data" >/dev/null || { echo "import-crash: second import failed"; exit 1; }
manifest "$work/A/backdrop" > "$work/A.manifest"

# One traced import per scenario, not killed: how often it makes each call, and which call of each
# kind is which (for the switch window). Lines look like `PID name(args) = result`.
declare -A total window_from window_to rename_current
for scenario in update first; do
    cp -a "$work/base-$scenario" "$work/count"
    strace -f -qq -o "$work/trace-$scenario" -e trace="$calls_traced" \
        "$backdrop" import "$work/B" --data "$work/count/data" --config /nonexistent >/dev/null
    rm -rf "$work/count"
    # Each traced call as "name index" (its number among calls of that name), in order.
    awk '{ sub(/^[0-9]+ +/, ""); if ($0 ~ /resumed>/) next; name = $0; sub(/\(.*/, "", name); n[name]++; tag = "-"
           if (name == "symlinkat" && $0 ~ /"\.previous\.switch"/) tag = "previous-switch"
           if (name == "renameat" && $0 ~ /"\.current\.switch", [0-9]+, "current"/) tag = "current-rename"
           print name, n[name], tag }' \
        "$work/trace-$scenario" > "$work/calls-$scenario"
    for name in ${calls_traced//,/ }; do
        total[$scenario:$name]=$(awk -v name="$name" '$1 == name' "$work/calls-$scenario" | wc -l)
    done
    # The window: from the first symlinkat of .previous.switch (or of .current.switch when there is
    # no previous) to the call after the fsync after the rename to current; as line numbers.
    rename_line=$(awk '$3 == "current-rename" { print NR; exit }' "$work/calls-$scenario")
    [ -n "$rename_line" ] || { echo "import-crash: the $scenario import never renamed .current.switch to current"; exit 1; }
    from_line=$(awk -v r="$rename_line" '$3 == "previous-switch" && NR < r { print NR; exit }' "$work/calls-$scenario")
    [ -n "$from_line" ] || from_line=$(awk -v r="$rename_line" '$1 == "symlinkat" && NR < r { l = NR } END { print l }' "$work/calls-$scenario")
    window_from[$scenario]=$from_line
    window_to[$scenario]=$((rename_line + 2))
    rename_current[$scenario]=$rename_line
done

# The points, as "scenario line name index": a line number in the scenario's call list.
points=()
add_point() { points+=("$1 $2 $(sed -n "${2}p" "$work/calls-$1" | cut -d' ' -f1,2)"); }
if [ "$max_trials" -gt 0 ]; then
    lines=$(wc -l < "$work/calls-update")
    for ((line = window_from[update]; line <= window_to[update]; line++)); do add_point update "$line"; done
    rest=$((max_trials - ${#points[@]}))
    # The rest evenly over the calls outside the window, first to last.
    outside=()
    for ((line = 1; line <= lines; line++)); do
        if [ "$line" -lt "${window_from[update]}" ] || [ "$line" -gt "${window_to[update]}" ]; then outside+=("$line"); fi
    done
    for ((k = 0; k < rest; k++)); do
        add_point update "${outside[$(( k * (${#outside[@]} - 1) / (rest > 1 ? rest - 1 : 1) ))]}"
    done
else
    for scenario in update first; do
        lines=$(wc -l < "$work/calls-$scenario")
        for ((line = 1; line <= lines; line++)); do add_point "$scenario" "$line"; done
    done
fi

trials=0 bad=0 switch_trials=0
declare -A old new at
for point in "${points[@]}"; do
    read -r scenario line name n <<<"$point"
    data="$work/trial/data"
    rm -rf "$work/trial"; cp -a "$work/base-$scenario" "$work/trial"
    # In a subshell with stderr closed, so bash's "Killed" notice does not fill the output.
    ( strace -f -qq -o /dev/null -e trace="$name" -e inject="$name":signal=KILL:when="$n" \
        "$backdrop" import "$work/B" --data "$data" --config /nonexistent >/dev/null 2>&1; true ) 2>/dev/null
    trials=$((trials + 1))
    at[$scenario:$name]=$(( ${at[$scenario:$name]:-0} + 1 ))
    verdict="" side=""
    current=$(readlink "$data/current")
    if [ "$scenario" = update ]; then
        case $current in
            generations/000002) side=old want="$work/A.manifest" ;;
            generations/000003) side=new want="$work/B.manifest" ;;
            *) verdict="current is '$current'" ;;
        esac
    else
        case $current in
            "") side=old; [ -e "$data/current" ] && verdict="current exists but is not a link" ;;
            generations/000001) side=new want="$work/B.manifest" ;;
            *) verdict="current is '$current'" ;;
        esac
    fi
    if [ -z "$verdict" ] && [ -n "$current" ]; then
        if ! "$backdrop" check-config "$data/current/backdrop.conf" --backgrounds "$data/current/backgrounds" >/dev/null 2>&1; then
            verdict="check-config fails on current"
        elif ! diff -q <(manifest "$data/current") "$want" >/dev/null; then
            verdict="current ($current) is a mix"
        fi
    fi
    if [ -z "$verdict" ] && [ -L "$data/previous" ]; then
        if ! "$backdrop" check-config "$data/previous/backdrop.conf" --backgrounds "$data/previous/backgrounds" >/dev/null 2>&1; then
            verdict="previous ($(readlink "$data/previous")) is not a whole generation"
        fi
    fi
    in_window=0
    if [ "$line" -ge "${window_from[$scenario]}" ] && [ "$line" -le "${window_to[$scenario]}" ]; then
        in_window=1; switch_trials=$((switch_trials + 1))
        # Killed before the call on `line`: up to the rename itself the old generation is current.
        if [ -z "$verdict" ]; then
            if [ "$line" -le "${rename_current[$scenario]}" ] && [ "$side" != old ]; then
                verdict="killed before the rename to current, yet current is the new generation"
            elif [ "$line" -gt "${rename_current[$scenario]}" ] && [ "$side" != new ]; then
                verdict="killed after the rename to current, yet current is not the new generation"
            fi
        fi
    fi
    if [ -z "$verdict" ]; then
        "$backdrop" import "$work/B" --data "$data" --config /nonexistent >/dev/null 2>&1
        if ! diff -q <(manifest "$data/current") "$work/B.manifest" >/dev/null; then
            verdict="the import after the crash did not finish the job"
        elif [ -n "$(find "$data/generations" -maxdepth 1 -name '.staging-*')" ]; then
            verdict="the import after the crash left a staging folder"
        fi
    fi
    if [ -n "$verdict" ]; then
        bad=$((bad + 1)); echo "FAIL $scenario, killed before $name #$n$([ $in_window = 1 ] && echo ' (switch window)'): $verdict"
    elif [ "$side" = old ]; then
        old[$scenario]=$(( ${old[$scenario]:-0} + 1 ))
    else
        new[$scenario]=$(( ${new[$scenario]:-0} + 1 ))
    fi
done
for scenario in update first; do
    [ -n "${old[$scenario]:-}${new[$scenario]:-}" ] || continue
    summary=""
    for name in ${calls_traced//,/ }; do summary+=" $name ${at[$scenario:$name]:-0}/${total[$scenario:$name]:-0}"; done
    echo "import-crash: $scenario: killed before (trials/calls):$summary; current afterwards old ${old[$scenario]:-0}, new ${new[$scenario]:-0}"
done
echo "import-crash: $trials trials ($switch_trials in the switch window), $bad bad, ${SECONDS} s"
[ "$bad" -eq 0 ] && [ "$trials" -gt 0 ]
