#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""count-wrappers.py - which printk wrappers of a Linux tree matter (issue 24)

Finds the C functions that take the caller's format with a va_list or
"..." and print it themselves, so that the record carries the wrapper's
call site, not the caller's:

  %pV      the format goes into a struct va_format that a call prints
           with "%pV" (a call that is no snprintf(), seq_*(), trace_*(),
           ...), here or in a function that takes the struct va_format
           (__ext4_msg(), xfs_printk_level() -> __xfs_printk(), ...);
  vprintk  the va_list goes to vprintk() and friends;
  buffer   the va_list is formatted into a buffer with vsnprintf() and
           friends and a printk-family call prints that buffer with a
           format of only %s (sdev_prefix_printk(): "%s", logbuf).

A function that hands its va_list or va_format on to one of these joins
that one's family (dev_err_probe() -> __dev_probe_failed()).  The family
is named by the function at the bottom.  The macros that reach a
family's functions, through any chain of macros, are its entry points;
the call sites of all entry points are counted and the families sorted
by them.  printk()'s own functions, dev_printk()/netdev_printk() and
dynamic debug, which the series already gives the caller's call site,
are listed as covered and not counted; WARN*()'s __warn_printk() and
panic() are not counted either (see EXCLUDED).

Method (printed with the table): a lexical scan of the .c and .h files,
not a compiler.  Comments and string literals are stripped first; a call
site is an `name (` token outside #define bodies that is not a
definition or prototype (the token before it is no type name, `*` or
`__printf(...)`), not a member (`.name(`, `->name(`), and not the call
that passes the va_list on inside a family's own function.  Names are
resolved per file: a macro or static function defined in a .c file
counts only there, one in a header outside include/ only below that
header's directory, one in include/ or arch/*/include/ (or a non-static
function) everywhere, and the most local definition wins.  Code under
#if 0 or disabled configuration options is counted like the rest, and a
macro reaches a family if any of its #if variants does.
Documentation/, tools/ and scripts/ are skipped.

Usage: count-wrappers.py [TREE] [--entries] [--min-share PERCENT]
       count-wrappers.py [TREE] --functions
