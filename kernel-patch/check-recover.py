#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Proof of issue 18: kdmesg recovers the kprint fields of stock records.

Ground truth is the kprint boot of check-kernel.sh: its records carry what
the kernel itself said (FORMAT, CODE_FILE, CODE_LINE, CODE_FUNC, MODULE,
ARGn).  Those lines (and the part and group lines of the series) are
stripped, which leaves the records a stock kernel would have written, and
kdmesg recovers them from a format index; every recovered field is then
compared with the kernel's, record by record.  Each record with a kernel
FORMAT falls into exactly one class:

  correct    FORMAT, ARGn and the call site (CODE_FILE, CODE_LINE,
             CODE_FUNC, MODULE) recovered, each equal to the kernel's
  wrong      some recovered field differs from the kernel's (a wrong call
             site is wrong even when FORMAT is right)
  ambiguous  flagged RECOVER_AMBIGUOUS and nothing recovered is wrong
  partial    not flagged, nothing wrong, but a field the kernel gave is
             missing (the call site, MODULE or an argument)
  unmatched  nothing recovered

Records whose own FORMAT has no literal text ("%s", "%s%s": the banner,
KUnit's output) are counted apart: no text matcher can tell them apart.
A wrong pick that was not flagged ambiguous is a miss of "every ambiguous
pick flagged": the kernel's own format produced the text too, so there
were at least two candidates.  Equal means: FORMAT without the KERN_*
level and the trailing newline, and a leading "%s" whose argument the
kernel rendered empty (printk("%sRAX: ...", log_lvl): a level passed as
an argument) may be left out with that argument; CODE_FILE equal or one
path ending with the other (an out-of-tree module's __FILE__ is
absolute); every recovered ARGn equal to the kernel's (fewer is a
missing field, more are not checked: the kernel drops ARGn lines that do
not fit into a record).

check-records.py runs this through run() in make check-kernel; standalone:

  check-recover.py --boot ~/.cache/kdmesg-kernel/kprint --src TREE --kdmesg build/src/kdmesg \\
      --work /tmp/recover

runs the same checks on a saved kprint boot (its data.log; the indexes are
written to BOOT/recover or --work), and

  check-recover.py --dump BOOT.kmsg --index FILE [--kdmesg PATH] [--list]

judges a saved kprint dump (the `cat /dev/kmsg` format) against an index.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

# kprint lines of a record: what a stock kernel does not write
KPRINT_KEY = re.compile(r"(?:CODE_FILE|CODE_LINE|CODE_FUNC|MODULE|FORMAT|FORMAT_PART|ARGS_CUT|PARTS"
                        r"|ARG\d+|PART\d+_\w+|LINE\d+_\w+|LINES)$")
SITE = ("CODE_FILE", "CODE_LINE", "CODE_FUNC", "MODULE")
# one conversion of a kernel format (lib/vsprintf.c): flags, width,
# precision, length, type; %p with its extension letters
CONV = re.compile(r"%(?:%|[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?"
                  r"(?:hh|h|ll|l|L|z|Z|t|j|q)?(?:p[A-Za-z0-9]*|[diouxXcsneEfFgGaA]))")
GOAL_CORRECT = 95.0
GOAL_WRONG = 0.2


def unescape(v):
    """The kernel's \\xNN escapes undone (bytes that are not UTF-8 as U+FFFD)."""
    raw = v.encode("utf-8", "surrogateescape")
    raw = re.sub(rb"\\x([0-9a-f]{2})", lambda m: bytes([int(m.group(1), 16)]), raw)
    return raw.decode("utf-8", "replace")


def norm_format(f):
    """A format without KERN_* level bytes in front and the newline at the end."""
    while len(f) >= 2 and f[0] == "\x01":
        f = f[2:]
    return f[:-1] if f.endswith("\n") else f


def has_literal(fmt):
    """True when the format has text of its own beside conversions and blanks."""
    return bool(CONV.sub("", fmt).strip())


