#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh - time kdmesg against util-linux dmesg and cat on one large dump.
#
# Generates (once, cached) a deterministic dump of BENCH_COUNT records with
# gen-dump.py in both syslog format and kmsg format, then times, with all
# output going to /dev/null:
#
#   cat SYSLOG          the floor: reading and writing the bytes
#   dmesg -F SYSLOG     the installed util-linux dmesg
#   kdmesg -F SYSLOG    the same input through kdmesg
#   cat KMSG            the floor for the kmsg dump
#   kdmesg -K KMSG      kdmesg's /dev/kmsg-format reader (records with
#                       dictionary lines; Debian 12's dmesg has no -K)
#
# and prints the ratios kdmesg/dmesg and kdmesg/cat.  The issue's goal is
# kdmesg no slower than dmesg and within 3x of cat.
#
# Environment (all optional):
#   KDMESG       kdmesg binary   (default: src/kdmesg under the current
#                                 directory, i.e. the build directory)
#   DMESG        dmesg binary    (default: dmesg from $PATH)
#   BENCH_COUNT  records         (default: 1000000)
#   BENCH_SEED   generator seed  (default: 20261203)
#   BENCH_DIR    where the dumps are cached (default: ./bench-data)
#   BENCH_RUNS   timed runs per command (default: 10)
#   BENCH_OUTPUT null (default) writes to /dev/null; pipe writes into a
#                pipe that is drained, which stops a program (cat) from
#                taking shortcuts when its output is /dev/null
#   BENCH_STRICT when 1, exit 1 if a goal is missed
set -eu

here=$(cd "$(dirname "$0")" && pwd)
KDMESG=${KDMESG:-$(pwd)/src/kdmesg}
DMESG=${DMESG:-$(command -v dmesg || echo /usr/bin/dmesg)}
BENCH_COUNT=${BENCH_COUNT:-1000000}
BENCH_SEED=${BENCH_SEED:-20261203}
BENCH_DIR=${BENCH_DIR:-$(pwd)/bench-data}
BENCH_RUNS=${BENCH_RUNS:-10}
BENCH_STRICT=${BENCH_STRICT:-0}
BENCH_OUTPUT=${BENCH_OUTPUT:-null}
case $BENCH_OUTPUT in
null) sink="/dev/null" ;;
pipe) sink="a drained pipe" ;;
*) echo "run.sh: BENCH_OUTPUT must be null or pipe" >&2; exit 2 ;;
esac

# Same locale for every program: C.UTF-8 is what Debian always has and
# makes both dmesg and kdmesg print valid UTF-8 as is.
LC_ALL=C.UTF-8
export LC_ALL
unset LANGUAGE || :

die() {
	echo "run.sh: $*" >&2
	exit 2
}

[ -x "$KDMESG" ] || die "no kdmesg binary at $KDMESG (build first or set KDMESG)"
[ -x "$DMESG" ] || die "no dmesg binary at $DMESG (set DMESG)"
command -v python3 >/dev/null || die "python3 is needed to generate the dump"

mkdir -p "$BENCH_DIR"
syslog="$BENCH_DIR/dump-$BENCH_COUNT-$BENCH_SEED.syslog"
kmsg="$BENCH_DIR/dump-$BENCH_COUNT-$BENCH_SEED.kmsg"
if [ ! -s "$syslog" ] || [ ! -s "$kmsg" ]; then
	echo "generating $BENCH_COUNT records (seed $BENCH_SEED) in $BENCH_DIR ..." >&2
	python3 "$here/gen-dump.py" --count "$BENCH_COUNT" --seed "$BENCH_SEED" \
		"$syslog.tmp" "$kmsg.tmp"
	mv "$syslog.tmp" "$syslog"
	mv "$kmsg.tmp" "$kmsg"
fi

