#!/usr/bin/env python3
"""Issue 13 item 5: how much of a boot log re-renders from FORMAT and ARGn,
and whether the records that do not say so (called by check-records.py).

For every record of the kprint boot's first /dev/kmsg dump (boot log and
test module) that has a FORMAT line, the conversions of FORMAT are
replaced, in order, by ARG0, ARG1, ... ("%%" by "%"; "%p" with its
extension letters, "*" widths and length modifiers belong to their
conversion) and the result is compared with the record's text, both as
/dev/kmsg escapes them.  A dev_*()/netdev_*() record also counts when the
text is a device prefix ending in ": " (or ": [name] ", SCSI's
sdev_printk() family; or DRM's "[drm:<function>] ", with "*ERROR* " for
DRM_ERROR(), alone or after a device prefix), possibly with one word of
a wrapper's own and a blank after it (9p's "(<pid>) "), followed by the
rendering.  A record
continued by pr_cont() whose parts the kernel kept (PARTS=<n>) renders as
its first part (FORMAT, ARGn) joined with each PART<k>_FORMAT rendered from
its PART<k>_ARGn.  The goal is judged on the boot log; the test module's
records, which hit every limit on purpose, are reported beside it.

A record that does not re-render can say so: FORMAT_PART=1 without PARTS
(pr_cont() fragments follow, their formats not kept), a part without its
PART<k>_FORMAT, or ARGS_CUT=<n> / PART<k>_ARGS_CUT=<n> (argument n is the
first one cut or left out), see man/kprint.7; and a reader can tell a
record whose number of ARG lines differs from the number of conversions
(the flattened arguments of "%pV" of a record without PV_FORMAT; with it,
FORMAT renders with PV_FORMAT in place of its first "%pV").  Reported: the share that re-renders exactly (the goal
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


def splice_pv(fmt, pv):
    """FORMAT with its first %pV replaced by PV_FORMAT (a wrapper's record
    that kept the format its %pV carried, see kprint(7)), or FORMAT."""
    if pv is None:
        return fmt
    for m in CONV.finditer(fmt):
        if m.group(1) != "%" and re.search(r"pV[A-Za-z0-9]*$", m.group(1)):
            return fmt[:m.start()] + pv + fmt[m.end():]
    return fmt


def render_record(r):
    """The record's text rendered from FORMAT (with PV_FORMAT in place of its
    first %pV) and ARGn and, when the kernel kept the parts of a record
    continued by pr_cont() (PARTS=<n>), from each PART<k>_FORMAT and
    PART<k>_ARGn, joined; or (None, reason)."""
    fmt = r.dict.get("FORMAT")
    if fmt.endswith("\\x0a") and not r.text.endswith("\\x0a"):
        fmt = fmt[:-4]
    fmt = splice_pv(fmt, r.dict.get("PV_FORMAT"))
    got, err = render(fmt, r.args())
    if got is None or "PARTS" not in r.dict:
        return got, err
    for k in range(2, int(r.dict["PARTS"]) + 1):
        pfmt = r.dict.get("PART%d_FORMAT" % k)
        if pfmt is None:
            return got, "part %d without PART%d_FORMAT" % (k, k)
        more, err = render(pfmt, r.args("PART%d_" % k))
        if more is None:
            return None, "part %d: %s" % (k, err)
        got += more
    return got, None


def drm_prefixed(pre):
    """Whether @pre is DRM's "[drm:<function>] " (with "*ERROR* " after it,
    DRM_ERROR()), alone or after a device prefix."""
    if pre.endswith("*ERROR* "):
        pre = pre[:-len("*ERROR* ")]
    i = pre.find("[drm:")
    return pre.endswith("] ") and (i == 0 or (i >= 2 and pre[i - 2:i] == ": "))


def colon_prefixed(pre):
    """Whether @pre ends in ": " (dev_*(), netdev_*(), ext4_msg()) or in
    ": [name] " (SCSI's sdev_printk() family), or is DRM's
    (drm_prefixed())."""
    return pre.endswith(": ") or re.search(r": \[[^\[]*\] $", pre) is not None \
        or drm_prefixed(pre)


def device_prefixed(text, got):
    """Whether @text is a device prefix and then @got: colon_prefixed(),
    or such a prefix and one word of the wrapper's own and a blank
    (ath11k_dbg()'s debug mask, iwlwifi's and brcmf_dbg()'s function,
    9p's "(<pid>) "), as kdmesg's expansion takes it."""
    if not text.endswith(got):
        return False
    pre = text[:len(text) - len(got)]
    if colon_prefixed(pre):
        return True
    m = re.search(r"[^ ]+ $", pre)
    return m is not None and m.start() > 0 and colon_prefixed(pre[:m.start()])


def classify(r):
    """(kind, reason) of a record with FORMAT: kind "exact", "marked",
    "count" (ARG lines and conversions differ) or "other"."""
    text = r.text
    got, err = render_record(r)
    cuts = ["%s=%s" % (k, v) for k, v in r.dict.items() if k == "ARGS_CUT" or k.endswith("_ARGS_CUT")]
    # FORMAT_PART=1 with PARTS=<n>: FORMAT renders the first part only, as
    # it says, and the parts render the rest
    part_only = "FORMAT_PART" in r.dict and "PARTS" not in r.dict
    marked = part_only or bool(cuts)
    if got is not None and (got == text or device_prefixed(text, got)):
        return ("marked although it renders" if marked else "exact"), None
    if err is None:
        if r.header.split(";")[0].split(",")[3:4] == ["c"] or (got and text.startswith(got)):
            err = "text longer than the rendering (continuation fragments)"
        elif got and got.startswith(text):
            err = "text cut (record limit)"
        else:
            err = "rendering differs"
    if part_only:
        return "marked", "FORMAT_PART=1: " + err
    if cuts:
        return "marked", "%s: %s" % (" ".join(cuts), err)
    if "PARTS" in r.dict and err.startswith("part "):
        return "marked", "PARTS=%s: %s" % (r.dict["PARTS"], err)
    if got is None:
        return "count", err
    return "other", err


def tally(recs):
    """(total, {kind: n}, {reason: n}) of the records with FORMAT."""
    total, kinds, why = 0, {}, {}
    for r in recs:
        if r.dict.get("FORMAT") is None or r.prio >= 8:
            continue
        total += 1
        kind, err = classify(r)
        kinds[kind] = kinds.get(kind, 0) + 1
        if err:
            key = "%s: %s" % (kind, err)
            why[key] = why.get(key, 0) + 1
    return total, kinds, why


def report(what, total, kinds, why, goal):
    exact = kinds.get("exact", 0)
    known = exact + kinds.get("marked", 0) + kinds.get("count", 0)
    share = 100.0 * exact / total
    verdict = " (issue 13 goal: >= 99%%: %s)" % ("met" if share >= 99 else "NOT met") if goal else ""
    print("# render: %s: %d of %d records with FORMAT (%.1f%%) re-render exactly from FORMAT and "
          "ARGn%s" % (what, exact, total, share, verdict))
    print("# render: %s: %d of %d (%.1f%%) re-render exactly or let a reader know they do not "
          "(%d marked FORMAT_PART/ARGS_CUT/PARTS, %d with more or fewer ARG lines than conversions)"
          % (what, known, total, 100.0 * known / total, kinds.get("marked", 0), kinds.get("count", 0)))
    if kinds.get("marked although it renders"):
        print("# render: %s: %d marked although they re-render" % (what, kinds["marked although it renders"]))
    for err, n in sorted(why.items(), key=lambda x: -x[1]):
        print("# render:   %d: %s" % (n, err))


def run(tap, boots, cr):
    """The share of the boot log (the kernel's own records before the test
    module's) is the goal; the test module's records, built to hit every
    limit (70 arguments, 2000-byte values, %pV), are reported beside it."""
    del tap  # reported only, see the docstring
    if "kprint" not in boots:
        return
    p1, _ = cr.split_phase2(boots["kprint"]["recs"])
    mods = set(id(r) for r in cr.module_records(p1))
    boot = [r for r in p1 if id(r) not in mods]
    total, kinds, why = tally(boot)
    if not total:
        print("# render: no records with FORMAT")
        return
    report("boot log", total, kinds, why, True)
    total, kinds, why = tally([r for r in p1 if id(r) in mods])
    if total:
        report("test module", total, kinds, why, False)


def check(tap, boots, cr):
    """Assert the marks on the test module's records: each record with FORMAT
    re-renders exactly, is marked, or has more or fewer ARG lines than
    conversions; none that re-renders is marked; the continuation records
    re-render exactly from their parts (FORMAT_PART=1, PARTS=<n>) but the
    one whose second fragment has no call site (no PART2_FORMAT) and the
    one with more fragments than the table holds (no PARTS); the one with
    70 arguments carries ARGS_CUT=32 and those whose long argument was cut
    ARGS_CUT=0."""
    if "kprint" not in boots:
        return
    p1, _ = cr.split_phase2(boots["kprint"]["recs"])
    mods = [r for r in cr.module_records(p1) if r.dict.get("FORMAT") is not None and r.prio < 8]
    bad = []
    for r in mods:
        kind, err = classify(r)
        if kind in ("other", "marked although it renders"):
            bad.append("seq %d %s: %s %s" % (r.seq, r.tag(), kind, err or ""))
    # cont_printk's last fragment is a bare "\n": no text, no part;
    # cont_nosite's second part has no call site, cont_many more parts
    # than the table holds (its first fragment has no arguments)
    want = {"cont_seq": {"FORMAT_PART": "1", "PARTS": "4"},
            "cont_printk": {"FORMAT_PART": "1", "PARTS": "2"},
            "cont_nosite": {"FORMAT_PART": "1", "PARTS": "2", "PART2_FORMAT": None},
            "cont_many": {"FORMAT_PART": "1", "PARTS": None, "ARGS_CUT": None},
            "many70": {"ARGS_CUT": "32"}, "long2000": {"ARGS_CUT": "0"},
            "long_escape": {"ARGS_CUT": "0"}}
    for tag, keys in want.items():
        recs = [r for r in mods if r.tag() == tag]
        if not recs:
            bad.append("%s: no record" % tag)
        for r in recs:
            for key, val in keys.items():
                if r.dict.get(key) != val:
                    bad.append("%s: %s=%s, expected %s" % (tag, key, r.dict.get(key), val))
            kind = classify(r)
            if keys.get("PARTS") and "PART2_FORMAT" not in keys and kind[0] != "exact":
                bad.append("%s: does not re-render from its parts: %s" % (tag, kind))
    tap.check(mods and not bad, "kprint: test records that FORMAT and ARGn do not re-render say so "
              "(FORMAT_PART=1 without PARTS, ARGS_CUT=<n>) or have more or fewer ARG lines than "
              "conversions; no record that re-renders is marked; pr_cont() records re-render from "
              "their parts (%d records)" % len(mods), bad[:8])
