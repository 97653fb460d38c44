#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""kprint-compact.py FULL.dump COMPACT.dump SITES.txt

Derive, from a /dev/kmsg dump of a kernel in printk.kprint_dict=full
mode (newline form, as `cat /dev/kmsg > f` writes), the dump the same
boot would have given in the compact (site) mode and the kernel's site
table (/sys/kernel/debug/kprint/sites, "object:index" form), as
kprint(7) describes them: each call-site block's CODE_FILE, CODE_LINE,
CODE_FUNC, MODULE, FORMAT and ARGn lines become one line,
<pfx>SITE=<object>:<index> <s>-<e>,... (the spans, byte offsets of each
ARGn in the unescaped text, only when there are arguments); FORMAT_PART,
ARGS_CUT, GROUP and PARTS stay.  Objects: a block
whose CODE_FILE is an absolute path (a module built outside the tree)
is in its MODULE's table, every other in vmlinux's.  A PART<k>_ block
gets a site of its own with its record's file, line and function.

Independent of kdmesg's C code on purpose: the tests compare kdmesg on
the compact dump with kdmesg on the full one.  A block whose argument
texts cannot be placed in the text is left in full form and counted on
standard error.
"""
import re
import sys

CONV = re.compile(rb'%(%|[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+)?)?'
                  rb'(?:hh|h|ll|l|L|q|z|Z|t|j)?(?:p[A-Za-z0-9]*|[diouxXcsaAeEfFgGn]))')
BLOCK_KEYS = (b'CODE_FILE', b'CODE_LINE', b'CODE_FUNC', b'MODULE', b'FORMAT')


def unescape(s):
    return re.sub(rb'\\x([0-9a-fA-F]{2})', lambda m: bytes([int(m.group(1), 16)]), s)


def escape(b):
    return b''.join(b'\\x%02x' % c if c < 0x20 or c >= 0x7f or c == 0x5c else bytes([c])
                    for c in b)


def literals(fmt):
    """The literal parts of fmt (%% as %), one more than conversions."""
    parts, at = [], 0
    cur = b''
    for m in CONV.finditer(fmt):
        cur += fmt[at:m.start()]
        at = m.end()
        if m.group(1) == b'%':
            cur += b'%'
            continue
        parts.append(cur)
        cur = b''
    parts.append(cur + fmt[at:])
    return parts


def place(text, rs, re_, fmt, args):
    """Offsets of each arg in text[rs:re_]: walk the literals from a start
    at rs or after a device prefix ": "; None when they do not fit."""
    lits = literals(fmt)
    starts = [rs] + [i + 2 for i in range(rs, re_ - 1) if text[i:i + 2] == b': ']
    for p in starts:
        pos, spans, ok = p, [], True
        for k, a in enumerate(args):
            if text[pos:pos + len(lits[k])] != lits[k]:
                ok = False
                break
            pos += len(lits[k])
            if text[pos:pos + len(a)] != a:
                ok = False
                break
            spans.append((pos, pos + len(a)))
            pos += len(a)
        if ok:
            return spans
    return None


def place_pv(text, rs, re_, fmt, args):
    """%pV: the arguments are the carried format's; each the next place it
    occurs after the literal text before the first conversion."""
    lit0 = literals(fmt)[0]
    starts = [rs] + [i + 2 for i in range(rs, re_ - 1) if text[i:i + 2] == b': ']
    for p in starts:
        if text[p:p + len(lit0)] != lit0:
            continue
        pos, spans = p + len(lit0), []
        for a in args:
            i = text.find(a, pos, re_)
            if i < 0:
                break
            spans.append((i, i + len(a)))
            pos = i + len(a)
        if len(spans) == len(args):
            return spans
    return None


def read_records(data):
    recs, cur = [], None
    for line in data.split(b'\n'):
        if line.startswith(b' ') and cur is not None:
            k, _, v = line[1:].partition(b'=')
            cur[1].append((k, v))
        elif line:
            cur = (line, [])
            recs.append(cur)
    return recs


def main():
    full, out_dump, out_sites = sys.argv[1:4]
    recs = read_records(open(full, 'rb').read())
    table, order = {}, []      # site tuple -> (object, index)
    nobj = {}
    kept = 0

    def site_of(obj, level, file_, line, func, module, fmt):
        key = (obj, file_, line, func, module, fmt)
        if key not in table:
            idx = nobj.get(obj, 0)
            nobj[obj] = idx + 1
            table[key] = idx
            order.append((obj, idx, level, file_, line, func, module, fmt))
        return b'%s:%d' % (obj, table[key])

    out = []
    for header, d in recs:
        level = b'%d' % (int(header.split(b',')[0]) & 7)
        text = unescape(header.partition(b';')[2])
        keys = dict(d)
        # The blocks: prefix -> their keys.
        pfxs = []
        for k, _ in d:
            m = re.match(rb'^((?:LINE|PART)\d+_)?(CODE_FILE|FORMAT)$', k)
            if m:
                p = m.group(1) or b''
                if p not in pfxs and (not p.startswith(b'PART') or k.endswith(b'FORMAT')):
                    pfxs.append(p)
        repl = {}
        main_site = None
        for p in pfxs:
            g = lambda n: keys.get(p + n)
            part = p.startswith(b'PART')
            # What a site cannot give: a block cut short, or a hand-made
            # record without a call site (and so its parts).
            if (part and main_site is None) or \
               (not part and None in (g(b'CODE_FILE'), g(b'CODE_LINE'), g(b'CODE_FUNC'))):
                kept += 1
                continue
            args, n = [], 0
            while g(b'ARG%d' % n) is not None:
                args.append(unescape(g(b'ARG%d' % n)))
                n += 1
            fmt = unescape(g(b'FORMAT') or b'')
            if p.startswith(b'LINE'):
                k = int(p[4:-1])
                lines = text.split(b'\n')
                if k > len(lines):
                    continue
                rs = sum(len(x) + 1 for x in lines[:k - 1])
                re_ = rs + len(lines[k - 1])
            else:
                rs, re_ = 0, len(text)
            pv = re.search(rb'%pV', fmt.replace(b'%%', b''))
            spans = (place_pv if pv else place)(text, rs, re_, fmt, args) if args else []
            if part and args:
                # a part: anywhere after the first block's start
                spans = None
                for s in range(rs, re_):
                    spans = place(text, s, re_, fmt, args)
                    if spans:
                        break
            if spans is None:
                kept += 1
                continue
            if part:
                file_, line, func = main_site
                module = b'-'
            else:
                file_, line = g(b'CODE_FILE'), g(b'CODE_LINE')
                func = g(b'CODE_FUNC')
                module = g(b'MODULE') or b'-'
                if not p:
                    main_site = (file_, line, func)
            obj = module if file_.startswith(b'/') and module != b'-' else b'vmlinux'
            ref = site_of(obj, level, file_, line, func, module, escape(fmt))
            drop = {p + b'ARG%d' % i for i in range(len(args))}
            if not part:
                drop |= {p + x for x in BLOCK_KEYS}
            else:
                drop.add(p + b'FORMAT')
            first = next(k for k, _ in d if k in drop)
            if spans:
                ref += b' ' + b','.join(b'%d-%d' % s for s in spans)
            repl[first] = [(p + b'SITE', ref)]
            for x in drop:
                if x != first:
                    repl[x] = []
        out.append(header + b'\n')
        for k, v in d:
            if k in repl:
                for rk, rv in repl[k]:
                    out.append(b' ' + rk + b'=' + rv + b'\n')
            else:
                out.append(b' ' + k + b'=' + v + b'\n')
    open(out_dump, 'wb').write(b''.join(out))
    with open(out_sites, 'wb') as f:
        for obj, idx, level, file_, line, func, module, fmt in order:
            f.write(b'%s:%d %s %s:%s %s %s %s\n' % (obj, idx, level, file_, line, func, module, fmt))
    if kept:
        print('kprint-compact.py: %d blocks left in full form' % kept, file=sys.stderr)


if __name__ == '__main__':
    main()
