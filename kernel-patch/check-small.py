#!/usr/bin/env python3
"""Checks of the arm64 boot of check-arm64.sh (issue 23: not x86-only).

The console log holds, between =====NAME-BEGIN/END===== markers
(tools/arm64-init.c): UNAME, INSMOD (loading kprint_test.ko), KMSG (the
ring read with printk.kprint_dict=full), KMSG-SITE (read again in the
default form), SITES (<debugfs>/kprint/sites), INSMOD-API (loading
kprint_api.ko) and KMSG-API (the ring after it).

Checks:
  * the kernel is an aarch64 one and every section reached the host;
  * every KUnit suite of the files CONFIG_KPRINT_KUNIT_TEST builds ran
    and passed (their KTAP output is in the ring);
  * the test module loads, and each of its call sites has the fields
    check-records.py's EXPECT table wants on x86_64 (CODE_FILE, CODE_LINE
    and CODE_FUNC from the source's KP: markers, MODULE, FORMAT, ARGn,
    level, count; the dev_*() and netdev_*() prefixes included);
  * records carry call sites (CODE_FILE, CODE_LINE, CODE_FUNC): at least
    100, every CODE_FILE a file of the source tree and every CODE_LINE a
    line of it, and every ARGn a piece of its record's text;
  * the default form resolves through the site table to the full form
    (check-site.py's resolve_forms(), as on x86_64), and the host's kdmesg
    --sites expands it alike;
  * kprint_api.ko loads (sections INSMOD-API and KMSG-API) and its records
    pass check-records.py's checks of each API entry point (kprint_asm(),
    kprint_asm_site() and kprint_early() called from kpapi_asm.S's arm64
    code among them), of the calling contexts and of the groups;
  * with --kprint-obj and --stock-obj (the same tree and fragment with
    CONFIG_KPRINT=n): the stack of every printk entry path against the
    stock kernel (check-stack.py, arm64 disassembly), the Image sizes and
    the descriptors, reported; the +64-byte stack goal is judged on x86_64
    only, which this -Os arm64 kernel misses (see stack()).
"""

import argparse
import os
import subprocess
import sys
from importlib import util

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, file):
    spec = util.spec_from_file_location(name, os.path.join(HERE, file))
    mod = util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def file_lines(src, path, cache={}):
    if path not in cache:
        try:
            with open(os.path.join(src, path), "rb") as fh:
                cache[path] = fh.read().count(b"\n") + 1
        except OSError:
            cache[path] = 0
    return cache[path]


class QuietTap:
    """Collects check_fields()'s results instead of printing them."""
    def __init__(self):
        self.failed = []

    def check(self, ok, desc, diag=()):
        if not ok:
            self.failed.append((desc, list(diag)))
        return ok


def check_module(tap, cr, recs, insmod_rc, module_src):
    """The test module's records, tag by tag, as on x86_64 (-smp 2)."""
    mk = cr.markers(module_src)
    mod = cr.module_records(recs)
    tags = {r.tag() for r in mod}
    quiet = QuietTap()
    n = 0
    for tag, exp in cr.EXPECT.items():
        if exp.get("cut") or (tag == "deferred" and "deferred_skip" in tags):
            continue
        n += 1
        cr.check_fields(quiet, tag, exp, mod, mk, 2)
    diag = ["insmod /kprint_test.ko: status %s" % insmod_rc] if insmod_rc != 0 else []
    for desc, d in quiet.failed:
        diag.append(desc.replace("kprint: ", ""))
        diag.extend("  " + x for x in d[:3])
    tap.check(insmod_rc == 0 and mod and not quiet.failed,
              "arm64: kprint_test.ko loads and %d of its %d tagged call sites carry the fields "
              "check-records.py wants (CODE_FILE/LINE/FUNC, MODULE, FORMAT, ARGn)"
              % (n - len(quiet.failed), n), diag[:16])


def stack(tap, stock_obj, kprint_obj):
    """check-stack.py's measurement on arm64: the deepest stack of every
    printk entry path of the kprint vmlinux against the stock one's.

    Measured and reported, not judged: the +64-byte goal is judged on
    x86_64 (check-records.py), and this tinyconfig arm64 kernel (-Os)
    misses it (kernel-patch/README.md, "arm64"); the check fails only when
    the measurement itself fails."""
    cs = load("check_stack", "check-stack.py")
    try:
        res = cs.measure(stock_obj, kprint_obj, "arm64")
    except (OSError, subprocess.CalledProcessError) as ex:
        tap.check(False, "arm64: stack: objdump/nm of the stock and kprint vmlinux", [str(ex)])
        return
    over, missing = [], []
    for name, kind, sd, kd in res:
        if not sd or not kd:
            missing.append("%s (%s)" % (name, kind))
            continue
        g = kd[0] - sd[0]
        print("# arm64: stack: %s (%s): %d bytes, stock %d, growth %+d (goal <= +%d%s)"
              % (name, kind, kd[0], sd[0], g, cs.GOAL, "" if g <= cs.GOAL else ": NOT met"))
        if g > cs.GOAL:
            over.append(g)
    tap.check(res and not missing,
              "arm64: stack of %d printk entry paths measured against the stock kernel "
              "(reported, not judged: %d above +%d bytes, up to %+d)"
              % (len(res), len(over), cs.GOAL, max(over) if over else 0),
              ["not measured: " + m for m in missing])


