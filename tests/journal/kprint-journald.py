#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""kprint-journald.py - the fixtures of a patched (kprint) kernel's boot
as journald stored it, from the data channel of `make check-kernel`
(~/.cache/kdmesg-kernel/kprint/data.log): its KMSG section (the
/dev/kmsg records, before journald started) and its JOURNAL-JSON-GZ
section (what systemd-journald, started by kernel-patch/tools/journald.sh,
made of the same ring: journalctl -o json --all).

  kprint-journald.py DATA.LOG DUMP JSON

Writes the records found in both (the first 30 boot records, those with
SUBSYSTEM/DEVICE, 5 GROUP records, every record of the test module) to
DUMP in the `cat /dev/kmsg` format and journald's entries for them to JSON
(one JSON object a line, in the same order, without __CURSOR).
"""
import gzip
import base64
import json
import re
import sys


def section(lines, name):
    a = lines.index(b"=====%s-BEGIN=====" % name.encode())
    b = lines.index(b"=====%s-END=====" % name.encode())
    return lines[a + 1:b]


def unescape(t):
    return re.sub(rb"\\x([0-9a-f]{2})", lambda m: bytes([int(m.group(1), 16)]), t)


def message(e):
    m = e["MESSAGE"]
    return bytes(m) if isinstance(m, list) else m.encode()


def main():
    lines = open(sys.argv[1], "rb").read().split(b"\n")
    recs = []
    for line in section(lines, "KMSG"):
        if line.startswith(b"@@ len="):
            recs.append([])
        elif recs:
            recs[-1].append(line)
    js = [json.loads(l) for l in gzip.decompress(base64.b64decode(
        b"".join(section(lines, "JOURNAL-JSON-GZ")))).decode().splitlines()]
    # pair each record with journald's entry: same stamp and text
    pairs = []
    j = 0
    for r in recs:
        head, _, text = r[0].partition(b";")
        ts = int(head.split(b",")[2])
        k = j
        while k < len(js) and int(js[k]["_SOURCE_MONOTONIC_TIMESTAMP"]) <= ts:
            if int(js[k]["_SOURCE_MONOTONIC_TIMESTAMP"]) == ts and message(js[k]) == unescape(text):
                pairs.append((r, js[k]))
                j = k + 1
                break
            k += 1
    groups = 0
    with open(sys.argv[2], "wb") as dump, open(sys.argv[3], "w", encoding="utf-8") as out:
        for n, (r, e) in enumerate(pairs):
            keep = n < 30 or "_KERNEL_SUBSYSTEM" in e or message(e).startswith(b"kptest")
            if not keep and "_KERNEL_GROUP" in e and groups < 5:
                groups += 1
                keep = True
            if not keep:
                continue
            dump.write(b"\n".join(r) + b"\n")
            e = {k: v for k, v in e.items() if k != "__CURSOR"}
            out.write(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n")
    print("%d records of %d paired, %d entries" % (len(pairs), len(recs), len(js)), file=sys.stderr)


if __name__ == "__main__":
    main()
