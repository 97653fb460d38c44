#!/usr/bin/env python3
"""profile-printk.py - where a printk() spends its instructions, per kernel
function, with CONFIG_KPRINT against the stock kernel (issue 24's "%pV"
cost).

Boots the kprint and stock kernels that the last check-kernel.sh run left in
its cache (no KASLR) under qemu-system-x86_64 (TCG, one vCPU) with an /init
that loads kprint_test.ko, warms its single-CPU benchmark up and then, while
QEMU logs every translation block it runs ("-d in_asm" from the start, the
monitor's "log in_asm,exec,nochain" switched on around the measured calls),
runs the benchmark once more: N calls of printk() (--pv 0) or of
kp_pv_msg(), a "%pV" wrapper built as ext4_msg() is (--pv 1), five loops.
Each block's instructions are counted from its translation, each run of it
is charged to the function its address falls in (System.map), and the
report lists the instructions per call of every function, both kernels
side by side, the largest differences first.  The counts are exclusive
(a function's own instructions, not its callees').

The guest tells the host when it is ready on a second serial port and
waits for the host's answer, so the log covers the measured calls only
(and the timer interrupts meanwhile).

Usage: profile-printk.py [--pv 0|1] [--n N] [--top K] [--keep DIR]
"""
import argparse
import bisect
import collections
import gzip
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

CACHE = os.environ.get("KDMESG_KERNEL_CACHE", os.path.expanduser("~/.cache/kdmesg-kernel"))