def section_size(vmlinux, name):
    out = subprocess.run(["aarch64-linux-gnu-objdump", "-h", vmlinux], capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        p = line.split()
        if len(p) > 2 and p[1] == name:
            return int(p[2], 16)
    return 0


def sizes(stock_obj, kprint_obj, nsites):
    """Reported, not judged (the size goal is x86_64's tinyconfig
    reference, measure-sizes.sh): the Images and the descriptors."""
    try:
        img = [os.path.getsize(os.path.join(o, "arch/arm64/boot/Image")) for o in (stock_obj, kprint_obj)]
        sec = section_size(os.path.join(kprint_obj, "vmlinux"), ".kprint_sites")
    except (OSError, subprocess.CalledProcessError) as ex:
        print("# arm64: size: not measured (%s)" % ex)
        return
    print("# arm64: size: Image %d bytes with CONFIG_KPRINT (and its KUnit tests), %d without: %+d (%+.2f%%)"
          % (img[1], img[0], img[1] - img[0], 100.0 * (img[1] - img[0]) / img[0]))
    print("# arm64: size: .kprint_sites of vmlinux %d bytes = %d descriptors of 56 bytes "
          "(debugfs lists %d call sites, modules included)" % (sec, sec // 56, nsites))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--console", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--kdmesg")
    ap.add_argument("--module-src", required=True, help="test-module/kprint_test.c")
    ap.add_argument("--kprint-obj", help="the build directory of the booted kernel")
    ap.add_argument("--stock-obj", help="the build directory of the same kernel with CONFIG_KPRINT=n")
    a = ap.parse_args()
    cr = load("check_records", "check-records.py")
    cs = load("check_site", "check-site.py")
    tap = cr.Tap()

    secs, _ = cr.read_sections(a.console)
    rc = secs.get("RC", {})
    uname = " ".join(secs.get("UNAME", []))
    tap.check("aarch64" in uname and all(rc.get(n) == 0 for n in ("KMSG", "KMSG-SITE", "SITES")),
              "arm64: the kernel boots and its ring (both forms) and site table reach the host (%s)"
              % (uname or "no uname"),
              [] if rc.get("KMSG") == 0 else
              ["section status %s" % {n: rc.get(n) for n in ("UNAME", "KMSG", "KMSG-SITE", "SITES")}])
    full, lost, errs = cr.parse_kmsg(secs.get("KMSG", []))
    site, _, _ = cr.parse_kmsg(secs.get("KMSG-SITE", []))

    res = cr.kunit_results([r.text for r in full])
    want = cr.kunit_suites_in_source(a.src)
    kp = {k: v for k, v in res.items() if k in want}
    bad = ["%s: ok=%s, failed %s" % (k, v["ok"], v["failed"]) for k, v in res.items()
           if not v["ok"] or v["failed"]]
    bad += ["%s (%s): did not run" % (k, f) for k, f in sorted(want.items()) if k not in res]
    tap.check(want and not bad, "arm64: the series' KUnit suites pass (%s; %d cases)"
              % (", ".join(sorted(kp)) or "none found", sum(v["cases"] for v in kp.values())), bad[:6])

    check_module(tap, cr, full, rc.get("INSMOD"), a.module_src)

    sited = [r for r in full if "CODE_FILE" in r.dict]
    wrong = []
    for r in sited:
        n = file_lines(a.src, r.dict["CODE_FILE"])
        line = r.dict.get("CODE_LINE", "")
        if not n or not line.isdigit() or not 0 < int(line) <= n or not r.dict.get("CODE_FUNC"):
            wrong.append("seq %d: %s:%s %s" % (r.seq, r.dict["CODE_FILE"], line, r.dict.get("CODE_FUNC")))
    tap.check(len(sited) >= 100 and not wrong,
              "arm64: %d of %d records name their call site (CODE_FILE a file of the tree, CODE_LINE "
              "a line of it, CODE_FUNC)" % (len(sited), len(full)), wrong[:6])
    unesc = cr.unescape_kmsg
    notin = []
    nargs = 0
    for r in full:
        text = unesc(r.text) or ""
        for v in r.args():
            nargs += 1
            if (unesc(v) or "") not in text:
                notin.append("seq %d: ARG %r not in %r" % (r.seq, v[:60], r.text[:80]))
    tap.check(nargs and not notin, "arm64: each of the %d ARGn values is a piece of its record's text" % nargs,
              notin[:6])

    text = "\n".join(secs.get("SITES", [])) + "\n"
    table, bad_lines = cs.parse_table(text)
    tap.check(table and not bad_lines, "arm64: the debugfs site table parses (%d call sites)" % len(table),
              ["%d lines do not parse" % bad_lines] if bad_lines else [])
    cs.resolve_forms(tap, full, site, table, text, a.work, a.kdmesg, tag="arm64")

    # kprint_api.ko: the API's entry points, its assembly callers in arm64
    # code among them, with check-records.py's checks of the x86_64 boot
    api, api_lost, _ = cr.parse_kmsg(secs.get("KMSG-API", []))
    tap.check(rc.get("INSMOD-API") == 0 and rc.get("KMSG-API") == 0,
              "arm64: kprint_api.ko loads and the ring after it reaches the host",
              ["section status %s" % {n: rc.get(n) for n in ("INSMOD-API", "KMSG-API")}]
              if rc.get("INSMOD-API") != 0 or rc.get("KMSG-API") != 0 else [])
    ar = cr.api_records(api)
    cr.check_api_calls(tap, "arm64", ar, api_lost)
    cr.check_contexts(tap, "arm64", ar)
    cr.check_groups(tap, "arm64", api)

    if a.kprint_obj and a.stock_obj:
        stack(tap, a.stock_obj, a.kprint_obj)
        sizes(a.stock_obj, a.kprint_obj, len(table))
    if lost or errs:
        print("# arm64: %d records lost while reading, %d read errors" % (lost, len(errs)))
    print("%d passed, %d failed%s" % (tap.passed, tap.failed,
                                       ", %d skipped" % tap.skipped if tap.skipped else ""))
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
