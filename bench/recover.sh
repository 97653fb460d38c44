#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# recover.sh - what recovering call sites of a stock dump costs (issue 18).
#
# The index: `kdmesg-po index` of the Linux 6.12 tree when one is found
# (LINUX_SRC, default ~/.cache/kdmesg-kernel/linux-6.12-unpacked, or
# /usr/src/linux-source-6.12), else BENCH_FORMATS synthetic formats
# (recover-gen synth).  From it, indexes of its first 50,000, 100,000 and
# 200,000 sites (recover-gen subset), and a stock /dev/kmsg dump of
# BENCH_COUNT records printed by BENCH_DISTINCT formats of the first
# 50,000 sites (recover-gen dump: every format is in every index), with
# dev_printk()/netdev_printk() prefixes.  Then, output into a drained
# pipe as a user reading it sees it, -o jsonl (so that the fields are
# written):
#
#   kdmesg -K DUMP -o jsonl --recover=never        plain reading (the reference)
#   kdmesg -K DUMP -o jsonl --formats IDX          recovery, for each index size
#
# and prints CPU time (user + system) and wall-clock time of each, the
# recovery's records per second of CPU (records / (recovery - reference)),
# the ratio to plain reading, peak resident memory (/usr/bin/time), and
# the time to open and check each index (recover-gen load, best of 5).
#
# Environment (all optional):
#   KDMESG, KDMESG_PO, GEN   the programs (default: under the current directory)
#   LINUX_SRC        a Linux source tree to index
#   BENCH_COUNT      records (default: 1000000)
#   BENCH_DISTINCT   formats the dump's records come from (default: 5000)
#   BENCH_FORMATS    synthetic formats without a tree (default: 200000)
#   BENCH_SEED       generator seed (default: 20261205)
#   BENCH_DIR        where inputs are cached (default: ./bench-data)
#   BENCH_RUNS       timed runs per command (default: 3)
set -eu

KDMESG=${KDMESG:-$(pwd)/src/kdmesg}
KDMESG_PO=${KDMESG_PO:-$(pwd)/src/kdmesg-po}
GEN=${GEN:-$(pwd)/bench/recover-gen}
BENCH_COUNT=${BENCH_COUNT:-1000000}
BENCH_DISTINCT=${BENCH_DISTINCT:-5000}
BENCH_FORMATS=${BENCH_FORMATS:-200000}
BENCH_SEED=${BENCH_SEED:-20261205}
BENCH_DIR=${BENCH_DIR:-$(pwd)/bench-data}
BENCH_RUNS=${BENCH_RUNS:-3}
mkdir -p "$BENCH_DIR"
d=$BENCH_DIR

src=${LINUX_SRC:-}
if [ -z "$src" ]; then
	for c in "$HOME/.cache/kdmesg-kernel/linux-6.12-unpacked" /usr/src/linux-source-6.12; do
		[ -f "$c/Makefile" ] && src=$c && break
	done
fi
if [ -n "$src" ]; then
	full=$d/recover-linux.kdfi
	# an index of another version (an older kdmesg-po) is made again
	[ -s "$full" ] && ! "$GEN" load "$full" >/dev/null 2>&1 && rm -f "$full"
	if [ ! -s "$full" ]; then
		echo "indexing $src (a few minutes)..." >&2
		/usr/bin/time -f "index: %e s wall, %M KiB peak" "$KDMESG_PO" index -o "$full" "$src"
	fi
	what="the Linux source tree $src"
else
	full=$d/recover-synth-$BENCH_FORMATS.kdfi
	[ -s "$full" ] || "$GEN" synth "$BENCH_FORMATS" "$BENCH_SEED" "$full"
	what="$BENCH_FORMATS synthetic formats (no kernel tree found)"
fi
for n in 50000 100000 200000; do
	[ -s "$d/recover-$n.kdfi" ] && [ "$d/recover-$n.kdfi" -nt "$full" ] ||
		"$GEN" subset "$full" "$n" "$d/recover-$n.kdfi"
done
dump=$d/recover-stock-$BENCH_COUNT-$BENCH_DISTINCT.kmsg
[ -s "$dump" ] && [ "$dump" -nt "$d/recover-50000.kdfi" ] ||
	"$GEN" dump "$d/recover-50000.kdfi" "$BENCH_COUNT" "$BENCH_SEED" "$BENCH_DISTINCT" >"$dump"

echo "index from: $what"
echo "dump: $BENCH_COUNT records of $BENCH_DISTINCT formats, $(wc -c <"$dump") bytes"
echo

# run LABEL ARGS...: best CPU and wall time of BENCH_RUNS runs, and peak memory.
run() {
	label=$1
	shift
	best_cpu="" best_wall="" mem=0 i=0
	while [ "$i" -lt "$BENCH_RUNS" ]; do
		/usr/bin/time -o "$d/time.out" -f "%U %S %e %M" "$KDMESG" "$@" 2>/dev/null | cat >/dev/null
		set -- "$@"
		read -r u s e m <"$d/time.out"
		cpu=$(echo "$u + $s" | bc)
		if [ -z "$best_cpu" ] || [ "$(echo "$cpu < $best_cpu" | bc)" = 1 ]; then
			best_cpu=$cpu
		fi
		if [ -z "$best_wall" ] || [ "$(echo "$e < $best_wall" | bc)" = 1 ]; then
			best_wall=$e
		fi
		[ "$m" -gt "$mem" ] && mem=$m
		i=$((i + 1))
	done
	eval "cpu_$label=$best_cpu wall_$label=$best_wall mem_$label=$mem"
}

run plain -K "$dump" -o jsonl --recover=never
printf '%-34s %8s %8s %10s %12s %8s\n' command "cpu s" "wall s" "peak KiB" "recovery/s" "x plain"
printf '%-34s %8s %8s %10s %12s %8s\n' "plain reading (-o jsonl)" "$cpu_plain" "$wall_plain" "$mem_plain" - 1.00
for n in 50000 100000 200000; do
	run "r$n" -K "$dump" -o jsonl --formats "$d/recover-$n.kdfi"
	eval "c=\$cpu_r$n w=\$wall_r$n m=\$mem_r$n"
	rate=$(echo "scale=0; $BENCH_COUNT / ($c - $cpu_plain)" | bc 2>/dev/null || echo "-")
	ratio=$(echo "scale=2; $c / $cpu_plain" | bc)
	printf '%-34s %8s %8s %10s %12s %8s\n' "recovery, $n-site index" "$c" "$w" "$m" "$rate" "$ratio"
done
echo
"$KDMESG" -K "$dump" -o jsonl --formats "$d/recover-200000.kdfi" -v 2>&1 >/dev/null |
	grep -v 'module facts' || true
echo
for n in 50000 100000 200000; do
	best=""
	for i in 1 2 3 4 5; do
		t=$("$GEN" load "$d/recover-$n.kdfi" | cut -d' ' -f1)
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then
			best=$t
		fi
	done
	echo "open and check the $n-site index ($(wc -c <"$d/recover-$n.kdfi") bytes): $best s"
done
