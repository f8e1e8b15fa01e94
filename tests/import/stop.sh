#!/usr/bin/env bash
# SIGTERM in the middle of `backdrop import`, as systemd sends it when the stick is unplugged
# while backdrop-import@.service runs (BindsTo its device: the unit is stopped, every process in
# it gets SIGTERM). The signal is injected by strace at a chosen call, so the point is exact:
#   1. at the open of the stick's third new backdrop: the import stops there, exit 1, the outcome
#      file says so (status 1, "IMPORT STOPPED - OLD SET KEPT"), the previous generation stays
#      current and whole, no staging folder is left; the same stick again then comes in whole;
#   2. at the rename of `.current.switch` to `current` (the generation is sealed): the import
#      finishes, exit 0, the outcome file has status 0 and the new generation is current;
#   3. the unit's own ExecStart line (taken from the unit file, paths pointed at this test's
#      folders, systemctl replaced by a recorder) with SIGTERM to its shell as well as to the
#      import: the shell still sends the booth its SIGHUP after the import, and exits 1.
#
#   tests/import/stop.sh BACKDROP
set -u
backdrop=$(realpath "$1")
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
unit=$repo/image-build/rootfs/etc/systemd/system/backdrop-import@.service
command -v strace >/dev/null || { echo "import-stop: strace is needed (apt-get install strace)"; exit 1; }
work=$(mktemp -d /tmp/backdrop-stop.XXXXXX)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL import-stop: $*"; failures=$((failures + 1)); }

