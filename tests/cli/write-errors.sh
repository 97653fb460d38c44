#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# write-errors.sh - a full disk is an error (exit 1, "write error" on
# standard error) for every kind of output, --help and --version included;
# a reader that goes away early is not (exit 0, nothing on standard
# error).  Prints TAP.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
fixtures=$srcdir/tests/fixtures

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LC_ALL=C TZ=GMT DMESG_TEST_BOOTIME=1234567890.123456

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

for args in "--version" "--help" "-K kmsg-nul.dump" "-F syslog.txt -r" \
	    "-K kmsg-nul.dump -J" "-K kmsg-nul.dump -o export"; do
	if [ ! -w /dev/full ]; then
		# Skipped one by one: the checks must not vanish unseen.
		n=$((n + 1))
		echo "ok $n # SKIP /dev/full is not available: kdmesg $args into a full disk"
		continue
	fi
	# shellcheck disable=SC2086
	(cd "$fixtures" && "$KDMESG" $args) >/dev/full 2>"$tmp/err"
	status=$?
	[ "$status" = 1 ] &&
		[ "$(cat "$tmp/err")" = "kdmesg: write error: No space left on device" ]
	ok $? "kdmesg $args into a full disk fails with 'write error'"
done

# Inputs far larger than a pipe's buffer, so writing must hit EPIPE.
i=0
while [ $i -lt 300 ]; do
	cat "$fixtures/kmsg-nul.dump" >>"$tmp/big.kmsg"
	cat "$fixtures/syslog.txt" >>"$tmp/big.syslog"
	i=$((i + 1))
done
for args in "-K big.kmsg" "-F big.syslog -r" "-K big.kmsg -o jsonl" "-K big.kmsg -J"; do
	# shellcheck disable=SC2086
	( cd "$tmp" && "$KDMESG" $args 2>"$tmp/err"; echo $? >"$tmp/rc" ) | head -c 10 >/dev/null
	[ "$(cat "$tmp/rc")" = 0 ] && [ ! -s "$tmp/err" ]
	ok $? "kdmesg $args into a pipe closed early ends quietly with status 0"
done

tap_done
