"""Host-side check of systemd-journald inside the check-kernel.sh boots.

Issue 3: "systemd-journald stores them [the new /dev/kmsg keys] as
_KERNEL_<KEY>; check [it] still works on the patched kernel."
tools/journald.sh runs the build host's systemd-journald (Debian 12: systemd
252) in the booted kernel, lets it read the /dev/kmsg ring into a volatile
journal and dumps the journal's kernel entries with `journalctl -o json --all`
(gzip'ed, base64'ed) into the JOURNAL-JSON-GZ section of the data channel.
journald-kmsg.c turns every dictionary line " KEY=value" of a /dev/kmsg record into the field
_KERNEL_KEY=<value unescaped>; only DEVICE= gets extra treatment (it adds
_UDEV_* fields when udev knows the device).  So the keys of the series come
out as _KERNEL_CODE_FILE, _KERNEL_CODE_LINE, _KERNEL_CODE_FUNC,
_KERNEL_MODULE, _KERNEL_FORMAT and _KERNEL_ARG0...

Checked per boot (kprint and stock):
  * journald ran, read the ring to its end (the record journald.sh writes
    just before starting it is in the journal) and journalctl exported the
    journal;
  * every record of the test module that /dev/kmsg showed (KMSG section) is in
    the journal - matched by its /dev/kmsg timestamp (journald's
    _SOURCE_MONOTONIC_TIMESTAMP) - with MESSAGE equal to the record text
    unescaped and the record's PRIORITY/SYSLOG_FACILITY;
  * each dictionary line of those records is a _KERNEL_<KEY> field with the
    unescaped value, and there are no other _KERNEL_ fields;
kprint: the journal's fields, escaped again the way the kernel escapes
/dev/kmsg, meet the expectations check-records.py has for every test message
(CODE_FILE/CODE_LINE/CODE_FUNC/MODULE/FORMAT/ARGn; check_fields());
stock: no _KERNEL_CODE_*/FORMAT/ARGn fields at all; kprint vs stock: the
module's journal entries have the same MESSAGE, PRIORITY, _KERNEL_SUBSYSTEM
and _KERNEL_DEVICE.

Called by check-records.py as run(tap, boots, mk, cr), cr being that module
(for its expectations and helpers), so the results are numbered with its
other checks.
"""

import base64
import gzip
import json
import re

NEW_FIELDS = ("_KERNEL_CODE_FILE", "_KERNEL_CODE_LINE", "_KERNEL_CODE_FUNC",
              "_KERNEL_MODULE", "_KERNEL_FORMAT")


def unescape(v):
    """/dev/kmsg text or value (kernel \\xNN escapes) -> bytes."""
    raw = v.encode("utf-8", "surrogateescape")
    return re.sub(rb"\\x([0-9a-f]{2})", lambda m: bytes([int(m.group(1), 16)]), raw)


def value(v):
    """A journalctl -o json value -> bytes; a list of values (the field
    occurs more than once) -> list of bytes."""
    if isinstance(v, str):
        return v.encode("utf-8")
    if isinstance(v, list) and all(isinstance(x, int) for x in v):
        return bytes(v)
    if isinstance(v, list):
        return [value(x) for x in v]
    return None  # null: not shown (too large without --all)


def parse(lines):
    entries, bad = [], []
    for line in lines:
        if not line.strip():
            continue
        try:
            o = json.loads(line)
        except ValueError:
            bad.append(line)
            continue
        entries.append({k: value(v) for k, v in o.items()})
    return entries, bad


def ts_of(rec):
    """The timestamp field of a /dev/kmsg record header."""
    f = rec.header.partition(";")[0].split(",")
    return f[2] if len(f) > 2 else None


def show(v, n=100):
    r = repr(v)
    return r if len(r) <= n else r[:n] + "...(%d)" % len(v)


def kernel_fields(e):
    return {k: v for k, v in e.items() if k.startswith("_KERNEL_")}


def is_module_entry(e):
    m = e.get("MESSAGE")
    return isinstance(m, bytes) and b"kptest:" in m and b"kptest:bench" not in m


class _Quiet:
    """Collects check_fields() results instead of printing them."""

    def __init__(self):
        self.results = []

    def check(self, ok, desc, diag=()):
        self.results.append((ok, desc, list(diag)))
        return ok


