#!/usr/bin/env python3
"""Checks of the arm64 boot of check-arm64.sh (issue 23: not x86-only).

The console log holds, between =====NAME-BEGIN/END===== markers
(tools/arm64-init.c): UNAME, INSMOD (loading kprint_test.ko), KMSG (the
ring read with printk.kprint_dict=full), KMSG-SITE (read again in the
default form) and SITES (<debugfs>/kprint/sites).

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
    --sites expands it alike.
"""

import argparse
import os
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--console", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--kdmesg")
    ap.add_argument("--module-src", required=True, help="test-module/kprint_test.c")
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
    if lost or errs:
        print("# arm64: %d records lost while reading, %d read errors" % (lost, len(errs)))
    print("%d passed, %d failed%s" % (tap.passed, tap.failed,
                                       ", %d skipped" % tap.skipped if tap.skipped else ""))
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
