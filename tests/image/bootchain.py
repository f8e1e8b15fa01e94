#!/usr/bin/env python3
"""Checks the Pi 4 boot chain of an image the way the board reads it, without the board.

  bootchain.py firmware BOOTDIR
      Reads BOOTDIR/config.txt (the FAT partition copied out) by the Raspberry Pi firmware's rules
      and fails when a file the Pi 4's bootloader and GPU firmware would load is not there.

  bootchain.py suppliers DTB MODDIR INITRAMFS_MODULES --start COMPATIBLE [--need MODULE]...
                        [--kernel IMAGE] [--allow dt-no-module.txt]
      Walks the device tree from the root device's controller through every supplier the kernel
      waits for, and fails when a node on that way has no driver built into the kernel and none
      among the modules in INITRAMFS_MODULES (a file: one module file name a line, as listed from
      the initramfs; compatibles to modules through MODDIR/modules.alias). Built in means an of:
      alias in modules.builtin.modinfo (kernels from 6.1 on do not write those for built-in
      drivers), or a dt-no-module.txt entry whose config symbol is =y in MODDIR/config and whose
      compatible is in IMAGE's match tables (the uncompressed arm64 Image). MODDIR is the image's
      /lib/modules/VERSION with the kernel's config-VERSION copied in as MODDIR/config.

  bootchain.py initramfs-modules INITRD
      Lists the kernel modules (.ko files) inside a zstd/gzip/uncompressed newc initramfs.

  bootchain.py closure MODDIR LIST
      The modules an initramfs made with MODULES=list from LIST would hold (with their
      dependencies from MODDIR/modules.dep): a fixture for the supplier check.

Exit codes: 0 all found, 1 something the board would miss, 2 bad usage or unreadable input.
"""
import fnmatch
import gzip
import os
import struct
import subprocess
import sys

PI4_MODELS = {"pi4", "pi400", "cm4", "cm4s"}
# Model filters that name other boards: a Pi 4 skips their sections.
OTHER_MODELS = {"pi0", "pi0w", "pi02", "pi1", "pi2", "pi3", "pi3+", "cm1", "cm3", "cm3+", "pi5", "cm5", "pi500"}


class BadInput(Exception):
    pass


# --- config.txt -------------------------------------------------------------------------------

def read_config(bootdir, name="config.txt", depth=0):
    """The settings a Pi 4 B applies, in file order: (key, value) pairs, `include` expanded,
    sections whose filter names another model skipped."""
    if depth > 4:
        raise BadInput(f"{name}: include nested deeper than 4")
    path = find_file(bootdir, name)
    if path is None:
        raise BadInput(f"{name} is not on the boot partition")
    settings = []
    applies = True
    with open(path, encoding="latin-1") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            if line.startswith("["):
                if not line.endswith("]"):
                    raise BadInput(f"{name}:{number}: unterminated section filter '{line}'")
                applies = section_applies(line[1:-1].strip().lower(), name, number, applies)
                continue
            if not applies:
                continue
            if line.startswith("include "):
                settings += read_config(bootdir, line.split(None, 1)[1].strip(), depth + 1)
                continue
            if line.startswith("initramfs "):
                # `initramfs FILE [ADDRESS|followkernel]`: the one setting written without '='.
                settings.append(("initramfs", line.split()[1]))
                continue
            key, sep, value = line.partition("=")
            if not sep:
                raise BadInput(f"{name}:{number}: '{line}' is neither key=value nor a known directive")
            settings.append((key.strip().lower(), value.strip()))
    return settings


def section_applies(flt, name, number, current):
    """Whether the lines after [flt] apply to a Pi 4 B. Filters the build cannot evaluate (HDMI,
    EDID, GPIO, serial number, tryboot) make the check refuse rather than guess."""
    if flt == "all":
        return True
    if flt == "none":
        return False
    if flt in PI4_MODELS:
        return True
    if flt in OTHER_MODELS:
        return False
    if flt.startswith("board-type="):
        return int(flt.split("=", 1)[1], 0) == 0x11   # the Pi 4 B's board type
    raise BadInput(f"{name}:{number}: section filter [{flt}] depends on the board at run time; "
                   "this check only decides model filters ([pi4], [all], [pi3], ...)")


