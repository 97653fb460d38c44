#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""translate.py - the cost of translating kernel messages (issue 11).

Builds (once, cached in BENCH_DIR) a /dev/kmsg dump of BENCH_COUNT
structured records by repeating the records of a real boot of the
patched kernel (tests/fixtures/kmsg-boot-kprint.dump: 75 records, 70 with
a format the German catalogue has, 11 of them continuations that are
shown untranslated), with increasing sequence numbers and times; then
runs, BENCH_RUNS times each, alternating, output into a drained pipe:

  plain       kdmesg -K DUMP --no-translate
  translated  LANGUAGE=de kdmesg -K DUMP --translate=always (po-kmsg/de.po)

and prints the median CPU time (user + system of kdmesg) and wall time of
each and the ratio translated/plain; then the instructions both execute
on a dump of BENCH_INSTR_COUNT records made the same way (valgrind,
bench/instr.sh: the same count on an idle or a loaded machine) and their
ratio.  The goal is a ratio of at most 1.5, judged on CPU time and said
for instructions too.

Environment: KDMESG (default src/kdmesg), MSGFMT (default msgfmt),
BENCH_COUNT (1000000), BENCH_RUNS (5), BENCH_DIR (./bench-data),
BENCH_INSTR_COUNT (200000; 0: no counts, no valgrind needed),
top_srcdir (default: this file's ../).
"""
import os
import resource
import statistics
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
top = os.environ.get('top_srcdir', os.path.dirname(here))
kdmesg = os.environ.get('KDMESG', os.path.join(os.getcwd(), 'src', 'kdmesg'))
count = int(os.environ.get('BENCH_COUNT', '1000000'))
runs = int(os.environ.get('BENCH_RUNS', '5'))
bdir = os.environ.get('BENCH_DIR', os.path.join(os.getcwd(), 'bench-data'))
os.makedirs(bdir, exist_ok=True)


def make_dump(path, count):
    recs, cur = [], None
    with open(os.path.join(top, 'tests', 'fixtures', 'kmsg-boot-kprint.dump'), 'rb') as f:
        for line in f:
            if line[:1].isdigit():
                cur = [line]
                recs.append(cur)
            else:
                cur.append(line)
    with open(path + '.tmp', 'wb') as out:
        for n in range(count):
            r = recs[n % len(recs)]
            head = r[0].split(b';', 1)
            pri = head[0].split(b',')[0]
            out.write(b'%s,%d,%d,-;%s' % (pri, n, n * 10, head[1]))
            out.writelines(r[1:])
    os.rename(path + '.tmp', path)


icount = int(os.environ.get('BENCH_INSTR_COUNT', '200000'))


def dump_of(n):
    """The cached dump of @n records."""
    path = os.path.join(bdir, 'kprint-%d.kmsg' % n)
    if not os.path.exists(path):
        make_dump(path, n)
    return path


dump = dump_of(count)
cat = os.path.join(bdir, 'kmsg-cat')
os.makedirs(os.path.join(cat, 'de', 'LC_MESSAGES'), exist_ok=True)
subprocess.run([os.environ.get('MSGFMT', 'msgfmt'), '-c', '-o',
                os.path.join(cat, 'de', 'LC_MESSAGES', 'linux-kmsg.mo'),
                os.path.join(top, 'po-kmsg', 'de.po')], check=True)

base_env = dict(os.environ, LC_ALL='C.UTF-8', LANGUAGE='de', TZ='GMT')
cases = {
    'plain': [kdmesg, '-K', dump, '--no-translate'],
    'translated': [kdmesg, '-K', dump, '--translate=always', '--catalog-dir', cat],
}


def run(argv):
    """CPU seconds (user + sys of kdmesg) and wall seconds, output into a pipe."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, env=base_env)
    while p.stdout.read(1 << 16):
        pass
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit('%s failed: %d' % (' '.join(argv), p.returncode))
    return ru.ru_utime + ru.ru_stime, wall


res = {k: ([], []) for k in cases}
for _ in range(runs):
    for k, argv in cases.items():
        c, w = run(argv)
        res[k][0].append(c)
        res[k][1].append(w)
med = {k: (statistics.median(v[0]), statistics.median(v[1])) for k, v in res.items()}
print('%d structured records, %d runs each, output into a pipe' % (count, runs))
for k in cases:
    print('  %-10s cpu %6.3f s   wall %6.3f s' % (k, med[k][0], med[k][1]))
rc, rw = med['translated'][0] / med['plain'][0], med['translated'][1] / med['plain'][1]
print('  ratio translated/plain: cpu %.2fx, wall %.2fx (goal <= 1.5x): %s'
      % (rc, rw, 'met' if rc <= 1.5 else 'MISSED'))
if icount:
    small = dump_of(icount)
    instr = {}
    for k, argv in cases.items():
        argv = [small if a == dump else a for a in argv]
        out = subprocess.run(['sh', os.path.join(here, 'instr.sh')] + argv, env=base_env,
                             check=True, stdout=subprocess.PIPE, text=True).stdout
        instr[k] = int(out)
    ri = instr['translated'] / instr['plain']
    print('%d structured records under valgrind' % icount)
    for k in cases:
        print('  %-10s %8.1fM instructions' % (k, instr[k] / 1e6))
    print('  ratio translated/plain: instructions %.2fx (goal <= 1.5x): %s'
          % (ri, 'met' if ri <= 1.5 else 'missed'))
