#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-export.py - journal export streams of made-up machines, for
systemd-journal-remote to turn into journals (tests/cli/journal.sh and
bench/journal.sh).

Each machine has boots; each boot, kernel records as journald stores them
(journald-kmsg.c: _TRANSPORT=kernel, PRIORITY, SYSLOG_FACILITY,
SYSLOG_IDENTIFIER, _SOURCE_MONOTONIC_TIMESTAMP, _KERNEL_<KEY>, the
machine's _BOOT_ID/_MACHINE_ID/_HOSTNAME) among user-space entries.

  gen-export.py [--kernel N] [--user M] [--machines K] [--boots B] [--seed S]

--kernel N kernel entries per boot, --user M user-space entries per kernel
entry (on average).  Deterministic for a seed.  Writes to standard output.
"""
import argparse
import random
import sys

HOSTS = ["alpha", "beta", "gamma", "delta", "epsilon"]
BASE = 1764900000 * 1000000  # wall clock of the first boot, µs

# (level, text, dictionary) of kernel records; %d is filled per record.
KERNEL = [
    (6, "Linux version 6.12.0 (builder@example) #1 SMP", {}),
    (6, "usb 1-1: new high-speed USB device number %d using xhci_hcd",
     {"SUBSYSTEM": "usb", "DEVICE": "c189:%d"}),
    (4, "e1000e 0000:00:19.0 eno1: NIC Link is Down",
     {"SUBSYSTEM": "pci", "DEVICE": "+pci:0000:00:19.0",
      "CODE_FILE": "drivers/net/ethernet/intel/e1000e/netdev.c", "CODE_LINE": "4811",
      "CODE_FUNC": "e1000e_down", "MODULE": "e1000e",
      "FORMAT": "%s: NIC Link is Down\\n", "ARG0": "eno1"}),
    (3, "nvme nvme0: I/O %d QID 1 timeout, aborting",
     {"SUBSYSTEM": "nvme", "DEVICE": "c259:0",
      "CODE_FILE": "drivers/nvme/host/pci.c", "CODE_LINE": "1399",
      "CODE_FUNC": "nvme_timeout", "MODULE": "nvme",
      "FORMAT": "I/O %d QID %d timeout, aborting\\n"}),
    (5, "audit: type=1400 audit(%d.123:42): apparmor=\"STATUS\"", {}),
    (2, "Out of memory: Killed process %d (stress)", {}),
]


def field(out, name, value):
    b = value.encode() if isinstance(value, str) else value
    if b"\n" in b or any(c < 0x20 and c != 9 for c in b):
        out.append(name.encode() + b"\n" + len(b).to_bytes(8, "little") + b + b"\n")
    else:
        out.append(name.encode() + b"=" + b + b"\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel", type=int, default=20)
    ap.add_argument("--user", type=float, default=2.0)
    ap.add_argument("--machines", type=int, default=3)
    ap.add_argument("--boots", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--machine", type=int, default=-1, help="only this machine (0-based)")
    ap.add_argument("--days", type=int, default=0, help="boot this many days later")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    w = sys.stdout.buffer
    for m in range(a.machines):
        host = HOSTS[m % len(HOSTS)]
        machine_id = ("%02x" % (m + 1)) * 16
        boot_at = BASE + (m * 3600 + a.days * 86400) * 1000000
        for b in range(a.boots):
            boot_id = "%08x%08x%016x" % (m + 1, b + 1, a.seed)
            # each boot a day after the one before
            boot_usec = boot_at + b * 86400 * 1000000
            mono = 0
            buf = []
            for k in range(a.kernel):
                mono += rnd.randint(1000, 400000)
                users = int(a.user) + (1 if rnd.random() < a.user - int(a.user) else 0)
                for u in range(users):
                    e = []
                    um = mono - rnd.randint(1, 900)
                    field(e, "__REALTIME_TIMESTAMP", str(boot_usec + um + 5000))
                    field(e, "__MONOTONIC_TIMESTAMP", str(um + 5000))
                    field(e, "_BOOT_ID", boot_id)
                    field(e, "_MACHINE_ID", machine_id)
                    field(e, "_HOSTNAME", host)
                    field(e, "_TRANSPORT", "journal")
                    field(e, "PRIORITY", "6")
                    field(e, "SYSLOG_IDENTIFIER", "daemon%d" % (u % 7))
                    field(e, "_PID", str(100 + u))
                    field(e, "_COMM", "daemon%d" % (u % 7))
                    field(e, "MESSAGE", "user-space message %d of %s" % (k, host))
                    buf.append(b"".join(e) + b"\n")
                lvl, text, d = KERNEL[(k + m) % len(KERNEL)] if k else KERNEL[0]
                n = k + 1
                e = []
                # journald reads /dev/kmsg a moment after the kernel wrote
                field(e, "__REALTIME_TIMESTAMP", str(boot_usec + mono + 5000))
                field(e, "__MONOTONIC_TIMESTAMP", str(mono + 5000))
                field(e, "_BOOT_ID", boot_id)
                field(e, "_MACHINE_ID", machine_id)
                field(e, "_HOSTNAME", host)
                field(e, "_TRANSPORT", "kernel")
                field(e, "PRIORITY", str(lvl))
                field(e, "SYSLOG_FACILITY", "0")
                field(e, "SYSLOG_IDENTIFIER", "kernel")
                field(e, "_SOURCE_MONOTONIC_TIMESTAMP", str(mono))
                field(e, "MESSAGE", text.replace("%d", str(n)) if "%d" in text else text)
                for key, val in d.items():
                    field(e, "_KERNEL_" + key, val.replace("%d", str(n)) if key == "DEVICE" else val)
                buf.append(b"".join(e) + b"\n")
            if a.machine < 0 or a.machine == m:
                w.write(b"".join(buf))


main()
