#!/usr/bin/env python3
"""Power cuts during a USB stick import, on the image itself.

QEMU runs the image's own kernel with its root and data partitions and a FAT stick as a second
disk; it is killed with SIGKILL at a chosen point of a `backdrop import`, then the data partition is
checked the way the box would find it at the next boot: its ext4 journal replayed (e2fsck, as the
kernel does at mount), `current` must name a whole generation, the old one or the new one, never a
mix, `previous` a whole generation too, and the current config must pass `backdrop check-config`
with its backdrops. Unlike tests/import-crash.sh (a process killed, the page cache surviving),
nothing that was not on the virtual disk survives here, so this checks the fsync placement too.

One boot, then snapshots: the guest's init (a script written into the test's copy of the root
partition with debugfs; no systemd) mounts the data partition and the stick, imports the stick's
`a/` once (so the box has a current and a previous generation, and the import under test has an
old generation to prune), prints SNAPSHOT-READY and blocks reading its serial console. The host
then saves the whole VM (RAM, devices and the data disk, a QEMU internal snapshot in the disk's
qcow2). Every run after that starts QEMU with -loadvm (disk and RAM back to that instant), writes
one line to the serial console, and the guest imports the stick's `b/` (ten other backdrops and
another config). A run costs a snapshot restore and the import, not a kernel boot.

How the points are chosen: the first run and every tenth after it is an uncut measuring run: it
times the import (IMPORT-START to IMPORT-END on the serial console) and records when the data
disk's flush count (QMP query-blockstats, polled every 3 ms) goes up. Each flush ends one durable
step of the import (a file's fsync, the seal's folder fsyncs, each of the two link switches, the
prune, the outcome file); the count is the same from run to run (56 here), the timing is not.
The cut trials rotate between four choices, from the latest measurements:
  time    a delay drawn uniformly from 0 to 1.1 times the import's duration (the median of the
          last three measured) after IMPORT-START: every phase in proportion to the time it
          takes, some after the end;
  flush   a flush k drawn uniformly from all the import's flushes, the cut a random part of that
          step's measured length after the k-th flush is seen: every durable step equally often,
          however short, and the cut follows the import's own progress, not the host's load;
  end     the same, k drawn from the last quarter of the flushes: the seal, the two switches,
          the prune and the outcome file, deliberately over-sampled;
  switch  the same, k drawn from the flushes after which an earlier trial found the seal or a
          switch under way on disk (one either side), the last quarter until one has: the short
          window between the two link switches is over-sampled on purpose.

Per trial the phase is read from the data partition after the cut, so it is the last durable
state, which may lag the guest (a mkdir not yet fsynced is lost with the cut): before staging,
staging (.staging-N present), sealed, not switched (N present, links unchanged), between the
switches (`previous` moved to the old current, `current` still old), switched, not pruned (the
oldest generation still there), pruned, and "pruned (import finished)" when IMPORT-END was seen
first. The end prints the counts per phase and old/new/bad; any bad trial fails the run and is
kept (its data partition and console) in build/powercut-bad/.

What is modelled and what is not: the data disk is qcow2 with QEMU's default writeback cache, so
a guest write that was not yet flushed may or may not survive a cut (QEMU's qcow2 metadata cache
is lost with the process): a disk with a volatile cache that honours FLUSH, at 64 KiB cluster
granularity. Not modelled: a card that acknowledges a FLUSH it did not perform, torn sectors, or
a cut inside one host write of QEMU's. The kernel and the import run under TCG, so their timing
is not the board's.

Usage: tests/image/powercut.py IMAGE.img|IMAGE.img.xz [TRIALS]    (TRIALS default 200)
"""
import collections
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOST_BACKDROP = os.environ.get("HOST_BACKDROP", os.path.join(REPO, ".build/release/backdrop"))
MEASURE_EVERY = 10
RUN_TIMEOUT = 600
POLL = 0.003
DATA = "/lib/backdrop"  # the data folder's path on the data partition (mounted on /var)
SNAPSHOT = "powercut"

MODES = ("time", "flush", "end", "switch")
SWITCHING = ("sealed, not switched", "between the switches", "switched, not pruned")
PHASES = ["before staging", "staging", "sealed, not switched", "between the switches",
          "switched, not pruned", "pruned", "pruned (import finished)"]