def same_file(a, b):
    """Paths equal, or one ends with the other at a '/' (an out-of-tree
    module's __FILE__ is absolute, an index may hold it relative)."""
    if a == b:
        return True
    return a.endswith("/" + b) or b.endswith("/" + a)


def is_kernel(r):
    return 0 <= r.prio < 8


def truth_of(r):
    """The kernel's fields of record @r, None when it has no FORMAT."""
    if "FORMAT" not in r.dict:
        return None
    t = dict(FORMAT=norm_format(unescape(r.dict["FORMAT"])))
    for k in SITE:
        if k in r.dict:
            t[k] = unescape(r.dict[k])
    t["ARGS"] = [unescape(a) for a in r.args()]
    t["cut"] = "ARGS_CUT" in r.dict
    t["parts"] = "PARTS" in r.dict or any(re.match(r"PART\d+_", k) for k in r.dict)
    t["group"] = any(re.match(r"LINE\d+_", k) for k in r.dict)
    return t


def write_stripped(recs, path):
    """The records as a stock kernel writes them: without the kprint lines."""
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as fh:
        for r in recs:
            fh.write(r.header + "\n")
            for line in r.dict_lines:
                if not KPRINT_KEY.match(line[1:].partition("=")[0]):
                    fh.write(line + "\n")


def write_records(recs, path):
    """The records unchanged, in the `cat /dev/kmsg` format."""
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as fh:
        for r in recs:
            fh.write(r.header + "\n")
            for line in r.dict_lines:
                fh.write(line + "\n")


def recover(kdmesg, dump, index, extra=()):
    """kdmesg -K DUMP --formats INDEX -o jsonl -v: {seq: object}, the
    summary line, the exit status and stderr."""
    env = dict(os.environ, LC_ALL="C.UTF-8")
    env.pop("KDMESG_FORMATS", None)
    cmd = [kdmesg, "-K", dump, "--formats", index, "-o", "jsonl", "-v"] + list(extra)
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, env=env)
    took = time.time() - t0
    out = {}
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if isinstance(o, dict) and "seq" in o:
            out[o["seq"]] = o
    err = p.stderr.decode("utf-8", "replace")
    m = re.findall(r"recovered \d+ of \d+ records[^\n]*", err)
    return out, (m[-1] if m else None), p.returncode, err, took


def rec_fields(o):
    """The recovered members of a kdmesg -o jsonl object, without "[recovered]"."""
    f = {}
    for k, v in o.items():
        if k.endswith("[recovered]"):
            f[k[:-len("[recovered]")]] = v if isinstance(v, str) else str(v)
    args = []
    while "ARG%d" % len(args) in f:
        args.append(f["ARG%d" % len(args)])
    f["ARGS"] = args
    return f


def judge(t, o):
    """(class, [differences]) of one record: truth @t, kdmesg object @o."""
    f = rec_fields(o or {})
    if "FORMAT" not in f:
        return "unmatched", []
    diff, missing = [], []
    ta = t["ARGS"]
    fmt = norm_format(f["FORMAT"])
    if fmt != t["FORMAT"]:
        # printk("%sRAX: ...", log_lvl): the level passed as the first
        # argument, which printk consumes, so the kernel's ARG0 is empty;
        # the format without that "%s" is the same format
        if t["FORMAT"].startswith("%s") and ta and ta[0] == "" and fmt == t["FORMAT"][2:]:
            ta = ta[1:]
        else:
            diff.append("FORMAT")
    for k in SITE:
        if k not in f:
            if k in t:
                missing.append(k)
            continue
        if k not in t:
            continue
        ok = same_file(f[k], t[k]) if k == "CODE_FILE" else f[k] == t[k]
        if not ok:
            diff.append(k)
    # arguments: each one recovered must be the kernel's; fewer is a
    # missing field (kdmesg leaves them out when the text splits in more
    # than one way), more is not checked (the kernel drops ARGn lines
    # that do not fit into the record)
    ra = f["ARGS"]
    if ra[:len(ta)] != ta[:len(ra)]:
        diff.append("ARGn")
    elif len(ra) < len(ta):
        missing.append("ARGn")
    if diff:
        return "wrong", diff
    if "RECOVER_AMBIGUOUS" in f:
        return "ambiguous", []
    if missing:
        return "partial", missing
    return "correct", []