def last(settings, key, default=None):
    value = default
    for k, v in settings:
        if k == key:
            value = v
    return value


def find_file(bootdir, name):
    """FAT names are case-insensitive: the file the firmware would open, or None."""
    here = bootdir
    for part in [p for p in name.split("/") if p]:
        try:
            match = [e for e in os.listdir(here) if e.lower() == part.lower()]
        except NotADirectoryError:
            return None
        if not match:
            return None
        here = os.path.join(here, match[0])
    return here if os.path.isfile(here) else None


def boot_files(bootdir):
    """(file, why) for everything the Pi 4's bootloader and start4*.elf load from the partition."""
    s = read_config(bootdir)
    files = [("config.txt", "read by the bootloader")]
    flag = lambda key: last(s, key, "0") not in ("0", "")
    # The GPU firmware pair. Board-memory variants win over gpu_mem; every Pi 4 has at least 1 GB,
    # so gpu_mem_1024 applies and gpu_mem_256/512 never do. Exactly 16 MB selects the cut-down pair.
    gpu_mem = last(s, "gpu_mem_1024", last(s, "gpu_mem"))
    cut_down = gpu_mem is not None and int(gpu_mem, 0) == 16
    start, fixup = "start4.elf", "fixup4.dat"
    why = "the Pi 4's default"
    if flag("start_x") or flag("start_debug"):
        if cut_down:
            raise BadInput("config.txt sets gpu_mem=16 (cut-down firmware) and start_x/start_debug: "
                           "the firmware documents no choice between them; pick one")
        suffix = "x" if flag("start_x") else "db"
        # The Pi 4 takes start4x.elf/start4db.elf when present, else the generic start_x/start_db.
        start = f"start4{suffix}.elf" if find_file(bootdir, f"start4{suffix}.elf") else f"start_{suffix}.elf"
        fixup = f"fixup4{suffix}.dat" if find_file(bootdir, f"fixup4{suffix}.dat") else f"fixup_{suffix}.dat"
        why = "start_x=1" if suffix == "x" else "start_debug=1"
    elif cut_down:
        start, fixup, why = "start4cd.elf", "fixup4cd.dat", "gpu_mem=16 (the cut-down firmware)"
    if last(s, "start_file") or last(s, "fixup_file"):
        if cut_down:
            raise BadInput("config.txt names start_file/fixup_file with gpu_mem=16: the cut-down "
                           "firmware cannot be chosen by name, only by gpu_mem=16")
        start = last(s, "start_file", start)
        fixup = last(s, "fixup_file", fixup)
        why = "start_file/fixup_file"
    files += [(start, why), (fixup, why)]
    prefix = last(s, "os_prefix", "")
    arm64 = flag("arm_64bit")
    kernel = last(s, "kernel", "kernel8.img" if arm64 else "kernel7l.img")
    files.append((prefix + kernel, "kernel=" if last(s, "kernel") else "default kernel"))
    files.append((prefix + last(s, "device_tree", "bcm2711-rpi-4-b.dtb"), "device tree"))
    initramfs = last(s, "initramfs", last(s, "ramfsfile"))
    if initramfs:
        files.append((prefix + initramfs, "initramfs"))
    files.append((last(s, "cmdline", "cmdline.txt"), "kernel command line"))
    overlays = last(s, "overlay_prefix", "overlays/")
    for key, value in s:
        if key == "dtoverlay" and value:
            files.append((prefix + overlays + value.split(",")[0].split(":")[0] + ".dtbo", f"dtoverlay={value}"))
    return files


