#!/usr/bin/env python3
"""Lists a staged partition tree, one line a path, sorted: type, mode, owner, links, size, mtime and
the content's sha256 (a symlink's target, a device's numbers). Two builds from the same inputs must
give the same list: comparing it says which file differs and how, where comparing the ext4 images
only says that they differ (debian has no diffoscope).

Usage: tree-manifest.py TREE > list.txt
"""
import hashlib
import os
import stat
import sys


def describe(path, st):
    mode = st.st_mode
    if stat.S_ISLNK(mode):
        return "l", os.readlink(path)
    if stat.S_ISREG(mode):
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        return "f", h.hexdigest()
    if stat.S_ISDIR(mode):
        return "d", ""
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return ("c" if stat.S_ISCHR(mode) else "b"), f"{os.major(st.st_rdev)},{os.minor(st.st_rdev)}"
    return "p" if stat.S_ISFIFO(mode) else "s", ""


def main():
    top = sys.argv[1]
    rows = []
    for folder, dirs, files in os.walk(top):
        for name in dirs + files:
            path = os.path.join(folder, name)
            st = os.lstat(path)
            kind, what = describe(path, st)
            size = st.st_size if kind == "f" else 0
            links = st.st_nlink if kind != "d" else 0
            rel = "/" + os.path.relpath(path, top)
            rows.append(f"{rel} {kind} {stat.S_IMODE(st.st_mode):04o} {st.st_uid}:{st.st_gid} "
                        f"{links} {size} {int(st.st_mtime)} {what}")
    rows.sort()
    sys.stdout.write("\n".join(rows) + "\n")


main()