CLASSES = ("correct", "wrong", "ambiguous", "partial", "unmatched")


def evaluate(recs, results):
    """Judge every kernel record with a FORMAT.  Returns a dict: "goal" and
    "noliteral" {class: [(record, truth, object, diff)]}, "nofmt" (kernel
    records without FORMAT), "parts"/"groups" {class: count}."""
    ev = dict(goal={c: [] for c in CLASSES}, noliteral={c: [] for c in CLASSES},
              nofmt=[], parts={c: 0 for c in CLASSES}, groups={c: 0 for c in CLASSES},
              lost=0)
    for r in recs:
        if not is_kernel(r):
            continue
        t = truth_of(r)
        if t is None:
            ev["nofmt"].append(r)
            continue
        o = results.get(r.seq)
        if o is None:
            ev["lost"] += 1
        cls, diff = judge(t, o)
        where = "goal" if has_literal(t["FORMAT"]) else "noliteral"
        ev[where][cls].append((r, t, o, diff))
        if t["parts"]:
            ev["parts"][cls] += 1
        if t["group"]:
            ev["groups"][cls] += 1
    return ev


def pct(n, d):
    return 100.0 * n / d if d else 0.0


def summary(ev):
    g = ev["goal"]
    n = sum(len(v) for v in g.values())
    nl = ev["noliteral"]
    nn = sum(len(v) for v in nl.values())
    s = "%d records: %s" % (n, ", ".join("%d %s (%.1f%%)" % (len(g[c]), c, pct(len(g[c]), n))
                                          for c in CLASSES))
    s += "; apart, %d without literal text: %s" % (nn, ", ".join("%d %s" % (len(nl[c]), c)
                                                                for c in CLASSES if nl[c]))
    return s


def describe(item):
    r, t, o, diff = item
    f = rec_fields(o or {})
    what = []
    for k in diff or ["FORMAT"]:
        if k == "ARGn":
            what.append("ARGn %r, kernel %r" % (f.get("ARGS"), t["ARGS"]))
        else:
            what.append("%s %r, kernel %r" % (k, f.get(k), t.get(k)))
    text = r.text if len(r.text) <= 70 else r.text[:70] + "..."
    return "seq %d %r: %s" % (r.seq, text, "; ".join(what))


# how many partial and unmatched records report() shows (--list: all)
SHOW = [3, 5]


def report(ok, label, ev, goal=True):
    """TAP lines through ok(cond, desc, diag) for one index, judged on the
    records whose format has literal text; the others are reported."""
    g, nl = ev["goal"], ev["noliteral"]
    n = sum(len(v) for v in g.values())
    print("# %s: %s" % (label, summary(ev)))
    print("# %s: %d kernel records without FORMAT (not judged); continuation records: %s;"
          " multi-line groups: %s" % (label, len(ev["nofmt"]),
                                      ", ".join("%d %s" % (v, c) for c, v in ev["parts"].items() if v) or "none",
                                      ", ".join("%d %s" % (v, c) for c, v in ev["groups"].items() if v) or "none"))
    for item in g["partial"][:SHOW[0]]:
        print("#   partial: " + describe(item))
    for item in g["unmatched"][:SHOW[1]]:
        r, t = item[0], item[1]
        print("#   unmatched: seq %d %r, kernel FORMAT %r at %s:%s"
              % (r.seq, r.text[:70], t["FORMAT"], t.get("CODE_FILE"), t.get("CODE_LINE")))
    for item in nl["wrong"][:5]:
        print("#   wrong, without literal text: " + describe(item))
    if goal:
        ok(n > 0 and pct(len(g["correct"]), n) >= GOAL_CORRECT,
           "%s: >= %.0f%% of %d records recovered correctly (%.2f%%)"
           % (label, GOAL_CORRECT, n, pct(len(g["correct"]), n)), [])
    ok(n > 0 and pct(len(g["wrong"]), n) <= GOAL_WRONG,
       "%s: <= %.1f%% of %d records recovered wrongly (%d, %.2f%%)"
       % (label, GOAL_WRONG, n, len(g["wrong"]), pct(len(g["wrong"]), n)),
       [describe(i) for i in g["wrong"][:8]])
    # a wrong pick without the flag: the kernel's format (at its call site)
    # made the text too, so the pick had company and should say so
    miss = [i for i in g["wrong"] if "RECOVER_AMBIGUOUS" not in rec_fields(i[2] or {})]
    ok(n > 0 and not miss, "%s: every ambiguous pick flagged (%d unflagged wrong picks)"
       % (label, len(miss)), [describe(i) for i in miss[:8]])
    return n


