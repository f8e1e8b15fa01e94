#!/usr/bin/env python3
"""Builds the `backdrop` executable in Embedded Swift, module by module, for amd64 or arm64.

The module list and its order come from Package.swift (`swift package dump-package`): the targets
of the `backdrop` product and everything they depend on, in dependency order, so the firmware has
the same module structure as the SwiftPM build and a new module needs no edit here.

Each step (one Swift module, one C file, the link) is skipped when a hash of its command line, its
inputs and its dependencies' hashes is unchanged, so a warm build only re-links what changed.
"""
import argparse
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

ARCHES = {
    "amd64": {"swift_triple": "x86_64-unknown-linux-gnu", "embedded_dir": "x86_64-unknown-linux-gnu",
              "gnu": "x86_64-linux-gnu", "tool_prefix": ""},
    "arm64": {"swift_triple": "aarch64-none-none-elf", "embedded_dir": "aarch64-none-none-elf",
              "gnu": "aarch64-linux-gnu", "tool_prefix": "aarch64-linux-gnu-"},
}
PRODUCT = "backdrop"


def log(message):
    print(f"firmware: {message}", file=sys.stderr, flush=True)


def sha(*parts):
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else str(part).encode())
        h.update(b"\0")
    return h.hexdigest()


def file_hash(paths):
    h = hashlib.sha256()
    for path in sorted(paths):
        h.update(path.encode() + b"\0")
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def run(cmd, env=None):
    result = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return result.returncode, result.stdout


class BuildFailure(Exception):
    pass


