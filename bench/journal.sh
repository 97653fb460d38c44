#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# journal.sh - kdmesg on a collected journal against journalctl on the same
# files (issue 21): kernel entries among four times as many user-space
# entries, of three machines with two boots each, written by
# systemd-journal-remote from export streams of tests/journal/gen-export.py.
#
# Times, output into a pipe that is drained (wc -c), best of BENCH_RUNS:
#
#   journalctl -D D _TRANSPORT=kernel -o short-monotonic
#                       the reference: the same records, one line each
#                       (journalctl -k would imply -b: one boot only)
#   kdmesg --journal-directory D
#   kdmesg --journal-directory D --stats
#
# and prints CPU time (user + system), wall-clock time and peak RSS of
# each, and the ratios kdmesg/journalctl.  Goals: kdmesg <= 1.0x, --stats
# <= 1.2x, kdmesg's peak memory <= 32 MiB.  The same entries are then
# split into more files (BENCH_JOURNAL_FILES, default "3 12 48"), to show
# how the cost grows with the number of journal files.
#
# Environment (all optional):
#   KDMESG               kdmesg binary (default: src/kdmesg here)
#   BENCH_JOURNAL_KERNEL kernel entries in all (default: 1000000)
#   BENCH_JOURNAL_USER   user-space entries per kernel entry (default: 4)
#   BENCH_JOURNAL_FILES  file counts to try, multiples of 3 (default: "3 12 48")
#   BENCH_DIR            where the journals are cached (default: ./bench-data)
#   BENCH_RUNS           timed runs per command (default: 3)
#   BENCH_JOURNAL_PREPARE=1  only build the journals (they take long), then exit
set -eu

here=$(cd "$(dirname "$0")" && pwd)
KDMESG=${KDMESG:-$(pwd)/src/kdmesg}
KERNEL=${BENCH_JOURNAL_KERNEL:-1000000}
USER=${BENCH_JOURNAL_USER:-4}
FILES=${BENCH_JOURNAL_FILES:-3 12 48}
DIR=${BENCH_DIR:-$(pwd)/bench-data}
RUNS=${BENCH_RUNS:-3}
REMOTE=/lib/systemd/systemd-journal-remote
[ -x "$REMOTE" ] || REMOTE=/usr/lib/systemd/systemd-journal-remote
[ -x "$REMOTE" ] || { echo "journal.sh: systemd-journal-remote is not installed" >&2; exit 1; }

base=$DIR/journal-$KERNEL-$USER
mkdir -p "$base"
per=$((KERNEL / 6))	# per machine and boot

# The export streams, one per machine, generated once.
for m in 0 1 2; do
	if [ ! -s "$base/m$m.export" ]; then
		echo "journal.sh: generating machine $m ($per kernel entries per boot)" >&2
		python3 "$here/../tests/journal/gen-export.py" --kernel "$per" --user "$USER" \
			--boots 2 --machine "$m" --seed 21 >"$base/m$m.export.tmp"
		mv "$base/m$m.export.tmp" "$base/m$m.export"
	fi
done

# journals N: the same entries in N files (N/3 consecutive parts a machine).
journals() {
	d=$base/files-$1
	[ -f "$d/.done" ] && return 0
	rm -rf "$d" && mkdir -p "$d"
	parts=$(($1 / 3))
	for m in 0 1 2; do
		entries=$(grep -c '^$' "$base/m$m.export")
		awk -v parts="$parts" -v n="$entries" -v out="$d/m$m-" '
			{ f = out int(e * parts / n) ".export"; print > f }
			/^$/ { e++ }' "$base/m$m.export"
		for p in "$d"/m$m-*.export; do
			"$REMOTE" -o "${p%.export}.journal" - <"$p" >/dev/null 2>&1
			rm -f "$p"
		done
	done
	touch "$d/.done"
}