def list_all(ev):
    """Every judged record that is not correct, by class."""
    for where in ("goal", "noliteral"):
        for c in CLASSES[1:]:
            for item in ev[where][c]:
                r, t = item[0], item[1]
                extra = "" if c != "unmatched" else ": kernel FORMAT %r at %s:%s" % (
                    t["FORMAT"], t.get("CODE_FILE"), t.get("CODE_LINE"))
                print("# %s%s %s%s" % (c, "" if where == "goal" else " (no literal)",
                                        describe(item) if c != "unmatched" else
                                        "seq %d %r" % (r.seq, r.text[:70]), extra))


# --------------------------------------------------------------- in check-kernel
def build_index(kdmesg_po, out, sources, release=None, objects=None):
    """kdmesg-po index -o OUT [--release R] [--objects DIR] SOURCES...: (ok, seconds, diag)."""
    cmd = [kdmesg_po, "index", "-o", out] + (["--release", release] if release else []) + \
        (["--objects", objects] if objects else []) + list(sources)
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True)
    took = time.time() - t0
    err = p.stderr.decode("utf-8", "replace").strip().splitlines()
    ok = p.returncode == 0 and os.path.isfile(out) and os.path.getsize(out) > 0
    return ok, took, ([] if ok else ["%s: exit status %d" % (" ".join(cmd), p.returncode)] + err[-5:])


def split_printk_index(lines, dest):
    """The PRINTKINDEX section ("@@ file=NAME" and its lines) as the
    directory /sys/kernel/debug/printk/index was: one file per object."""
    os.makedirs(dest, exist_ok=True)
    for old in os.listdir(dest):
        os.unlink(os.path.join(dest, old))
    fh, n = None, 0
    for line in lines:
        m = re.fullmatch(r"@@ file=(\S+)", line)
        if m:
            if fh:
                fh.close()
            fh = open(os.path.join(dest, os.path.basename(m.group(1))), "w",
                      encoding="utf-8", errors="surrogateescape")
            n += 1
        elif fh:
            fh.write(line + "\n")
    if fh:
        fh.close()
    return n


def base_code(kprint_dir):
    """A predicate on records, or None: whether the record's call site
    (the kernel's CODE_FILE) is code that the stock kernel, the kprint
    kernel's configuration without kconfig-drivers.fragment, builds too
    (its object file is in the stock build, a sibling of @kprint_dir);
    records without a call site in a .c file of the tree (headers, the
    test module) count as such.  Since 2026-12-07 the kprint boot drives
    real subsystems (issue 24); issue 18's goals were set on the
    tinyconfig-based boot, and are judged on the records of that code,
    while the subsystems' records are reported apart."""
    obj = os.path.join(os.path.dirname(os.path.abspath(kprint_dir)), "stock", "obj")
    if not os.path.isdir(obj):
        return None

    def base(r):
        path = r.dict.get("CODE_FILE", "")
        if not path.endswith(".c") or path.startswith("/"):
            return True
        return os.path.exists(os.path.join(obj, path[:-2] + ".o"))
    return base


