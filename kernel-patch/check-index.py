"""Issue 23, one table: the printk index is a view of the call-site descriptors
(called by check-records.py).

The kprint boot has CONFIG_PRINTK_INDEX.  With CONFIG_KPRINT a call that has
a descriptor emits no struct pi_entry, and <debugfs>/printk/index/<object>
lists the object's descriptors in the index's own format (dev_*() with the
"%s %s: " prefix the kernel prints, netdev_*() with "%s %s %s%s: "; dynamic
debug sites are left out, as without the series), then the entries of
calls without a descriptor.  tools/init.sh saves the index (PRINTKINDEX,
one "@@ file=<object>" block per file) and the debugfs site table
(SITES-GZ).

Checks:
  * vmlinux has no struct pi_entry with a format: .printk_index
    (__start_printk_index to __stop_printk_index in System.map) is empty,
    or each entry it points at has a NULL format.  Those are upstream's:
    printk_index_subsys_emit() in a function whose format is a parameter
    (btrfs's _btrfs_printk() and __btrfs_handle_fs_error()) defines its
    __used static entry whether or not the format is a constant, with
    NULL then, and the index shows no line for it; the callers' own
    descriptors are their index lines.
  * every line of the index files of vmlinux and of the test module is a
    descriptor of that object in the site table: same file, line and
    function, and the same format once the KERN_* prefix, the trailing
    newline and the call's prefix are set aside;
  * every descriptor with a constant format that is not at debug level
    (those may be dynamic debug sites, which the index leaves out) is in
    the index, as many times as there are such descriptors (an inline
    function of a header has one in each object file that calls it), and
    no line is there more often.
"""

import importlib.util
import os
import re
import subprocess

PREFIXES = ("%s %s %s%s: ", "%s %s: ")
LINE = re.compile(r'<([^>]*)> (\S+):(\d+) (\S+) "(.*)"$')
SIMPLE = {"n": 10, "t": 9, "r": 13, "f": 12, "v": 11, "a": 7, "e": 27, "\\": 92, '"': 34}


