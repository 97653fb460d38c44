#!/usr/bin/env python3
"""Stack cost of CONFIG_KPRINT on every printk entry path (called by
check-records.py, and by check-small.py for arm64; also runs alone:
check-stack.py STOCK_OBJ KPRINT_OBJ [x86_64|arm64] [--frames]; --frames
prints each path's deepest chains with every function's frame).

The deepest stack each entry point can reach, read from the disassembly of
the stock and the kprint vmlinux (objdump -d) over the call graph of
printk's own code: the functions defined in kernel/printk/*.o, lib/vsprintf.o,
lib/dynamic_debug.o, drivers/base/core.o and net/core/dev.o (the console
drivers, locks and the scheduler below them are the same code in both
kernels and are not followed; nor are indirect calls).

  frame     8 bytes of return address, 8 per register pushed, the largest
            "sub $N,%rsp" or "add $-N,%rsp" (GCC shrink-wraps, so the whole
            function is read)
            (arm64: the pre-indexed stores, "stp x29, x30, [sp, #-N]!", and
            the largest "sub sp, sp, #N"; the return address is in x30,
            saved inside that frame)
  call      the callee's depth adds to the caller's frame
  tail call a jmp to another function: the caller's frame is gone by then
  pointer() the conversions below it are the same code in both kernels and
            are not followed, except "%pV" (va_format()), which formats the
            caller's format again: depths are given without "%pV" and with
            one level of it

Each entry path is measured twice: its whole depth (storing the record and
printing it on the consoles, extended consoles with their dictionary
lines included) and the store alone (console flushing cut).  The growth is
the deepest kprint entry of a path minus the deepest stock entry of it;
the run fails when any growth is above GOAL bytes.
"""

import os
import re
import subprocess
import sys

GOAL = 64

OBJS = ["lib/vsprintf.o", "lib/dynamic_debug.o", "drivers/base/core.o", "net/core/dev.o"]

# path: (stock entry points, kprint entry points); the kprint kernel keeps
# the stock functions for callers without a call site (and non-constant
# levels), so they are measured there too
PATHS = [
    ("printk(), pr_*(), pr_cont()", ["_printk"], ["_printk", "_printk_site", "_printk_sitefmt"]),
    ("printk_deferred()", ["_printk_deferred"],
     ["_printk_deferred", "_printk_deferred_site", "_printk_deferred_sitefmt"]),
    ("dev_*(), dev_printk()", ["_dev_err", "_dev_warn", "_dev_info", "_dev_printk"],
     ["_dev_err", "_dev_warn", "_dev_info", "_dev_printk", "_dev_printk_site",
      "_dev_printk_sitefmt"]),
    ("netdev_*(), netdev_printk()", ["netdev_err", "netdev_printk"],
     ["netdev_err", "netdev_printk", "netdev_printk_site"]),
    # a group is one record; its stock counterpart is the printk() of a line
    ("kprint_buffer_flush() (group) vs printk()", ["_printk"], ["kprint_buffer_flush"]),
]
# new entry points without a stock counterpart: reported only
NEW = ["_kprint_site", "_kprint_buffer", "kprint_asm", "kprint_asm_site", "kprint_early"]

# "%pV": where the formatting loop is entered again
PV = ("va_format", "vsnprintf_args_pv")

# the console side of printk(): cut for the "store" depth
CONSOLE = ("console_unlock", "console_flush_all", "__console_flush_and_unlock",
           "nbcon_atomic_flush_pending", "nbcon_kthreads_wake", "defer_console_output",
           "wake_up_klogd", "console_trylock_spinning", "nbcon_cpu_emergency_flush",
           "kprint_output", "irq_work_queue")

HEAD = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
BRANCH = re.compile(r"(call|jmp)\s+[0-9a-f]+ <([^>+]+)>$")
PUSH = re.compile(r"push\s+%r[a-z0-9]+$")
SUB = re.compile(r"sub\s+\$0x([0-9a-f]+),%rsp")
# GCC allocates exactly 128 bytes with "add $-128,%rsp" (a one-byte
# immediate, which +128 is not): objdump shows the 64-bit two's complement
ADD_NEG = re.compile(r"add\s+\$0x(f{8}[0-9a-f]{8}),%rsp")

# arm64 (check-arm64.sh): "bl" calls, "b"/"b.<cond>" to another function
# are tail calls; the frame is what the pre-indexed stores ("stp x29, x30,
# [sp, #-N]!") and "sub sp, sp, #N" take: the return address is in x30,
# saved inside that frame, not pushed by the call
A64_BRANCH = re.compile(r"(bl|b|b\.[a-z]+)\s+[0-9a-f]+ <([^>+]+)>$")
A64_PRE = re.compile(r"\[sp, #-(\d+)\]!")
A64_SUB = re.compile(r"sub\s+sp, sp, #(0x[0-9a-f]+|\d+)(, lsl #12)?$")

