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
# and in the middle of `backdrop export-photos` (four photos of the box onto a stick's
# backdrop/photos/), the stick and the export record then checked:
#   4. at the create of the third photo's temporary on the stick: that photo is dropped, exit 1,
#      the output says how many were copied; the stick holds the first two whole and no
#      temporary, the record names those two, the box's photos are unchanged; the next export
#      copies the other two and finds none already there (none was copied unrecorded);
#   5. at the rename of the third photo's temporary (its copy is whole): the record names three;
#   6. the unit's photo ExecStart line (mount and sync replaced by recorders) with SIGTERM to its
#      shell as well: the shell still syncs the stick, remounts it read-only, then tells the booth
#      (SIGHUP, the export's outcome "PHOTOS STOPPED: 2 COPIED, 2 NEXT TIME" left for it), and
#      exits 1.
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

# The photo export: four photos of the box, a stick that asks for them.
mkdir -p "$work/pbase/data/photos" "$work/pbase/stick/backdrop/photos"
for i in 1 2 3 4; do head -c $((i * 3000)) /dev/urandom > "$work/pbase/data/photos/p$i.jpg"; done
(cd "$work/pbase/data/photos" && sha256sum p*.jpg) > "$work/photos.sums"
# Which openat creates p3.jpg's temporary on the stick and which renameat gives it its name,
# counted in an export that is not stopped.
cp -a "$work/pbase" "$work/pcount"
strace -f -qq -o "$work/ptrace" -e trace=openat,renameat "$backdrop" export-photos "$work/pcount/stick" --data "$work/pcount/data" >/dev/null ||
    { echo "import-stop: the traced export failed"; exit 1; }
create_p3=$(grep -E 'openat\(' "$work/ptrace" | grep -n '"\.p3\.jpg\.partial", O_WRONLY' | head -1 | cut -d: -f1)
rename_p3=$(grep -E 'renameat\(' "$work/ptrace" | grep -n '"\.p3\.jpg\.partial", [0-9]*, "p3\.jpg"' | head -1 | cut -d: -f1)
[ -n "$create_p3" ] && [ -n "$rename_p3" ] || { echo "import-stop: the traced export did not create and rename p3.jpg's temporary"; exit 1; }

stopped_export() { # DIR CALL N: the export of DIR/stick with SIGTERM at the Nth CALL; sets rc, out
    out=$(strace -f -qq -o /dev/null -e trace="$2" -e inject="$2":signal=TERM:when="$3" \
        "$backdrop" export-photos "$1/stick" --data "$1/data" 2>&1); rc=$?
}
check_export() { # CASE DIR N: the stick holds p1..pN whole and nothing else, the record names
    # exactly those, the box's photos are all there, unchanged.
    local want="" i
    for i in $(seq 1 "$3"); do want+="p$i.jpg "; done
    local on_stick; on_stick=$(ls -A "$2/stick/backdrop/photos" | tr '\n' ' ')
    [ "$on_stick" = "$want" ] || fail "$1: the stick's photos/ holds '$on_stick', wanted '$want'"
    for i in $(seq 1 "$3"); do
        cmp -s "$2/stick/backdrop/photos/p$i.jpg" "$work/pbase/data/photos/p$i.jpg" || fail "$1: p$i.jpg on the stick differs from the box's"
    done
    local recorded; recorded=$(cat "$2/data/exported-photos" 2>/dev/null | tr '\n' ' ')
    [ "$recorded" = "$want" ] || fail "$1: the export record names '$recorded', wanted '$want'"
    (cd "$2/data/photos" && sha256sum -c --quiet "$work/photos.sums") >/dev/null 2>&1 || fail "$1: the box's photos changed"
    [ "$(ls -A "$2/data/photos" | tr '\n' ' ')" = "p1.jpg p2.jpg p3.jpg p4.jpg " ] || fail "$1: the box's photos/ holds $(ls -A "$2/data/photos" | tr '\n' ' ')"
}

