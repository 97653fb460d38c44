#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run-outputs.sh - what each output mode costs per output byte, against
# plain text (issue 22: "machine-readable outputs at the speed of text").
#
# On the structured dump of run-structured.sh (gen-dump.py --structured,
# BENCH_COUNT records, cached), runs `kdmesg -K DUMP` and `kdmesg -K DUMP
# -o MODE` for json, jsonl, export and verbose, output into a drained
# pipe, BENCH_RUNS times each, and prints for each mode its CPU time
# (user + system of kdmesg alone, GNU time), its output bytes, and two
# ratios to plain text: CPU time, and CPU time per output byte.  The
# goal: every mode costs no more per output byte than plain text does
# (per-byte ratio <= 1), judged on the median of the runs.  Then the same
# on a smaller dump of the same kind (BENCH_INSTR_COUNT records) in
# instructions (valgrind, bench/instr.sh), which do not depend on the
# load of a shared machine as CPU time does.
#
# Environment (all optional):
#   KDMESG       kdmesg binary (default: src/kdmesg under the current directory)
#   BENCH_COUNT  records (default: 1000000)
#   BENCH_SEED   generator seed (default: 20261203)
#   BENCH_DIR    where the dump is cached (default: ./bench-data)
#   BENCH_RUNS   timed runs per command (default: 5)
#   BENCH_MODES  modes to time (default: "json jsonl export verbose")
#   BENCH_INSTR_COUNT records of the dump instructions are counted on
#                (default: 20000; 0: no counts, no valgrind needed)
#   BENCH_STRICT when 1, exit 1 if a goal is missed (CPU time)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
bench_name=run-outputs.sh
BENCH_RUNS=${BENCH_RUNS:-5}
BENCH_MODES=${BENCH_MODES:-json jsonl export verbose}
BENCH_INSTR_COUNT=${BENCH_INSTR_COUNT:-20000}
. "$here/structured-dump.sh"

dump=$(make_dump "$BENCH_COUNT")
small=""
[ "$BENCH_INSTR_COUNT" = 0 ] || small=$(make_dump "$BENCH_INSTR_COUNT")

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# A fixed boot time: the wall-clock modes need one, and asking the
# machine would add its cost to the first run only.
DMESG_TEST_BOOTIME=1700000000.000000
export DMESG_TEST_BOOTIME

# run NAME ARGS...: BENCH_RUNS timed runs into a drained pipe; one line
# "NAME bytes instructions small-bytes cpu-seconds..." on stdout.
run() {
	name=$1
	shift
	bytes=$("$KDMESG" -K "$dump" "$@" 2>/dev/null | wc -c)
	if [ -n "$small" ]; then
		line="$name $bytes $(sh "$here/instr.sh" "$KDMESG" -K "$small" "$@")"
		line="$line $("$KDMESG" -K "$small" "$@" 2>/dev/null | wc -c)"
	else
		line="$name $bytes 0 1"
	fi
	i=0
	while [ "$i" -lt "$BENCH_RUNS" ]; do
		/usr/bin/time -o "$tmp" -f "%U %S" "$KDMESG" -K "$dump" "$@" 2>/dev/null |
			cat >/dev/null
		line="$line $(awk '{ print $1 + $2 }' "$tmp")"
		i=$((i + 1))
	done
	echo "$line"
}

{
	run text
	for m in $BENCH_MODES; do
		run "$m" -o "$m"
	done
} | python3 -c '
import statistics, sys
strict = sys.argv[1] == "1"
rows = []
for line in sys.stdin:
    f = line.split()
    rows.append((f[0], int(f[1]), int(f[2]), int(f[3]), statistics.median(map(float, f[4:]))))
name0, bytes0, instr0, sbytes0, cpu0 = rows[0]
print("CPU time: median of the runs; instructions: the smaller dump")
print("%-8s %12s %7s %7s %7s %9s %9s %9s  goal (per byte <= 1)" %
      ("mode", "bytes", "bytes x", "cpu s", "cpu x", "cpu/byte", "instr x", "instr/B"))
missed = False
for name, b, instr, sb, cpu in rows:
    per = (cpu / b) / (cpu0 / bytes0)
    iper = (instr / sb) / (instr0 / sbytes0) if instr0 else 0
    verdict = ""
    if name != name0:
        verdict = "cpu %s" % ("ok" if per <= 1 else "MISSED")
        if instr0:
            verdict += ", instr %s" % ("ok" if iper <= 1 else "missed")
    missed |= name != name0 and per > 1
    print("%-8s %12d %7.2f %7.3f %7.2f %9.2f %9.2f %9.2f  %s" %
          (name, b, b / bytes0, cpu, cpu / cpu0, per,
           instr / instr0 if instr0 else 0, iper, verdict))
sys.exit(1 if missed and strict else 0)
' "$BENCH_STRICT"
