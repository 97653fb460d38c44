#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-dump.py - write a large, realistic kernel log for the benchmarks.

The same records are written twice:

  SYSLOG  what syslog(2) returns and `dmesg -F` reads:
          "<pri>[ssss.uuuuuu] text\\n" per record;
  KMSG    what /dev/kmsg returns and `kdmesg -K` reads: records separated
          by NUL bytes, each "pri,seq,usec,flags,caller=ID;text\\n" followed
          by " KEY=value\\n" dictionary lines (SUBSYSTEM/DEVICE on about 30%
          of the records, as dev_printk() adds them).

The output only depends on --seed and --count, so two runs (and two
machines) time exactly the same bytes.  Messages are drawn from templates
modelled on what a booting and running machine logs (PCI, USB, block,
filesystems, network, audit, firmware, OOM, oopses), with a weighted mix
of levels and message lengths from a dozen bytes to a few hundred.

With --structured, every kmsg record also carries what a kernel with
the kprint patches sends (man/kprint.7): CODE_FILE, CODE_LINE, CODE_FUNC,
MODULE, FORMAT (the template with each field as %s) and ARG0... (the
values filled in), one fixed call site per template.  The random stream
is the same, so the texts are those of the plain dump.

usage: gen-dump.py [--count N] [--seed S] [--structured] SYSLOG_FILE KMSG_FILE
"""

import argparse
import random
import sys

# (weight, level, subsystem or None, device kind or None, template).
# {..} fields are filled in by fill(); the device kind picks how the
# DEVICE dictionary value is spelled (+pci:, +usb:, b8:0, n2, c4:64).
TEMPLATES = [
    (40, 6, "pci", "pci", "pci {pci}: [{hex4}:{hex4}] type 00 class 0x{hex6} PCIe Endpoint"),
    (25, 6, "pci", "pci", "pci {pci}: BAR {d1}: assigned [mem 0x{hex8}-0x{hex8} 64bit pref]"),
    (10, 7, "pci", "pci", "pci {pci}: PME# supported from D0 D3hot D3cold"),
    (8, 4, "pci", "pci", "pcieport {pci}: AER: Corrected error message received from {pci}"),
    (30, 6, "usb", "usb", "usb {usb}: new high-speed USB device number {d2} using xhci_hcd"),
    (20, 6, "usb", "usb", "usb {usb}: New USB device found, idVendor={hex4}, idProduct={hex4}, bcdDevice= {d1}.{d2}"),
    (15, 6, "usb", "usb", "usb {usb}: Product: {product}"),
    (10, 6, "usb", "usb", "usb {usb}: Manufacturer: {vendor}"),
    (12, 6, "usb", "usb", "usb {usb}: USB disconnect, device number {d2}"),
    (20, 5, "scsi", "scsi", "sd {scsi}: [sd{disk}] {d9} 512-byte logical blocks: ({d3} GB/{d3} GiB)"),
    (10, 5, "scsi", "scsi", "sd {scsi}: [sd{disk}] Write cache: enabled, read cache: enabled, doesn't support DPO or FUA"),
    (10, 5, "scsi", "scsi", "sd {scsi}: [sd{disk}] Attached SCSI removable disk"),
    (25, 6, "block", "block", " sd{disk}: sd{disk}1 sd{disk}2 sd{disk}3"),
    (20, 6, None, None, "EXT4-fs (sd{disk}{d1}): mounted filesystem {uuid} r/w with ordered data mode. Quota mode: none."),
    (8, 4, None, None, "EXT4-fs warning (device sd{disk}{d1}): ext4_end_bio:343: I/O error 10 writing to inode {d6} starting block {d7})"),
    (6, 3, "block", "block", "blk_update_request: I/O error, dev sd{disk}, sector {d9} op 0x1:(WRITE) flags 0x800 phys_seg 1 prio class 0"),
    (30, 6, "net", "net", "{nic}: Link is Up - {speed}/Full - flow control rx/tx"),
    (15, 6, "net", "net", "IPv6: ADDRCONF(NETDEV_CHANGE): {nic}: link becomes ready"),
    (10, 6, "net", "net", "{nic}: renamed from eth{d1}"),
    (10, 4, "net", "net", "{nic}: Detected Tx Unit Hang\n  Tx Queue             <{d1}>\n  TDH                  <{hex2}>"),
    (60, 5, None, None, "audit: type=1400 audit({d10}.{d3}:{d4}): apparmor=\"DENIED\" operation=\"open\" profile=\"{prog}\" name=\"{path}\" pid={d5} comm=\"{comm}\" requested_mask=\"r\" denied_mask=\"r\" fsuid=0 ouid=0"),
    (40, 6, None, None, "[UFW BLOCK] IN={nic} OUT= MAC={mac}:{mac}:08:00 SRC={ip} DST={ip} LEN={d2} TOS=0x00 PREC=0x00 TTL={d2} ID={d5} DF PROTO=TCP SPT={d5} DPT={d3} WINDOW={d5} RES=0x00 SYN URGP=0"),
    (15, 6, None, None, "systemd[1]: Started {unit}."),
    (10, 7, None, None, "random: crng init done"),
    (10, 6, None, None, "Freeing unused kernel image (initmem) memory: {d4}K"),
    (10, 6, None, None, "Memory: {d8}K/{d8}K available ({d5}K kernel code, {d4}K rwdata, {d5}K rodata, {d4}K init, {d4}K bss, {d6}K reserved, 0K cma-reserved)"),
    (10, 6, None, None, "ACPI: \\_SB_.PCI0.{acpi}: New power resource"),
    (8, 4, None, None, "ACPI BIOS Error (bug): Could not resolve symbol [\\_SB.PC00.{acpi}], AE_NOT_FOUND (20230628/dswload2-162)"),
    (10, 6, "drm", "pci", "i915 {pci}: [drm] GuC firmware i915/{fw}.bin version {d2}.{d1}.{d1}"),
    (8, 4, "firmware", None, "firmware_class: See https://wiki.debian.org/Firmware for information about missing firmware"),
    (8, 3, "platform", "platform", "iwlwifi {pci}: Direct firmware load for iwlwifi-{fw}.ucode failed with error -2"),
    (12, 6, "input", "input", "input: {product} as /devices/pci0000:00/{pci}/usb{d1}/{usb}/input/input{d2}"),
    (6, 3, None, None, "Out of memory: Killed process {d5} ({comm}) total-vm:{d7}kB, anon-rss:{d6}kB, file-rss:0kB, shmem-rss:0kB, UID:{d4} pgtables:{d4}kB oom_score_adj:0"),
    (4, 1, None, None, "BUG: kernel NULL pointer dereference, address: 00000000000000{hex2}"),
    (4, 4, None, None, "WARNING: CPU: {d1} PID: {d5} at drivers/gpu/drm/{comm}/intel_display.c:{d4} intel_atomic_commit_tail+0x{hex4}/0x{hex4} [i915]"),
    (6, 4, "tty", "tty", "tty{d1}: hash matches"),
    (5, 2, None, None, "mce: [Hardware Error]: Machine check events logged"),
    (5, 0, None, None, "Kernel panic - not syncing: Fatal exception in interrupt"),
    (10, 6, None, None, "smpboot: CPU {d1} is now offline"),
    (8, 6, None, None, "perf: interrupt took too long ({d4} > {d4}), lowering kernel.perf_event_max_sample_rate to {d5}"),
    (5, 6, None, None, "hrtimer: interrupt took {d6} ns"),
    (4, 6, None, None, "x"),
]

PRODUCTS = ["USB Receiver", "Logitech USB Optical Mouse", "DataTraveler 3.0",
            "Integrated Camera", "USB2.0 Hub", "Ethernet Adapter",
            "AT Translated Set 2 keyboard", "Power Button", "Video Bus"]
VENDORS = ["Logitech", "Kingston", "Fr\u00fchwald Ger\u00e4tebau", "Chicony Electronics Co.,Ltd.",
           "Realtek", "Intel Corp.", "Generic"]
PROGS = ["/usr/sbin/cupsd", "snap.firefox.firefox", "/usr/bin/man",
         "lsb_release", "/usr/lib/snapd/snap-confine"]
PATHS = ["/proc/sys/kernel/osrelease", "/etc/ssl/openssl.cnf",
         "/sys/devices/system/cpu/online", "/usr/share/zoneinfo/UTC",
         "/run/systemd/userdb/"]
COMMS = ["firefox", "cupsd", "man", "python3", "Xorg", "pulseaudio",
         "kworker/u16:3", "systemd-udevd", "gnome-shell", "i915"]
UNITS = ["Journal Service", "Network Manager", "Load Kernel Modules",
         "Daily apt download activities", "Session 3 of User root",
         "Rule-based Manager for Device Events and Files"]
NICS = ["enp0s31f6", "wlp2s0", "eno1", "ens3", "br0", "docker0"]
SPEEDS = ["1000 Mbps", "100 Mbps", "10 Gbps", "2.5 Gbps"]
ACPI = ["LPCB", "GFX0", "XHC_", "RP01", "PEG0", "SAT0"]
FWS = ["tgl_guc_70", "adlp_dmc", "8000C-36", "QuZ-a0-hr-b0-77", "kbl_huc_4.0.0"]


class Gen:
    """Draws fields from one seeded random generator."""

    def __init__(self, seed):
        self.r = random.Random(seed)
        # The last device of each kind named in a message, so that the
        # DEVICE dictionary value names the same device as the text.
        self.last = {}

    def pci(self):
        v = "0000:%02x:%02x.%d" % (self.r.randrange(0, 8), self.r.randrange(0, 32),
                                   self.r.randrange(0, 8))
        self.last.setdefault("pci", v)
        return v

    def usb(self):
        v = "%d-%d" % (self.r.randrange(1, 5), self.r.randrange(1, 9))
        self.last.setdefault("usb", v)
        return v

    def scsi(self):
        v = "%d:0:0:0" % self.r.randrange(0, 6)
        self.last.setdefault("scsi", v)
        return v

    def fill(self, template):
        r = self.r
        self.last = {}
        out = []
        # Where each field's text starts and ends in out, for ARGn.
        self.spans = []
        i = 0
        while i < len(template):
            c = template[i]
            if c != "{":
                out.append(c)
                i += 1
                continue
            j = template.index("}", i)
            key = template[i + 1:j]
            i = j + 1
            self.spans.append(len(out))
            if key.startswith("d") and key[1:].isdigit():
                n = int(key[1:])
                out.append(str(r.randrange(0, 10 ** n)))
            elif key.startswith("hex"):
                n = int(key[3:])
                out.append("%0*x" % (n, r.randrange(0, 16 ** n)))
            elif key == "pci":
                out.append(self.pci())
            elif key == "usb":
                out.append(self.usb())
            elif key == "scsi":
                out.append(self.scsi())
            elif key == "disk":
                out.append("abcdef"[r.randrange(0, 6)])
            elif key == "uuid":
                out.append("%08x-%04x-%04x-%04x-%012x" % (
                    r.getrandbits(32), r.getrandbits(16), r.getrandbits(16),
                    r.getrandbits(16), r.getrandbits(48)))
            elif key == "mac":
                out.append(":".join("%02x" % r.randrange(0, 256) for _ in range(6)))
            elif key == "ip":
                out.append("%d.%d.%d.%d" % (r.randrange(1, 224), r.randrange(0, 256),
                                            r.randrange(0, 256), r.randrange(1, 255)))
            else:
                table = {"product": PRODUCTS, "vendor": VENDORS, "prog": PROGS,
                         "path": PATHS, "comm": COMMS, "unit": UNITS, "nic": NICS,
                         "speed": SPEEDS, "acpi": ACPI, "fw": FWS}[key]
                out.append(table[r.randrange(0, len(table))])
        self.args = [out[k] for k in self.spans]
        return "".join(out)

    def device(self, kind):
        """The DEVICE dictionary value dev_printk() would attach."""
        r = self.r
        if kind in ("pci", "usb", "scsi"):
            fresh = getattr(self, kind)()
            return "+%s:%s" % (kind, self.last.get(kind, fresh))
        if kind == "block":
            return "b8:%d" % (16 * r.randrange(0, 6))
        if kind == "net":
            return "n%d" % r.randrange(2, 6)
        if kind == "tty":
            return "c4:%d" % r.randrange(0, 64)
        if kind == "input":
            return "+input:input%d" % r.randrange(0, 30)
        return "+platform:%s" % ["i8042", "serial8250", "reg-dummy"][r.randrange(0, 3)]


# Source files by subsystem for --structured; the rest are core kernel.
SITE_FILES = {
    "pci": ("drivers/pci/probe.c", "pci"), "usb": ("drivers/usb/core/hub.c", "usbcore"),
    "scsi": ("drivers/scsi/sd.c", "sd_mod"), "block": ("block/partitions/core.c", "core"),
    "net": ("drivers/net/ethernet/intel/e1000e/netdev.c", "e1000e"),
    "drm": ("drivers/gpu/drm/i915/gt/uc/intel_uc_fw.c", "i915"),
    "firmware": ("drivers/base/firmware_loader/main.c", "firmware_class"),
    "platform": ("drivers/net/wireless/intel/iwlwifi/iwl-drv.c", "iwlwifi"),
    "input": ("drivers/input/input.c", "input_core"), "tty": ("drivers/tty/tty_io.c", "tty_io"),
}
CORE_FILES = [("fs/ext4/super.c", "ext4"), ("security/apparmor/audit.c", "apparmor"),
              ("net/netfilter/xt_LOG.c", "xt_LOG"), ("kernel/printk/printk.c", "printk"),
              ("drivers/char/random.c", "random"), ("mm/oom_kill.c", "oom_kill"),
              ("arch/x86/kernel/smpboot.c", "smpboot"), ("kernel/panic.c", "panic")]


def site_of(idx, subsys, template):
    """The fixed call site of template @idx: file, line, function, module, format."""
    if subsys in SITE_FILES:
        path, module = SITE_FILES[subsys]
    else:
        path, module = CORE_FILES[idx % len(CORE_FILES)]
    fmt = []
    i = 0
    while i < len(template):
        if template[i] == "{":
            j = template.index("}", i)
            fmt.append("%s")
            i = j + 1
        else:
            fmt.append(template[i])
            i += 1
    func = "%s_site%d" % (module, idx)
    return path, str(100 + 37 * idx), func, module, "".join(fmt)


def kmsg_escape(text):
    """Escape as the kernel does for /dev/kmsg: non-printables and '\\' as \\xNN."""
    out = []
    for b in text.encode("utf-8"):
        if b < 32 or b >= 127 or b == 0x5c:
            out.append("\\x%02x" % b)
        else:
            out.append(chr(b))
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=1000000)
    ap.add_argument("--seed", type=int, default=20261203)
    ap.add_argument("--structured", action="store_true",
                    help="add the kprint call-site fields (man/kprint.7)")
    ap.add_argument("syslog_file")
    ap.add_argument("kmsg_file")
    args = ap.parse_args()

    g = Gen(args.seed)
    r = g.r
    weights = [t[0] for t in TEMPLATES]
    # Pick templates in large batches: one choices() call is much faster
    # than a million, and still a pure function of the seed.
    picks = r.choices(range(len(TEMPLATES)), weights=weights, k=args.count)

    usec = 0
    with open(args.syslog_file, "w", encoding="utf-8", newline="\n") as fs, \
            open(args.kmsg_file, "wb") as fk:
        sbuf, kbuf = [], []
        for seq, idx in enumerate(picks):
            _, level, subsys, devkind, template = TEMPLATES[idx]
            text = g.fill(template)
            # Mostly the kernel facility; now and then a message that
            # user space wrote to /dev/kmsg (daemon, user, local0).
            fac = 0
            if r.random() < 0.03:
                fac = (3, 1, 16)[r.randrange(0, 3)]
            pri = fac * 8 + level
            # Gaps: bursts of microseconds, sometimes seconds of silence.
            usec += r.randrange(1, 2000) if r.random() < 0.9 else r.randrange(100000, 5000000)
            caller = ("T%d" % r.randrange(0, 5000)) if r.random() < 0.8 else ("C%d" % r.randrange(0, 16))
            cont = "c" if r.random() < 0.01 else "-"

            # syslog(2) prints every line of a multi-line record with the
            # record's own prefix.
            for line in text.split("\n"):
                sbuf.append("<%d>[%5d.%06d] %s\n" % (pri, usec // 1000000, usec % 1000000, line))

            rec = "%d,%d,%d,%s,caller=%s;%s\n" % (pri, seq, usec, cont, caller, kmsg_escape(text))
            # dev_printk() adds the dictionary to about 30% of records.
            if subsys is not None and r.random() < 0.5:
                rec += " SUBSYSTEM=%s\n" % subsys
                if devkind is not None:
                    rec += " DEVICE=%s\n" % g.device(devkind)
            if args.structured:
                site = site_of(idx, subsys, template)
                for key, value in zip(("CODE_FILE", "CODE_LINE", "CODE_FUNC", "MODULE", "FORMAT"), site):
                    rec += " %s=%s\n" % (key, kmsg_escape(value))
                for n, value in enumerate(g.args):
                    rec += " ARG%d=%s\n" % (n, kmsg_escape(value))
            kbuf.append(rec)
            kbuf.append("\0")

            if len(sbuf) >= 8192:
                fs.write("".join(sbuf))
                fk.write("".join(kbuf).encode("utf-8"))
                sbuf, kbuf = [], []
        fs.write("".join(sbuf))
        fk.write("".join(kbuf).encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
