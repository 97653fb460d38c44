"""Host-side check of issue 10's command line inside the kprint boot.

tools/structured.sh runs, in the booted CONFIG_KPRINT kernel with the test
module loaded, kdmesg's structured filters and outputs into KD10-* sections
of the data channel:

  KD10-MODULE    kdmesg --module kprint-test   ('-' spelling of kprint_test)
  KD10-FILE      kdmesg --code-file kprint_test.c
  KD10-FUNCTION  kdmesg --function 'kp_form*'
  KD10-GREP      kdmesg --grep 'KPTEST:(HEX|MAC)' -i MODULE=kprint_test
  KD10-LOCATION  kdmesg --location --module kprint_test
  KD10-VERBOSE   kdmesg -o verbose --function kp_formats
  KD10-JSONL     kdmesg -o jsonl --module kprint_test
  KD10-STATS     kdmesg --stats -J
  KD10-STATS-TEXT kdmesg --top 5

Each is checked against the records that /dev/kmsg itself gave (the KMSG
section, read just before): the filters print exactly the records whose
fields match (one output line starting with "[" per record), -o jsonl
carries the libkmod facts of the loaded module (state "live", the path of
its .ko), -o verbose every field with those facts, --stats counts each of
the module's call sites as often as /dev/kmsg shows it.

Called by check-records.py as run(tap, boots, mk, cr), like
check-journald.py.
"""

import fnmatch
import json
import re


def _records(b, cr):
    p1, _ = cr.split_phase2(b["recs"])
    return p1


def _first_lines(lines):
    """Output lines that start a record (continuations are indented)."""
    return [x for x in lines if x.startswith("[")]


def _check_filter(tap, cr, b, sec, what, want):
    lines = b["secs"].get(sec, [])
    got = _first_lines(lines)
    diag = []
    if b["rc"].get(sec) != 0:
        diag.append("exit status %s" % b["rc"].get(sec))
    if len(got) != len(want):
        diag.append("%d records printed, /dev/kmsg has %d matching" % (len(got), len(want)))
    for r in want:
        # (texts with escapes print as dmesg escapes them: count only)
        if "\\x" in r.text:
            continue
        text = r.text
        if not any(x.endswith(text) for x in got):
            diag.append("missing: %s" % cr.show(text, 80))
            break
    diag += ["output: " + cr.show(x, 100) for x in lines[:2] if diag]
    tap.check(want and not diag, "kprint: kdmesg %s prints the %d matching records" % (what, len(want)),
              diag[:6])