# tools per architecture: objdump and nm of the host for x86_64, Debian's
# cross binutils for arm64
TOOLS = {"x86_64": ("objdump", "nm"),
         "arm64": ("aarch64-linux-gnu-objdump", "aarch64-linux-gnu-nm")}


def base(name):
    """va_format.constprop.0 -> va_format"""
    return re.sub(r"(\.(constprop|isra|part|cold)\.\d+)+$", "", name)


def graph(vmlinux, arch="x86_64"):
    """{function: frame}, {function: callees}, {function: tail-called}"""
    out = subprocess.run([TOOLS[arch][0], "-d", "--no-show-raw-insn", vmlinux],
                         capture_output=True, text=True, check=True).stdout
    if arch == "arm64":
        return graph_a64(out)
    frame, calls, jmps = {}, {}, {}
    cur, regs, sub = None, set(), 0
    for line in out.split("\n") + ["0 <end>:"]:
        m = HEAD.match(line)
        if m:
            if cur:
                frame[cur] = max(frame.get(cur, 0), 8 + 8 * len(regs) + sub)
            cur = base(m.group(1))
            regs, sub = set(), 0
            calls.setdefault(cur, set())
            jmps.setdefault(cur, set())
            continue
        if not cur or "\t" not in line:
            continue
        ins = line.split("\t", 1)[-1].strip()
        m = BRANCH.match(ins)
        if m:
            to = base(m.group(2))
            if to != cur:
                (calls if m.group(1) == "call" else jmps)[cur].add(to)
            continue
        if PUSH.match(ins):
            regs.add(ins.split("%")[1])
            continue
        m = SUB.match(ins)
        if m and int(m.group(1), 16) < 0x10000:
            sub = max(sub, int(m.group(1), 16))
        m = ADD_NEG.match(ins)
        if m and (1 << 64) - int(m.group(1), 16) < 0x10000:
            sub = max(sub, (1 << 64) - int(m.group(1), 16))
    return frame, calls, jmps


def graph_a64(out):
    """graph() of an arm64 disassembly"""
    frame, calls, jmps = {}, {}, {}
    cur, pre, sub, hi = None, 0, 0, 0
    for line in out.split("\n") + ["0 <end>:"]:
        m = HEAD.match(line)
        if m:
            if cur:
                frame[cur] = max(frame.get(cur, 0), pre + sub)
            cur = base(m.group(1))
            pre, sub, hi = 0, 0, 0
            calls.setdefault(cur, set())
            jmps.setdefault(cur, set())
            continue
        if not cur or "\t" not in line:
            continue
        ins = re.sub(r"\s*//.*$", "", line.split("\t", 1)[-1]).strip()
        # a frame of 4 KiB or more: "sub sp, sp, #N, lsl #12" and then the
        # rest in a plain "sub" right after it; the two add up
        last_hi, hi = hi, 0
        m = A64_BRANCH.match(ins)
        if m:
            to = base(m.group(2))
            if to != cur:
                (calls if m.group(1) == "bl" else jmps)[cur].add(to)
            continue
        m = A64_PRE.search(ins)
        if m and ins.startswith(("stp", "str")):
            pre += int(m.group(1))
            continue
        m = A64_SUB.match(ins)
        if m:
            n = int(m.group(1), 0) << (12 if m.group(2) else 0)
            if m.group(2):
                hi = n
            else:
                n += last_hi
            if n < 0x10000:
                sub = max(sub, n)
    return frame, calls, jmps