"$backdrop" demo --frames 12 --size 320x180 --out "$work/frames" >/dev/null 2>&1 || { echo "import-stop: demo failed"; exit 1; }
frames=("$work"/frames/*.png)
[ "${#frames[@]}" -ge 12 ] || { echo "import-stop: demo wrote ${#frames[@]} frames, wanted 12"; exit 1; }
mkdir -p "$work/A/backdrop/backgrounds" "$work/B/backdrop/backgrounds"
for i in 0 1; do cp "${frames[$i]}" "$work/A/backdrop/backgrounds/a-$i.png"; done
for i in $(seq 2 11); do cp "${frames[$i]}" "$work/B/backdrop/backgrounds/b-$i.png"; done
printf '[matte]\nfar_mm = 2500\n' > "$work/A/backdrop/backdrop.conf"
printf '[matte]\nfar_mm = 3000\n' > "$work/B/backdrop/backdrop.conf"
manifest() { (cd "$1" && sha256sum backgrounds/* 2>/dev/null | sort; grep '^far_mm' backdrop.conf); }
manifest "$work/A/backdrop" > "$work/A.manifest"
manifest "$work/B/backdrop" > "$work/B.manifest"
mkdir "$work/base"
"$backdrop" import "$work/A" --data "$work/base/data" --config /nonexistent >/dev/null || { echo "import-stop: first import failed"; exit 1; }

# Which openat opens the stick's b-4.png (the third new backdrop) and which renameat switches
# current, counted among the calls of that name in an import that is not stopped.
cp -a "$work/base" "$work/count"
strace -f -qq -o "$work/trace" -e trace=openat,renameat "$backdrop" import "$work/B" --data "$work/count/data" >/dev/null
open_b4=$(grep -E 'openat\(' "$work/trace" | grep -n '"b-4.png", O_RDONLY' | head -1 | cut -d: -f1)
rename_current=$(grep -E 'renameat\(' "$work/trace" | grep -n '"\.current\.switch", [0-9]*, "current"' | head -1 | cut -d: -f1)
[ -n "$open_b4" ] && [ -n "$rename_current" ] || { echo "import-stop: the traced import did not open b-4.png or switch current"; exit 1; }

outcome_field() { sed -n "s/^$1 //p" "$2/import-outcome"; }
stopped_import() { # DATA CALL N: the import with SIGTERM delivered at the Nth CALL; sets rc, out
    out=$(strace -f -qq -o /dev/null -e trace="$2" -e inject="$2":signal=TERM:when="$3" \
        "$backdrop" import "$work/B" --data "$1" 2>&1); rc=$?
}

# 1. SIGTERM while backdrops are read.
rm -rf "$work/t1"; cp -a "$work/base" "$work/t1"; d=$work/t1/data
stopped_import "$d" openat "$open_b4"
[ "$rc" = 1 ] || fail "stopped mid-read: exit $rc, wanted 1: $out"
grep -q "stopped by SIGTERM" <<<"$out" || fail "stopped mid-read: the output does not say it was stopped: $out"
[ "$(outcome_field status "$d")" = 1 ] || fail "stopped mid-read: outcome status '$(outcome_field status "$d")', wanted 1"
[ "$(outcome_field text "$d")" = "IMPORT STOPPED - OLD SET KEPT" ] || fail "stopped mid-read: outcome text '$(outcome_field text "$d")'"
[ "$(readlink "$d/current")" = generations/000001 ] || fail "stopped mid-read: current is '$(readlink "$d/current")'"
diff -q <(manifest "$d/current") "$work/A.manifest" >/dev/null || fail "stopped mid-read: the current generation changed"
[ "$(ls -A "$d/generations")" = 000001 ] || fail "stopped mid-read: generations/ holds $(ls -A "$d/generations" | tr '\n' ' ')"
"$backdrop" import "$work/B" --data "$d" >/dev/null 2>&1 || fail "the import after the stop failed"
diff -q <(manifest "$d/current") "$work/B.manifest" >/dev/null || fail "the import after the stop did not bring stick B"

# 2. SIGTERM at the switch: too late to abandon, the sealed generation comes in.
rm -rf "$work/t2"; cp -a "$work/base" "$work/t2"; d=$work/t2/data
stopped_import "$d" renameat "$rename_current"
[ "$rc" = 0 ] || fail "stopped at the switch: exit $rc, wanted 0: $out"
[ "$(outcome_field status "$d")" = 0 ] || fail "stopped at the switch: outcome status '$(outcome_field status "$d")', wanted 0"
[ "$(readlink "$d/current")" = generations/000002 ] || fail "stopped at the switch: current is '$(readlink "$d/current")'"
diff -q <(manifest "$d/current") "$work/B.manifest" >/dev/null || fail "stopped at the switch: the new generation is not stick B"

# 3. The unit's ExecStart with SIGTERM to its shell too (systemd signals the whole unit).
rm -rf "$work/t3"; cp -a "$work/base" "$work/t3"; d=$work/t3/data
line=$(grep -m1 '^ExecStart=/bin/sh -c ' "$unit") || { echo "import-stop: no ExecStart=/bin/sh -c line in $unit"; exit 1; }
script=${line#ExecStart=/bin/sh -c \'}; script=${script%\'}
cat > "$work/systemctl" <<EOF
#!/bin/sh
echo "\$*" >> "$work/systemctl.calls"
EOF
cat > "$work/backdrop-stopped" <<EOF
#!/bin/sh
kill -TERM "\$PPID"
exec strace -f -qq -o /dev/null -e trace=openat -e inject=openat:signal=TERM:when=$open_b4 "$backdrop" "\$@"
EOF
chmod +x "$work/systemctl" "$work/backdrop-stopped"
script=${script//\$\$/\$}
script=${script//\/usr\/bin\/backdrop/$work/backdrop-stopped}
script=${script//\/run\/backdrop-stick\/%i\/root/$work/B}
script=${script//\/var\/lib\/backdrop/$d}
script=${script//\/bin\/systemctl/$work/systemctl}
sh -c "$script" >/dev/null 2>&1; rc=$?
[ "$rc" = 1 ] || fail "the unit's ExecStart: exit $rc, wanted 1 (the import's)"
[ "$(cat "$work/systemctl.calls" 2>/dev/null)" = "kill --kill-whom=main --signal=HUP backdrop.service" ] ||
    fail "the unit's ExecStart did not tell the booth after the stop (systemctl calls: '$(cat "$work/systemctl.calls" 2>/dev/null)')"
[ "$(outcome_field status "$d")" = 1 ] || fail "the unit's ExecStart: outcome status '$(outcome_field status "$d")', wanted 1"
[ "$(readlink "$d/current")" = generations/000001 ] || fail "the unit's ExecStart: current is '$(readlink "$d/current")'"

[ "$failures" = 0 ] && echo "import-stop: SIGTERM mid-read (exit 1, outcome 'IMPORT STOPPED - OLD SET KEPT', previous generation current), at the switch (exit 0, new generation), through the unit's ExecStart (booth told): passed"
[ "$failures" = 0 ]