# 4. SIGTERM as the third photo's temporary is created on the stick: that photo is dropped.
rm -rf "$work/t4"; cp -a "$work/pbase" "$work/t4"; d=$work/t4
stopped_export "$d" openat "$create_p3"
[ "$rc" = 1 ] || fail "export stopped mid-photo: exit $rc, wanted 1: $out"
grep -q "stopped by SIGTERM after 2 photos" <<<"$out" || fail "export stopped mid-photo: the output does not say it stopped after 2 photos: $out"
grep -q "the other 2 are copied next time" <<<"$out" || fail "export stopped mid-photo: the output does not say the rest come next time: $out"
check_export "export stopped mid-photo" "$d" 2
out=$("$backdrop" export-photos "$d/stick" --data "$d/data" 2>&1) || fail "the export after the stop failed: $out"
grep -q "2 photos copied" <<<"$out" || fail "the export after the stop did not copy the other 2: $out"
! grep -q "already has" <<<"$out" || fail "the export after the stop found a photo on the stick the record did not name: $out"
check_export "the export after the stop" "$d" 4

# 5. SIGTERM at the rename of the third photo's temporary: that copy is whole, and recorded.
rm -rf "$work/t5"; cp -a "$work/pbase" "$work/t5"; d=$work/t5
stopped_export "$d" renameat "$rename_p3"
[ "$rc" = 1 ] || fail "export stopped at a rename: exit $rc, wanted 1: $out"
grep -q "stopped by SIGTERM after 3 photos" <<<"$out" || fail "export stopped at a rename: the output does not say it stopped after 3 photos: $out"
check_export "export stopped at a rename" "$d" 3

# 6. The unit's photo ExecStart line with SIGTERM to its shell too; mount and sync record their calls.
rm -rf "$work/t6"; cp -a "$work/pbase" "$work/t6"; d=$work/t6
line=$(grep -m1 '^ExecStart=/bin/sh -c .*export-photos' "$unit") || { echo "import-stop: no export-photos ExecStart line in $unit"; exit 1; }
script=${line#ExecStart=/bin/sh -c \'}; script=${script%\'}
mkdir -p "$work/bin"
for tool in mount sync; do
    printf '#!/bin/sh\necho "%s $*" >> "%s"\n' "$tool" "$work/t6.calls" > "$work/bin/$tool"
    chmod +x "$work/bin/$tool"
done
cat > "$work/export-stopped" <<EOF
#!/bin/sh
kill -TERM "\$PPID"
exec strace -f -qq -o /dev/null -e trace=openat -e inject=openat:signal=TERM:when=$create_p3 "$backdrop" "\$@"
EOF
chmod +x "$work/export-stopped"
script=${script//\$\$/\$}
script=${script//\/usr\/bin\/backdrop/$work/export-stopped}
script=${script//\/run\/backdrop-stick\/%i\/root/$d/stick}
script=${script//\/var\/lib\/backdrop/$d/data}
script=${script//\/bin\/systemctl/$work/bin/systemctl}
printf '#!/bin/sh\necho "systemctl $*" >> "%s"\n' "$work/t6.calls" > "$work/bin/systemctl"
chmod +x "$work/bin/systemctl"
PATH=$work/bin:$PATH sh -c "$script" >/dev/null 2>&1; rc=$?
[ "$rc" = 1 ] || fail "the unit's photo ExecStart: exit $rc, wanted 1 (the export's)"
calls=$(cat "$work/t6.calls" 2>/dev/null | tr '\n' '|')
[ "$calls" = "mount -o remount,rw,nosuid,nodev,noexec,noatime,nosymfollow $d/stick|sync -f $d/stick/backdrop|mount -o remount,ro $d/stick|systemctl kill --kill-whom=main --signal=HUP backdrop.service|" ] ||
    fail "the unit's photo ExecStart did not sync, remount read-only and then tell the booth after the stop (calls: '$calls')"
[ "$(sed -n 's/^text //p' "$d/data/export-outcome" 2>/dev/null)" = "PHOTOS STOPPED: 2 COPIED, 2 NEXT TIME" ] ||
    fail "the unit's photo ExecStart: the export's outcome for the screen is '$(tr '\n' ' ' < "$d/data/export-outcome" 2>/dev/null)'"
check_export "the unit's photo ExecStart" "$d" 2

[ "$failures" = 0 ] && echo "import-stop: SIGTERM mid-read (exit 1, outcome 'IMPORT STOPPED - OLD SET KEPT', previous generation current), at the switch (exit 0, new generation), through the unit's ExecStart (booth told); mid-export at a photo's create (dropped: 2 whole photos, record of 2, the next export the other 2) and at its rename (3 recorded), through the unit's photo ExecStart (synced, remounted read-only, booth told): passed"
[ "$failures" = 0 ]