def cmd_firmware(bootdir):
    missing = 0
    files = boot_files(bootdir)
    for name, why in files:
        if find_file(bootdir, name):
            print(f"ok: {name} ({why})")
        else:
            print(f"FAIL: {name} is not on the boot partition, but config.txt makes the Pi 4 load it ({why})")
            missing += 1
    # GPU firmware and device trees the Pi 4 never loads are another board's: they stay off the card.
    loaded = {name.lower() for name, _ in files}
    for entry in sorted(os.listdir(bootdir)):
        low = entry.lower()
        unused = (low.startswith("start") and low.endswith(".elf") or low.startswith("fixup") and low.endswith(".dat")
                  or low.endswith(".dtb") or low == "bootcode.bin")
        if unused and low not in loaded:
            print(f"FAIL: {entry} is on the boot partition but a Pi 4 with this config.txt never loads it")
            missing += 1
    return 1 if missing else 0


# --- the device tree --------------------------------------------------------------------------

class Node:
    def __init__(self, name, parent):
        self.name, self.parent, self.props, self.children = name, parent, {}, []

    def path(self):
        return "/" if self.parent is None else (self.parent.path().rstrip("/") + "/" + self.name)

    def u32s(self, prop):
        raw = self.props.get(prop, b"")
        return list(struct.unpack(f">{len(raw) // 4}I", raw[: len(raw) // 4 * 4]))

    def strings(self, prop):
        raw = self.props.get(prop)
        return [] if raw is None else [x.decode("latin-1") for x in raw.split(b"\0") if x]

    def compatible(self):
        return self.strings("compatible")

    def enabled(self):
        return self.strings("status")[:1] in ([], ["okay"], ["ok"])


def parse_fdt(data):
    """The tree of a flattened device tree blob (v17), enough to read properties and phandles."""
    magic, _, off_struct, off_strings, _, version = struct.unpack(">6I", data[:24])
    if magic != 0xD00DFEED:
        raise BadInput("not a flattened device tree (bad magic)")
    def string(off):
        end = data.index(b"\0", off_strings + off)
        return data[off_strings + off:end].decode()
    pos, root, node = off_struct, None, None
    while True:
        token, = struct.unpack(">I", data[pos:pos + 4]); pos += 4
        if token == 1:                                       # FDT_BEGIN_NODE
            end = data.index(b"\0", pos)
            name = data[pos:end].decode()
            pos = (end + 4) & ~3
            child = Node(name, node)
            if node is None:
                root = child
            else:
                node.children.append(child)
            node = child
        elif token == 2:                                     # FDT_END_NODE
            node = node.parent
        elif token == 3:                                     # FDT_PROP
            size, nameoff = struct.unpack(">2I", data[pos:pos + 8]); pos += 8
            node.props[string(nameoff)] = data[pos:pos + size]
            pos = (pos + size + 3) & ~3
        elif token == 4:                                     # FDT_NOP
            pass
        elif token == 9:                                     # FDT_END
            return root
        else:
            raise BadInput(f"bad FDT token {token} at {pos - 4}")


def all_nodes(root):
    stack = [root]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)


# Supplier properties the kernel's fw_devlink follows (drivers/of/property.c) that carry a phandle
# and arguments, with the provider's #cells property; the consumer's probe waits for these.
CELLS = {"clocks": "#clock-cells", "interconnects": "#interconnect-cells", "iommus": "#iommu-cells",
         "mboxes": "#mbox-cells", "io-channels": "#io-channel-cells", "dmas": "#dma-cells",
         "power-domains": "#power-domain-cells", "hwlocks": "#hwlock-cells", "phys": "#phy-cells",
         "pwms": "#pwm-cells", "resets": "#reset-cells", "interrupts-extended": "#interrupt-cells"}
# Single phandles or bare phandle lists.
PLAIN = {"interrupt-parent", "extcon", "nvmem-cells", "wakeup-parent", "msi-parent", "leds", "backlight", "panel"}


def suppliers(node, by_phandle):
    """(property, provider node) for every supplier of node, as fw_devlink reads them."""
    out = []
    def add(prop, ph):
        target = by_phandle.get(ph)
        if target is None:
            raise BadInput(f"{node.path()}: {prop} names phandle {ph}, which no node has")
        out.append((prop, target))
    for prop in node.props:
        if prop in PLAIN or prop.startswith("pinctrl-") and prop[8:].isdigit() or prop.endswith("-supply"):
            for ph in node.u32s(prop):
                add(prop, ph)
        elif prop in CELLS or prop in ("gpio", "gpios") or prop.endswith("-gpio") or prop.endswith("-gpios"):
            cells_prop = CELLS.get(prop, "#gpio-cells")
            values, i = node.u32s(prop), 0
            while i < len(values):
                ph = values[i]
                if ph == 0:                                  # an empty entry in a list
                    i += 1
                    continue
                add(prop, ph)
                provider = by_phandle[ph]
                if cells_prop not in provider.props:
                    raise BadInput(f"{node.path()}: {prop} points at {provider.path()}, which lacks {cells_prop}")
                i += 1 + provider.u32s(cells_prop)[0]
    if "interrupts" in node.props and "interrupt-parent" not in node.props:
        up = node.parent                                     # the interrupt parent is inherited
        while up is not None and "interrupt-parent" not in up.props:
            up = up.parent
        if up is not None:
            add("interrupt-parent (inherited)", up.u32s("interrupt-parent")[0])
    return out


def device_of(node):
    """The node a driver binds for this one: itself, or (for a pin state, a GPIO hog and the like)
    its nearest ancestor with a compatible, as fw_devlink does."""
    while node is not None and not node.compatible():
        node = node.parent
    return node


def modalias(node):
    name = node.name.split("@", 1)[0]
    dtype = node.strings("device_type")[:1] or ["<NULL>"]
    return "of:N" + name + "T" + dtype[0] + "".join("C" + c for c in node.compatible())


def load_aliases(moddir):
    """(pattern, module) from modules.alias, and (pattern, module) of the built-in drivers."""
    def read(path, parse):
        try:
            with open(path, encoding="latin-1") as f:
                return [x for x in (parse(line) for line in f) if x]
        except OSError as e:
            raise BadInput(f"cannot read {path}: {e}")
    def alias_line(line):
        parts = line.split()
        return (parts[1], parts[2]) if len(parts) == 3 and parts[0] == "alias" and parts[1].startswith("of:") else None
    modular = read(os.path.join(moddir, "modules.alias"), alias_line)
    builtin = []
    with open(os.path.join(moddir, "modules.builtin.modinfo"), "rb") as f:
        for entry in f.read().split(b"\0"):
            key, _, value = entry.decode("latin-1").partition("=")
            if key.endswith(".alias") and value.startswith("of:"):
                builtin.append((value, key[: -len(".alias")]))
    return modular, builtin


def load_allow_list(path):
    """compatible -> (kernel config symbol or '-', why) from dt-no-module.txt."""
    allow = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3:
                raise BadInput(f"{path}:{number}: want 'COMPATIBLE CONFIG_SYMBOL|- why'")
            allow[parts[0]] = (parts[1], parts[2])
    return allow


def kernel_config(path):
    config = {}
    with open(path) as f:
        for line in f:
            key, sep, value = line.strip().partition("=")
            if sep and key.startswith("CONFIG_"):
                config[key] = value
    return config


def norm(module):
    base = os.path.basename(module)
    for suffix in (".xz", ".zst", ".gz"):
        base = base.removesuffix(suffix)
    return base.removesuffix(".ko").replace("-", "_")


def cmd_suppliers(dtb, moddir, initramfs_list, starts, needs, allow_path, kernel_path):
    with open(dtb, "rb") as f:
        root = parse_fdt(f.read())
    kernel = None
    if kernel_path:
        with open(kernel_path, "rb") as f:
            kernel = f.read()
    by_phandle = {}
    for n in all_nodes(root):
        for prop in ("phandle", "linux,phandle"):
            if prop in n.props:
                by_phandle[n.u32s(prop)[0]] = n
    modular, builtin = load_aliases(moddir)
    config = kernel_config(os.path.join(moddir, "config"))
    allow = load_allow_list(allow_path)
    with open(initramfs_list) as f:
        in_initramfs = {norm(line.strip()) for line in f if line.strip()}
    start_nodes = []
    for compat in starts:
        found = [n for n in all_nodes(root) if compat in n.compatible() and n.enabled()]
        if len(found) != 1:
            raise BadInput(f"expected one enabled node compatible with {compat}, found {len(found)}")
        start_nodes.append(found[0])

    # The supplier graph over every device reachable from the start: each device needs its
    # suppliers' devices and its parent (the parent populates it, or is the bus it sits on).
    edges, seen, stack = {}, set(), list(start_nodes)
    while stack:
        dev = stack.pop()
        if id(dev) in seen:
            continue
        seen.add(id(dev))
        out = []
        for prop, target in suppliers(dev, by_phandle):
            sup = device_of(target)
            if sup is None or sup is dev or sup.parent is None or not sup.enabled():
                continue                                     # fw_devlink makes no link to these
            out.append((prop, sup))
        # The root node is the machine itself: the core populates its children, nothing binds it.
        parent = device_of(dev.parent) if dev.parent is not None else None
        if parent is not None and parent.parent is not None:
            out.append(("parent", parent))
        edges[id(dev)] = (dev, out)
        stack.extend(s for _, s in out)

    def reaches(a, b):
        todo, done = [a], set()
        while todo:
            x = todo.pop()
            if x is b:
                return True
            if id(x) in done:
                continue
            done.add(id(x))
            todo.extend(s for _, s in edges[id(x)][1])
        return False

    # fw_devlink (6.x) stops enforcing a link that closes a cycle (e.g. the clock manager takes
    # the DSI blocks' clocks as parents while they take its clocks): the consumer probes without
    # that supplier, so the walk does not demand it either.
    required, order, stack = set(), [], [(n, "root device") for n in start_nodes]
    while stack:
        dev, via = stack.pop()
        if id(dev) in required:
            continue
        required.add(id(dev))
        order.append((dev, via))
        for prop, sup in edges[id(dev)][1]:
            if prop != "parent" and reaches(sup, dev):
                print(f"note: {dev.path()} -> {sup.path()} ({prop}) closes a cycle: not enforced by fw_devlink")
                continue
            stack.append((sup, f"{prop} of {dev.path()}"))

    failures = 0
    for dev, via in order:
        compats = dev.compatible()
        alias = modalias(dev)
        mods = sorted({m for pat, m in modular if fnmatch.fnmatchcase(alias, pat)})
        built = sorted({m for pat, m in builtin if fnmatch.fnmatchcase(alias, pat)})
        allowed = next((c for c in compats if c in allow), None)
        where = f"{dev.path()} [{', '.join(compats)}] ({via})"
        if built:
            print(f"ok: {where}: built in ({', '.join(built)})")
        elif any(norm(m) in in_initramfs for m in mods):
            print(f"ok: {where}: module {', '.join(m for m in mods if norm(m) in in_initramfs)} in the initramfs")
        elif mods:
            print(f"FAIL: {where}: needs module {' or '.join(mods)}, which the initramfs lacks")
            failures += 1
        elif allowed:
            symbol, why = allow[allowed]
            if symbol == "-":
                print(f"ok: {where}: no driver needed ({why})")
            elif config.get(symbol) == "y" and kernel is not None and b"\0" + allowed.encode() + b"\0" not in kernel:
                print(f"FAIL: {where}: {symbol}=y, but no match table in the kernel names {allowed}")
                failures += 1
            elif config.get(symbol) == "y":
                print(f"ok: {where}: {symbol}=y{' and its match table is in the kernel' if kernel else ''} ({why})")
            else:
                print(f"FAIL: {where}: dt-no-module.txt relies on {symbol}=y, the kernel has {config.get(symbol, 'it unset')}")
                failures += 1
        else:
            print(f"FAIL: {where}: no module alias, no built-in driver and no dt-no-module.txt entry matches {alias}")
            failures += 1
    for module in needs:
        if norm(module) in in_initramfs:
            print(f"ok: module {module} in the initramfs")
        elif config.get("CONFIG_" + module.upper().replace("-", "_")) == "y":
            print(f"ok: {module} built in")
        else:
            print(f"FAIL: module {module} is not in the initramfs")
            failures += 1
    print(f"{len(order)} devices on the way to the root, {failures} without a driver at boot")
    return 1 if failures else 0


# --- the initramfs ----------------------------------------------------------------------------

def initramfs_files(path):
    """Every file name in an initramfs: uncompressed newc archives, then compressed ones."""
    with open(path, "rb") as f:
        data = f.read()
    names = []
    while data:
        if data.startswith(b"070701"):
            pos = 0
            while True:
                header = data[pos:pos + 110]
                if header[:6] != b"070701":
                    raise BadInput(f"{path}: bad cpio header at {pos}")
                size, namesize = int(header[54:62], 16), int(header[94:102], 16)
                name = data[pos + 110:pos + 110 + namesize - 1].decode("latin-1")
                pos = (pos + 110 + namesize + 3) & ~3
                pos = (pos + size + 3) & ~3
                if name == "TRAILER!!!":
                    break
                names.append(name)
            data = data[pos:].lstrip(b"\0")
        elif data.startswith(b"\x28\xb5\x2f\xfd"):
            data = subprocess.run(["zstd", "-dc"], input=data, capture_output=True, check=True).stdout
        elif data.startswith(b"\x1f\x8b"):
            data = gzip.decompress(data)
        else:
            raise BadInput(f"{path}: neither newc cpio nor zstd/gzip at a segment start")
    return names


def closure(moddir, listfile):
    """The module files an initramfs built with MODULES=list from listfile holds: the listed
    modules and everything they depend on (modules.dep), as mkinitramfs adds them."""
    deps = {}
    with open(os.path.join(moddir, "modules.dep")) as f:
        for line in f:
            module, _, needs = line.partition(":")
            deps[module] = needs.split()
    by_name = {norm(m): m for m in deps}
    with open(listfile) as f:
        wanted = [by_name[norm(x.strip())] for x in f
                  if x.strip() and not x.startswith("#") and norm(x.strip()) in by_name]
    have, stack = set(), list(wanted)
    while stack:
        m = stack.pop()
        if m not in have:
            have.add(m)
            stack.extend(deps.get(m, []))
    return sorted(have)


def main(argv):
    try:
        if len(argv) == 2 and argv[0] == "firmware":
            return cmd_firmware(argv[1])
        if len(argv) == 2 and argv[0] == "initramfs-modules":
            for name in initramfs_files(argv[1]):
                if ".ko" in os.path.basename(name):
                    print(name)
            return 0
        if len(argv) == 3 and argv[0] == "closure":
            for module in closure(argv[1], argv[2]):
                print(module)
            return 0
        if len(argv) >= 4 and argv[0] == "suppliers":
            starts, needs, rest, kernel = [], [], argv[4:], None
            allow = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dt-no-module.txt")
            while rest:
                opt, value, rest = rest[0], rest[1] if len(rest) > 1 else None, rest[2:]
                if value is None or opt not in ("--start", "--need", "--allow", "--kernel"):
                    raise BadInput(f"unknown or incomplete option {opt}")
                {"--start": starts, "--need": needs}.get(opt, []).append(value)
                if opt == "--allow":
                    allow = value
                if opt == "--kernel":
                    kernel = value
            if not starts:
                raise BadInput("suppliers needs at least one --start COMPATIBLE")
            return cmd_suppliers(argv[1], argv[2], argv[3], starts, needs, allow, kernel)
    except BadInput as e:
        print(f"bootchain: {e}", file=sys.stderr)
        return 2
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"bootchain: {e}", file=sys.stderr)
        return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
