#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run-structured.sh - what the structured command line costs (issue 10).
#
# Generates (once, cached) a deterministic dump of BENCH_COUNT records
# with the kprint call-site fields (gen-dump.py --structured: CODE_FILE,
# CODE_LINE, CODE_FUNC, MODULE, FORMAT, ARGn on every record), then times,
# with the output going into a drained pipe as a user reading it sees it:
#
#   kdmesg -K DUMP                          plain reading (the reference)
#   kdmesg -K DUMP --code-file drivers/net  a path glob filter
#   kdmesg -K DUMP --function 'e1000e_*'    a function glob filter
#   kdmesg -K DUMP --stats                  call-site counters
#
# and prints each one's ratio to plain reading, of wall-clock and of CPU
# time (user + system), and the peak resident memory of --stats
# (/usr/bin/time).  Then the same four commands on a smaller dump of the
# same kind (BENCH_INSTR_COUNT records) under valgrind (bench/instr.sh):
# instructions, which do not depend on the machine's load, and their
# ratios.  The goals of the issue: the filters <= 1.1x plain reading,
# --stats <= 2x and <= 32 MiB; judged on CPU time (the issue's measure),
# and said for instructions too.
#
# Environment (all optional):
#   KDMESG       kdmesg binary (default: src/kdmesg under the current directory)
#   BENCH_COUNT  records (default: 1000000)
#   BENCH_SEED   generator seed (default: 20261203)
#   BENCH_DIR    where the dump is cached (default: ./bench-data)
#   BENCH_RUNS   timed runs per command (default: 10)
#   BENCH_INSTR_COUNT records of the dump instructions are counted on
#                (default: 100000; 0: no counts, no valgrind needed)
#   BENCH_STRICT when 1, exit 1 if a goal is missed (CPU time or memory)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
bench_name=run-structured.sh
BENCH_RUNS=${BENCH_RUNS:-10}
BENCH_INSTR_COUNT=${BENCH_INSTR_COUNT:-100000}
. "$here/structured-dump.sh"
command -v hyperfine >/dev/null || die "hyperfine is needed (apt-get install hyperfine)"
dump=$(make_dump "$BENCH_COUNT")

json=$(mktemp)
trap 'rm -f "$json"' EXIT
hyperfine -N --output=pipe -w 2 -r "$BENCH_RUNS" --export-json "$json" \
	-n plain "$KDMESG -K $dump" \
	-n code-file "$KDMESG -K $dump --code-file drivers/net" \
	-n function "$KDMESG -K $dump --function e1000e_*" \
	-n stats "$KDMESG -K $dump --stats" >&2

peak=$(/usr/bin/time -f %M "$KDMESG" -K "$dump" --stats 2>&1 >/dev/null | tail -1)

# Instructions of the same four commands on the smaller dump.
instr="0 0 0 0"
if [ "$BENCH_INSTR_COUNT" != 0 ]; then
	small=$(make_dump "$BENCH_INSTR_COUNT")
	echo "counting instructions on $BENCH_INSTR_COUNT records (valgrind) ..." >&2
	instr="$(sh "$here/instr.sh" "$KDMESG" -K "$small")"
	instr="$instr $(sh "$here/instr.sh" "$KDMESG" -K "$small" --code-file drivers/net)"
	instr="$instr $(sh "$here/instr.sh" "$KDMESG" -K "$small" --function 'e1000e_*')"
	instr="$instr $(sh "$here/instr.sh" "$KDMESG" -K "$small" --stats)"
fi

python3 - "$json" "$peak" "$BENCH_STRICT" "$BENCH_COUNT" "$BENCH_INSTR_COUNT" $instr <<'PY'
import json, sys
res = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
peak_kib, strict = int(sys.argv[2]), sys.argv[3] == "1"
count, icount = sys.argv[4], sys.argv[5]
instr = dict(zip(("plain", "code-file", "function", "stats"), map(int, sys.argv[6:10])))
def cpu(r):
    return r["user"] + r["system"]
plain = res["plain"]
print("time: %s records, output into a pipe; instructions: %s records%s"
      % (count, icount, "" if instr["plain"] else " (not counted)"))
print("%-10s %9s %9s %7s %7s %10s %7s  goal (cpu x; instr x)"
      % ("command", "wall ms", "cpu ms", "wall x", "cpu x", "instr M", "instr x"))
missed = False
for name, goal in (("plain", None), ("code-file", 1.1), ("function", 1.1), ("stats", 2.0)):
    r = res[name]
    xw, xc = r["mean"] / plain["mean"], cpu(r) / cpu(plain)
    xi = instr[name] / instr["plain"] if instr["plain"] else 0
    verdict = ""
    if goal is not None:
        verdict = "<= %.1f: cpu %s" % (goal, "ok" if xc <= goal else "MISSED")
        if instr["plain"]:
            verdict += ", instr %s" % ("ok" if xi <= goal else "missed")
    missed |= goal is not None and xc > goal
    print("%-10s %9.1f %9.1f %7.2f %7.2f %10.1f %7.2f  %s"
          % (name, r["mean"] * 1000, cpu(r) * 1000, xw, xc, instr[name] / 1e6, xi, verdict))
ok = peak_kib <= 32 * 1024
missed |= not ok
print("stats peak RSS: %.1f MiB (goal <= 32 MiB: %s)" % (peak_kib / 1024, "ok" if ok else "MISSED"))
sys.exit(1 if missed and strict else 0)
PY
