#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-translate.py DATA.LOG - TAP checks of the TRANSLATE-* sections
that tools/translate.sh wrote in a CONFIG_KPRINT boot: kdmesg inside the
guest translated the boot's records with the shipped catalogues (German
and French lines for messages every boot prints, the -v summary counting
translations), and -o jsonl kept "message" and added "message_translated".
Prints "1..0 # SKIP" when the sections are absent (no kdmesg in the image,
no msgfmt on the host, or a stock kernel).  check-records.py runs the
same checks through run()."""
import json
import os
import re
import sys


def sections(path):
    out, cur, name = {}, None, None
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            line = line.rstrip('\r\n')
            m = re.match(r'=====(TRANSLATE-[A-Za-z]+)-(BEGIN|END|RC=\d+)=====$', line)
            if m:
                if m.group(2) == 'BEGIN':
                    name, cur = m.group(1), []
                elif m.group(2) == 'END' and name:
                    out[name] = cur
                    name = None
                continue
            if name:
                cur.append(line)
    return out


def checks(sec, ok):
    """Call ok(cond, what) for each check of the TRANSLATE-* sections."""
    want = {'TRANSLATE-de': ('Befehlszeile: ', 'Speicher: '),
            'TRANSLATE-fr': ('Ligne de commande : ', 'Mémoire : ')}
    for name, words in want.items():
        lines = sec.get(name, [])
        ok(bool(lines), '%s: kdmesg printed the boot' % name)
        for w in words:
            ok(any(w in l for l in lines), '%s: a line with "%s"' % (name, w))
        summary = [l for l in lines if 'translated ' in l and ' kernel messages with a format' in l]
        m = re.search(r'translated (\d+) of (\d+)', summary[-1]) if summary else None
        ok(bool(m) and int(m.group(1)) > 0, '%s: -v summary counts translations (%s)'
           % (name, summary[-1] if summary else 'none'))
    recs = []
    for l in sec.get('TRANSLATE-JSONL', []):
        try:
            recs.append(json.loads(l))
        except ValueError:
            pass
    tr = [r for r in recs if 'message_translated' in r]
    ok(bool(tr), 'jsonl: %d of %d records carry message_translated' % (len(tr), len(recs)))
    ok(all('message' in r for r in tr) and
       any(r['message'] != r['message_translated'] for r in tr),
       'jsonl: message keeps the kernel text beside the translation')


def run(tap, boots):
    """Checks of the kprint boot, numbered with check-records.py's (@tap).
    Nothing when the boot has no TRANSLATE sections (no kdmesg in the
    image or no msgfmt on the host): reported as a "#" line."""
    b = boots.get('kprint')
    if not b:
        return
    sec = sections(os.path.join(b['dir'], 'data.log'))
    if not sec:
        tap.skip('kprint: translate', 'no TRANSLATE sections in the kprint boot (no kdmesg or msgfmt)')
        return
    checks(sec, lambda cond, what: tap.check(cond, 'kprint: translate: ' + what))


def main():
    sec = sections(sys.argv[1])
    if not sec:
        print('1..0 # SKIP no TRANSLATE sections in %s' % sys.argv[1])
        return 0
    n, failed = 0, 0

    def ok(cond, what):
        nonlocal n, failed
        n += 1
        failed += not cond
        print('%sok %d - %s' % ('' if cond else 'not ', n, what))

    checks(sec, ok)
    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