def judge_index(tap, cr, label, kdmesg, recs, stripped, index, goal, scope=None):
    res, line, rc, err, took = recover(kdmesg, stripped, index)
    tap.check(rc == 0 and line is not None,
              "%s: kdmesg -K --formats recovers the stripped records (%s, %.1f s)"
              % (label, line or "no summary line", took),
              [] if rc == 0 and line else ["exit status %d" % rc] + err.strip().splitlines()[-5:])
    if rc != 0:
        return None
    # the goals are the source-tree index's (issue 18); the printk index's
    # figures are reported beside them, not judged (it has no MODULE for
    # built-in code and lacks the start of pr_cont() lines)
    if scope is None:
        ev = evaluate(recs, res)
        report(tap.check if goal else reported, label, ev, goal=goal)
        return ev
    # Since the kprint boot drives real subsystems (2026-12-07) the goals
    # are judged on the code the stock kernel builds too, the boot they
    # were set on; the subsystems' records are reported apart.
    ev = evaluate([r for r in recs if scope(r)], res)
    report(tap.check if goal else reported, label + ", the stock kernel's code", ev, goal=goal)
    # the subsystems the stock kernel does not build (kconfig-drivers.fragment)
    rest = evaluate([r for r in recs if not scope(r)], res)
    report(reported, label + ", the drivers' code", rest, goal=True)
    whole = evaluate(recs, res)
    print("# %s, the whole boot: %s" % (label, summary(whole)))
    return ev


def reported(ok, desc, diag=()):
    """report()'s lines as "#" lines, for an index whose figures are not judged."""
    print("# %s: %s (reported, not judged)" % ("met" if ok else "NOT met", desc))
    for d in diag:
        print("#   " + d)
    return ok


def run(tap, boots, cr, kdmesg=None, kdmesg_po=None, src=None, module_src=None,
        pristine=None, debian=None, work=None, module_dir=None):
    """The checks above on the kprint boot of check-kernel.sh, numbered
    with check-records.py's: the records of its KMSG section (the boot and
    the test module) against (1) an index of the patched tree it was built
    from plus the test module's source and (2) an index of the boot's own
    printk index and dynamic-debug control file; then (3) the Debian
    fixture against an index of the unpatched tree, when that is Debian's
    linux-source of the fixture's version.  Files go to @work (default:
    the boot's recover/ folder), with both boots' records as kprint.kmsg and
    stock.kmsg."""
    b = boots.get("kprint")
    if b is None:
        return
    if not (kdmesg and kdmesg_po and os.access(kdmesg_po, os.X_OK)):
        tap.check(False, "recover: kdmesg and kdmesg-po are built", ["kdmesg %s, kdmesg-po %s" % (kdmesg, kdmesg_po)])
        return
    work = work or os.path.join(b["dir"], "recover")
    os.makedirs(work, exist_ok=True)
    p1, _ = cr.split_phase2(b["recs"])
    stripped = os.path.join(work, "stripped.kmsg")
    write_stripped(p1, stripped)
    # both boots' records as `cat /dev/kmsg` wrote them, kept beside
    # (kdmesg -K reads them)
    for name, bb in sorted(boots.items()):
        if name in ("kprint", "stock"):
            write_records(cr.split_phase2(bb["recs"])[0], os.path.join(work, name + ".kmsg"))
    rel = None
    relf = os.path.join(b["dir"], "obj", "include", "config", "kernel.release")
    if os.path.exists(relf):
        with open(relf) as fh:
            rel = fh.read().strip()

    # (1) the tree the kernel was built from, and the test module
    idx = os.path.join(work, "tree.kdfi")
    # the module's sources where they were compiled: its __FILE__ is that path
    mdir = module_dir or os.path.join(b["dir"], "module")
    srcs = [src] + [mdir if os.path.isdir(mdir) else os.path.dirname(module_src)]
    # only the files the kernel's build directory has objects of: the
    # formats of code this configuration never compiles are no candidates
    objs = os.path.join(b["dir"], "obj")
    objs = objs if os.path.isfile(os.path.join(objs, "vmlinux.o")) or \
        os.path.isdir(os.path.join(objs, "kernel")) else None
    ok, took, diag = build_index(kdmesg_po, idx, srcs, rel, objs)
    tap.check(ok, "recover: kdmesg-po index of the patched 6.12 tree%s and the test module (%.0f s, %.1f MiB)"
              % (" as built (--objects)" if objs else "", took,
                 os.path.getsize(idx) / 1048576.0 if ok else 0), diag)
    if ok:
        judge_index(tap, cr, "recover, tree index", kdmesg, p1, stripped, idx, True, base_code(b["dir"]))

    # (2) the booted kernel's own printk index and dynamic-debug sites
    secs = b["secs"]
    pdir = os.path.join(work, "printk-index")
    n = split_printk_index(secs.get("PRINTKINDEX", []), pdir)
    srcs = [pdir] if n else []
    if secs.get("DYNDBG"):
        dd = os.path.join(work, "dynamic_debug_control")
        with open(dd, "w", encoding="utf-8", errors="surrogateescape") as fh:
            fh.write("\n".join(secs["DYNDBG"]) + "\n")
        srcs.append(dd)
    tap.check(n > 0, "recover: the kprint boot's printk index was dumped (%d files)" % n)
    if n:
        idx = os.path.join(work, "printk-index.kdfi")
        ok, took, diag = build_index(kdmesg_po, idx, srcs, rel)
        tap.check(ok, "recover: kdmesg-po index of the boot's printk index and dynamic-debug control file", diag)
        if ok:
            judge_index(tap, cr, "recover, boot's printk index", kdmesg, p1, stripped, idx, False,
                        base_code(b["dir"]))

    if debian:
        run_debian(tap, kdmesg, kdmesg_po, pristine, debian, work)