def mkroot(work, variant, pv, n):
    root = os.path.join(work, variant)
    for d in ("bin", "proc", "sys", "dev"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    shutil.copy("/bin/busybox", os.path.join(root, "bin/busybox"))
    for a in ("sh", "mount", "insmod", "cat", "echo", "sleep", "reboot"):
        os.symlink("busybox", os.path.join(root, "bin", a))
    shutil.copy(os.path.join(CACHE, variant, "module/kprint_test.ko"), root)
    with open(os.path.join(root, "init"), "w") as fh:
        fh.write("""#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
insmod /kprint_test.ko
P=/sys/module/kprint_test/parameters
echo 1 > /proc/sys/kernel/printk
echo %d > $P/bench_pv
echo 1000 > $P/bench
exec 3<>/dev/ttyS1
echo GO >&3
read x <&3
echo %d > $P/bench
echo END >&3
read x <&3
reboot -f
""" % (pv, n))
    os.chmod(os.path.join(root, "init"), 0o755)
    cpio = os.path.join(work, variant + ".cpio.gz")
    files = subprocess.run("cd %s && find . | LC_ALL=C sort" % root, shell=True,
                           check=True, capture_output=True).stdout
    data = subprocess.run(["cpio", "-o", "-H", "newc", "-R", "0:0", "--quiet"], cwd=root,
                          input=files, check=True, capture_output=True).stdout
    with gzip.open(cpio, "wb", compresslevel=1) as fh:
        fh.write(data)
    return cpio


def boot(work, variant, cpio):
    """Boots @variant; returns the path of QEMU's log of the measured part."""
    log = os.path.join(work, variant + ".qemu.log")
    mon = os.path.join(work, variant + ".mon")
    ser = os.path.join(work, variant + ".ser")
    q = subprocess.Popen(
        ["qemu-system-x86_64", "-accel", "tcg", "-m", "256", "-smp", "1",
         "-kernel", os.path.join(CACHE, variant, "obj/arch/x86/boot/bzImage"),
         "-initrd", cpio,
         "-append", "console=ttyS0 rdinit=/init loglevel=1 panic=-1 kunit.enable=0 "
                    "no_timer_check nokaslr",
         "-display", "none", "-nodefaults", "-no-reboot",
         "-monitor", "unix:%s,server,nowait" % mon,
         "-serial", "null", "-chardev", "socket,id=s1,path=%s,server=on,wait=on" % ser,
         "-serial", "chardev:s1", "-d", "in_asm", "-D", log],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        s = None
        for _ in range(100):
            try:
                s = socket.socket(socket.AF_UNIX)
                s.connect(ser)
                break
            except OSError:
                s = None
                time.sleep(0.1)
        if s is None:
            raise SystemExit("profile-printk.py: QEMU's serial socket did not open")
        m = socket.socket(socket.AF_UNIX)
        for _ in range(100):
            try:
                m.connect(mon)
                break
            except OSError:
                time.sleep(0.1)
        s.settimeout(600)
        m.settimeout(30)

        def wait_for(word):
            buf = b""
            while word not in buf:
                d = s.recv(4096)
                if not d:
                    raise SystemExit("profile-printk.py: %s: no %s from the guest"
                                     % (variant, word.decode()))
                buf += d

        def monitor(cmd):
            m.sendall(cmd.encode() + b"\n")
            time.sleep(0.2)
            try:
                m.recv(65536)
            except socket.timeout:
                pass

        # QEMU's log has blocks run ("Trace" lines) only while the
        # measured calls run (and the guest's idle loop around them)
        wait_for(b"GO")
        monitor("log in_asm,exec,nochain")
        s.sendall(b"\n")
        wait_for(b"END")
        monitor("log in_asm")
        s.sendall(b"\n")
        q.wait(timeout=120)
    finally:
        if q.poll() is None:
            q.kill()
    return log


TB_INSN = re.compile(r"^0x([0-9a-f]+):\s")
EXEC = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")


def count(log):
    """{pc: instructions of the block at pc} and the pcs of blocks run in
    the measured part, in order"""
    sizes = {}
    runs = []
    cur = None
    with open(log, errors="replace") as fh:
        for line in fh:
            if line.startswith("IN:"):
                cur = None
                continue
            m = TB_INSN.match(line)
            if m:
                pc = int(m.group(1), 16)
                if cur is None:
                    cur = pc
                    sizes[cur] = 0
                sizes[cur] += 1
                continue
            if line.startswith("-----") or not line.strip():
                cur = None
            e = EXEC.match(line)
            if e:
                runs.append(int(e.group(1), 16))
    return sizes, runs


def symbols(variant):
    addrs, names = [], []
    with open(os.path.join(CACHE, variant, "obj/System.map")) as fh:
        for line in fh:
            a, t, name = line.split()[:3]
            if t.lower() in ("t", "w"):
                addrs.append(int(a, 16))
                names.append(name)
    order = sorted(range(len(addrs)), key=lambda i: addrs[i])
    return [addrs[i] for i in order], [names[i] for i in order]


def profile(variant, log, calls):
    sizes, runs = count(log)
    addrs, names = symbols(variant)
    per = collections.Counter()
    missing = 0
    for pc in runs:
        n = sizes.get(pc)
        if n is None:
            missing += 1
            continue
        i = bisect.bisect_right(addrs, pc) - 1
        name = names[i] if i >= 0 and pc >= 0xffffffff80000000 and pc < 0xffffffffa0000000 \
            else ("(module)" if pc >= 0xffffffffa0000000 else "(user)")
        per[name] += n
    return {k: v / calls for k, v in per.items()}, missing


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pv", type=int, default=1)
    ap.add_argument("--n", type=int, default=20, help="calls per loop (5 loops)")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--keep", help="keep QEMU's logs in this directory")
    a = ap.parse_args()
    work = a.keep or tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    calls = 5 * a.n
    prof = {}
    try:
        for v in ("kprint", "stock"):
            for f in ("obj/arch/x86/boot/bzImage", "module/kprint_test.ko", "obj/System.map"):
                if not os.path.exists(os.path.join(CACHE, v, f)):
                    sys.exit("profile-printk.py: no %s; run check-kernel.sh first"
                             % os.path.join(CACHE, v, f))
            log = boot(work, v, mkroot(work, v, a.pv, a.n))
            prof[v], missing = profile(v, log, calls)
            if missing:
                print("# %s: %d runs of blocks whose translation was not logged" % (v, missing))
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    k, s = prof["kprint"], prof["stock"]
    tk, ts = sum(k.values()), sum(s.values())
    what = "kp_pv_msg() (a \"%pV\" wrapper)" if a.pv else "printk()"
    print("profile-printk.py: %s, %d calls, instructions per call (TCG, QEMU's block log)"
          % (what, calls))
    print("total: %.0f with CONFIG_KPRINT, %.0f stock: %.3fx" % (tk, ts, tk / ts))
    print()
    print("| function | CONFIG_KPRINT=y | stock | difference |")
    print("|---|---:|---:|---:|")
    names = sorted(set(k) | set(s), key=lambda n: -abs(k.get(n, 0) - s.get(n, 0)))
    for n in names[:a.top]:
        print("| %s | %.0f | %.0f | %+.0f |" % (n, k.get(n, 0), s.get(n, 0),
                                             k.get(n, 0) - s.get(n, 0)))


if __name__ == "__main__":
    main()