"""

import argparse
import os
import re
import sys

DEFAULT_TREE = '~/.cache/kdmesg-kernel/linux-6.12-unpacked'
SKIP_TOP = ('Documentation', 'tools', 'scripts')

# Comments become blanks (their newlines kept, for line numbers); a string
# literal becomes "" or, if it holds %pV, "%pV" (the one thing we look for).
LEX = re.compile(r'(//[^\n]*|/\*.*?\*/)|"(?:\\.|[^"\\\n])*"|'
                 r"'(?:\\.|[^'\\\n])*'", re.S)
DEFINE = re.compile(r'^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)\n]*\))?'
                    r'((?:[^\n\\]|\\.)*)', re.M | re.S)
IDENT = re.compile(r'[A-Za-z_]\w*')
# names a macro body refers to: no members (.x, ->x)
REF = re.compile(r'(?<![\w.])(?<!->)(?<!-> )[A-Za-z_]\w*')
CALL = re.compile(r'\b([A-Za-z_]\w*)\s*\(')
VA_VAR = re.compile(r'\b(?:va_list|va_format\s*\*?\s*(?:const\s+)?)\s*\**\s*([A-Za-z_]\w*)')

PRINTK = re.compile(r'(?:_?printk|printk_deferred|pr_(?:emerg|alert|crit|err|warn|warning|'
                    r'notice|info|debug|devel|cont)|(?:dev|netdev)_(?:printk|emerg|alert|'
                    r'crit|err|warn|notice|info|dbg))(?:_once|_ratelimited)?$')
# a format that only passes a formatted buffer on: "%s", "%s\n", "%s%s"
PASS_S = re.compile(r'"(?:%s|\\n|[ :])*%s(?:%s|\\n|[ :])*"')
# calls that take "%pV" but print nothing
NONPRINT = re.compile(r'v?s?c?n?printf|k?v?asprintf|seq_\w+|string_stream_\w+|'
                      r'drm_printf|trace_\w+|\w*buf_printf')
VPRINTK = {'vprintk', 'vprintk_emit', 'vprintk_deferred', 'vprintk_default',
           'dev_vprintk_emit'}
VFORMAT = {'vsnprintf', 'vscnprintf', 'vsprintf', 'kvasprintf', 'vsnprintf_args'}

# What the series already gives the caller's call site (patches 1, 2).
COVERED = {
    'drivers/base/core.c': {'_dev_printk', '__dev_printk', 'dev_printk_emit',
                            'dev_vprintk_emit', '_dev_emerg', '_dev_alert',
                            '_dev_crit', '_dev_err', '_dev_warn', '_dev_notice',
                            '_dev_info'},
    'net/core/dev.c': {'netdev_printk', '__netdev_printk', 'netdev_emerg',
                       'netdev_alert', 'netdev_crit', 'netdev_err', 'netdev_warn',
                       'netdev_notice', 'netdev_info'},
    'lib/dynamic_debug.c': {'__dynamic_pr_debug', '__dynamic_dev_dbg',
                            '__dynamic_netdev_dbg', '__dynamic_ibdev_dbg'},
}
COVERED_DIRS = ('kernel/printk/',)
# Not message wrappers of a subsystem: WARN*() (its "WARNING: ... at
# file:line" line names the caller already, and with every #if branch
# counted each WARN_ON() would be a caller) and panic().
EXCLUDED = {'kernel/panic.c': {'__warn_printk', 'warn_slowpath_fmt', 'panic', 'vpanic'}}
DECL_WORDS = {'return', 'else', 'do', 'case'}


def lex_sub(m):
    if m.group(1) is not None:
        return '\n' * m.group(1).count('\n') or ' '
    t = m.group(0)
    if '%pV' in t:
        return '"%pV"'
    if PASS_S.fullmatch(t):
        return '"%s"'
    return '""'


def blank(s):
    return re.sub(r'[^\n]', ' ', s)


class Def:
    """One definition of a name: a macro, a function or a generated function."""
    __slots__ = ('name', 'path', 'off', 'kind', 'static', 'idents', 'family', 'how',
                 'params', 'body')

    def __init__(self, name, path, off, kind, static=False, idents=()):
        self.name, self.path, self.off, self.kind = name, path, off, kind
        self.static, self.idents = static, idents
        self.family = None      # the bottom Def of the family, once known
        self.how = None         # %pV, vprintk, buffer, covered (bottoms only)
        self.params = self.body = None


def scope(path, static, kind):
    """(rank, directory): who sees a definition in path."""
    if path.endswith('.c'):
        if kind == 'func' and not static:
            return (1, '')
        return (3, path)
    if path.startswith('include/') or re.match(r'arch/[^/]+/include/', path):
        return (1, '')
    return (2, os.path.dirname(path) + '/')


def visible(d, path):
    rank, where = scope(d.path, d.static, d.kind)
    if rank == 1:
        return (1, 0)
    if rank == 3:
        return (3, 0) if where == path else None
    return (2, len(where)) if path.startswith(where) else None


def resolve_all(defs, path):
    """The most local of a name's definitions seen from path (several when
    equally local, e.g. one per architecture or #if branch)."""
    best, key = [], None
    for d in defs:
        k = visible(d, path)
        if k is None or (key is not None and k < key):
            continue
        if key is None or k > key:
            best, key = [], k
        best.append(d)
    return best


def resolve(defs, path):
    """The first of resolve_all(), preferring one that belongs to a family."""
    best = resolve_all(defs, path)
    for d in best:
        if d.family is not None:
            return d
    return best[0] if best else None


def match_paren(s, i):
    """Index after the parenthesis that closes the one at s[i]."""
    depth = 0
    for j in range(i, len(s)):
        c = s[j]
        if c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
            if depth == 0:
                return j + 1
    return len(s)