INIT = r"""#!/bin/sh
PATH=/usr/sbin:/usr/bin:/sbin:/bin
mountpoint -q /proc || mount -t proc proc /proc
mountpoint -q /sys || mount -t sysfs sys /sys
mountpoint -q /dev || mount -t devtmpfs dev /dev
mount -t tmpfs -o mode=0755 tmpfs /run
mount -t tmpfs tmpfs /tmp
mount -o rw,noatime,nosuid,nodev /dev/vda3 /var
modprobe vfat
mkdir /tmp/stick
mount -o ro,nosuid,nodev,noexec,noatime /dev/vdb /tmp/stick
/usr/bin/backdrop import /tmp/stick/a --data /var/lib/backdrop > /tmp/prep.log 2>&1
echo "PREP-END $?" > /dev/ttyAMA0
sed 's/^/PREP: /' /tmp/prep.log > /dev/ttyAMA0
sync
stty -echo < /dev/ttyAMA0
echo SNAPSHOT-READY > /dev/ttyAMA0
read go < /dev/ttyAMA0
echo IMPORT-START > /dev/ttyAMA0
/usr/bin/backdrop import /tmp/stick/b --data /var/lib/backdrop > /tmp/import.log 2>&1
echo "IMPORT-END $?" > /dev/ttyAMA0
sed 's/^/IMPORT: /' /tmp/import.log > /dev/ttyAMA0
umount /var
echo o > /proc/sysrq-trigger
sleep 10
"""


def fail(message):
    print(f"powercut: {message}", flush=True)
    sys.exit(1)


def run(args, **kw):
    return subprocess.run(args, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw).stdout