# Make sure every program really reads the file: a tool that fails fast
# would otherwise look very quick.
"$DMESG" -F "$syslog" >/dev/null || die "$DMESG -F $syslog failed"
"$KDMESG" -F "$syslog" >/dev/null || die "$KDMESG -F $syslog failed"
"$KDMESG" -K "$kmsg" >/dev/null || die "$KDMESG -K $kmsg failed"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# time_cmd NAME COMMAND: mean wall-clock seconds of COMMAND into $tmp/NAME.
if command -v hyperfine >/dev/null; then
	timer=$(hyperfine --version)
	time_cmd() {
		hyperfine -N --style none --warmup 2 --runs "$BENCH_RUNS" \
			--output "$BENCH_OUTPUT" --export-json "$tmp/$1.json" "$2" \
			>/dev/null 2>"$tmp/hyperfine.err" || {
			cat "$tmp/hyperfine.err" >&2
			die "hyperfine failed on: $2"
		}
		python3 -c 'import json,sys; print("%.6f" % json.load(open(sys.argv[1]))["results"][0]["mean"])' \
			"$tmp/$1.json" >"$tmp/$1"
	}
else
	timer="date +%s.%N loop"
	run_once() {
		# shellcheck disable=SC2086
		if [ "$BENCH_OUTPUT" = pipe ]; then $1 | cat >/dev/null; else $1 >/dev/null; fi
	}
	time_cmd() {
		run_once "$2"
		start=$(date +%s.%N)
		i=0
		while [ "$i" -lt "$BENCH_RUNS" ]; do
			run_once "$2"
			i=$((i + 1))
		done
		end=$(date +%s.%N)
		echo "$start $end $BENCH_RUNS" | awk '{ printf "%.6f\n", ($2 - $1) / $3 }' >"$tmp/$1"
	}
fi

time_cmd cat_f "cat $syslog"
time_cmd dmesg_f "$DMESG -F $syslog"
time_cmd kdmesg_f "$KDMESG -F $syslog"
time_cmd cat_k "cat $kmsg"
time_cmd kdmesg_k "$KDMESG -K $kmsg"

t() { cat "$tmp/$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

r_dmesg=$(ratio "$(t kdmesg_f)" "$(t dmesg_f)")
r_cat=$(ratio "$(t kdmesg_f)" "$(t cat_f)")
r_cat_k=$(ratio "$(t kdmesg_k)" "$(t cat_k)")
r_dmesg_cat=$(ratio "$(t dmesg_f)" "$(t cat_f)")

printf 'records: %s (seed %s); syslog dump %s bytes, kmsg dump %s bytes\n' \
	"$BENCH_COUNT" "$BENCH_SEED" "$(wc -c <"$syslog")" "$(wc -c <"$kmsg")"
printf 'timer: %s, %s runs each, output to %s, LC_ALL=%s\n' "$timer" "$BENCH_RUNS" "$sink" "$LC_ALL"
printf '%-22s %10s s\n' \
	"cat (syslog dump)" "$(t cat_f)" \
	"dmesg -F" "$(t dmesg_f)" \
	"kdmesg -F" "$(t kdmesg_f)" \
	"cat (kmsg dump)" "$(t cat_k)" \
	"kdmesg -K" "$(t kdmesg_k)"
printf 'kdmesg -F / dmesg -F   %s  (goal <= 1)\n' "$r_dmesg"
printf 'kdmesg -F / cat        %s  (goal <= 3)\n' "$r_cat"
printf 'kdmesg -K / cat        %s  (goal <= 3)\n' "$r_cat_k"
printf 'dmesg -F / cat         %s  (for reference)\n' "$r_dmesg_cat"

missed=$(awk -v d="$r_dmesg" -v c="$r_cat" -v k="$r_cat_k" \
	'BEGIN { m = ""; if (d > 1) m = m " dmesg"; if (c > 3) m = m " cat(-F)"; if (k > 3) m = m " cat(-K)"; print m }')
if [ -n "$missed" ]; then
	echo "goal missed:$missed"
	[ "$BENCH_STRICT" = 1 ] && exit 1
else
	echo "goals met"
fi
exit 0