def functions(code):
    """Top-level function definitions: (name, head, params, body, body - 1, name offset)."""
    out = []
    depth, top_start, last = 0, 0, 0
    for m in re.finditer(r'[{};]', code):
        c, p = m.group(), m.start()
        if c == ';':
            if depth == 0:
                last = p + 1
            continue
        if c == '{':
            if depth == 0:
                top_start = p
            depth += 1
            continue
        depth -= 1
        if depth < 0:
            depth = 0
        if depth:
            continue
        head_at, head = last, code[last:top_start]
        last = p + 1
        h = head.rstrip()
        if not h.endswith(')') or '=' in h.split('(')[0]:
            continue
        # find the ( that opens the parameter list
        d, k = 0, len(h) - 1
        while k >= 0:
            if h[k] == ')':
                d += 1
            elif h[k] == '(':
                d -= 1
                if d == 0:
                    break
            k -= 1
        nm = re.search(r'([A-Za-z_]\w*)\s*$', h[:k])
        if not nm or nm.group(1) in ('if', 'for', 'while', 'switch', 'sizeof',
                                      '__attribute__', 'return'):
            continue
        out.append((nm.group(1), h[:nm.start()], h[k + 1:-1],
                    code[top_start + 1:p], top_start, head_at + nm.start(1)))
    return out


def calls_with(body, names_ok, need, every=False):
    """Calls in body: (name, offset) of those whose arguments hold one (every:
    all) of need: names as whole words, or "..." literals."""
    out = []
    for m in CALL.finditer(body):
        if not names_ok(m.group(1)):
            continue
        args = body[m.end() - 1:match_paren(body, m.end() - 1)]
        found = ((v in args) if v.startswith('"') else
                 re.search(r'\b%s\b' % re.escape(v), args) for v in need)
        if all(found) if every else any(found):
            out.append((m.group(1), m.start()))
    return out


def buffers(body, vars_):
    """Buffers that a vsnprintf()-like call fills from one of vars_."""
    out = set()
    for n, o in calls_with(body, lambda n: n in VFORMAT, vars_):
        i = body.index('(', o)
        first = body[i + 1:match_paren(body, i) - 1].split(',')[0]
        w = IDENT.search(first)
        if w:
            out.add(w.group())
    return out


