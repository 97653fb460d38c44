#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""select-messages.py - choose the kernel messages the shipped catalogues cover.

Usage: select-messages.py [-n 300] TEMPLATE.pot [--dump KMSG]... [LOG...]

TEMPLATE.pot is `kdmesg-po extract` of a kernel source tree (Linux 6.12
for the shipped catalogues).  Each LOG is a boot log as `dmesg` prints it
or a serial console log ("[    1.234567] text" lines; lines without a
time stamp are used as they are).  Each KMSG given with --dump is a
/dev/kmsg dump of a CONFIG_KPRINT kernel (the boots of `make
check-kernel`): its records name their format in FORMAT, which is
counted when the template has it (formats of out-of-tree test modules
are not).  Every log line is matched against
every format of the template: a format matches when its rendering, with
each conversion standing for what that conversion can print, is the end
of the line (what comes before is the device prefix of dev_*() and
netdev_*() messages).  Among the formats that match a line, the one with
the most literal characters wins; formats with fewer than 4 literal
characters are never used.  The formats are counted over all logs, and
the N most frequent (ties: first seen first) are written to standard
output as a .pot that keeps the template's comments, each with a
"#. boot-count: K" comment.  When fewer than N formats occurred, the
list is filled up with the other messages (not of debug level) of the
source files that printed them, files in the order of their most
frequent message, and marked "boot-count: 0".  A summary goes to
standard error.
"""
import lzma
import os
import re
import sys
import time


def open_text(path, errors):
    """A log or dump, plain or xz-compressed (the inputs kept in po-kmsg/sources/)."""
    if path.endswith('.xz'):
        return lzma.open(path, 'rt', encoding='utf-8', errors=errors)
    return open(path, encoding='utf-8', errors=errors)

CONV = re.compile(r'%(?:(\d+)\$)?[-+ #0\']*(\*(?:\d+\$)?|\d+)?(?:\.(\*(?:\d+\$)?|\d*))?'
                  r'(hh|h|ll|l|L|q|j|z|Z|t)?([diouxXcspneEfFgGaA%])')
STAMP = re.compile(r'^(?:<\d+>)?\[\s*\d+\.\d+\] ?')


def unquote(s):
    """The bytes of a PO string literal (without the quotes)."""
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == '\\' and i + 1 < len(s):
            n = s[i + 1]
            i += 2
            if n in 'ntr"\\':
                out.append({'n': '\n', 't': '\t', 'r': '\r'}.get(n, n))
            elif n in '01234567':
                j = i - 1
                while i < len(s) and i - j < 3 and s[i] in '01234567':
                    i += 1
                out.append(chr(int(s[j:i], 8)))
            else:
                out.append(n)
            continue
        out.append(c)
        i += 1
    return ''.join(out)


def read_pot(path):
    """Entries of a .pot: (comment lines, msgid)."""
    entries, comments, msgid, cur = [], [], None, None
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('#'):
                if msgid is not None:
                    entries.append((comments, msgid))
                    comments, msgid = [], None
                comments.append(line)
            elif line.startswith('msgid '):
                msgid, cur = unquote(line[7:-1]), 'id'
            elif line.startswith('msgstr '):
                cur = 'str'
            elif line.startswith('"') and cur == 'id':
                msgid += unquote(line[1:-1])
        if msgid is not None:
            entries.append((comments, msgid))
    return [e for e in entries if e[1]]


def pattern(fmt):
    """A regex for what @fmt prints, its literal length, its longest word."""
    parts, lit, pos = [], 0, 0
    for m in CONV.finditer(fmt):
        text = fmt[pos:m.start()]
        parts.append(re.escape(text))
        lit += len(text)
        conv, length = m.group(5), m.group(4)
        if conv == '%':
            parts.append('%')
            lit += 1
        elif conv in 'di':
            parts.append(r' *-?\d+')
        elif conv in 'ouxX':
            parts.append(r' *[0-9a-fA-F]+')
        elif conv == 'c':
            parts.append('.')
        elif conv == 'p':
            ext = re.match(r'[A-Za-z0-9]*', fmt[m.end():]).group(0)
            if ext[:1] in ('R', 'r'):
                parts.append(r'\[[^\]]*\]')      # resources: [mem 0x...-0x... flags]
            elif ext[:1] in ('V', 'd', 'D', 's', 'S', 'B'):
                parts.append('.*?')
            else:
                parts.append(r'\S*')
            pos = m.end() + len(ext)
            continue
        else:
            parts.append('.*?')
        pos = m.end()
    parts.append(re.escape(fmt[pos:]))
    lit += len(fmt) - pos
    words = [w for w in re.split(r'\s+', CONV.sub(' ', fmt)) if len(w) >= 3
             and not re.search(r'[%\\]', w)]
    key = max(words, key=len) if words else None
    return '(?:' + ''.join(parts) + r')\Z', lit, key


def wordy(msgid):
    """Whether a format has words to translate besides its conversions
    (and is translatable at all: kdmesg never translates %pV records)."""
    if re.search(r'%pV', msgid):
        return None
    return re.search(r'[A-Za-z]{2}', CONV.sub(' ', re.sub(r'%p[A-Za-z0-9]*', ' ', msgid)))


def main(argv):
    n = 300
    if len(argv) > 2 and argv[1] == '-n':
        n = int(argv[2])
        argv = argv[:1] + argv[3:]
    dumps, logs = [], []
    rest = argv[2:]
    while rest:
        if rest[0] == '--dump' and len(rest) > 1:
            dumps.append(rest[1])
            rest = rest[2:]
        else:
            logs.append(rest[0])
            rest = rest[1:]
    if len(argv) < 3:
        sys.exit(__doc__)
    entries = read_pot(argv[1])
    by_msgid = {msgid: i for i, (_, msgid) in enumerate(entries)}
    index = {}
    compiled = {}
    for i, (_, msgid) in enumerate(entries):
        if '\n' in msgid:
            continue
        rx, lit, key = pattern(msgid)
        if lit < 4 or key is None or not wordy(msgid):
            continue
        compiled[i] = (rx, lit)
        index.setdefault(key, []).append(i)
    counts, first, lines, matched = {}, {}, 0, 0
    records = with_format = 0
    for dump in dumps:
        with open_text(dump, 'surrogateescape') as f:
            for line in f:
                if line[:1].isdigit():
                    records += 1
                if not line.startswith(' FORMAT='):
                    continue
                fmt = re.sub(r'\\x([0-9a-f]{2})', lambda m: chr(int(m.group(1), 16)),
                             line[8:].rstrip('\n'))
                i = by_msgid.get(fmt)
                if i is None or not wordy(fmt):
                    continue
                with_format += 1
                counts[i] = counts.get(i, 0) + 1
                first.setdefault(i, with_format)
    if dumps:
        sys.stderr.write('%d records in the dumps, %d with a FORMAT of the template, '
                         '%d distinct\n' % (records, with_format, len(counts)))
    for log in logs:
        with open_text(log, 'replace') as f:
            for line in f:
                line = STAMP.sub('', line.rstrip('\r\n'))
                if not line.strip():
                    continue
                lines += 1
                cands = set()
                for w in set(re.split(r'\s+', line)):
                    for k in (w, w.rstrip(',.:;'), w.rstrip(')')):
                        cands.update(index.get(k, ()))
                best = None
                for i in cands:
                    rx, lit = compiled[i]
                    if isinstance(rx, str):
                        rx = re.compile(rx, re.S)
                        compiled[i] = (rx, lit)
                    if rx.search(line) and (best is None or lit > compiled[best][1]):
                        best = i
                if best is None:
                    continue
                matched += 1
                counts[best] = counts.get(best, 0) + 1
                first.setdefault(best, with_format + lines)
    ranked = sorted(counts, key=lambda i: (-counts[i], first[i]))[:n]
    sys.stderr.write('%d log lines, %d matched a format of the template, %d distinct '
                     'formats in all\n' % (lines, matched, len(counts)))
    # Fewer formats occurred than wanted: the other messages of the
    # source files that printed them (not debug level), files in the order
    # of their most frequent message, entries in the template's order.
    observed = len(ranked)
    if observed < n:
        def ref_file(i):
            for c in entries[i][0]:
                if c.startswith('#: '):
                    return c[3:].rsplit(':', 1)[0]
            return None
        by_file = {}
        for i, (comments, msgid) in enumerate(entries):
            f = ref_file(i)
            if f and '#. level: debug' not in comments and '\n' not in msgid and wordy(msgid):
                by_file.setdefault(f, []).append(i)
        taken = set(ranked)
        for i in list(ranked):
            for j in by_file.get(ref_file(i), ()):
                if len(ranked) >= n:
                    break
                if j not in taken:
                    taken.add(j)
                    ranked.append(j)
                    counts[j] = 0
    sys.stderr.write('writing %d: %d that occurred, %d more of the same source files\n'
                     % (len(ranked), observed, len(ranked) - observed))
    out = sys.stdout
    out.write('# The kernel messages of a Linux 6.12 boot that kdmesg ships translated,\n'
              '# chosen by po-kmsg/select-messages.py (see po-kmsg/README.md).\n'
              'msgid ""\nmsgstr ""\n"Project-Id-Version: linux-kmsg\\n"\n'
              '"Report-Msgid-Bugs-To: \\n"\n'
              '"POT-Creation-Date: %s\\n"\n'
              % time.strftime('%Y-%m-%d %H:%M+0000',
                              time.gmtime(int(os.environ.get('SOURCE_DATE_EPOCH') or time.time())))
              +
              '"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
              '"Content-Transfer-Encoding: 8bit\\n"\n')
    for i in ranked:
        comments, msgid = entries[i]
        out.write('\n')
        for c in comments:
            out.write(c + '\n')
        if counts[i]:
            out.write('#. boot-count: %d\n' % counts[i])
        else:
            out.write('#. boot-count: 0 (a message of the same source file)\n')
        esc = ''.join({'\\': '\\\\', '"': '\\"', '\t': '\\t', '\n': '\\n'}.get(c, c)
                      if c >= ' ' or c in '\t\n' else '\\%03o' % ord(c) for c in msgid)
        out.write('msgid "%s"\nmsgstr ""\n' % esc)


if __name__ == '__main__':
    main(sys.argv)
