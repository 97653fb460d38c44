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

# mem CMD...: "anon file", the most anonymous memory (RssAnon: heap,
# stacks) and the most file-backed resident memory (RssFile: the journal
# pages libsystemd maps, the program and its libraries) seen while CMD
# runs, in KiB, sampled every 20 ms (max RSS, from the kernel, is exact).
mem() {
	rm -f "$DIR/mem.pid"
	sh -c 'echo $$ >"$0"; exec "$@"' "$DIR/mem.pid" "$@" | wc -c >/dev/null &
	wpid=$!
	while [ ! -s "$DIR/mem.pid" ]; do sleep 0.01; done
	p=$(cat "$DIR/mem.pid")
	ma=0
	mf=0
	while kill -0 "$p" 2>/dev/null; do
		# shellcheck disable=SC2046
		set -- $(awk '/^RssAnon:/ { a = $2 } /^RssFile:/ { f = $2 } END { print a + 0, f + 0 }' \
			"/proc/$p/status" 2>/dev/null || echo 0 0)
		[ "${1:-0}" -gt "$ma" ] && ma=$1
		[ "${2:-0}" -gt "$mf" ] && mf=$2
		sleep 0.02
	done
	wait "$wpid"
	echo "$ma $mf"
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
	# journal-remote starts a new file when one is full: more files than parts
	count=$(find "$d" -name '*.journal' | wc -l)
	j=$(best journalctl --no-pager -D "$d" _TRANSPORT=kernel -o short-monotonic)
	k=$(best "$KDMESG" --journal-directory "$d")
	s=$(best "$KDMESG" --journal-directory "$d" --stats)
	echo
	echo "$nf parts: $count journal files ($size MiB):"
	jm=$(mem journalctl --no-pager -D "$d" _TRANSPORT=kernel -o short-monotonic)
	km=$(mem "$KDMESG" --journal-directory "$d")
	sm=$(mem "$KDMESG" --journal-directory "$d" --stats 2>/dev/null)
	printf '  %-36s %7s %7s %9s %9s %9s %12s\n' command "cpu s" "wall s" "max RSS" "max anon" "max file" "bytes out"
	row() {
		printf '  %-36s %7s %7s %9s %9s %9s %12s\n' "$1" "$2" "$3" "$4" "$6" "$7" "$5"
	}
	# shellcheck disable=SC2086
	row "journalctl _TRANSPORT=kernel" $j $jm
	# shellcheck disable=SC2086
	row "kdmesg --journal-directory" $k $km
	# shellcheck disable=SC2086
	row "kdmesg --journal-directory --stats" $s $sm
	# shellcheck disable=SC2086
	awk -v j="$j" -v k="$k" -v s="$s" -v jm="$jm" -v km="$km" -v sm="$sm" 'BEGIN {
		split(j, J); split(k, K); split(s, S); split(jm, JM); split(km, KM); split(sm, SM)
		printf "  ratios (CPU): kdmesg/journalctl %.2fx (goal <= 1.0), --stats/journalctl %.2fx (goal <= 1.2)\n", K[1] / J[1], S[1] / J[1]
		printf "  max RSS (goal <= 32 MiB): kdmesg %.1f MiB, --stats %.1f MiB, journalctl %.1f MiB\n", K[3] / 1024, S[3] / 1024, J[3] / 1024
		printf "    of which anonymous: kdmesg %.1f MiB, --stats %.1f MiB, journalctl %.1f MiB\n", KM[1] / 1024, SM[1] / 1024, JM[1] / 1024 }'
done