class Tree:
    def __init__(self, root):
        self.root = root
        self.code = {}          # path -> stripped code, #define lines blanked
        self.defs = {}          # name -> [Def]
        self.by_ident = {}      # identifier -> [macro Def whose body names it]
        self.funcs = []         # (Def, params, body, path, body offset)
        self.chain_calls = set()  # (path, offset): a family passing its va_list on

    def files(self):
        out = []
        for d, ds, fs in os.walk(self.root):
            if d == self.root:
                ds[:] = [x for x in ds if x not in SKIP_TOP]
            ds.sort()
            for f in sorted(fs):
                if f.endswith(('.c', '.h')):
                    out.append(os.path.relpath(os.path.join(d, f), self.root))
        return sorted(out)

    def add(self, d):
        self.defs.setdefault(d.name, []).append(d)

    def load(self):
        for path in self.files():
            with open(os.path.join(self.root, path), encoding='latin-1') as fh:
                text = fh.read()
            code = LEX.sub(lex_sub, text)
            pieces, pos = [], 0
            for m in DEFINE.finditer(code):
                name, params, body = m.group(1), m.group(2), m.group(3)
                line = m.start()
                if params is not None:
                    mparams = [p.strip() for p in params[1:-1].split(',')]
                    idents = frozenset(REF.findall(body)) - set(mparams)
                    d = Def(name, path, line, 'macro', idents=idents)
                    d.params = mparams
                    d.body = body
                    self.add(d)
                    for i in idents:
                        self.by_ident.setdefault(i, []).append(d)
                elif re.fullmatch(r'\s*[A-Za-z_]\w*\s*', body.replace('\\\n', '')):
                    d = Def(name, path, line, 'macro', idents=frozenset([body.strip()]))
                    d.params, d.body = None, body
                    self.add(d)
                    self.by_ident.setdefault(body.strip(), []).append(d)
                pieces.append(code[pos:m.start()])
                pieces.append(blank(m.group(0)))
                pos = m.end()
            pieces.append(code[pos:])
            code = ''.join(pieces)
            self.code[path] = code
            if 'va_list' in code or 'va_format' in code:
                for name, head, params, body, start, at in functions(code):
                    if not re.search(r'va_list|va_format|\.\.\.', params):
                        continue
                    d = Def(name, path, at, 'func', static='static' in head.split())
                    self.add(d)
                    self.funcs.append((d, params, body, path, start + 1))
        # functions written by a macro: define_ibdev_printk_level(ibdev_err, ...)
        for defs in list(self.defs.values()):
            for g in defs:
                if g.kind != 'macro' or not g.params or '{' not in g.body:
                    continue
                fs = functions(g.body.replace('\\\n', ' \n'))
                if not fs or fs[0][0] not in g.params:
                    continue
                name, head, params, body = fs[0][:4]
                # the name may be pasted: void __brcms_ ##fn(...)
                pasted = re.search(r'((?:[A-Za-z_]\w*\s*##\s*)*)$', head).group(1)
                parts = [x.strip() for x in pasted.split('##') if x.strip()] + [name]
                if not re.search(r'va_list|va_format|\.\.\.', params):
                    continue
                g.kind = 'generator'    # writes functions, is no entry point
                code = self.code[g.path]
                for m in re.finditer(r'\b%s\s*\(' % re.escape(g.name), code):
                    a = code[m.end() - 1:match_paren(code, m.end() - 1)]
                    args = [x.strip() for x in a[1:-1].split(',')]
                    if len(args) != len(g.params):
                        continue
                    fname = ''.join(args[g.params.index(x)] if x in g.params else x
                                    for x in parts)
                    if IDENT.fullmatch(fname):
                        d = Def(fname, g.path, m.start(), 'func',
                                static='static' in head.split())
                        self.add(d)
                        self.funcs.append((d, params, body, None, 0))

    def where(self, d):
        """file:line of a definition (line counted only when printed)."""
        return '%s:%d' % (d.path, self.code[d.path].count('\n', 0, d.off) + 1)

    def covered(self, d):
        return d.path.startswith(COVERED_DIRS) or d.name in COVERED.get(d.path, ())

    @staticmethod
    def excluded(d):
        return d.name in EXCLUDED.get(d.path, ())

    def classify(self):
        """Give each printing function its family, until nothing changes."""
        info = []
        for d, params, body, path, off in self.funcs:
            vars_ = set(VA_VAR.findall(params + ' ' + body))
            consumer = 'va_format' in params and '...' not in params
            info.append((d, params, body, path, off, vars_, consumer))
        changed = True
        while changed:
            changed = False
            for d, params, body, path, off, vars_, consumer in info:
                if d.family is not None or not vars_:
                    continue
                has_vaf = 'va_format' in params or 'va_format' in body
                fam, how = None, None
                if has_vaf and '"%pV"' in body and calls_with(
                        body, lambda n: not NONPRINT.fullmatch(n), ['"%pV"']):
                    fam, how = d, '%pV'
                else:
                    def family_of(n, p=path or d.path):
                        r = resolve(self.defs.get(n, ()), p)
                        if r is None or r.kind != 'func' or r.family is None:
                            return None
                        return None if r.family.how == 'covered' else r
                    chain = calls_with(body, lambda n: family_of(n) is not None, vars_)
                    if chain:
                        fam = family_of(chain[0][0]).family
                        if path is not None:
                            for n, o in chain:
                                self.chain_calls.add((path, off + o))
                    elif calls_with(body, lambda n: n in VPRINTK, vars_):
                        fam, how = d, 'vprintk'
                    elif any(calls_with(body, PRINTK.match, ['"%s"', b], every=True)
                             for b in buffers(body, vars_)):
                        fam, how = d, 'buffer'
                if fam is not None:
                    d.family = fam
                    if how:
                        d.how = how
                    changed = True

    def chain_macros(self):
        """Macros that reach a family's function, through other macros."""
        work = [d for defs in self.defs.values() for d in defs
                if d.kind == 'func' and d.family is not None and d.family.how != 'covered']
        while work:
            e = work.pop()
            for m in self.by_ident.get(e.name, ()):
                if m.family is not None or m.kind != 'macro':
                    continue
                if e in resolve_all(self.defs[e.name], m.path):
                    m.family = e.family
                    work.append(m)

    def count(self):
        """Call sites per entry Def: {Def: n}."""
        names = {n for n, defs in self.defs.items()
                 if any(d.family is not None and d.family.how != 'covered' for d in defs)}
        counts = {}
        for path, code in self.code.items():
            for m in CALL.finditer(code):
                n = m.group(1)
                if n not in names:
                    continue
                d = resolve(self.defs[n], path)
                if d is None or d.family is None or d.family.how == 'covered':
                    continue
                if not self.is_call(code, m.start()):
                    continue
                if (path, m.start()) in self.chain_calls:
                    continue
                counts[d] = counts.get(d, 0) + 1
        return counts

    @staticmethod
    def is_call(code, i):
        j = i - 1
        while j >= 0 and code[j] in ' \t\n\\':
            j -= 1
        if j < 0:
            return True
        c = code[j]
        if c == '*' or c == '.' or (c == '>' and j > 0 and code[j - 1] == '-'):
            return False
        if c == '_' or c.isalnum():
            k = j
            while k >= 0 and (code[k] == '_' or code[k].isalnum()):
                k -= 1
            return code[k + 1:j + 1] in DECL_WORDS
        if c == ')':
            d, k = 0, j
            while k >= 0:
                if code[k] == ')':
                    d += 1
                elif code[k] == '(':
                    d -= 1
                    if d == 0:
                        break
                k -= 1
            w = re.search(r'([A-Za-z_]\w*)\s*$', code[max(0, k - 64):k])
            if w and w.group(1) in ('__printf', '__attribute__'):
                return False
        return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\nUsage:')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('tree', nargs='?', default=DEFAULT_TREE,
                    help='the Linux source tree (default: %(default)s)')
    ap.add_argument('--entries', action='store_true',
                    help='list every entry point of every family')
    ap.add_argument('--markdown', action='store_true',
                    help='the tables as Markdown, up to the minimum share and 5 more rows')
    ap.add_argument('--functions', action='store_true',
                    help='only list the functions of every family, one per line: '
                         'kind, function, family (bottom); check-drivers.py reads it')
    ap.add_argument('--min-share', type=float, default=90.0,
                    help='cumulative share the smallest family set must hold (%%)')
    a = ap.parse_args()
    root = os.path.expanduser(a.tree)
    if not os.path.isdir(root):
        sys.exit('count-wrappers.py: %s: not a directory' % a.tree)

    t = Tree(root)
    t.load()
    covered = []
    for defs in t.defs.values():
        for d in defs:
            if d.kind == 'func' and t.covered(d):
                covered.append(d)
                # counted as no family: the series handles them
    excluded = [d for defs in t.defs.values() for d in defs
                if d.kind == 'func' and t.excluded(d)]
    for d in covered + excluded:
        d.family = d
        d.how = 'covered'
    t.classify()
    t.chain_macros()
    counts = t.count()

    # one family per bottom; two definitions of one global function (#if
    # branches, e.g. __brcmf_err() with and without tracing) are one family
    fams, bottoms = {}, {}
    for defs in t.defs.values():
        for d in defs:
            if d.family is not None and d.family.how != 'covered':
                b = d.family
                key = (b.name, '' if scope(b.path, b.static, b.kind)[0] == 1 else b.path)
                fams.setdefault(key, []).append(d)
                bottoms.setdefault(key, []).append(b)
    rows = []
    for key, members in fams.items():
        b = min(bottoms[key], key=lambda x: (x.path, x.off))
        n = sum(counts.get(d, 0) for d in members)
        rows.append((n, b, members))
    rows.sort(key=lambda r: (-r[0], r[1].name, r[1].path))
    if a.functions:
        for line in sorted({'%s %s %s' % (b.how, d.name, b.name)
                            for n, b, members in rows for d in members if d.kind == 'func'}):
            print(line)
        return

    print('# printk wrappers that hide the caller: call sites in %s' % a.tree)
    print('# method: lexical scan of .c/.h files (comments and strings stripped; '
          'Documentation/, tools/, scripts/ skipped);')
    print('#   a call site is a `name(` token outside #define bodies that is no '
          'definition, prototype or member;')
    print('#   macros and static functions count only where their definition is '
          'visible (see --help); #if branches all count.')
    print('# files: %d; families: %d; covered by the series (not counted): %d functions'
          % (len(t.code), len(rows), len(covered)))
    print('# not counted either: %s (WARN*() and panic(), no subsystem message wrappers)'
          % (', '.join(sorted({d.name for d in excluded})) or 'none'))
    for kind in ('%pV', 'all'):
        sel = [r for r in rows if kind == 'all' or r[1].how == kind]
        total = sum(r[0] for r in sel)
        print()
        print('## %s families (%d), %d call sites' %
              ('%pV' if kind == '%pV' else 'all (%pV, vprintk, buffer)', len(sel), total))
        if a.markdown:
            print('| rank | kind | family (bottom) | file:line | sites | share | cumul. '
                  '| entry points (top 4 by call sites) |')
            print('|---:|---|---|---|---:|---:|---:|---|')
        else:
            print('%5s  %-7s  %-32s  %-48s  %7s  %6s  %6s  %s' %
                  ('rank', 'kind', 'family (bottom)', 'file:line', 'sites', 'share',
                   'cumul', 'entry points (top 4 by call sites)'))
        cum, need = 0, None
        for i, (n, b, members) in enumerate(sel, 1):
            cum += n
            share = 100.0 * n / total if total else 0.0
            cshare = 100.0 * cum / total if total else 0.0
            ents = sorted(((counts.get(d, 0), d.name) for d in members),
                          key=lambda x: (-x[0], x[1]))
            seen, top = set(), []
            for c, nm in ents:
                if nm not in seen and len(top) < 4:
                    top.append('%s %d' % (nm, c))
                seen.add(nm)
            more = len(seen) - len(top)
            tail = ' (+%d more)' % more if more > 0 else ''
            if a.markdown:
                if need is None or i <= need + 5:
                    print('| %d | %s | `%s` | %s | %d | %.1f%% | %.1f%% | %s%s |' %
                          (i, b.how, b.name, t.where(b), n, share, cshare,
                           ', '.join('`%s` %s' % tuple(x.rsplit(' ', 1)) for x in top),
                           tail))
            else:
                print('%5d  %-7s  %-32s  %-48s  %7d  %5.1f%%  %5.1f%%  %s%s' %
                      (i, b.how, b.name, t.where(b), n, share, cshare, ', '.join(top), tail))
            if need is None and cshare >= a.min_share:
                need = i
        if need is not None:
            print('%s: the first %d of %d families hold >= %g%% of these call sites: %s' %
                  ('%pV' if kind == '%pV' else 'all', need, len(sel), a.min_share,
                   ' '.join(r[1].name for r in sel[:need])))
    print()
    print('## covered by the series (dev_printk, netdev_printk, dynamic debug, printk)')
    for d in sorted(covered, key=lambda d: (d.path, d.name)):
        print('covered  %-28s %s' % (d.name, t.where(d)))
    if a.entries:
        print()
        print('## entry points')
        for n, b, members in rows:
            for d in sorted(members, key=lambda d: (-counts.get(d, 0), d.name, d.path)):
                print('%-32s %-32s %6d  %-5s %s' % (b.name, d.name, counts.get(d, 0),
                                                    d.kind, t.where(d)))


if __name__ == '__main__':
    main()