DEBIAN_VERSION = "6.12.118-1~deb12u1"
DEBIAN_RELEASE = "6.12.118+deb12-amd64"
# share of the Debian fixture's kernel records that must be recovered (not
# unmatched): a floor below what was measured (kernel-patch/README.md,
# "Recovery"), so that a regression of the matcher shows
DEBIAN_GOAL = 80.0


def debian_counts(kdmesg, dump, index):
    """{records, whole, part, ambiguous, unmatched}, the summary line, the
    exit status, stderr and the unmatched objects: "whole" records have a
    recovered FORMAT for their whole text, "part" ones (FORMAT_PART) for
    the start of a continued or multi-line text only."""
    res, line, rc, err, _ = recover(kdmesg, dump, index)
    kern = [o for o in res.values() if o.get("facility", 0) == 0]
    rec = [o for o in kern if "FORMAT[recovered]" in o]
    part = [o for o in rec if "FORMAT_PART[recovered]" in o]
    amb = [o for o in rec if "RECOVER_AMBIGUOUS[recovered]" in o]
    c = dict(records=len(kern), whole=len(rec) - len(part), part=len(part), ambiguous=len(amb),
             unmatched=len(kern) - len(rec))
    return c, line, rc, err, [o for o in kern if "FORMAT[recovered]" not in o]


def run_debian(tap, kdmesg, kdmesg_po, pristine, dump, work):
    """(3): Debian's own kernel, booted by debian-boot.sh (the fixture),
    against an index of Debian's linux-source-6.12 of the same version."""
    ver = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "linux-source-6.12"],
                         capture_output=True, text=True).stdout.strip()
    if not pristine or not os.path.isdir(pristine) or ver != DEBIAN_VERSION:
        print("# recover, Debian: skipped: linux-source-6.12 %s is installed, the fixture is %s"
              % (ver or "(none)", DEBIAN_VERSION))
        return
    idx = os.path.join(work, "debian.kdfi")
    ok, took, diag = build_index(kdmesg_po, idx, [pristine], DEBIAN_RELEASE)
    tap.check(ok, "recover: kdmesg-po index of Debian's linux-source-6.12 %s (%.0f s, %.1f MiB)"
              % (ver, took, os.path.getsize(idx) / 1048576.0 if ok else 0), diag)
    if not ok:
        return
    c, line, rc, err, left = debian_counts(kdmesg, dump, idx)
    n = c["records"]
    print("# recover, Debian %s: of %d kernel records %d recovered whole (%.1f%%), %d more in part,"
          " %d of them flagged ambiguous, %d unmatched"
          % (DEBIAN_RELEASE, n, c["whole"], pct(c["whole"], n), c["part"], c["ambiguous"], c["unmatched"]))
    for o in left[:5]:
        print("#   unmatched: %r" % o.get("message", "")[:90])
    tap.check(rc == 0 and n > 0 and pct(c["whole"], n) >= DEBIAN_GOAL,
              "recover, Debian's own %s: >= %.0f%% of its %d kernel records recovered whole (%.1f%%; %s)"
              % (DEBIAN_RELEASE, DEBIAN_GOAL, n, pct(c["whole"], n), line),
              [] if rc == 0 else err.strip().splitlines()[-5:])


