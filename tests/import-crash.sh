#!/usr/bin/env bash
# Crash trials for `backdrop import`: the import is killed (SIGKILL, injected by strace) just
# before its Nth call of each system call that changes the data folder or makes it durable
# (openat, mkdirat, linkat, symlinkat, renameat, unlinkat, fsync), for every N the import makes,
# so the points cover each phase: pruning, staging every file, sealing, both link switches and the
# final prune. After each kill the data folder must hold a whole generation, old or new:
# `current` names one of the two, its config passes `check-config` with its backdrops, and its
# config and backdrop set are exactly the old ones or exactly the new ones, never a mix. Then a
# second import, not killed, must finish the job.
#
# This is a process crash, not a power cut: the page cache survives the kill, so it proves the
# order of the steps (nothing visible before it is whole), not the fsync placement. The power cut
# (QEMU killed on the virtual board, the disk checked afterwards) is not built yet.
#
#   tests/import-crash.sh BACKDROP [MAX_TRIALS]    (MAX_TRIALS 0 or absent: every point)
set -u
backdrop=$(realpath "$1")
max_trials=${2:-0}
command -v strace >/dev/null || { echo "import-crash: strace is needed (apt-get install strace)"; exit 1; }
work=$(mktemp -d /tmp/backdrop-crash.XXXXXX)
trap 'rm -rf "$work"' EXIT

# The box before the trial: generation 1 from stick A (20 backdrops, far_mm 2500), generation 2
# from A with a new config (its backdrops hard links to generation 1's). The trial imports stick B:
# 10 of A's backdrops (linked) and 10 others, far_mm 3000, so it writes, links, switches and
# prunes generation 1.
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

"$backdrop" import "$work/A" --data "$work/base" --config /nonexistent >/dev/null || { echo "import-crash: first import failed"; exit 1; }
printf '[matte]\nfar_mm = 2600\n' > "$work/A/backdrop/backdrop.conf"
"$backdrop" import "$work/A" --data "$work/base" >/dev/null || { echo "import-crash: second import failed"; exit 1; }
manifest "$work/A/backdrop" > "$work/A.manifest"

# How often the import from A to B makes each call.
cp -a "$work/base" "$work/count"
strace -f -qq -c -o "$work/counts" -e trace=openat,mkdirat,linkat,symlinkat,renameat,unlinkat,fsync \
    "$backdrop" import "$work/B" --data "$work/count" >/dev/null
declare -A calls
while read -r _ _ _ count _ name; do
    case $name in openat|mkdirat|linkat|symlinkat|renameat|unlinkat|fsync) calls[$name]=$count ;; esac
done < <(grep -E ' (openat|mkdirat|linkat|symlinkat|renameat|unlinkat|fsync)$' "$work/counts" | awk '{ if (NF == 6) print $1, $2, $3, $4, $5, $6; else print $1, $2, $3, $4, 0, $5 }')

# Every point, or for a short run about MAX_TRIALS/7 points per call spread evenly from its first
# to its last use (so the staging, sealing, switching and pruning phases are all reached, not
# only the first calls of start-up).
points=()
for name in openat mkdirat linkat symlinkat renameat unlinkat fsync; do
    total=${calls[$name]:-0}
    [ "$total" -gt 0 ] || continue
    if [ "$max_trials" -gt 0 ]; then
        quota=$(( (max_trials + 6) / 7 )); [ "$quota" -gt "$total" ] && quota=$total
        for k in $(seq 0 $((quota - 1))); do
            if [ "$quota" -eq 1 ]; then points+=("$name:$total"); else points+=("$name:$(( 1 + k * (total - 1) / (quota - 1) ))"); fi
        done
    else
        for n in $(seq 1 "$total"); do points+=("$name:$n"); done
    fi
done
step=1

trials=0 bad=0 old=0 new=0
declare -A at
for ((index = 0; index < ${#points[@]}; index += step)); do
    name=${points[$index]%%:*} n=${points[$index]##*:}
    data="$work/trial"
    rm -rf "$data"; cp -a "$work/base" "$data"
    # In a subshell with stderr closed, so bash's "Killed" notice does not fill the output.
    ( strace -f -qq -o /dev/null -e trace="$name" -e inject="$name":signal=KILL:when="$n" \
        "$backdrop" import "$work/B" --data "$data" >/dev/null 2>&1; true ) 2>/dev/null
    trials=$((trials + 1))
    verdict=""
    current=$(readlink "$data/current")
    case $current in
        generations/000002) want="$work/A.manifest" ;;
        generations/000003) want="$work/B.manifest" ;;
        *) verdict="current is '$current'" ;;
    esac
    if [ -z "$verdict" ]; then
        if ! "$backdrop" check-config "$data/current/backdrop.conf" --backgrounds "$data/current/backgrounds" >/dev/null 2>&1; then
            verdict="check-config fails on current"
        elif ! diff -q <(manifest "$data/current") "$want" >/dev/null; then
            verdict="current ($current) is a mix"
        fi
    fi
    if [ -z "$verdict" ]; then
        "$backdrop" import "$work/B" --data "$data" >/dev/null 2>&1
        if ! diff -q <(manifest "$data/current") "$work/B.manifest" >/dev/null; then
            verdict="the import after the crash did not finish the job"
        fi
    fi
    if [ -n "$verdict" ]; then
        bad=$((bad + 1)); echo "FAIL killed before $name #$n: $verdict"
    elif [ "$current" = generations/000002 ]; then
        old=$((old + 1))
    else
        new=$((new + 1))
    fi
    at[$name]=$(( ${at[$name]:-0} + 1 ))
done
summary=""
for name in openat mkdirat linkat symlinkat renameat unlinkat fsync; do summary+=" $name ${at[$name]:-0} of ${calls[$name]:-0};"; done
echo "import-crash: $trials trials (killed before:$summary), $bad bad; after the kill current was the old generation $old times, the new one $new times"
[ "$bad" -eq 0 ] && [ "$trials" -gt 0 ]