class Builder:
    def __init__(self, args):
        self.args = args
        self.root = os.path.abspath(args.package)
        self.arch = ARCHES[args.arch]
        self.out_dir = os.path.abspath(args.out)
        self.obj_dir = os.path.join(self.out_dir, "obj")
        os.makedirs(self.obj_dir, exist_ok=True)
        self.sysroot = os.path.abspath(args.sysroot) if args.sysroot else None
        if args.arch == "arm64" and not self.sysroot:
            raise BuildFailure("arm64 needs --sysroot")
        self.swiftc = shutil.which("swiftc") or "/opt/swift/usr/bin/swiftc"
        toolchain = os.path.dirname(os.path.dirname(os.path.realpath(self.swiftc)))
        self.embedded_lib = os.path.join(toolchain, "lib", "swift", "embedded", self.arch["embedded_dir"])
        self.cc = self.arch["tool_prefix"] + "gcc"
        self.steps_run = []
        self.steps_reused = []

    # ---- package description -------------------------------------------------------------
    def package(self):
        manifest = os.path.join(self.root, "Package.swift")
        key = file_hash([manifest])
        cache = os.path.join(self.obj_dir, "package.json")
        if os.path.exists(cache):
            with open(cache) as f:
                cached = json.load(f)
            if cached.get("key") == key:
                return cached["package"]
        scratch = os.path.join(self.obj_dir, "spm")
        code, out = run(["swift", "package", "--package-path", self.root, "--scratch-path", scratch,
                         "dump-package"])
        if code != 0:
            raise BuildFailure("swift package dump-package failed:\n" + out)
        package = json.loads(out[out.index("{"):])
        with open(cache, "w") as f:
            json.dump({"key": key, "package": package}, f)
        return package

    def set_language_mode(self, package):
        """SwiftPM's default language mode: the newest listed one, else the tools version's major."""
        listed = package.get("swiftLanguageVersions") or []
        if listed:
            self.language_mode = max(str(v) for v in listed)
        else:
            major = int(str(package.get("toolsVersion", {}).get("_version", "5.0")).split(".")[0])
            self.language_mode = "6" if major >= 6 else "5"

    def plan(self, package):
        targets = {t["name"]: t for t in package["targets"]}
        products = [p for p in package["products"] if p["name"] == PRODUCT]
        if not products:
            raise BuildFailure(f"Package.swift has no product named {PRODUCT}")
        order, state = [], {}

        def visit(name, chain):
            if state.get(name) == "done":
                return
            if state.get(name) == "visiting":
                raise BuildFailure("dependency cycle: " + " -> ".join(chain + [name]))
            if name not in targets:
                raise BuildFailure(f"{chain[-1]} depends on {name}, which is not a target of this package"
                                   " (package dependencies are not supported by the firmware build)")
            state[name] = "visiting"
            for dep in targets[name]["dependencies"]:
                kind, value = next(iter(dep.items()))
                if kind == "product":
                    raise BuildFailure(f"{name} depends on product {value[0]}: external packages are not supported")
                visit(value[0], chain + [name])
            state[name] = "done"
            order.append(name)

        for name in products[0]["targets"]:
            visit(name, [])
        return [targets[n] for n in order]

    def target_dir(self, target):
        if target.get("path"):
            return os.path.join(self.root, target["path"])
        return os.path.join(self.root, "Sources", target["name"])

    def sources(self, target, suffixes):
        base = self.target_dir(target)
        excluded = [os.path.join(base, e) for e in target.get("exclude", [])]
        found = []
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                if any(path == e or path.startswith(e + os.sep) for e in excluded):
                    continue
                if name.endswith(suffixes):
                    found.append(path)
        return found

    def all_files(self, target):
        return self.sources(target, ("",))

    # ---- C flags from pkg-config for the target ---------------------------------------------
    def pkg_config(self, name, what):
        env = dict(os.environ)
        if self.sysroot:
            gnu = self.arch["gnu"]
            env["PKG_CONFIG_SYSROOT_DIR"] = self.sysroot
            env["PKG_CONFIG_LIBDIR"] = ":".join([
                f"{self.sysroot}/usr/lib/{gnu}/pkgconfig", f"{self.sysroot}/usr/share/pkgconfig",
                f"{self.sysroot}/usr/lib/pkgconfig"])
            env.pop("PKG_CONFIG_PATH", None)
        code, out = run(["pkg-config", what, name], env=env)
        if code != 0:
            raise BuildFailure(f"pkg-config {what} {name} failed (is its -dev package installed"
                               f"{' in the sysroot' if self.sysroot else ''}?):\n{out}")
        return shlex.split(out)

    def settings(self, target, tool):
        """Defines and header paths from the target's swiftSettings/cSettings; anything else fails loudly."""
        flags = []
        for setting in target.get("settings", []):
            if setting.get("tool") != tool:
                continue
            kind = setting.get("kind", {})
            if tool == "linker" and "linkedLibrary" in kind:
                value = kind["linkedLibrary"]
                flags.append("-l" + (value["_0"] if isinstance(value, dict) else value))
            elif "define" in kind:
                value = kind["define"]["_0"] if isinstance(kind["define"], dict) else kind["define"]
                flags.append("-D" + value)
            elif "headerSearchPath" in kind:
                value = kind["headerSearchPath"]["_0"] if isinstance(kind["headerSearchPath"], dict) \
                    else kind["headerSearchPath"]
                flags.append("-I" + os.path.join(self.target_dir(target), value))
            elif "enableExperimentalFeature" in kind or "enableUpcomingFeature" in kind:
                (key, val), = kind.items()
                val = val["_0"] if isinstance(val, dict) else val
                flags += ["-enable-experimental-feature" if "Experimental" in key else "-enable-upcoming-feature", val]
            elif any(k.startswith("swiftLanguage") for k in kind):
                (key, val), = kind.items()
                val = val["_0"] if isinstance(val, dict) else val
                flags += ["-swift-version", str(val)]
            elif "unsafeFlags" in kind:
                val = kind["unsafeFlags"]
                flags += val["_0"] if isinstance(val, dict) else val
            else:
                raise BuildFailure(f"{target['name']}: unsupported {tool} setting {kind}")
        return flags

    # ---- per-target compile -------------------------------------------------------------------
    def cached(self, name, key, outputs):
        stamp = os.path.join(self.obj_dir, name + ".key")
        if all(os.path.exists(o) for o in outputs) and os.path.exists(stamp):
            with open(stamp) as f:
                if f.read() == key:
                    self.steps_reused.append(name)
                    return True
        return False

    def mark(self, name, key):
        with open(os.path.join(self.obj_dir, name + ".key"), "w") as f:
            f.write(key)
        self.steps_run.append(name)

    def target_cc_flags(self):
        flags = ["-O2", "-ffp-contract=off", "-fno-strict-aliasing"]
        if self.sysroot:
            flags.append("--sysroot=" + self.sysroot)
        return flags

    def importer_flags(self):
        if not self.sysroot:
            return []
        gnu = self.arch["gnu"]
        # The Embedded stdlib's triple is bare-metal; the importer sees the target's glibc headers
        # and the macros a Linux compiler would predefine, so C types and layouts match gcc's.
        flags = []
        for path in (f"{self.sysroot}/usr/include/{gnu}", f"{self.sysroot}/usr/include"):
            flags += ["-Xcc", "-isystem", "-Xcc", path]
        for macro in ("__linux__", "__linux", "__gnu_linux__", "__unix__", "__unix"):
            flags += ["-Xcc", f"-D{macro}=1"]
        return flags

    def build(self):
        started = time.monotonic()
        package = self.package()
        plan = self.plan(package)
        self.set_language_mode(package)
        log(f"{self.args.arch}: Swift {self.language_mode} language mode; modules in dependency order: "
            f"{' '.join(t['name'] for t in plan)}")
        # name -> key (hash of everything that went into it), swift_includes (argument groups such as
        # ("-I", dir), deduplicated as groups), cc_flags, failed
        info = {}
        objects, link_flags, failures = [], [], []
        for target in plan:
            name = target["name"]
            deps = [next(iter(d.values()))[0] for d in target["dependencies"]]
            # Everything reachable matters: a Swift module's interface names the C modules it imports.
            swift_inc, cc_inc, dep_keys = [], [], []
            for dep in deps:
                d = info[dep]
                dep_keys.append(d["key"])
                for i in d["swift_includes"]:
                    if i not in swift_inc:
                        swift_inc.append(i)
                for i in d["cc_flags"]:
                    if i not in cc_inc:
                        cc_inc.append(i)
            if any(info[dep].get("failed") for dep in deps):
                info[name] = {"key": "failed", "swift_includes": swift_inc, "cc_flags": cc_inc, "failed": True}
                failures.append((name, "not built: a dependency failed"))
                continue
            kind = target["type"]
            try:
                if kind == "system":
                    info[name] = self.system_target(target, swift_inc, cc_inc, dep_keys, link_flags)
                elif kind in ("regular", "executable"):
                    info[name] = self.source_target(target, swift_inc, cc_inc, dep_keys, objects)
                    for flag in self.settings(target, "linker"):
                        if flag not in link_flags:
                            link_flags.append(flag)
                else:
                    raise BuildFailure(f"{name}: target type {kind} is not supported")
            except BuildFailure as e:
                failures.append((name, str(e)))
                info[name] = {"key": "failed", "swift_includes": swift_inc, "cc_flags": cc_inc, "failed": True}
        if failures:
            for name, message in failures:
                log(f"FAILED {name}: {message}")
            raise BuildFailure(f"{len(failures)} module(s) failed: {', '.join(n for n, _ in failures)}")
        binary = self.link(objects, link_flags, [info[t["name"]]["key"] for t in plan])
        elapsed = time.monotonic() - started
        log(f"{self.args.arch}: built {binary} in {elapsed:.1f} s "
            f"(rebuilt: {', '.join(self.steps_run) or 'nothing'})")
        self.report(plan, binary, elapsed)
        return binary

    def system_target(self, target, swift_inc, cc_inc, dep_keys, link_flags):
        base = self.target_dir(target)
        modulemap = os.path.join(base, "module.modulemap")
        if not os.path.exists(modulemap):
            raise BuildFailure(f"{target['name']}: no module.modulemap in {base}")
        files = self.all_files(target)
        cflags, libs = [], []
        if target.get("pkgConfig"):
            cflags = self.pkg_config(target["pkgConfig"], "--cflags")
            libs = self.pkg_config(target["pkgConfig"], "--libs")
        with open(modulemap) as f:
            for lib in re.findall(r'^\s*link\s+"([^"]+)"', f.read(), re.M):
                if "-l" + lib not in libs:
                    libs.append("-l" + lib)
        for flag in libs:
            if flag not in link_flags:
                link_flags.append(flag)
        swift = swift_inc + [("-I", base)] + [("-Xcc", c) for c in cflags]
        cc = cc_inc + ["-I" + base] + cflags
        return {"key": sha(file_hash(files), cflags, libs, *dep_keys), "swift_includes": swift, "cc_flags": cc}

    def source_target(self, target, swift_inc, cc_inc, dep_keys, objects):
        name = target["name"]
        base = self.target_dir(target)
        swift_files = self.sources(target, (".swift",))
        c_files = self.sources(target, (".c",))
        if swift_files and c_files:
            raise BuildFailure(f"{name}: mixes Swift and C sources, which SwiftPM does not allow")
        if c_files:
            return self.c_target(target, base, c_files, swift_inc, cc_inc, dep_keys, objects)
        if not swift_files:
            raise BuildFailure(f"{name}: no sources")
        has_main = any(os.path.basename(f) == "main.swift" for f in swift_files)
        flags = ["-enable-experimental-feature", "Embedded", "-wmo", self.args.opt,
                 "-swift-version", self.language_mode,
                 "-target", self.arch["swift_triple"], "-module-name", name,
                 "-Xfrontend", "-function-sections", "-I", self.obj_dir,
                 # LLVM's incremental codegen puts a hash of the module's IR, which names the
                 # checkout's absolute paths, in .swift_modhash (and so the build ID): two clones of
                 # one commit then built different binaries, and the image cache, keyed by the
                 # binary's bytes, missed. This script skips unchanged modules itself.
                 "-Xfrontend", "-disable-incremental-llvm-codegen"]
        # A main.swift holds top-level code; everything else is a library (or uses @main).
        if not has_main:
            flags.append("-parse-as-library")
        flags += [x for group in swift_inc for x in group] + self.importer_flags() + self.settings(target, "swift")
        obj = os.path.join(self.obj_dir, name + ".o")
        outputs = [obj]
        if target["type"] != "executable":
            module = os.path.join(self.obj_dir, name + ".swiftmodule")
            flags += ["-emit-module", "-emit-module-path", module]
            outputs.append(module)
        cmd = [self.swiftc] + flags + ["-c", "-o", obj] + swift_files
        key = sha(cmd, file_hash(swift_files), *dep_keys)
        if not self.cached(name, key, outputs):
            log(f"{self.args.arch}: swiftc {name} ({len(swift_files)} files)")
            code, out = run(cmd)
            if code != 0:
                for o in outputs:
                    if os.path.exists(o):
                        os.remove(o)
                raise BuildFailure("Embedded Swift compile failed:\n" + out)
            if out.strip():
                sys.stderr.write(out)
            self.mark(name, key)
        objects.append(obj)
        return {"key": key, "swift_includes": swift_inc, "cc_flags": cc_inc}

    def c_target(self, target, base, c_files, swift_inc, cc_inc, dep_keys, objects):
        name = target["name"]
        include = os.path.join(base, target.get("publicHeadersPath") or "include")
        headers = self.all_files(target)
        own = ["-I" + include] + self.settings(target, "c")
        target_key = sha(file_hash(headers), own, *dep_keys)
        for c_file in c_files:
            stem = os.path.relpath(c_file, base).replace(os.sep, "_")[:-2]
            obj = os.path.join(self.obj_dir, f"{name}.{stem}.o")
            cmd = [self.cc] + self.target_cc_flags() + own + cc_inc + ["-c", "-o", obj, c_file]
            key = sha(cmd, target_key)
            step = f"{name}.{stem}"
            if not self.cached(step, key, [obj]):
                log(f"{self.args.arch}: {self.cc} {os.path.relpath(c_file, self.root)}")
                code, out = run(cmd)
                if code != 0:
                    raise BuildFailure("C compile failed:\n" + out)
                if out.strip():
                    sys.stderr.write(out)
                self.mark(step, key)
            objects.append(obj)
        if not os.path.exists(os.path.join(include, "module.modulemap")):
            # SwiftPM synthesises an umbrella module for a C target without a modulemap; do the same.
            mapdir = os.path.join(self.obj_dir, "modulemaps", name)
            os.makedirs(mapdir, exist_ok=True)
            with open(os.path.join(mapdir, "module.modulemap"), "w") as f:
                f.write(f'module {name} {{\n    umbrella "{include}"\n    export *\n}}\n')
            swift = swift_inc + [("-I", mapdir), ("-Xcc", "-I" + include)]
        else:
            swift = swift_inc + [("-I", include)]
        return {"key": target_key, "swift_includes": swift, "cc_flags": cc_inc + own}

    def link(self, objects, link_flags, keys):
        os.makedirs(self.out_dir, exist_ok=True)
        unstripped = os.path.join(self.obj_dir, PRODUCT + ".debug")
        binary = os.path.join(self.out_dir, PRODUCT)
        cmd = [self.cc] + (["--sysroot=" + self.sysroot] if self.sysroot else []) + \
              ["-o", unstripped] + objects + \
              ["-Wl,--gc-sections", "-Wl,--as-needed", "-L" + self.embedded_lib, "-lswiftUnicodeDataTables"] + \
              link_flags + ["-lm"]
        key = sha(cmd, *keys, *[file_hash([o]) for o in objects])
        if not self.cached("link", key, [unstripped, binary]):
            log(f"{self.args.arch}: linking {PRODUCT} with {self.cc}")
            code, out = run(cmd)
            if code != 0:
                raise BuildFailure("link failed:\n" + out)
            if out.strip():
                sys.stderr.write(out)
            tmp = binary + ".tmp"
            code, out = run([self.arch["tool_prefix"] + "strip", "-o", tmp, unstripped])
            if code != 0:
                raise BuildFailure("strip failed:\n" + out)
            os.replace(tmp, binary)
            self.mark("link", key)
        return binary

    # ---- report ---------------------------------------------------------------------------------
    def vector_counts(self, obj):
        """Instructions per function in one object, and how many of them are SIMD (NEON v/q registers
        on arm64, xmm/ymm/zmm on amd64; scalar floating point in the same registers is not counted)."""
        objdump = self.arch["tool_prefix"] + "objdump"
        code, out = run([objdump, "-d", "--no-show-raw-insn", obj])
        if code != 0:
            return {}
        if self.args.arch == "arm64":
            vector = re.compile(r"\bv\d+\.\d*[bhsd]\b|\bq\d+\b")
        else:
            # packed SSE/AVX only: ps/pd suffixes, integer p-ops, and 256/512-bit registers
            vector = re.compile(r"\b(v?p[a-z0-9]+|[a-z0-9]+p[sd]|v?movdq[au]|v?movdq[au]64)\b.*%[xyz]mm|%[yz]mm")
        functions, current = {}, None
        for line in out.splitlines():
            header = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
            if header:
                current = header.group(1)
                functions[current] = [0, 0]
                continue
            if current and re.match(r"^\s+[0-9a-f]+:\s+\S", line):
                functions[current][0] += 1
                if vector.search(line):
                    functions[current][1] += 1
        return functions

    def packages_for(self, sonames):
        """The Debian packages that ship the given shared libraries for this architecture."""
        gnu = self.arch["gnu"]
        paths = {f"/lib/{gnu}/{n}": n for n in sonames} | {f"/usr/lib/{gnu}/{n}": n for n in sonames} | \
                {f"/lib/{n}": n for n in sonames}
        found = {}
        if self.sysroot:
            with open(os.path.join(self.sysroot, ".files")) as f:
                for line in f:
                    package, _, path = line.rstrip("\n").partition("\t")
                    if path in paths:
                        found.setdefault(paths[path], package)
        else:
            for path, name in paths.items():
                code, out = run(["dpkg-query", "-S", path])
                if code == 0 and name not in found:
                    found[name] = out.split(":")[0]
        return sorted({found.get(n, f"?({n})") for n in sonames})

    def demangle(self, names):
        if not names:
            return {}
        code, out = run(["swift", "demangle", "--simplified", "--compact"] + names)
        lines = out.splitlines() if code == 0 else names
        if len(lines) != len(names):
            lines = names
        return dict(zip(names, lines))

    def report(self, plan, binary, elapsed):
        prefix = self.arch["tool_prefix"]
        lines = [f"arch: {self.args.arch}", f"optimisation: {self.args.opt}",
                 f"modules: {' '.join(t['name'] for t in plan)}",
                 f"build time: {elapsed:.1f} s (rebuilt: {', '.join(self.steps_run) or 'nothing'})",
                 f"stripped size: {os.path.getsize(binary)} bytes ({os.path.getsize(binary) / 1024:.0f} KiB)"]
        code, out = run([prefix + "readelf", "-d", binary])
        needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.+)\]", out)
        lines.append(f"NEEDED: {' '.join(needed)}")
        lines.append(f"board packages (Debian 12 / Raspberry Pi OS bookworm): {' '.join(self.packages_for(needed))}")
        for module in self.args.simd_modules.split(","):
            obj = os.path.join(self.obj_dir, module + ".o")
            if not os.path.exists(obj):
                continue
            functions = self.vector_counts(obj)
            total = sum(v[0] for v in functions.values())
            simd = sum(v[1] for v in functions.values())
            lines.append(f"{module}: {simd} SIMD of {total} instructions in {len(functions)} functions")
            # Every kernel, not only the most vectorised: a big function with a small share is the
            # scalar work left, which a top-by-SIMD list hides. Small functions are glue.
            kernels = sorted(((v[0], v[1], k) for k, v in functions.items() if v[0] >= self.args.kernel_instructions),
                             reverse=True)
            names = self.demangle([k for _, _, k in kernels])
            for t, s, k in kernels:
                lines.append(f"  {s:5d}/{t:<5d} {100 * s / t:5.1f} % {names.get(k, k)[:110]}")
        text = "\n".join(lines) + "\n"
        with open(os.path.join(self.out_dir, "report.txt"), "w") as f:
            f.write(text)
        sys.stderr.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--arch", choices=sorted(ARCHES), default="amd64")
    parser.add_argument("--package", default=".")
    parser.add_argument("--out", required=True, help="output folder (binary, report.txt, obj/)")
    parser.add_argument("--sysroot", help="target sysroot (arm64)")
    parser.add_argument("--opt", default="-O", choices=["-O", "-Osize", "-Ounchecked", "-Onone"])
    parser.add_argument("--simd-modules", default="Matte,Compose")
    parser.add_argument("--kernel-instructions", type=int, default=150,
                        help="report.txt lists each function of the SIMD modules this long or longer")
    parser.add_argument("--print-plan", action="store_true", help="print the module order and exit")
    parser.add_argument("--print-apt", action="store_true",
                        help="print the apt packages named by the product's system libraries and exit")
    args = parser.parse_args()
    try:
        builder = Builder(args)
        if args.print_plan or args.print_apt:
            plan = builder.plan(builder.package())
            if args.print_plan:
                print(" ".join(t["name"] for t in plan))
            else:
                for t in plan:
                    for provider in t.get("providers") or []:
                        apt = provider.get("apt") or []
                        for pkg in (apt[0] if apt and isinstance(apt[0], list) else apt):
                            print(pkg)
            return 0
        builder.build()
    except BuildFailure as e:
        log(str(e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