# best CMD...: the best of RUNS as "cpu wall rss_kib bytes".
best() {
	b=""
	i=0
	while [ $i -lt "$RUNS" ]; do
		/usr/bin/time -f '%U %S %e %M' -o "$DIR/time.out" "$@" | wc -c >"$DIR/bytes.out"
		r=$(awk -v bytes="$(cat "$DIR/bytes.out")" '{ printf "%.2f %.2f %d %d", $1 + $2, $3, $4, bytes }' "$DIR/time.out")
		if [ -z "$b" ] || awk -v a="$r" -v b="$b" 'BEGIN { split(a, x); split(b, y); exit !(x[1] < y[1]) }'; then
			b=$r
		fi
		i=$((i + 1))
	done
	echo "$b"
}

# anon CMD...: the most anonymous memory (RssAnon, KiB) seen while CMD
# runs, sampled every 20 ms: the heap and stacks, without the journal
# files' pages that libsystemd maps and that max RSS counts too.
anon() {
	rm -f "$DIR/anon.pid"
	sh -c 'echo $$ >"$0"; exec "$@"' "$DIR/anon.pid" "$@" | wc -c >/dev/null &
	wpid=$!
	while [ ! -s "$DIR/anon.pid" ]; do sleep 0.01; done
	p=$(cat "$DIR/anon.pid")
	max=0
	while kill -0 "$p" 2>/dev/null; do
		a=$(awk '/^RssAnon:/ { print $2 }' "/proc/$p/status" 2>/dev/null || echo 0)
		[ -n "$a" ] && [ "$a" -gt "$max" ] && max=$a
		sleep 0.02
	done
	wait "$wpid"
	echo "$max"
}

if [ "${BENCH_JOURNAL_PREPARE:-}" = 1 ]; then
	for nf in $FILES; do journals "$nf"; done
	exit 0
fi

echo "kdmesg on a journal: $KERNEL kernel entries among $((KERNEL * USER)) user-space entries, 3 machines x 2 boots"
for nf in $FILES; do
	journals "$nf"
	d=$base/files-$nf
	size=$(du -sm "$d" | cut -f1)
	j=$(best journalctl --no-pager -D "$d" _TRANSPORT=kernel -o short-monotonic)
	k=$(best "$KDMESG" --journal-directory "$d")
	s=$(best "$KDMESG" --journal-directory "$d" --stats)
	echo
	echo "$nf journal files ($size MiB):"
	ja=$(anon journalctl --no-pager -D "$d" _TRANSPORT=kernel -o short-monotonic)
	ka=$(anon "$KDMESG" --journal-directory "$d")
	sa=$(anon "$KDMESG" --journal-directory "$d" --stats 2>/dev/null)
	printf '  %-36s %8s %8s %10s %10s %12s\n' command "cpu s" "wall s" "max RSS" "max anon" "bytes out"
	set -- $j; printf '  %-36s %8s %8s %10s %10s %12s\n' "journalctl _TRANSPORT=kernel" "$1" "$2" "$3" "$ja" "$4"; jc=$1
	set -- $k; printf '  %-36s %8s %8s %10s %10s %12s\n' "kdmesg --journal-directory" "$1" "$2" "$3" "$ka" "$4"; kc=$1; krss=$3
	set -- $s; printf '  %-36s %8s %8s %10s %10s %12s\n' "kdmesg --journal-directory --stats" "$1" "$2" "$3" "$sa" "$4"; sc=$1; srss=$3
	awk -v j="$jc" -v k="$kc" -v s="$sc" -v kr="$krss" -v sr="$srss" -v ka="$ka" -v sa="$sa" 'BEGIN {
		printf "  ratios (CPU): kdmesg/journalctl %.2fx (goal <= 1.0), --stats/journalctl %.2fx (goal <= 1.2)\n", k / j, s / j
		printf "  peak memory (goal <= 32 MiB): max RSS kdmesg %.1f MiB, --stats %.1f MiB (mapped journal pages included);\n", kr / 1024, sr / 1024
		printf "    anonymous (heap): kdmesg %.1f MiB, --stats %.1f MiB\n", ka / 1024, sa / 1024 }'
done
