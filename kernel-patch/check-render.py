#!/usr/bin/env python3
"""Issue 13 item 5: how much of a boot log re-renders from FORMAT and ARGn
(called by check-records.py).

For every record of the kprint boot's first /dev/kmsg dump (boot log and
test module) that has a FORMAT line, the conversions of FORMAT are
replaced, in order, by ARG0, ARG1, ... ("%%" by "%"; "%p" with its
extension letters, "*" widths and length modifiers belong to their
conversion) and the result is compared with the record's text, both as
/dev/kmsg escapes them.  A dev_*()/netdev_*() record (with a DEVICE line)
also counts when the text is a "<driver> <device>: " prefix followed by the
rendering.  The share of records that re-render exactly is reported, with
the reasons of the others; the goal of issue 13 (at least 99%) is
reported, not asserted (this file prints "#" lines only).
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


def run(tap, boots, cr):
    del tap  # reported only, see the docstring
    if "kprint" not in boots:
        return
    b = boots["kprint"]
    p1, _ = cr.split_phase2(b["recs"])
    total, ok, why = 0, 0, {}
    for r in p1:
        fmt = r.dict.get("FORMAT")
        if fmt is None or r.prio >= 8:
            continue
        total += 1
        args = r.args()
        text = r.text
        if fmt.endswith("\\x0a") and not text.endswith("\\x0a"):
            fmt = fmt[:-4]
        got, err = render(fmt, args)
        if got is not None and (got == text or ("DEVICE" in r.dict and text.endswith(": " + got))):
            ok += 1
            continue
        if err is None:
            if r.header.split(";")[0].split(",")[3:4] == ["c"] or (got and text.startswith(got)):
                err = "text longer than the rendering (continuation fragments)"
            elif got and got.startswith(text):
                err = "text cut (record limit)"
            else:
                err = "rendering differs"
        why[err] = why.get(err, 0) + 1
    if not total:
        print("# render: no records with FORMAT")
        return
    share = 100.0 * ok / total
    print("# render: %d of %d records with FORMAT (%.1f%%) re-render exactly from FORMAT and ARGn "
          "(issue 13 goal: >= 99%%: %s)" % (ok, total, share, "met" if share >= 99 else "NOT met"))
    for err, n in sorted(why.items(), key=lambda x: -x[1]):
        print("# render:   %d: %s" % (n, err))