def run(tap, boots, mk, cr):
    journals = {}
    # the other boots (the cut-off variants) stop before journald.sh
    for name, b in ((n, boots[n]) for n in ("kprint", "stock") if n in boots):
        secs, rc = b["secs"], b["rc"]
        if "JOURNAL-JSON-GZ" not in secs:
            absent = any("JOURNAL-ABSENT" in x for x in b["plain"])
            tap.check(False, "%s: systemd-journald reads /dev/kmsg into a journal in the booted kernel" % name,
                      ["systemd-journald or journalctl missing in the initramfs" if absent
                       else "no JOURNAL-JSON-GZ section on the data channel (boot did not get there?)"])
            continue
        try:
            lines = gzip.decompress(base64.b64decode("".join(secs["JOURNAL-JSON-GZ"]))).decode(
                "utf-8", "surrogateescape").split("\n")
        except (ValueError, OSError, EOFError) as ex:
            lines = ["(JOURNAL-JSON-GZ section does not decode: %s)" % ex]
        entries, bad = parse(lines)
        log = secs.get("JOURNALD-LOG", [])
        # the record journald.sh writes to /dev/kmsg just before it starts
        # journald: in the journal when journald read the ring to its end
        synced = any(e.get("SYSLOG_IDENTIFIER") == b"kptest-journald-sync" for e in entries)
        ok = rc.get("JOURNALD-LOG") == 0 and rc.get("JOURNAL-JSON-GZ") == 0 and entries and not bad and synced
        diag = []
        if not ok:
            diag.append("journald.sh status %s, journalctl status %s, %d entries, %d lines not JSON, "
                        "marker record %s" % (rc.get("JOURNALD-LOG"), rc.get("JOURNAL-JSON-GZ"), len(entries),
                                              len(bad), "found" if synced else "missing"))
            diag += ["not JSON: " + show(x) for x in bad[:2]]
            diag += ["journalctl: " + x for x in secs.get("JOURNALCTL-STDERR", []) if x][:4]
            diag += [x for x in log if re.search(r"(?i)fail|error|caught up|exit", x)][:12]
        tap.check(ok, "%s: systemd-journald reads /dev/kmsg into a journal in the booted kernel "
                  "(%d kernel entries)" % (name, len(entries)), diag)
        for x in log:
            if re.match(r"\[\d+\.\d+\] ", x):
                print("# %s: journald.sh: %s" % (name, x))
        journals[name] = entries
        if not entries:
            continue

        by_ts = {}
        for e in entries:
            ts = e.get("_SOURCE_MONOTONIC_TIMESTAMP")
            if isinstance(ts, bytes):
                by_ts.setdefault(ts.decode(), []).append(e)
        p1, _ = cr.split_phase2(b["recs"])
        mod = cr.module_records(p1)
        pairs, miss, cut = [], [], []
        for r in mod:
            want = unescape(r.text)
            cands = by_ts.get(ts_of(r), [])
            e = next((x for x in cands if x.get("MESSAGE") == want), None)
            if r.truncated:
                # text line cut without a newline: journald-kmsg.c drops a
                # record whose text does not end in a newline (as on stock)
                cut.append((r, e))
                continue
            if e is None:
                miss.append("seq %d (kptest:%s): no entry with _SOURCE_MONOTONIC_TIMESTAMP=%s and "
                            "MESSAGE=%s%s" % (r.seq, r.tag(), ts_of(r), show(want),
                                              "; at that time: %s" % show(cands[0].get("MESSAGE"))
                                              if cands else ""))
                continue
            if (e.get("PRIORITY") != str(r.prio & 7).encode()
                    or e.get("SYSLOG_FACILITY") != str(r.prio >> 3).encode()):
                miss.append("seq %d: PRIORITY=%s SYSLOG_FACILITY=%s, /dev/kmsg level %d facility %d"
                            % (r.seq, e.get("PRIORITY"), e.get("SYSLOG_FACILITY"), r.prio & 7, r.prio >> 3))
            pairs.append((r, e))
        if cut:
            print("# %s: journald: %d record(s) whose /dev/kmsg text line was cut without a newline "
                  "(%s): %d in the journal (journald-kmsg.c drops such records on any kernel)"
                  % (name, len(cut), " ".join(sorted({r.tag() or "?" for r, _ in cut})),
                     sum(1 for _, e in cut if e is not None)))
        tap.check(mod and not miss,
                  "%s: journald: every test-module record of /dev/kmsg is in the journal with "
                  "MESSAGE = its text and its level (%d records)" % (name, len(pairs)),
                  miss[:8] + (["... %d more" % (len(miss) - 8)] if len(miss) > 8 else [])
                  + ([] if mod else ["no module records in /dev/kmsg"]))

        diag, nf = [], 0
        for r, e in pairs:
            kf = kernel_fields(e)
            for k, v in r.dict.items():
                nf += 1
                got = kf.pop("_KERNEL_" + k, None)
                if got != unescape(v):
                    diag.append("seq %d (kptest:%s): _KERNEL_%s=%s, /dev/kmsg %s=%s"
                                % (r.seq, r.tag(), k, show(got, 60), k, show(v, 60)))
            for k in kf:
                diag.append("seq %d: %s is not a dictionary line of the record" % (r.seq, k))
        tap.check(pairs and not diag,
                  "%s: journald: every dictionary line of those records is a _KERNEL_<KEY> field "
                  "with the unescaped value (%d fields)" % (name, nf),
                  diag[:8] + (["... %d more" % (len(diag) - 8)] if len(diag) > 8 else []))

        if b["cfg"].get("CONFIG_KPRINT") == "y":
            # the journal's view of each record, escaped back like /dev/kmsg,
            # against the expectations of check-records.py
            recs = []
            for r, e in pairs:
                jr = cr.Record(None, "%s,%d,%s,-;%s" % (r.prio, r.seq, ts_of(r), cr.esc(e["MESSAGE"])))
                for k, v in sorted(kernel_fields(e).items()):
                    if isinstance(v, bytes):
                        jr.add(" %s=%s" % (k[len("_KERNEL_"):], cr.esc(v)))
                recs.append(jr)
            q = _Quiet()
            skip = any(r.tag() == "deferred_skip" for r in recs)
            tags = {r.tag() for r in recs}
            for tag, exp in cr.EXPECT.items():
                if exp.get("cut") or (tag == "deferred" and skip) or cr.skip_expect(exp, tags):
                    continue
                cr.check_fields(q, tag, exp, recs, mk, b["ncpu"] or 2)
            bad = [(d, dg) for ok, d, dg in q.results if not ok]
            diag = []
            for d, dg in bad[:6]:
                diag.append(re.sub(r"^kprint: ", "", d))
                diag += ["  " + x for x in dg[:3]]
            with_new = sum(1 for r in recs if any(k in r.dict for k in ("CODE_FILE", "MODULE")))
            tap.check(q.results and not bad,
                      "kprint: journald: _KERNEL_CODE_FILE/_KERNEL_CODE_LINE/_KERNEL_CODE_FUNC/_KERNEL_MODULE/"
                      "_KERNEL_FORMAT/_KERNEL_ARGn of every test message as expected "
                      "(%d messages, %d entries with the fields)" % (len(q.results), with_new), diag)
        else:
            leak = [e for e in entries if any(k in e for k in NEW_FIELDS)
                    or any(re.fullmatch(r"_KERNEL_ARG\d+", k) for k in e)]
            tap.check(not leak, "%s: journald: no _KERNEL_CODE_*/FORMAT/ARGn fields at all" % name,
                      ["MESSAGE=%s has %s" % (show(e.get("MESSAGE")), sorted(kernel_fields(e)))
                       for e in leak[:3]])

    if "kprint" in journals and "stock" in journals:
        def key(e):
            m = e.get("MESSAGE")
            return (e.get("PRIORITY"), cr.norm_cut(cr.esc(m)) if isinstance(m, bytes) else m,
                    e.get("_KERNEL_SUBSYSTEM"), e.get("_KERNEL_DEVICE"))

        def mod_entries(es):
            out = []
            for e in es:
                if e.get("MESSAGE") == b"kptest-phase2":
                    break
                if is_module_entry(e):
                    out.append(key(e))
            return sorted(out, key=repr)

        drop = boots["kprint"].get("config_tags", set())
        ke = [x for x in mod_entries(journals["kprint"]) if cr.drop_tags(x[1], drop)]
        se = [x for x in mod_entries(journals["stock"]) if cr.drop_tags(x[1], drop)]
        tap.check(ke and ke == se,
                  "kprint vs stock: journald: MESSAGE, PRIORITY, _KERNEL_SUBSYSTEM and _KERNEL_DEVICE "
                  "of the module's entries identical (%d entries)" % len(ke),
                  cr.diff_diag(ke, se))
