#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# recover-same.sh - whether two builds of kdmesg recover the same (issue
# 18's speed work): a change to the matcher or the recovery stage must not
# change one byte of the output.  Compares, with cmp, `-o jsonl` and the
# counts of -v of BEFORE and AFTER on
#   the bench dump (bench/recover.sh) with its 50,000- and 200,000-site indexes,
#   tests/fixtures/kmsg-debian-6.12.dump with the index of the whole tree,
#   tests/fixtures/kmsg-stock-recover.dump with that index and with one of
#   tests/fixtures/ksrc-recover.
#
#   bench/recover-same.sh BEFORE AFTER
#
# Run bench/recover.sh first (it makes the dump and the indexes).
# Environment: BENCH_DIR (default ./bench-data), KDMESG_PO (default
# ./src/kdmesg-po), top_srcdir (default: this script's parent), BENCH_COUNT
# and BENCH_DISTINCT as for recover.sh.  Exit status 0 when all are the same.
set -u

before=$1
after=$2
d=${BENCH_DIR:-$(pwd)/bench-data}
top=${top_srcdir:-$(dirname "$0")/..}
KDMESG_PO=${KDMESG_PO:-$(pwd)/src/kdmesg-po}
dump=$d/recover-stock-${BENCH_COUNT:-1000000}-${BENCH_DISTINCT:-5000}.kmsg
fx=$top/tests/fixtures
bad=0

[ -s "$d/recover-ksrc.kdfi" ] ||
	"$KDMESG_PO" index -o "$d/recover-ksrc.kdfi" "$fx/ksrc-recover" >/dev/null 2>&1 || exit 2

# same LABEL ARGS...: cmp of both builds' output and of their counts.
same() {
	label=$1
	shift
	if cmp <("$before" "$@" -v 2>"$d/same-before.err") <("$after" "$@" -v 2>"$d/same-after.err") &&
		cmp "$d/same-before.err" "$d/same-after.err" && grep -q '^kdmesg: recovered' "$d/same-after.err"; then
		echo "same: $label"
	else
		echo "DIFFERENT: $label"
		bad=1
	fi
}

for n in 50000 200000; do
	same "bench dump, $n-site index" -K "$dump" -o jsonl --formats "$d/recover-$n.kdfi"
done
same "kmsg-debian-6.12.dump, whole tree" -K "$fx/kmsg-debian-6.12.dump" -o jsonl \
	--formats "$d/recover-linux.kdfi"
same "kmsg-stock-recover.dump, whole tree" -K "$fx/kmsg-stock-recover.dump" -o jsonl \
	--formats "$d/recover-linux.kdfi"
same "kmsg-stock-recover.dump, ksrc-recover" -K "$fx/kmsg-stock-recover.dump" -o jsonl \
	--formats "$d/recover-ksrc.kdfi"
exit $bad
