#!/usr/bin/env python3
"""Issue 13 item 5: how much of a boot log re-renders from FORMAT and ARGn,
and whether the records that do not say so (called by check-records.py).

For every record of the kprint boot's first /dev/kmsg dump (boot log and
test module) that has a FORMAT line, the conversions of FORMAT are
replaced, in order, by ARG0, ARG1, ... ("%%" by "%"; "%p" with its
extension letters, "*" widths and length modifiers belong to their
conversion) and the result is compared with the record's text, both as
/dev/kmsg escapes them.  A dev_*()/netdev_*() record also counts when the
text is a device prefix ending in ": " followed by the rendering.

A record that does not re-render can say so: FORMAT_PART=1 (pr_cont()
fragments follow) or ARGS_CUT=<n> (argument n is the first one cut or
left out), see man/kprint.7; and a reader can tell a record whose number
of ARG lines differs from the number of conversions (the flattened
arguments of "%pV").  Reported: the share that re-renders exactly (the goal
of issue 13, at least 99%), and the share that re-renders exactly or lets a
reader know it does not, with the reasons of the others; records marked
although they re-render are counted too.  Reported, not asserted (this
file prints "#" lines only): check-records.py asserts the marks on the
test module's records.
"""

import re

CONV = re.compile(r"%(%|[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+)?)?(?:hh|h|ll|l|z|Z|t|j|L|q)?"
                  r"(?:p[A-Za-z0-9]*|[diouxXcsn]))")


def render(fmt, args):
    """FORMAT with its conversions replaced by args; None if counts differ."""
    out, i, pos = [], 0, 0
    for m in CONV.finditer(fmt):
        out.append(fmt[pos:m.start()])
        if m.group(1) == "%":
            out.append("%")
        else:
            if i >= len(args):
                return None, "fewer ARG lines than conversions"
            out.append(args[i])
            i += 1
        pos = m.end()
    out.append(fmt[pos:])
    if i != len(args):
        return None, "more ARG lines than conversions (%%pV flattened)"
    return "".join(out), None


def classify(r):
    """(kind, reason) of a record with FORMAT: kind "exact", "marked",
    "count" (ARG lines and conversions differ) or "other"."""
    fmt = r.dict.get("FORMAT")
    args = r.args()
    text = r.text
    if fmt.endswith("\\x0a") and not text.endswith("\\x0a"):
        fmt = fmt[:-4]
    got, err = render(fmt, args)
    marked = "FORMAT_PART" in r.dict or "ARGS_CUT" in r.dict
    if got is not None and (got == text or text.endswith(": " + got)):
        return ("marked although it renders" if marked else "exact"), None
    if err is None:
        if r.header.split(";")[0].split(",")[3:4] == ["c"] or (got and text.startswith(got)):
            err = "text longer than the rendering (continuation fragments)"
        elif got and got.startswith(text):
            err = "text cut (record limit)"
        else:
            err = "rendering differs"
    if "FORMAT_PART" in r.dict:
        return "marked", "FORMAT_PART=1: " + err
    if "ARGS_CUT" in r.dict:
        return "marked", "ARGS_CUT=%s: %s" % (r.dict["ARGS_CUT"], err)
    if got is None:
        return "count", err
    return "other", err


def run(tap, boots, cr):
    del tap  # reported only, see the docstring
    if "kprint" not in boots:
        return
    b = boots["kprint"]
    p1, _ = cr.split_phase2(b["recs"])
    total, kinds, why = 0, {}, {}
    for r in p1:
        if r.dict.get("FORMAT") is None or r.prio >= 8:
            continue
        total += 1
        kind, err = classify(r)
        kinds[kind] = kinds.get(kind, 0) + 1
        if err:
            key = "%s: %s" % (kind, err)
            why[key] = why.get(key, 0) + 1
    if not total:
        print("# render: no records with FORMAT")
        return
    exact = kinds.get("exact", 0)
    known = exact + kinds.get("marked", 0) + kinds.get("count", 0)
    share = 100.0 * exact / total
    print("# render: %d of %d records with FORMAT (%.1f%%) re-render exactly from FORMAT and ARGn "
          "(issue 13 goal: >= 99%%: %s)" % (exact, total, share, "met" if share >= 99 else "NOT met"))
    print("# render: %d of %d (%.1f%%) re-render exactly or let a reader know they do not (%d marked "
          "FORMAT_PART/ARGS_CUT, %d with more or fewer ARG lines than conversions)"
          % (known, total, 100.0 * known / total, kinds.get("marked", 0), kinds.get("count", 0)))
    if kinds.get("marked although it renders"):
        print("# render: %d marked although they re-render" % kinds["marked although it renders"])
    for err, n in sorted(why.items(), key=lambda x: -x[1]):
        print("# render:   %d: %s" % (n, err))


def check(tap, boots, cr):
    """Assert the marks on the test module's records: each record with FORMAT
    re-renders exactly, is marked, or has more or fewer ARG lines than
    conversions; none that re-renders is marked; the continuation records
    carry FORMAT_PART=1, the one with 70 arguments ARGS_CUT=32 and those
    whose long argument was cut ARGS_CUT=0."""
    if "kprint" not in boots:
        return
    p1, _ = cr.split_phase2(boots["kprint"]["recs"])
    mods = [r for r in cr.module_records(p1) if r.dict.get("FORMAT") is not None and r.prio < 8]
    bad = []
    for r in mods:
        kind, err = classify(r)
        if kind in ("other", "marked although it renders"):
            bad.append("seq %d %s: %s %s" % (r.seq, r.tag(), kind, err or ""))
    want = {"cont_seq": ("FORMAT_PART", "1"), "cont_printk": ("FORMAT_PART", "1"),
            "many70": ("ARGS_CUT", "32"), "long2000": ("ARGS_CUT", "0"), "long_escape": ("ARGS_CUT", "0")}
    for tag, (key, val) in want.items():
        got = [r.dict.get(key) for r in mods if r.tag() == tag]
        if not got or any(g != val for g in got):
            bad.append("%s: %s=%s, expected %s" % (tag, key, got, val))
    tap.check(mods and not bad, "kprint: test records that FORMAT and ARGn do not re-render say so "
              "(FORMAT_PART=1, ARGS_CUT=<n>) or have more or fewer ARG lines than conversions; "
              "no record that re-renders is marked (%d records)" % len(mods), bad[:8])
