#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""sites-for-dump.py SITES DUMP OUTDIR: the sites of SITES (as
tools/fidx-sites prints them) whose format could have made the text of a
record of DUMP (a `cat /dev/kmsg` dump): its literal pieces, between the
conversions, all occur in that text in order.  A superset of what the
matcher considers for those records (the competitors of every pick are
kept), small enough to commit with the dump (debian-sites.sh).  Written
into OUTDIR as sources that `kdmesg-po index` reads with their family:
plain and dev_*() sites as a printk index (OUTDIR/printk-index/, one file
per module, "vmlinux" for none; dev_*() formats with the "%s %s: " the
kernel's index shows), the others (netdev_*(), not known) as a kprint
site table (OUTDIR/sites.txt)."""
import os
import re
import sys

CONV = re.compile(r"%(?:%|[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?"
                  r"(?:hh|h|ll|l|L|z|Z|t|j|q)?(?:p[A-Za-z0-9]*|[diouxXcsneEfFgGaA]))")


def unescape(s):
    return re.sub(r"\\x([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)), s)


def pieces(fmt):
    out, last = [], 0
    for m in CONV.finditer(fmt):
        if m.group(0) == "%%":
            continue
        out.append(fmt[last:m.start()].replace("%%", "%"))
        last = m.end()
    out.append(fmt[last:].replace("%%", "%"))
    return [p for p in out if p]


def in_order(text, ps):
    at = 0
    for p in ps:
        at = text.find(p, at)
        if at < 0:
            return False
        at += len(p)
    return True


def main():
    sites, dump, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
    texts = []
    with open(dump, encoding="utf-8", errors="surrogateescape") as fh:
        for line in fh:
            if line[:1].isdigit() and ";" in line:
                texts.append(unescape(line.rstrip("\n").split(";", 1)[1]))
    blob = "\n".join(texts)
    pidx, table = {"vmlinux": []}, []
    with open(sites, encoding="utf-8", errors="surrogateescape") as fh:
        for line in fh:
            f = line.rstrip("\n").split(" ", 6)
            if len(f) < 7:
                continue
            ps = pieces(unescape(f[6]))
            if ps:
                longest = max(ps, key=len)
                if longest not in blob or not any(in_order(t, ps) for t in texts if longest in t):
                    continue
            # (no literal text: it matches anything, so it stays)
            family, _, level, where, func, module, fmt = f
            func = "" if func == "-" else func	# (the reader takes an empty one)
            if family in ("1", "2"):
                pfx = "%s %s: " if family == "2" else ""
                lv = level if level != "-" else "?"
                pidx.setdefault(module if module != "-" else "vmlinux", []).append(
                    '<%s> %s %s "%s%s"\n' % (lv, where, func, pfx, fmt))
            else:
                table.append(" ".join(f[1:4] + [func] + f[5:]) + "\n")
    os.makedirs(os.path.join(outdir, "printk-index"), exist_ok=True)
    for mod, lines in pidx.items():
        with open(os.path.join(outdir, "printk-index", mod), "w",
                  encoding="utf-8", errors="surrogateescape") as fh:
            fh.writelines(lines)
    with open(os.path.join(outdir, "sites.txt"), "w", encoding="utf-8", errors="surrogateescape") as fh:
        fh.writelines(table)
    print("%d sites as a printk index, %d in a site table"
          % (sum(len(v) for v in pidx.values()), len(table)), file=sys.stderr)


if __name__ == "__main__":
    main()
