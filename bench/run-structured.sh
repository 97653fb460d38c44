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
# (/usr/bin/time).  The goals of the issue: the filters <= 1.1x plain
# reading, --stats <= 2x and <= 32 MiB.
#
# Environment (all optional):
#   KDMESG       kdmesg binary (default: src/kdmesg under the current directory)
#   BENCH_COUNT  records (default: 1000000)
#   BENCH_SEED   generator seed (default: 20261203)
#   BENCH_DIR    where the dump is cached (default: ./bench-data)
#   BENCH_RUNS   timed runs per command (default: 10)
#   BENCH_STRICT when 1, exit 1 if a goal is missed
set -eu

here=$(cd "$(dirname "$0")" && pwd)
KDMESG=${KDMESG:-$(pwd)/src/kdmesg}
BENCH_COUNT=${BENCH_COUNT:-1000000}
BENCH_SEED=${BENCH_SEED:-20261203}
BENCH_DIR=${BENCH_DIR:-$(pwd)/bench-data}
BENCH_RUNS=${BENCH_RUNS:-10}
BENCH_STRICT=${BENCH_STRICT:-0}
LC_ALL=C.UTF-8
export LC_ALL

die() {
	echo "run-structured.sh: $*" >&2
	exit 2
}

[ -x "$KDMESG" ] || die "no kdmesg binary at $KDMESG (build first or set KDMESG)"
command -v python3 >/dev/null || die "python3 is needed to generate the dump"
command -v hyperfine >/dev/null || die "hyperfine is needed (apt-get install hyperfine)"
[ -x /usr/bin/time ] || die "/usr/bin/time is needed for the peak memory (apt-get install time)"

mkdir -p "$BENCH_DIR"
dump="$BENCH_DIR/structured-$BENCH_COUNT-$BENCH_SEED.kmsg"
if [ ! -s "$dump" ]; then
	echo "generating $BENCH_COUNT structured records (seed $BENCH_SEED) in $BENCH_DIR ..." >&2
	python3 "$here/gen-dump.py" --count "$BENCH_COUNT" --seed "$BENCH_SEED" \
		--structured /dev/null "$dump.tmp"
	mv "$dump.tmp" "$dump"
fi

json=$(mktemp)
trap 'rm -f "$json"' EXIT
hyperfine -N --output=pipe -w 2 -r "$BENCH_RUNS" --export-json "$json" \
	-n plain "$KDMESG -K $dump" \
	-n code-file "$KDMESG -K $dump --code-file drivers/net" \
	-n function "$KDMESG -K $dump --function e1000e_*" \
	-n stats "$KDMESG -K $dump --stats" >&2

peak=$(/usr/bin/time -f %M "$KDMESG" -K "$dump" --stats 2>&1 >/dev/null | tail -1)

python3 - "$json" "$peak" "$BENCH_STRICT" <<'PY'
import json, sys
res = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
peak_kib, strict = int(sys.argv[2]), sys.argv[3] == "1"
def cpu(r):
    return r["user"] + r["system"]
plain = res["plain"]
print("%-10s %10s %10s %8s %8s  goal" % ("command", "wall ms", "cpu ms", "wall x", "cpu x"))
missed = False
for name, goal in (("plain", None), ("code-file", 1.1), ("function", 1.1), ("stats", 2.0)):
    r = res[name]
    xw, xc = r["mean"] / plain["mean"], cpu(r) / cpu(plain)
    verdict = "" if goal is None else ("<= %.1f %s" % (goal, "ok" if xc <= goal else "MISSED"))
    missed |= goal is not None and xc > goal
    print("%-10s %10.1f %10.1f %8.2f %8.2f  %s" % (name, r["mean"] * 1000, cpu(r) * 1000, xw, xc, verdict))
ok = peak_kib <= 32 * 1024
missed |= not ok
print("stats peak RSS: %.1f MiB (goal <= 32 MiB: %s)" % (peak_kib / 1024, "ok" if ok else "MISSED"))
sys.exit(1 if missed and strict else 0)
PY