# --------------------------------------------------------------- standalone
def main_boot(a, cr, here):
    """run() on a saved boot: what make check-kernel checks, without booting."""
    if not a.src:
        sys.stderr.write("check-recover.py: --boot needs --src\n")
        return 2
    secs, _ = cr.read_sections(os.path.join(a.boot, "data.log"))
    recs, _, _ = cr.parse_kmsg(secs.get("KMSG", []))
    if not recs:
        sys.stderr.write("check-recover.py: no KMSG section in %s/data.log\n" % a.boot)
        return 2
    kdmesg = os.path.abspath(a.kdmesg) if os.sep in a.kdmesg else a.kdmesg
    tap = cr.Tap()
    run(tap, {"kprint": dict(secs=secs, recs=recs, dir=a.boot)}, cr, kdmesg=kdmesg,
        kdmesg_po=os.path.join(os.path.dirname(kdmesg), "kdmesg-po"), src=a.src,
        module_src=os.path.join(here, "test-module", "kprint_test.c"), work=a.work,
        module_dir=a.module_dir)
    print("%d passed, %d failed" % (tap.passed, tap.failed))
    return 1 if tap.failed else 0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    import importlib.util
    spec = importlib.util.spec_from_file_location("check_records", os.path.join(here, "check-records.py"))
    cr = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cr)
    ap = argparse.ArgumentParser(description="judge kdmesg's recovery against a kprint dump")
    ap.add_argument("--dump", help="kprint records, `cat /dev/kmsg` format")
    ap.add_argument("--index", help="format index (kdmesg-po index)")
    ap.add_argument("--boot", help="a saved kprint boot of check-kernel.sh (its data.log): "
                    "the checks make check-kernel runs, indexes written with --src")
    ap.add_argument("--src", help="with --boot: the patched tree the kernel was built from")
    ap.add_argument("--module-dir", help="with --boot: where the test module was compiled "
                    "(default BOOT/module)")
    ap.add_argument("--work", help="with --boot: where indexes and dumps go (default BOOT/recover)")
    ap.add_argument("--kdmesg", default="kdmesg")
    ap.add_argument("--stripped", help="where the stripped dump goes (default: beside --dump)")
    ap.add_argument("--no-goal", action="store_true", help="report the correct share, no goal")
    ap.add_argument("--list", action="store_true",
                    help="list every record that is not correct, with what differs "
                         "(with --boot: every partial and unmatched one of each part)")
    a = ap.parse_args()
    if a.list:
        SHOW[:] = [None, None]
    if a.boot:
        return main_boot(a, cr, here)
    if not a.dump or not a.index:
        ap.error("give --dump and --index, or --boot and --src")
    with open(a.dump, "rb") as fh:
        lines = fh.read().decode("utf-8", "surrogateescape").split("\n")
    recs, _, _ = cr.parse_kmsg(lines)
    stripped = a.stripped or a.dump + ".stripped"
    write_stripped(recs, stripped)
    res, line, rc, err, took = recover(a.kdmesg, stripped, a.index)
    if rc != 0:
        sys.stderr.write(err)
        print("not ok 1 - kdmesg exited with status %d" % rc)
        return 1
    print("# kdmesg: %s (%.2f s)" % (line, took))
    tap = cr.Tap()
    ev = evaluate(recs, res)
    report(tap.check, os.path.basename(a.index), ev, goal=not a.no_goal)
    if a.list:
        list_all(ev)
    print("%d passed, %d failed" % (tap.passed, tap.failed))
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