def _site_module():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-site.py")
    spec = importlib.util.spec_from_file_location("check_site", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def unescape_index(s):
    """seq_escape_str(ESCAPE_ANY | ESCAPE_NAP | ESCAPE_APPEND, "\\"\\\\") -> bytes."""
    out, i = bytearray(), 0
    raw = s.encode("utf-8", "surrogateescape")
    while i < len(raw):
        c = raw[i]
        if c == 0x5c and i + 1 < len(raw):
            n = chr(raw[i + 1])
            m = re.match(rb"[0-7]{3}", raw[i + 1:i + 4])
            if m:
                out.append(int(m.group(0), 8) & 0xff)
                i += 4
                continue
            if n in SIMPLE:
                out.append(SIMPLE[n])
                i += 2
                continue
        out.append(c)
        i += 1
    return bytes(out)


def parse_index(lines):
    """{object: [(level, file, line, func, format bytes)]}, and lines that do not parse."""
    files, cur, bad = {}, None, []
    for line in lines:
        m = re.fullmatch(r"@@ file=(\S+)", line)
        if m:
            cur = files.setdefault(m.group(1), [])
            continue
        if cur is None or not line or line.startswith("#"):
            continue
        m = LINE.match(line)
        if not m:
            bad.append(line)
            continue
        cur.append((m.group(1), m.group(2), m.group(3), m.group(4), unescape_index(m.group(5))))
    return files, bad


def pi_section(smap):
    """(start, stop) of vmlinux's .printk_index from System.map, or None."""
    got = {}
    try:
        with open(smap) as fh:
            for line in fh:
                f = line.split()
                if len(f) == 3 and f[2] in ("__start_printk_index", "__stop_printk_index"):
                    got[f[2]] = int(f[0], 16)
    except OSError:
        return None
    if len(got) != 2:
        return None
    return got["__start_printk_index"], got["__stop_printk_index"]


def match(body, cands):
    """The descriptor format of @cands that the index format @body shows,
    alone or behind a kind's prefix, and that prefix; or (None, None)."""
    for p in ("",) + PREFIXES:
        if body.startswith(p.encode()) and body[len(p):] in cands:
            return body[len(p):], p
    return None, None


def vmlinux_entries(vmlinux, start, stop):
    """[(fmt, file)] of the struct pi_entry that vmlinux's .printk_index
    points at: fmt a link-time address (0: NULL), file its string."""
    out = subprocess.run(["readelf", "-W", "-S", vmlinux], capture_output=True, text=True).stdout
    secs = []
    for m in re.finditer(r"\]\s+\S+\s+\S+\s+([0-9a-f]{16}) ([0-9a-f]+) ([0-9a-f]+)", out):
        addr, off, size = (int(x, 16) for x in m.groups())
        if addr:
            secs.append((addr, off, size))
    with open(vmlinux, "rb") as fh:
        def read(addr, n):
            for a, o, z in secs:
                if a <= addr and addr + n <= a + z:
                    fh.seek(o + addr - a)
                    return fh.read(n)
            return None

        def cstr(addr):
            b = b""
            while len(b) < 256:
                c = read(addr + len(b), 1)
                if not c or c == b"\0":
                    break
                b += c
            return (b or b"?").decode("utf-8", "replace")
        ents = []
        raw = read(start, stop - start) or b""
        for i in range(0, len(raw) - 7, 8):
            e = read(int.from_bytes(raw[i:i + 8], "little"), 24)
            if e is None:
                ents.append((None, "?"))
                continue
            fmt, _, fil = (int.from_bytes(e[k:k + 8], "little") for k in (0, 8, 16))
            ents.append((fmt, cstr(fil)))
    return ents


def run(tap, boots):
    if "kprint" not in boots:
        return
    b = boots["kprint"]
    if b["cfg"].get("CONFIG_PRINTK_INDEX") != "y":
        tap.skip("kprint: the printk index is a view of the call-site descriptors", "no CONFIG_PRINTK_INDEX")
        return
    cs = _site_module()
    secs, rc = b["secs"], b["rc"]
    text = cs.decode_gz(secs.get("SITES-GZ", [])) if rc.get("SITES-GZ") == 0 else None
    table, _ = cs.parse_table(text or "")
    levels = {f[0]: f[1] for f in (line.split(" ", 2) for line in (text or "").split("\n")) if len(f) == 3}

    sec = pi_section(os.path.join(b["dir"], "obj", "System.map"))
    ents = []
    if sec is not None and sec[1] > sec[0]:
        ents = vmlinux_entries(os.path.join(b["dir"], "obj", "vmlinux"), *sec)
    with_fmt = [f for fmt, f in ents if fmt != 0]
    files = sorted(set(f for _, f in ents))
    tap.check(sec is not None and not with_fmt and len(ents) * 8 == sec[1] - sec[0],
              "kprint: vmlinux emits no struct pi_entry with a format beside its call-site descriptors "
              "(.printk_index: %s bytes; %d entries without a format, upstream's in %s)"
              % ("?" if sec is None else sec[1] - sec[0], len(ents), ", ".join(files) or "no file"),
              (["__start_printk_index/__stop_printk_index not in System.map"] if sec is None else [])
              + ["a pi_entry with a format in %s" % f for f in with_fmt[:6]])

    files, bad = parse_index(secs.get("PRINTKINDEX", []))
    by_obj = {}
    for key, (file, line, func, mod, fmt) in table.items():
        obj = key.rsplit(":", 1)[0]
        by_obj.setdefault(obj, {}).setdefault((file, line, func), []).append(
            cs.unescape(fmt) if fmt else b"")
    objs = [o for o in ("vmlinux", "kprint_test") if o in files and o in by_obj]
    wrong, listed, prefixed, seen = [], 0, {p: 0 for p in PREFIXES}, {}
    for obj in objs:
        for level, file, line, func, fmt in files[obj]:
            listed += 1
            body = fmt[:-1] if fmt.endswith(b"\n") else fmt
            cands = by_obj[obj].get((file, line, func), [])
            got, prefix = match(body, cands)
            if got is None:
                wrong.append("%s: <%s> %s:%s %s %r (descriptors there: %r)"
                             % (obj, level, file, line, func, fmt, cands[:3]))
                continue
            if prefix:
                prefixed[prefix] += 1
            k = (obj, file, line, func, got)
            seen[k] = seen.get(k, 0) + 1
    tap.check(objs == ["vmlinux", "kprint_test"] and listed and not wrong and not bad,
              "kprint: every printk index line of %s is a call-site descriptor (%d lines; %d with the "
              "dev_*() prefix, %d with the netdev_*() one)"
              % (" and ".join(objs) or "vmlinux/kprint_test", listed, prefixed["%s %s: "],
                 prefixed["%s %s %s%s: "]),
              (["objects in the index: %s; in the site table: %s" % (sorted(files), sorted(by_obj))]
               if objs != ["vmlinux", "kprint_test"] else [])
              + ["line that does not parse: %r" % x for x in bad[:3]] + wrong[:6])

    # each descriptor once: inline functions of headers have one per
    # object file that calls them, and so many index lines
    ndesc, below_debug, missing = {}, set(), []
    for key, (file, line, func, mod, fmt) in table.items():
        obj = key.rsplit(":", 1)[0]
        if obj not in objs or not fmt:
            continue
        k = (obj, file, line, func, cs.unescape(fmt))
        ndesc[k] = ndesc.get(k, 0) + 1
        if levels.get(key) != "7":
            below_debug.add(k)
    for k, n in ndesc.items():
        got = seen.get(k, 0)
        if got > n or (got != n and k in below_debug):
            missing.append("%s %s:%s %s %r: %d descriptors, %d index lines" % (k[0], k[1], k[2], k[3],
                                                                          k[4][:60], n, got))
    expected = sum(n for k, n in ndesc.items() if k in below_debug)
    tap.check(objs and expected and not missing,
              "kprint: every call-site descriptor with a constant format below debug level is in "
              "the printk index, once per descriptor (%d descriptors)" % expected,
              missing[:6])