def run(tap, boots, mk, cr):
    b = boots.get("kprint")
    if b is None:
        return
    secs = b["secs"]
    if "KD10-MODULE" not in secs:
        tap.check(False, "kprint: issue 10's kdmesg runs in the boot (tools/structured.sh)",
                  ["no KD10-* sections on the data channel"])
        return
    recs = _records(b, cr)
    mod = [r for r in recs if r.dict.get("MODULE") == cr.MODULE]
    _check_filter(tap, cr, b, "KD10-MODULE", "--module kprint-test", mod)
    _check_filter(tap, cr, b, "KD10-FILE", "--code-file kprint_test.c",
                  [r for r in recs if r.dict.get("CODE_FILE", "").split("/")[-1] == cr.SRC_NAME])
    _check_filter(tap, cr, b, "KD10-FUNCTION", "--function 'kp_form*'",
                  [r for r in recs if fnmatch.fnmatchcase(r.dict.get("CODE_FUNC", ""), "kp_form*")])
    _check_filter(tap, cr, b, "KD10-GREP", "--grep 'KPTEST:(HEX|MAC)' -i MODULE=kprint_test",
                  [r for r in mod if re.search(r"(?i)kptest:(hex|mac)", r.text)])

    # --location: file:line function() of each record, from its own fields
    loc = _first_lines(secs.get("KD10-LOCATION", []))
    bad = []
    for r, line in zip(mod, loc):
        want = "%s:%s %s() " % (r.dict.get("CODE_FILE"), r.dict.get("CODE_LINE"), r.dict.get("CODE_FUNC"))
        if want not in line:
            bad.append("seq %d: %s not in %s" % (r.seq, cr.show(want, 60), cr.show(line, 100)))
    tap.check(len(loc) == len(mod) and mod and not bad,
              "kprint: kdmesg --location shows file:line function() of the module's %d records" % len(mod),
              bad[:4] + (["%d lines for %d records" % (len(loc), len(mod))] if len(loc) != len(mod) else []))

    # -o jsonl: the module's records, with libkmod's facts of the loaded module
    objs, diag = [], []
    for line in secs.get("KD10-JSONL", []):
        if line.startswith("{"):
            try:
                objs.append(json.loads(line))
            except ValueError:
                diag.append("not JSON: " + cr.show(line))
        elif line:
            diag.append("stderr: " + cr.show(line))
    seqs = sorted(o.get("seq") for o in objs)
    if seqs != sorted(r.seq for r in mod):
        diag.append("seqs %s..., /dev/kmsg %s..." % (seqs[:4], sorted(r.seq for r in mod)[:4]))
    facts = [o.get("module_info") for o in objs]
    live = [f for f in facts if f and f.get("state") == "live"
            and str(f.get("path", "")).endswith("/kprint_test.ko")]
    if len(live) != len(objs):
        diag.append("module_info: %s" % cr.show(json.dumps(facts[0] if facts else None), 200))
    tap.check(objs and not diag,
              "kprint: kdmesg -o jsonl --module kprint_test: the %d records, each with libkmod's facts "
              "(live, its .ko)" % len(objs), diag[:6])

    # -o verbose: every field, and the facts
    text = "\n".join(secs.get("KD10-VERBOSE", []))
    want = [r for r in recs if r.dict.get("CODE_FUNC") == "kp_formats"]
    missing = [k for k in ("MESSAGE=", "PRIORITY=", "CODE_FILE=", "CODE_LINE=", "CODE_FUNC=kp_formats",
                           "MODULE=kprint_test", "FORMAT=", "ARG0=", "MODULE_INFO[libkmod]=live")
               if k not in text]
    n = text.count("CODE_FUNC=kp_formats")
    tap.check(want and not missing and n == len(want) and b["rc"].get("KD10-VERBOSE") == 0,
              "kprint: kdmesg -o verbose --function kp_formats shows every field of its %d records "
              "and libkmod's facts" % len(want),
              (["missing: " + ", ".join(missing)] if missing else [])
              + (["%d records shown" % n] if n != len(want) else []))

    # --stats: the module's call sites, counted as /dev/kmsg has them
    try:
        stats = json.loads("\n".join(x for x in secs.get("KD10-STATS", []) if not x.startswith("kdmesg:")))
    except ValueError as ex:
        stats = {"error": str(ex)}
    diag = []
    counts = {}
    for r in mod:
        key = (r.dict.get("CODE_FILE"), r.dict.get("CODE_LINE"), cr.unescape_kmsg(r.dict.get("FORMAT", "")))
        counts[key] = counts.get(key, 0) + 1
    sites = {(s.get("file"), str(s.get("line")), s.get("format")): s for s in stats.get("sites", [])
             if s.get("module") == cr.MODULE}
    for key, n in counts.items():
        s = sites.get(key)
        if s is None:
            diag.append("no site %s:%s %s" % (key[0], key[1], cr.show(key[2], 40)))
        elif s.get("count") != n:
            diag.append("site %s:%s counted %s, /dev/kmsg has %d" % (key[0], key[1], s.get("count"), n))
    if stats.get("records", 0) < len(recs):
        diag.append("records %s < %d in /dev/kmsg" % (stats.get("records"), len(recs)))
    if not any("live" in str(s.get("module_info", "")) for s in sites.values()):
        diag.append("no libkmod facts for the module's sites")
    tap.check(counts and not diag,
              "kprint: kdmesg --stats -J counts the module's %d call sites as /dev/kmsg has them, "
              "with libkmod's facts" % len(counts), diag[:6] + ([stats["error"]] if "error" in stats else []))
    top = secs.get("KD10-STATS-TEXT", [])
    tap.check(b["rc"].get("KD10-STATS-TEXT") == 0 and top[:1] and top[0].split()[:2] == ["COUNT", "SHARE"]
              and len(_first_sites(top)) == 5,
              "kprint: kdmesg --top 5 prints a table of the 5 largest sites",
              ["output: " + cr.show(x, 120) for x in top[:3]])


def _first_sites(lines):
    return [x for x in lines[1:] if re.match(r"\s*\d+\s+\d+\.\d%", x)]
