#!/usr/bin/env python3
"""The kprint boot's real subsystems (check-kernel.sh, issue 24): who
printed its records.  Called by check-records.py (run()).

The kprint variant is built with kconfig-drivers.fragment and booted with
the devices of tools/drivers-devices.sh; tools/init.sh, seeing
"kptest.drivers" on the command line, drives them (it mounts, writes and
unmounts the ext4, btrfs, XFS, f2fs and nilfs2 disks and the 9p share,
reads the SATA disk, the CD-ROM and the USB stick, brings the e1000 card
up) and saves the ring, before any test module loads, in section
KMSG-DRIVERS (printk.kprint_dict=full); section DRIVERS has a line per
step with its status.

Checks (the first two fail when the environment did not do what the
numbers need):
  * every step of DRIVERS succeeded and the ring reached the host;
  * each subsystem of SUBSYSTEMS that the boot drives printed records with
    a call site in its directory;
  * issue 24's goals, for the records before the test modules but the
    series' own KUnit tests': the share of records with FORMAT that
    re-render exactly from FORMAT and ARGn (check-render.py's rules; goal
    >= 99%, %pV records included: they render with their PV_FORMAT, the
    format the %pV carried), and the share of records with a call site
    whose call site is a wrapper's (goal <= 1%): its FORMAT holds "%pV"
    (the caller's format and arguments are inside that one argument,
    PV_FORMAT or not), or its CODE_FUNC is a function of a wrapper family
    that count-wrappers.py finds in the unpatched tree (formats into a
    buffer and prints it, hands a va_list to vprintk()).
Reported: both per subsystem (the directory of CODE_FILE), with the
wrapper functions seen and how many records each printed.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# subsystem -> directories of CODE_FILE (first match wins); the first
# twelve are driven by the boot and must print
SUBSYSTEMS = (
    ("ext4", ("fs/ext4/", "fs/jbd2/")),
    ("btrfs", ("fs/btrfs/",)),
    ("xfs", ("fs/xfs/",)),
    ("f2fs", ("fs/f2fs/",)),
    ("nilfs2", ("fs/nilfs2/",)),
    ("9p", ("net/9p/", "fs/9p/")),
    ("ata", ("drivers/ata/",)),
    ("scsi", ("drivers/scsi/",)),
    ("e1000", ("drivers/net/ethernet/intel/e1000/",)),
    ("usb", ("drivers/usb/",)),
    ("drm", ("drivers/gpu/drm/", "drivers/video/")),
    ("bluetooth", ("net/bluetooth/", "drivers/bluetooth/")),
    ("hid/input", ("drivers/hid/", "drivers/input/")),
    ("block", ("block/", "drivers/block/")),
    ("net", ("net/", "drivers/net/")),
    ("pci", ("drivers/pci/", "arch/x86/pci/")),
    ("acpi", ("drivers/acpi/",)),
    ("virtio", ("drivers/virtio/",)),
    ("tty", ("drivers/tty/",)),
    ("base", ("drivers/base/",)),
    ("fs", ("fs/",)),
    ("mm", ("mm/",)),
    ("arch", ("arch/",)),
    ("kernel", ("kernel/", "init/", "lib/")),
)
# issue 24's goals
GOAL_RENDER = 99.0
GOAL_WRAPPER = 1.0
DRIVEN = ("ext4", "btrfs", "xfs", "f2fs", "nilfs2", "9p", "ata", "scsi", "e1000", "usb", "drm", "bluetooth")


def subsystem(path):
    for name, dirs in SUBSYSTEMS:
        if path.startswith(dirs):
            return name
    return "other"


def wrapper_functions(src, work):
    """{function: (kind, family)} of count-wrappers.py --functions, kept in @work."""
    cache = os.path.join(work, "wrapper-functions.txt")
    key = os.path.realpath(src)
    lines = []
    if os.path.exists(cache):
        with open(cache) as fh:
            lines = fh.read().splitlines()
    if not lines or lines[0] != "# tree " + key:
        out = subprocess.run([sys.executable, os.path.join(HERE, "count-wrappers.py"),
                              src, "--functions"], capture_output=True, text=True, check=True)
        lines = ["# tree " + key] + out.stdout.splitlines()
        os.makedirs(work, exist_ok=True)
        with open(cache, "w") as fh:
            fh.write("\n".join(lines) + "\n")
    funcs = {}
    for line in lines[1:]:
        f = line.split()
        if len(f) == 3:
            funcs[f[1]] = (f[0], f[2])
    return funcs


def is_wrapper(r, funcs):
    """None, or why the record's call site is a wrapper's."""
    fmt = r.dict.get("FORMAT", "")
    if "%pV" in fmt:
        return "%pV"
    func = r.dict.get("CODE_FUNC")
    if func not in funcs:
        return None
    kind, family = funcs[func]
    return kind if family == func else "%s, family %s" % (kind, family)


def check(tap, tag, cr, rend, secs, src, pristine, work):
    """@cr: check-records.py, @rend: check-render.py (loaded by the caller);
    @src the booted (patched) tree, @pristine the unpatched one, where the
    wrappers are counted."""
    rc = secs.get("RC", {})
    steps = [s for s in secs.get("DRIVERS", []) if s.strip()]
    bad = [s for s in steps if not s.endswith(" 0")]
    tap.check(steps and not bad and rc.get("DRIVERS") == 0 and rc.get("KMSG-DRIVERS") == 0,
              tag + ": the devices at work (%s) and the ring after them reach the host"
              % "; ".join(s.rsplit(" ", 1)[0] for s in steps),
              bad or (["section status %s" % {n: rc.get(n) for n in ("DRIVERS", "KMSG-DRIVERS")}]
                      if rc.get("KMSG-DRIVERS") != 0 else []))
    recs, lost, _ = cr.parse_kmsg(secs.get("KMSG-DRIVERS", []))
    funcs = wrapper_functions(pristine, work)
    # the series' own KUnit tests (their KTAP lines and the noise of
    # their concurrency cases) are no driver's: left out, counted
    tests = set(cr.kunit_suites_in_source(src).values())
    ntests = 0

    def test_file(r):
        path = r.dict.get("CODE_FILE") or r.dict.get("LINE1_CODE_FILE")
        return path and (path in tests or path.startswith("lib/kunit/"))
    # ... and the records without a call site printed while they ran
    # (their groups' KTAP and error lines)
    span = [r.seq for r in recs if test_file(r)]
    first, last = (min(span), max(span)) if span else (0, -1)

    per = {}
    for r in recs:
        if r.prio >= 8:
            continue  # user space (/dev/kmsg writes)
        path = r.dict.get("CODE_FILE")
        if test_file(r) or (not path and first <= r.seq <= last):
            ntests += 1
            continue
        s = per.setdefault(subsystem(path) if path else "(no call site)",
                           {"n": 0, "fmt": 0, "exact": 0, "pv": 0, "wrap": 0, "sited": 0, "who": {}})
        s["n"] += 1
        if path:
            s["sited"] += 1
            why = is_wrapper(r, funcs)
            if why:
                s["wrap"] += 1
                who = "%s (%s)" % (r.dict.get("CODE_FUNC", "?"), why)
                s["who"][who] = s["who"].get(who, 0) + 1
        if r.dict.get("FORMAT") is not None:
            s["fmt"] += 1
            if "%pV" in r.dict["FORMAT"]:
                s["pv"] += 1
            if rend.classify(r)[0] == "exact":
                s["exact"] += 1

    missing = [n for n in DRIVEN if per.get(n, {}).get("sited", 0) == 0]
    tap.check(recs and not missing,
              tag + ": the driven subsystems print records with call sites in their directories "
              "(%s)" % ", ".join("%s %d" % (n, per.get(n, {}).get("sited", 0)) for n in DRIVEN),
              ["no record with a call site in: " + ", ".join(missing)] if missing else [])

    tot = {k: sum(s[k] for s in per.values()) for k in ("n", "fmt", "exact", "pv", "wrap", "sited")}
    pct = lambda a, b: 100.0 * a / b if b else 0.0
    print("# drivers: %d records before the test modules (%d lost while reading; %d more of the"
          " series' KUnit tests left out), %d with a call site, %d with FORMAT"
          % (tot["n"], lost, ntests, tot["sited"], tot["fmt"]))
    tap.check(tot["fmt"] and pct(tot["exact"], tot["fmt"]) >= GOAL_RENDER,
              tag + ": %d of %d records with FORMAT (%.1f%%) re-render exactly from FORMAT and ARGn,"
              " %d of them with %%pV in FORMAT (goal >= %g%%)"
              % (tot["exact"], tot["fmt"], pct(tot["exact"], tot["fmt"]), tot["pv"], GOAL_RENDER))
    tap.check(tot["sited"] and pct(tot["wrap"], tot["sited"]) <= GOAL_WRAPPER,
              tag + ": %d of %d records with a call site (%.1f%%) have a wrapper's call site, not the"
              " caller's (goal <= %g%%)"
              % (tot["wrap"], tot["sited"], pct(tot["wrap"], tot["sited"]), GOAL_WRAPPER),
              ["%s: %d" % (w, c) for s in per.values() for w, c in sorted(s["who"].items())][:8])
    print("# drivers: | subsystem | records | with FORMAT | re-render exactly | %pV in FORMAT |"
          " wrapper call site | wrappers (records) |")
    print("# drivers: |---|---:|---:|---:|---:|---:|---|")
    order = [n for n, _ in SUBSYSTEMS] + ["other", "(no call site)"]
    for name in sorted(per, key=order.index):
        s = per[name]
        who = ", ".join("`%s` %d" % (w, c) for w, c in
                        sorted(s["who"].items(), key=lambda x: (-x[1], x[0])))
        print("# drivers: | %s | %d | %d | %d (%.0f%%) | %d | %d (%.0f%%) | %s |"
              % (name, s["n"], s["fmt"], s["exact"], pct(s["exact"], s["fmt"]), s["pv"],
                 s["wrap"], pct(s["wrap"], s["sited"]), who or "-"))


def run(tap, boots, cr, src, pristine):
    """check-records.py's entry: the kprint boot, when its kernel was built
    with kconfig-drivers.fragment (check-kernel.sh builds it so)."""
    b = boots.get("kprint")
    if b is None:
        return
    if b["cfg"].get("CONFIG_E1000") != "y":
        tap.check(False, "kprint drivers: the kprint kernel has the subsystems of kconfig-drivers.fragment",
                  ["CONFIG_E1000 is not set in %s/obj/.config" % b["dir"]])
        return
    check(tap, "kprint drivers", cr, cr.part("check-render.py"), b["secs"], src, pristine or src,
          os.path.join(b["dir"], "drivers"))
