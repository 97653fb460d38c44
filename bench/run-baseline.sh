#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run-baseline.sh - plain reading against an older kdmesg (issue 10:
# "keep today's speed").
#
# On the dumps of run.sh (gen-dump.py, BENCH_COUNT records in syslog and
# kmsg format), times `kdmesg -F` and `kdmesg -K` of KDMESG_BASE and of
# KDMESG in one hyperfine run, output into a drained pipe, and prints the
# CPU time (user + system) of each and the ratio new/old; then counts the
# instructions of both binaries (bench/instr.sh, valgrind) for
# `--version` (the cost of starting: the dynamic loader), and -F and -K
# on dumps of BENCH_INSTR_COUNT records, and their ratios.
#
# Environment:
#   KDMESG_BASE  the older kdmesg binary (required), e.g. built from
#                `git archive e27f566` (before issue 10)
#   KDMESG       kdmesg binary (default: src/kdmesg under the current directory)
#   BENCH_COUNT, BENCH_SEED, BENCH_DIR, BENCH_RUNS   as in run.sh
#   BENCH_INSTR_COUNT records of the dumps instructions are counted on
#                (default: 100000; 0: no counts)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
KDMESG=${KDMESG:-$(pwd)/src/kdmesg}
KDMESG_BASE=${KDMESG_BASE:-}
BENCH_COUNT=${BENCH_COUNT:-1000000}
BENCH_SEED=${BENCH_SEED:-20261203}
BENCH_DIR=${BENCH_DIR:-$(pwd)/bench-data}
BENCH_RUNS=${BENCH_RUNS:-10}
BENCH_INSTR_COUNT=${BENCH_INSTR_COUNT:-100000}
LC_ALL=C.UTF-8
export LC_ALL
unset LANGUAGE || :

die() {
	echo "run-baseline.sh: $*" >&2
	exit 2
}

[ -x "$KDMESG" ] || die "no kdmesg binary at $KDMESG (build first or set KDMESG)"
[ -n "$KDMESG_BASE" ] && [ -x "$KDMESG_BASE" ] || die "set KDMESG_BASE to the older kdmesg binary"
command -v hyperfine >/dev/null || die "hyperfine is needed (apt-get install hyperfine)"
[ "$BENCH_INSTR_COUNT" = 0 ] || command -v valgrind >/dev/null ||
	die "valgrind is needed for the instruction counts (or set BENCH_INSTR_COUNT=0)"

# dumps COUNT: the cached syslog and kmsg dumps of COUNT records (run.sh's names).
dumps() {
	s="$BENCH_DIR/dump-$1-$BENCH_SEED.syslog" k="$BENCH_DIR/dump-$1-$BENCH_SEED.kmsg"
	if [ ! -s "$s" ] || [ ! -s "$k" ]; then
		echo "generating $1 records (seed $BENCH_SEED) in $BENCH_DIR ..." >&2
		python3 "$here/gen-dump.py" --count "$1" --seed "$BENCH_SEED" "$s.tmp" "$k.tmp"
		mv "$s.tmp" "$s"
		mv "$k.tmp" "$k"
	fi
	echo "$s $k"
}

mkdir -p "$BENCH_DIR"
# shellcheck disable=SC2046
set -- $(dumps "$BENCH_COUNT")
syslog=$1 kmsg=$2

json=$(mktemp)
trap 'rm -f "$json"' EXIT
hyperfine -N --output=pipe -w 2 -r "$BENCH_RUNS" --export-json "$json" \
	-n old-F "$KDMESG_BASE -F $syslog" -n new-F "$KDMESG -F $syslog" \
	-n old-K "$KDMESG_BASE -K $kmsg" -n new-K "$KDMESG -K $kmsg" >&2

instr=""
if [ "$BENCH_INSTR_COUNT" != 0 ]; then
	# shellcheck disable=SC2046
	set -- $(dumps "$BENCH_INSTR_COUNT")
	echo "counting instructions on $BENCH_INSTR_COUNT records (valgrind) ..." >&2
	for b in "$KDMESG_BASE" "$KDMESG"; do
		instr="$instr $(sh "$here/instr.sh" "$b" --version)"
		instr="$instr $(sh "$here/instr.sh" "$b" -F "$1")"
		instr="$instr $(sh "$here/instr.sh" "$b" -K "$2")"
	done
fi

# shellcheck disable=SC2086
python3 - "$json" "$BENCH_COUNT" "$BENCH_INSTR_COUNT" $instr <<'PY'
import json, sys
res = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
def cpu(name):
    return res[name]["user"] + res[name]["system"]
print("CPU time, %s records, output into a pipe (mean of the runs)" % sys.argv[2])
print("%-12s %9s %9s %7s" % ("", "old ms", "new ms", "new/old"))
for m in ("F", "K"):
    o, n = cpu("old-" + m), cpu("new-" + m)
    print("%-12s %9.1f %9.1f %7.3f" % ("-" + m, o * 1000, n * 1000, n / o))
if len(sys.argv) > 4:
    v = list(map(int, sys.argv[4:10]))
    print("instructions, %s records (valgrind)" % sys.argv[3])
    print("%-12s %9s %9s %7s" % ("", "old M", "new M", "new/old"))
    for i, what in enumerate(("--version", "-F", "-K")):
        print("%-12s %9.2f %9.2f %7.3f" % (what, v[i] / 1e6, v[i + 3] / 1e6, v[i + 3] / v[i]))
PY