class Disk:
    """The test's copy of the image: partitions, kernel, the stick, the card as qcow2."""

    def __init__(self, tmp, image):
        self.tmp = tmp
        base = os.path.join(tmp, "base.img")
        if image.endswith(".xz"):
            with open(base, "wb") as out:
                subprocess.run(["xz", "-dc", image], check=True, stdout=out)
        else:
            run(["cp", "--sparse=always", image, base])
        table = json.loads(run(["sfdisk", "--json", base]))["partitiontable"]["partitions"]
        (boot, root, data) = [(p["start"], p["size"]) for p in table[:3]]
        self.data = data
        fat = f"{base}@@{boot[0] * 512}"
        self.kernel, self.initrd = os.path.join(tmp, "vmlinuz"), os.path.join(tmp, "initrd.img")
        run(["mcopy", "-i", fat, "::/vmlinuz", self.kernel])
        run(["mcopy", "-i", fat, "::/initrd.img", self.initrd])
        cmdline = run(["mtype", "-i", fat, "::/cmdline.txt"]).decode()
        self.rootdev = next(w for w in cmdline.split() if w.startswith("root=PARTUUID="))
        self.write_init(base, root)
        self.card = os.path.join(tmp, "card.qcow2")
        run(["qemu-img", "convert", "-f", "raw", "-O", "qcow2", base, self.card])
        os.remove(base)
        self.stick = os.path.join(tmp, "stick.img")
        self.make_stick()

    def write_init(self, base, root):
        init = os.path.join(self.tmp, "powercut-init")
        with open(init, "w") as f:
            f.write(INIT)
        os.chmod(init, 0o755)
        ext4 = os.path.join(self.tmp, "root.ext4")
        dd = ["dd", f"if={base}", f"of={ext4}", "bs=512", f"skip={root[0]}", f"count={root[1]}", "status=none"]
        run(dd)
        script = os.path.join(self.tmp, "debugfs.cmd")
        with open(script, "w") as f:
            f.write(f"cd /usr/lib/backdrop\nwrite {init} powercut-init\n")
        run(["debugfs", "-w", "-f", script, ext4])
        run(["dd", f"if={ext4}", f"of={base}", "bs=512", f"seek={root[0]}", "conv=notrunc", "status=none"])
        os.remove(ext4)

    def make_stick(self):
        """Two stick roots: a/ (the prepared old generation) and b/ (the import under test), ten
        different backdrops and a different config each, FAT by mkfs.vfat and mtools."""
        frames = os.path.join(self.tmp, "frames")
        subprocess.run([HOST_BACKDROP, "demo", "--frames", "20", "--size", "640x360", "--out", frames],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        names = sorted(n for n in os.listdir(frames) if n.endswith(".png"))
        if len(names) < 20:
            fail(f"the demo made {len(names)} frames, not 20")
        run(["mkfs.vfat", "-C", "-n", "STICK", self.stick, "65536"])
        for root, far, chosen in (("a", 2500, names[:10]), ("b", 3000, names[10:20])):
            run(["mmd", "-i", self.stick, f"::/{root}", f"::/{root}/backdrop", f"::/{root}/backdrop/backgrounds"])
            for i, name in enumerate(chosen):
                run(["mcopy", "-i", self.stick, os.path.join(frames, name), f"::/{root}/backdrop/backgrounds/frame-{i}.png"])
            conf = os.path.join(self.tmp, f"{root}.conf")
            with open(conf, "w") as f:
                f.write(f"[matte]\nfar_mm = {far}\n")
            run(["mcopy", "-i", self.stick, conf, f"::/{root}/backdrop/backdrop.conf"])

    def data_partition(self, out):
        """The card's data partition as it is now (the active state of the qcow2), raw, in OUT."""
        start, size = self.data
        opts = f"driver=raw,offset={start * 512},size={size * 512},file.driver=qcow2,file.file.filename={self.card}"
        run(["qemu-img", "convert", "-O", "raw", "--image-opts", opts, out])


class QmpGone(Exception):
    """QEMU went away (the guest powered off) while a QMP command was under way."""


class Qemu:
    """One QEMU process: the serial console on its stdio, QMP on a socket."""

    def __init__(self, disk, loadvm):
        self.sock_path = os.path.join(disk.tmp, "qmp.sock")
        if os.path.exists(self.sock_path):
            os.remove(self.sock_path)
        args = ["nice", "-n", "10", "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-accel", "tcg",
                "-smp", "1", "-m", "512", "-no-reboot", "-display", "none", "-monitor", "none",
                "-kernel", disk.kernel, "-initrd", disk.initrd,
                "-append", f"console=ttyAMA0 {disk.rootdev} rootfstype=ext4 ro rootwait panic=-1 loglevel=3 "
                           "init=/usr/lib/backdrop/powercut-init",
                "-drive", f"if=none,file={disk.card},format=qcow2,id=card", "-device", "virtio-blk-pci,drive=card",
                "-drive", f"if=none,file={disk.stick},format=raw,id=stick,readonly=on",
                "-device", "virtio-blk-pci,drive=stick",
                "-serial", "stdio", "-qmp", f"unix:{self.sock_path},server=on,wait=off"]
        if loadvm:
            args += ["-loadvm", SNAPSHOT]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.console = b""
        self.qmp = None
        self.qmp_buffer = b""

    def read_console(self):
        try:
            chunk = os.read(self.proc.stdout.fileno(), 65536)
        except BlockingIOError:
            return
        if chunk:
            self.console += chunk

    def connect(self, deadline):
        while self.qmp is None:
            if self.proc.poll() is not None:
                fail(f"QEMU exited at start-up: {self.proc.stderr.read().decode(errors='replace')[-2000:]}")
            if time.monotonic() > deadline:
                fail("QMP did not answer")
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(self.sock_path)
                self.qmp = s
            except OSError:
                time.sleep(0.05)
        self.reply()  # the greeting
        self.command("qmp_capabilities")

    def reply(self):
        while True:
            while b"\n" not in self.qmp_buffer:
                try:
                    chunk = self.qmp.recv(65536)
                except OSError:
                    raise QmpGone()
                if not chunk:
                    raise QmpGone()
                self.qmp_buffer += chunk
            line, self.qmp_buffer = self.qmp_buffer.split(b"\n", 1)
            message = json.loads(line)
            if "event" not in message:
                return message

    def command(self, name, **arguments):
        try:
            self.qmp.sendall(json.dumps({"execute": name, "arguments": arguments}).encode() + b"\n")
        except OSError:
            raise QmpGone()
        message = self.reply()
        if "error" in message:
            fail(f"QMP {name}: {message['error']}")
        return message["return"]

    def flushes(self):
        for device in self.command("query-blockstats"):
            if device.get("device") == "card":
                return device["stats"]["flush_operations"]
        fail("no 'card' in query-blockstats")

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        if self.qmp:
            self.qmp.close()


def debugfs(image, request):
    return subprocess.run(["debugfs", "-R", request, image], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode(errors="replace")


def link_target(image, name):
    for line in debugfs(image, f"stat {DATA}/{name}").splitlines():
        if line.startswith("Fast link dest: "):
            return line[len('Fast link dest: "'):-1]
    return None


def manifest(folder):
    """A generation's content: its backdrops' hashes and its config's far_mm line."""
    lines = []
    backgrounds = os.path.join(folder, "backgrounds")
    if os.path.isdir(backgrounds):
        for name in sorted(os.listdir(backgrounds)):
            lines.append(run(["sha256sum", name], cwd=backgrounds).decode().strip())
    conf = os.path.join(folder, "backdrop.conf")
    if os.path.isfile(conf):
        with open(conf, errors="replace") as f:
            lines += [line.strip() for line in f if line.startswith("far_mm")]
    return "\n".join(lines)


class State:
    """What the next boot finds on the data partition: links, generations, their contents."""

    def __init__(self, disk, tmp):
        image = os.path.join(tmp, "data.ext4")
        if os.path.exists(image):
            os.remove(image)
        disk.data_partition(image)
        fsck = subprocess.run(["e2fsck", "-fy", image], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.fsck = fsck.returncode
        self.fsck_log = fsck.stdout.decode(errors="replace")
        self.current = link_target(image, "current")
        self.previous = link_target(image, "previous")
        self.generations = set()
        for line in debugfs(image, f"ls -p {DATA}/generations").splitlines():
            fields = line.split("/")
            if len(fields) > 5 and fields[5] not in (".", ".."):
                self.generations.add(fields[5])
        self.contents = {}
        for link, target in (("current", self.current), ("previous", self.previous)):
            if target is None:
                continue
            dump = os.path.join(tmp, "dump-" + link)
            shutil.rmtree(dump, ignore_errors=True)
            os.mkdir(dump)
            debugfs(image, f"rdump {DATA}/{target} {dump}")
            folder = os.path.join(dump, os.path.basename(target))
            self.contents[link] = (manifest(folder), folder)


def gen(target):
    return target.split("/", 1)[1] if target and target.startswith("generations/") else target


class Measure:
    """The latest uncut runs' import durations and flush timelines."""

    def __init__(self):
        self.runs = collections.deque(maxlen=3)  # (duration, [seconds after start of flush 1, 2, ...])

    def add(self, duration, flush_times):
        self.runs.append((duration, flush_times))

    def duration(self):
        return statistics.median(d for d, _ in self.runs)

    def latest_flushes(self):
        return self.runs[-1][1]


def one_run(disk, cut):
    """Restores the snapshot, releases the import, cuts by CUT (a function of (seconds since
    IMPORT-START, the seconds after it at which each flush was seen) -> bool; None: uncut).
    Returns (finished, exit line, seconds, flush times, cut at)."""
    qemu = Qemu(disk, loadvm=True)
    try:
        deadline = time.monotonic() + RUN_TIMEOUT
        qemu.connect(deadline)
        baseline = qemu.flushes()
        qemu.proc.stdin.write(b"go\n")
        qemu.proc.stdin.flush()
        start = None
        flush_times = []
        end = None
        cut_at = None
        while True:
            qemu.read_console()
            now = time.monotonic()
            if now > deadline:
                fail(f"a run took over {RUN_TIMEOUT} s: {qemu.console[-2000:].decode(errors='replace')}")
            if start is None and b"IMPORT-START" in qemu.console:
                start = now
            if end is None and b"IMPORT-END" in qemu.console:
                end = now
            if qemu.proc.poll() is not None:
                break
            if start is not None:
                try:
                    count = qemu.flushes() - baseline
                except QmpGone:
                    qemu.proc.wait()
                    qemu.read_console()
                    if end is None and b"IMPORT-END" in qemu.console:
                        end = time.monotonic()
                    break
                while end is None and len(flush_times) < count:
                    flush_times.append(now - start)
                if cut is not None and cut(now - start, flush_times):
                    qemu.proc.kill()
                    cut_at = now - start
                    break
            time.sleep(POLL)
        qemu.kill()
        qemu.read_console()
    finally:
        qemu.kill()
    console = qemu.console.decode(errors="replace")
    exit_line = next((line for line in console.splitlines() if line.startswith("IMPORT-END")), None)
    seconds = (end - start) if (end is not None and start is not None) else None
    return exit_line, seconds, flush_times, cut_at, console


def check_qcow2(disk):
    """Leaked clusters from the killed process are repaired (space only); a corruption would make
    the harness unsound, so it stops the run."""
    result = subprocess.run(["qemu-img", "check", "-r", "leaks", disk.card], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if result.returncode not in (0, 3):
        fail(f"qemu-img check of the card's qcow2 failed ({result.returncode}): {result.stdout.decode(errors='replace')[-1500:]}")


def prepare(disk):
    """The one boot: the prepared import of a/, then the VM saved at SNAPSHOT-READY."""
    qemu = Qemu(disk, loadvm=False)
    try:
        deadline = time.monotonic() + RUN_TIMEOUT
        qemu.connect(deadline)
        while b"SNAPSHOT-READY" not in qemu.console:
            if qemu.proc.poll() is not None or time.monotonic() > deadline:
                qemu.read_console()
                fail(f"the guest did not reach SNAPSHOT-READY: {qemu.console[-3000:].decode(errors='replace')}")
            qemu.read_console()
            time.sleep(0.05)
        console = qemu.console.decode(errors="replace")
        if "PREP-END 0" not in console:
            fail(f"the prepared import of a/ did not finish with 0: {console[-3000:]}")
        time.sleep(2)  # the guest is then blocked in its read of the console
        qemu.command("stop")
        out = qemu.command("human-monitor-command", **{"command-line": f"savevm {SNAPSHOT}"})
        if out.strip():
            fail(f"savevm: {out.strip()}")
        qemu.command("quit")
        qemu.proc.wait(timeout=60)
    finally:
        qemu.kill()


def main():
    # make's SIGTERM (or a ^C) unwinds through the finally blocks: QEMU killed, the folder removed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    if len(sys.argv) < 2:
        fail("usage: powercut.py IMAGE.img|IMAGE.img.xz [TRIALS]")
    image, trials = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 200
    if not os.access(HOST_BACKDROP, os.X_OK):
        fail(f"no host build at {HOST_BACKDROP} (make build)")
    tmp = tempfile.mkdtemp(prefix="backdrop-powercut.")
    try:
        began = time.monotonic()
        disk = Disk(tmp, image)
        prepare(disk)
        old = State(disk, tmp)
        old_current, old_previous = gen(old.current), gen(old.previous)
        if old.fsck > 1 or not old_current or not old_previous or old_current == old_previous:
            fail(f"the prepared data partition has current {old.current}, previous {old.previous} (fsck {old.fsck})")
        known = {"old": old.contents["current"][0], "older": old.contents["previous"][0]}
        print(f"powercut: VM saved after one boot in {time.monotonic() - began:.0f} s; old generation {old_current}, "
              f"previous {old_previous}", flush=True)

        measures = Measure()
        new_name = None
        counts = collections.Counter()
        verdicts = collections.Counter()
        by_mode = collections.Counter()
        bad = []
        trial = 0
        run_index = 0
        trial_seconds = []
        not_cut = 0
        switch_seen = set()  # flushes after which a cut found the seal or a switch under way
        rng = random.Random(int.from_bytes(os.urandom(8), "little"))
        while trial < trials:
            if run_index % (MEASURE_EVERY + 1) == 0:
                t0 = time.monotonic()
                exit_line, seconds, flush_times, _, console = one_run(disk, None)
                state = State(disk, tmp)
                check_qcow2(disk)
                if exit_line != "IMPORT-END 0" or seconds is None:
                    fail(f"an uncut import did not finish with 0: {console[-3000:]}")
                if state.fsck > 1 or "current" not in state.contents:
                    fail(f"after an uncut import: fsck {state.fsck}, current {state.current}")
                if new_name is None:
                    new_name = gen(state.current)
                    known["new"] = state.contents["current"][0]
                    if known["new"] == known["old"] or new_name == old_current:
                        fail("the stick's b/ made no different generation")
                elif gen(state.current) != new_name or state.contents["current"][0] != known["new"]:
                    fail(f"an uncut import made {state.current}, not the first one's {new_name}")
                measures.add(seconds, flush_times)
                print(f"measure: an uncut import took {seconds:.2f} s, {len(flush_times)} flushes "
                      f"(run {time.monotonic() - t0:.1f} s with restore and check)", flush=True)
                run_index += 1
                continue
            run_index += 1
            trial += 1
            t0 = time.monotonic()
            mode = MODES[trial % len(MODES)]
            flushes = measures.latest_flushes()
            duration = measures.duration()
            if mode == "time" or not flushes:
                delay = rng.uniform(0, duration * 1.1)
                point = f"{delay:.3f} s after the start"
                cut = lambda elapsed, seen: elapsed >= delay
            else:
                total = len(flushes)
                first, last = 1, total
                if mode == "end" or (mode == "switch" and not switch_seen):
                    first = max(1, total - (total + 3) // 4 + 1)
                elif mode == "switch":
                    first, last = max(1, min(switch_seen) - 1), min(total, max(switch_seen) + 1)
                k = rng.randint(first, last)
                step = (flushes[k] if k < total else duration) - flushes[k - 1]
                after = rng.uniform(0, max(step, 0.0))
                point = f"{after * 1000:.0f} ms after flush {k} of {total}"
                cut = lambda elapsed, seen: len(seen) >= k and elapsed - seen[k - 1] >= after
            exit_line, seconds, _, cut_at, console = one_run(disk, cut)
            finished = exit_line is not None
            state = State(disk, tmp)
            check_qcow2(disk)
            verdict, phase = judge(state, known, old_current, old_previous, new_name, finished)
            trial_seconds.append(time.monotonic() - t0)
            cut_text = f"{cut_at:.3f} s" if cut_at is not None else "never: the guest powered off first"
            print(f"trial {trial} [{mode}]: {point} (cut at {cut_text}): on disk {phase}: {verdict}", flush=True)
            counts[phase] += 1
            not_cut += cut_at is None
            if mode != "time" and phase in SWITCHING:
                switch_seen.add(k)
            by_mode[mode] += 1
            if verdict.startswith("BAD"):
                verdicts["bad"] += 1
                keep = os.path.join(REPO, "build", "powercut-bad", f"trial-{trial}")
                os.makedirs(keep, exist_ok=True)
                with open(os.path.join(keep, "report.txt"), "w") as f:
                    f.write(f"{point}\n{verdict}\n{state.fsck_log}\n{console}\n")
                shutil.copy(os.path.join(tmp, "data.ext4"), os.path.join(keep, "data.ext4"))
                bad.append(trial)
            else:
                verdicts[verdict.split()[1]] += 1
        print("powercut: phases hit: " + ", ".join(f"{p} {counts[p]}" for p in PHASES if counts[p])
              + "".join(f", {p} {n}" for p, n in counts.items() if p not in PHASES), flush=True)
        per_trial = statistics.mean(trial_seconds) if trial_seconds else 0
        print(f"powercut: {trials} trials ({', '.join(f'{by_mode[m]} {m}' for m in MODES)}; "
              f"{per_trial:.1f} s a trial, {time.monotonic() - began:.0f} s in all): {verdicts['old']} old, "
              f"{verdicts['new']} new, {verdicts['bad']} bad; {not_cut} not cut (the guest powered off first)", flush=True)
        if bad:
            fail(f"bad trials {bad}: kept in build/powercut-bad/")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def judge(state, known, old_current, old_previous, new_name, finished):
    """(verdict, phase) of one cut: which generation `current` is, and where the cut fell."""
    cur, prev = gen(state.current), gen(state.previous)
    gens = state.generations
    if cur == new_name:
        phase = "switched, not pruned" if old_previous in gens else "pruned"
        if phase == "pruned" and finished:
            phase = "pruned (import finished)"
    elif cur == old_current and prev == old_current:
        phase = "between the switches"
    elif cur == old_current and prev == old_previous:
        if new_name in gens:
            phase = "sealed, not switched"
        elif f".staging-{new_name}" in gens:
            phase = "staging"
        else:
            phase = "before staging"
    else:
        phase = f"unexpected links (current {state.current}, previous {state.previous})"
    if state.fsck > 1:
        return f"BAD: e2fsck exit {state.fsck}", phase
    if "current" not in state.contents:
        return f"BAD: no current ({state.current})", phase
    found = state.contents["current"][0]
    which = "new" if cur == new_name and found == known["new"] else "old" if cur == old_current and found == known["old"] else None
    if which is None:
        return f"BAD: current {state.current} is neither the old nor the new generation", phase
    if "previous" not in state.contents or state.contents["previous"][0] not in (known["old"], known["older"]):
        return f"BAD: previous {state.previous} is not a whole generation", phase
    folder = state.contents["current"][1]
    check = subprocess.run([HOST_BACKDROP, "check-config", os.path.join(folder, "backdrop.conf"),
                            "--backgrounds", os.path.join(folder, "backgrounds")],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if check.returncode != 0:
        return f"BAD: check-config refused {state.current}: {check.stdout.decode(errors='replace')[:300]}", phase
    return f"ok: {which} ({cur})", phase


if __name__ == "__main__":
    main()
