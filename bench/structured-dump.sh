# SPDX-License-Identifier: GPL-2.0-or-later
# structured-dump.sh - sourced by run-structured.sh and run-outputs.sh:
# their common settings, the checks of what they run, and the cached
# structured dump (gen-dump.py --structured: CODE_FILE, CODE_LINE,
# CODE_FUNC, MODULE, FORMAT, ARGn on every record).
#
# Before sourcing it, a script sets `here` (this folder), `bench_name`
# (its name, for messages) and its own defaults of BENCH_RUNS and
# BENCH_INSTR_COUNT.  After it: KDMESG, BENCH_COUNT, BENCH_SEED,
# BENCH_DIR, BENCH_STRICT and LC_ALL=C.UTF-8 are set, /usr/bin/time,
# python3 and (unless BENCH_INSTR_COUNT=0) valgrind are there, BENCH_DIR
# exists, and die MESSAGE and make_dump COUNT are defined.

KDMESG=${KDMESG:-$(pwd)/src/kdmesg}
BENCH_COUNT=${BENCH_COUNT:-1000000}
BENCH_SEED=${BENCH_SEED:-20261203}
BENCH_DIR=${BENCH_DIR:-$(pwd)/bench-data}
BENCH_STRICT=${BENCH_STRICT:-0}
LC_ALL=C.UTF-8
export LC_ALL

die() {
	echo "$bench_name: $*" >&2
	exit 2
}

[ -x "$KDMESG" ] || die "no kdmesg binary at $KDMESG (build first or set KDMESG)"
command -v python3 >/dev/null || die "python3 is needed to generate the dump"
[ -x /usr/bin/time ] || die "/usr/bin/time is needed (apt-get install time)"
[ "$BENCH_INSTR_COUNT" = 0 ] || command -v valgrind >/dev/null ||
	die "valgrind is needed for the instruction counts (or set BENCH_INSTR_COUNT=0)"

# make_dump COUNT: the cached structured dump of COUNT records, on stdout.
make_dump() {
	d="$BENCH_DIR/structured-$1-$BENCH_SEED.kmsg"
	if [ ! -s "$d" ]; then
		echo "generating $1 structured records (seed $BENCH_SEED) in $BENCH_DIR ..." >&2
		python3 "$here/gen-dump.py" --count "$1" --seed "$BENCH_SEED" \
			--structured /dev/null "$d.tmp"
		mv "$d.tmp" "$d"
	fi
	echo "$d"
}

mkdir -p "$BENCH_DIR"