def printk_functions(objdir, arch="x86_64"):
    names = set()
    pk = os.path.join(objdir, "kernel", "printk")
    objs = [os.path.join(pk, f) for f in sorted(os.listdir(pk))
            if f.endswith(".o") and "kunit" not in f and f != "built-in.a"] if os.path.isdir(pk) else []
    objs += [os.path.join(objdir, o) for o in OBJS]
    for o in objs:
        if not os.path.exists(o):
            continue
        out = subprocess.run([TOOLS[arch][1], "--defined-only", o], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in "tT":
                names.add(base(p[2]))
    return names


class Depth:
    def __init__(self, vmlinux, objdir, arch="x86_64"):
        self.frame, calls, jmps = graph(vmlinux, arch)
        keep = printk_functions(objdir, arch)
        self.calls = {f: {c for c in cs if c in keep} for f, cs in calls.items()}
        self.jmps = {f: {c for c in cs if c in keep} for f, cs in jmps.items()}
        # conversions below pointer(): only "%pV" goes on
        self.calls["pointer"] = {c for c in self.calls.get("pointer", ()) if c == "va_format"}
        self.jmps["pointer"] = {c for c in self.jmps.get("pointer", ()) if c == "va_format"}

    def worst(self, root, recursion, cut=()):
        """(bytes, [functions]) of the deepest path from @root; a function
        already on the path is entered again only through "%pV", at most
        @recursion times.

        Every path is walked (about 15 s for the four entry paths of both
        kernels): a result depends on the functions above it on the path,
        so it cannot be memoised by function.  The memo this had until
        2026-12-06 made the figure depend on the order of Python's set
        iteration, which changes from run to run (1,200 or 1,088 bytes for
        one kernel's printk() with consoles)."""
        on = {}

        def d(f, level):
            if f not in self.frame or f in cut:
                return 0, []
            on[f] = on.get(f, 0) + 1
            fr = self.frame[f]
            best = (fr, [f])
            for edges, own in ((self.calls[f], fr), (self.jmps[f], 0)):
                for c in sorted(edges):
                    lv = level
                    if on.get(c):
                        # only "%pV" formats again
                        if f not in PV or level >= recursion or on[c] > 1:
                            continue
                        lv = level + 1
                    v, p = d(c, lv)
                    if own + v > best[0]:
                        best = (own + v, [f if own else f + "(jmp)"] + p)
            on[f] -= 1
            return best

        return d(root, 0)

    def path(self, entries, recursion, cut=()):
        found = [e for e in entries if e in self.frame]
        if not found:
            return None
        return max(self.worst(e, recursion, cut) for e in found)


def measure(stock_obj, kprint_obj, arch="x86_64", frames=None):
    """[(path, kind, stock bytes, kprint bytes, kprint chain)]; @frames, a
    list, gets the two kernels' {function: frame}"""
    k = Depth(os.path.join(kprint_obj, "vmlinux"), kprint_obj, arch)
    s = Depth(os.path.join(stock_obj, "vmlinux"), stock_obj, arch)
    if frames is not None:
        frames[:] = [s.frame, k.frame]
    res = []
    for name, se, ke in PATHS:
        for kind, rec, cut in (("store", 0, CONSOLE), ("store, %pV", 1, CONSOLE),
                               ("with consoles", 0, ()), ("with consoles, %pV", 1, ())):
            sd, kd = s.path(se, rec, cut), k.path(ke, rec, cut)
            res.append((name, kind, sd, kd))
    for e in NEW:
        print("# %sstack: %s: %s bytes (store), %s with consoles"
              % ("" if arch == "x86_64" else arch + ": ", e,
                 (k.path([e], 1, CONSOLE) or ("-",))[0], (k.path([e], 1) or ("-",))[0]))
    return res


def chain(p, frames=None):
    """The functions of a path; with @frames (Depth.frame) each one's frame."""
    if frames is None:
        return " > ".join(p[1])
    return " > ".join("%s[%d]" % (f, frames.get(f.replace("(jmp)", ""), 0)) for f in p[1])


def report(tap, res, tag="", frames=None):
    """One check per path and kind; @tag goes before each ("arm64: ").
    With @frames ((stock, kprint) Depth.frame), the chains of every path
    are printed with each function's frame."""
    for name, kind, sd, kd in res:
        if frames and sd and kd:
            print("# %s (%s)\n#   kprint: %s\n#   stock:  %s"
                  % (name, kind, chain(kd, frames[1]), chain(sd, frames[0])))
        if not sd or not kd:
            tap.check(False, "%sstack: %s (%s) measured in both kernels" % (tag, name, kind),
                      ["entry point missing: stock %s kprint %s" % (bool(sd), bool(kd))])
            continue
        g = kd[0] - sd[0]
        tap.check(g <= GOAL, "%sstack: %s (%s): %d bytes, stock %d, growth %+d (goal <= +%d)"
                  % (tag, name, kind, kd[0], sd[0], g, GOAL),
                  ["kprint: " + chain(kd), "stock:  " + chain(sd)])


def run(tap, boots):
    if "stock" not in boots or "kprint" not in boots:
        return
    objs = [os.path.join(boots[n]["dir"], "obj") for n in ("stock", "kprint")]
    for o in objs:
        if not os.path.exists(os.path.join(o, "vmlinux")):
            tap.check(False, "stack: vmlinux of %s found" % o)
            return
    try:
        res = measure(*objs)
    except (OSError, subprocess.CalledProcessError) as ex:
        tap.check(False, "stack: objdump/nm of the stock and kprint vmlinux", [str(ex)])
        return
    report(tap, res)


if __name__ == "__main__":
    class Tap:
        failed = 0

        def check(self, ok, desc, diag=()):
            print(("ok" if ok else "not ok") + " - " + desc)
            for d in diag:
                print("#   " + d)
            self.failed += not ok
    t = Tap()
    args = [a for a in sys.argv[1:] if a != "--frames"]
    fr = [] if "--frames" in sys.argv else None
    report(t, measure(args[0], args[1], args[2] if len(args) > 2 else "x86_64", fr), frames=fr)
    sys.exit(1 if t.failed else 0)
