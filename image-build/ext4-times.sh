#!/bin/bash
# Sets every inode's atime, ctime and crtime in an ext4 image to SOURCE_DATE_EPOCH (genimage's
# exec-post). mke2fs -d copies a file's mtime, which build.sh fixed, but takes ctime and atime from
# the staging tree as the build left them (ctime cannot be set by any system call) and stamps
# crtime and lost+found with the clock: two builds of the same tree gave identical files in
# different ext4 images. debugfs (e2fsprogs, no mount) rewrites the fields by path.
#
# Usage: ext4-times.sh IMAGE.ext4 FILE-LIST EPOCH   (FILE-LIST: tree-manifest.py's output for the tree)
set -euo pipefail
img=$1 list=$2 epoch=$3
stamp=$(date -u -d "@$epoch" +%Y%m%d%H%M%S)
{
  echo "set_current_time $stamp"
  { echo /; echo /lost+found; cut -d' ' -f1 "$list"; } | while read -r p; do
    for field in atime ctime crtime; do echo "sif \"$p\" $field $stamp"; done
  done
  # The reserved inodes (bad blocks, quotas, boot loader, undelete, resize, journal, ...) and
  # lost+found were made by mke2fs at its clock.
  for ino in 1 3 4 5 6 7 8 9 10 /lost+found; do
    case $ino in /*) spec=$ino ;; *) spec="<$ino>" ;; esac
    for field in atime ctime mtime crtime; do echo "sif $spec $field $stamp"; done
  done
  echo "set_super_value lastcheck $stamp"
  echo "set_super_value mkfs_time $stamp"
  echo "set_super_value mtime 0"
} > "$img.times"
out=$(debugfs -w -f "$img.times" "$img" 2>&1 >/dev/null | grep -v -e '^debugfs [0-9]' || true)
rm -f "$img.times"
[ -z "$out" ] || { echo "ext4-times: debugfs on $img: $(head -3 <<< "$out")" >&2; exit 1; }
