#!/usr/bin/env python3
"""Issue 13: a /dev/kmsg log full of maximal records (called by check-records.py).

tools/init.sh fills the ring of the kprint and stock boots with records of
kprint_test.ko's kp_maxfill() (32 arguments, about 1 KiB of text; every
other one mostly escaped bytes) and then reads it with
  MAXDUMP   kmsg-dump --bufsize 2048 (a reader with a 2 KiB buffer)
  MAXDMESG  util-linux dmesg
  MAXJOURNAL systemd-journald started once more on the boot's journal
  MAXDUMP2  kmsg-dump --bufsize 2048 again
Records only leave the ring at its old end, so every record in MAXDUMP2 was
in the ring for every reader before it: each reader must have it.

Checks: every record within 2048 bytes (what an unpatched kernel ever
returned) and read without error by the 2 KiB reader; dmesg and journald
get every maximal record; on kprint the records keep their leading
dictionary lines and lose only whole trailing ones, and journald stores
their fields.  Also reports the journal's growth per entry from the journal
file headers (not a pass/fail check).
"""

import re
import struct

RECORD_MAX = 2048
# a ring of 128 KiB holds about 110 maximal records
MIN_RECORDS = 80
# CODE_FILE, CODE_LINE, CODE_FUNC, MODULE, FORMAT, ARG0..ARG31
ALL_LINES = 5 + 32


def ids(line):
    return {int(x) for x in line.split()} if line and re.fullmatch(r"[\d ]*", line) else set()


def parse_dump(lines):
    recs, other, longest, n = {}, [], None, None
    for line in lines:
        m = re.fullmatch(r"R len=(\d+) i=(\d+) lines=(\d+) last=(\S+)", line)
        if m:
            recs[int(m.group(2))] = (int(m.group(1)), int(m.group(3)), m.group(4))
            continue
        m = re.fullmatch(r"@@ records (\d+) longest (\d+)", line)
        if m:
            n, longest = int(m.group(1)), int(m.group(2))
            continue
        if line.strip():
            other.append(line)
    return recs, other, n, longest


def parse_headers(lines):
    """{"before"/"after": {path: (n_entries, used bytes)}} from od -tx1 dumps;
    used: up to the last object, without header and hash tables."""
    res, part, cur, path = {}, None, None, None
    for line in lines + ["@@ end"]:
        if line.startswith("@@"):
            if cur is not None and len(cur) >= 160:
                b = bytes(cur)
                hsize, = struct.unpack_from("<Q", b, 88)
                dht, = struct.unpack_from("<Q", b, 112)
                fht, = struct.unpack_from("<Q", b, 128)
                tail, = struct.unpack_from("<Q", b, 136)
                nent, = struct.unpack_from("<Q", b, 152)
                res.setdefault(part, {})[path] = (nent, tail - hsize - dht - fht)
            cur = None
            if line in ("@@ before", "@@ after"):
                part = line[3:]
            elif line.startswith("@@ header "):
                cur, path = [], line[10:]
            continue
        if cur is not None:
            try:
                cur += [int(x, 16) for x in line.split()]
            except ValueError:
                pass
    return res


def section_ids(lines, start, stop=None):
    out, on = None, False
    for line in lines:
        if line == start:
            on = True
            continue
        if on:
            if stop is not None and line.startswith("@@"):
                break
            return ids(line.strip())
    return out


