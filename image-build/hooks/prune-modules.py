#!/usr/bin/env python3
"""Keeps the kernel modules named by the keep list (globs under kernel/) and the initramfs list,
plus everything they depend on (modules.dep), and deletes the rest.

Usage: prune-modules.py /lib/modules/VERSION modules-keep.txt initramfs-modules.txt
"""
import fnmatch
import os
import sys


def entries(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def main():
    moddir, keep_file, initramfs_file = sys.argv[1:4]
    deps = {}
    with open(os.path.join(moddir, "modules.dep")) as f:
        for line in f:
            module, _, needs = line.partition(":")
            deps[module] = needs.split()
    def name(module):
        base = os.path.basename(module)
        for suffix in (".xz", ".zst", ".gz"):
            base = base.removesuffix(suffix)
        return base.removesuffix(".ko").replace("-", "_")
    globs = ["kernel/" + g for g in entries(keep_file)]
    wanted = {m for m in deps if any(fnmatch.fnmatch(m, g) or fnmatch.fnmatch(m, g + ".*") for g in globs)}
    by_name = {name(m): m for m in deps}
    missing = []
    for module in entries(initramfs_file):
        key = module.replace("-", "_")
        if key in by_name:
            wanted.add(by_name[key])
        else:
            missing.append(module)
    stack = list(wanted)
    while stack:
        for dep in deps.get(stack.pop(), []):
            if dep not in wanted:
                wanted.add(dep)
                stack.append(dep)
    # Built-in drivers (ext4 in some kernels) are not modules: only report the ones that are neither.
    builtin = set()
    builtin_path = os.path.join(moddir, "modules.builtin")
    if os.path.exists(builtin_path):
        builtin = {name(line.strip()) for line in open(builtin_path)}
    missing = [m for m in missing if m.replace("-", "_") not in builtin]
    if missing:
        sys.exit(f"prune-modules: initramfs-modules.txt names modules this kernel has neither as module nor built in: {' '.join(missing)}")
    removed = 0
    for module in deps:
        if module not in wanted:
            os.remove(os.path.join(moddir, module))
            removed += 1
    for dirpath, dirnames, filenames in os.walk(os.path.join(moddir, "kernel"), topdown=False):
        if not os.listdir(dirpath):
            os.rmdir(dirpath)
    print(f"prune-modules: kept {len(wanted)} of {len(deps)} modules", file=sys.stderr)


main()