def run(tap, boots):
    growth = {}
    for name in ("kprint", "stock"):
        if name not in boots:
            continue
        b = boots[name]
        secs, rc = b["secs"], b["rc"]
        if "MAXDUMP" not in secs:
            tap.check(False, "%s: a log full of maximal records (no MAXDUMP section: boot did not get there?)"
                      % name)
            continue
        recs, other, n, longest = parse_dump(secs.get("MAXDUMP", []))
        recs2, other2, _, longest2 = parse_dump(secs.get("MAXDUMP2", []))
        errs = [x for x in other + other2 if not x.startswith("@@ no-trailing-newline")]
        longest = max(x for x in (longest or 0, longest2 or 0))
        ok = (rc.get("MAXFILL") == 0 and rc.get("MAXDUMP") == 0 and rc.get("MAXDUMP2") == 0
              and not errs and n and longest <= RECORD_MAX and len(recs2) >= MIN_RECORDS)
        diag = errs[:5]
        if len(recs2) < MIN_RECORDS:
            diag.append("only %d maximal records stayed in the ring" % len(recs2))
        if not ok:
            diag.append("exit status maxfill %s dump %s dump2 %s"
                        % (rc.get("MAXFILL"), rc.get("MAXDUMP"), rc.get("MAXDUMP2")))
        tap.check(ok, "%s: a log full of maximal records: every record <= %d bytes, all read with a "
                  "2048-byte buffer (%d maximal of %s records, longest %d bytes)"
                  % (name, RECORD_MAX, len(recs), n, longest), diag)
        stayed = set(recs2)
        seen = set(recs)
        # util-linux dmesg
        dl = secs.get("MAXDMESG", [])
        d = ids(dl[0].strip()) if dl else set()
        miss = sorted(stayed - d)
        tap.check(rc.get("MAXDMESG") == 0 and stayed and not miss and d <= seen,
                  "%s: util-linux dmesg reads every maximal record in the ring (%d)" % (name, len(d)),
                  (["missing: %s" % miss[:20]] if miss else [])
                  + (["not in the dump before: %s" % sorted(d - seen)[:20]] if not d <= seen else [])
                  + ["dmesg exit status %s" % rc.get("MAXDMESG")] + dl[1:4])
        # systemd-journald
        jl = secs.get("MAXJOURNAL")
        if jl is None:
            tap.check(False, "%s: systemd-journald stores every maximal record in the ring "
                      "(no MAXJOURNAL section)" % name)
        else:
            j = section_ids(jl, "@@ messages") or set()
            jf = section_ids(jl, "@@ with _KERNEL_CODE_FUNC=kp_maxfill") or set()
            miss = sorted(stayed - j)
            tap.check(rc.get("MAXJOURNAL") == 0 and stayed and not miss,
                      "%s: systemd-journald stores every maximal record in the ring (%d)" % (name, len(j)),
                      (["missing: %s" % miss[:20]] if miss else [])
                      + ["journald.sh status %s" % rc.get("MAXJOURNAL")]
                      + [x for x in jl if x.startswith("@@ journald")])
            if name == "kprint":
                miss = sorted(stayed - jf)
                tap.check(stayed and not miss, "kprint: journald stores _KERNEL_CODE_FUNC of every maximal "
                          "record (%d)" % len(jf), ["missing: %s" % miss[:20]] if miss else [])
            growth[name] = parse_headers(jl)
        if name == "kprint":
            # the fields: leading lines kept, only whole trailing ones dropped
            # (issue 13 item 5) one that kept FORMAT but lost ARG lines
            # says so in its last line, ARGS_CUT=<n>
            bad = [(i, r) for i, r in sorted(recs.items())
                   if r[1] < 4 or r[1] >= ALL_LINES
                   or not re.fullmatch(r"CODE_LINE|CODE_FUNC|MODULE|FORMAT|ARG\d+|ARGS_CUT", r[2])
                   or (r[1] > 4 and r[2] != "ARGS_CUT")]
            even = [r[1] for i, r in recs.items() if i % 2 == 0]
            odd = [r[1] for i, r in recs.items() if i % 2 == 1]
            tap.check(recs and not bad and even and odd,
                      "kprint: maximal records keep CODE_FILE, CODE_LINE, CODE_FUNC, MODULE, drop whole "
                      "trailing lines and, with FORMAT, end with ARGS_CUT (lines: %s-%s plain, %s-%s escaped)"
                      % (min(even or [0]), max(even or [0]), min(odd or [0]), max(odd or [0])),
                      ["maxrec %d: %d bytes, %d lines, last %s" % (i, r[0], r[1], r[2]) for i, r in bad[:5]])
    # journal growth per entry: the boot log (journald's first run) and
    # the maximal records (the second run); journald rotates its file when
    # the data hash table fills (each distinct field value is one data
    # object), so all files are summed
    for name, g in growth.items():
        bef, aft = g.get("before") or {}, g.get("after") or {}
        if not bef or not aft:
            print("# %s: journal headers not found" % name)
            continue
        n0, u0 = sum(v[0] for v in bef.values()), sum(v[1] for v in bef.values())
        n1, u1 = sum(v[0] for v in aft.values()), sum(v[1] for v in aft.values())
        print("# %s: journal after the boot log: %d entries in %d file(s), %d bytes of objects, "
              "%.0f bytes per entry" % (name, n0, len(bef), u0, u0 / max(n0, 1)))
        if set(bef) <= set(aft) and n1 > n0:
            print("# %s: journal growth for the maximal records: %d entries, %d bytes, %.0f bytes per entry"
                  % (name, n1 - n0, u1 - u0, (u1 - u0) / (n1 - n0)))
        else:
            print("# %s: journal after the maximal records: %d entries in %d file(s), %d bytes of objects, "
                  "%.0f bytes per entry (journald removed or rotated files)"
                  % (name, n1, len(aft), u1, u1 / max(n1, 1)))
