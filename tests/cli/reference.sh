#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# reference.sh - kdmesg and util-linux 2.42's own dmesg (test_dmesg, built
# from the v2.42 tag; see ../shared/reference/util-linux-2.42/README.md)
# must print the same standard output, the same standard error (program
# name aside) and exit with the same status, on the fixtures and on
# crafted inputs, for each case below.  Prints TAP; SKIPs when the
# reference binary is absent.  Differences kept on purpose are listed in
# kdmesg(1), COMPATIBILITY, and covered by golden tests instead.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
REF=${KDMESG_REFERENCE_DMESG:-$srcdir/../shared/reference/util-linux-2.42/test_dmesg}

if [ ! -x "$REF" ]; then
	echo "1..0 # SKIP no util-linux 2.42 reference dmesg at $REF"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/config/terminal-colors.d" "$tmp/in"
export TZ=GMT LC_ALL=C LANG=C LANGUAGE=
export DMESG_TEST_BOOTIME=1234567890.123456
export XDG_CONFIG_HOME="$tmp/config" HOME="$tmp"
unset NO_COLOR PAGER LESS TERMINAL_COLORS_DEBUG KDMESG_TEST_CALLER_WIDTH
export TERM=dumb

. "$srcdir/tests/cli/tap.sh"

cp "$srcdir"/tests/fixtures/*.dump "$srcdir"/tests/fixtures/*.txt "$tmp/in/"
cd "$tmp/in" || exit 1

# Crafted inputs (printf octal escapes: \0 is a record separator of -K).
printf '6,1,1,-;a\n\0006,2,2,-;b\n\n\000' >nul-extra-newline.dump
printf '<6>[    1.000000] first\n\n<6>[    2.000000] next\n' >syslog-empty-cont.txt

# same NAME ARGS...: both programs, same bytes and status.  ARGS are
# shell words, evaluated in the input folder ("< file" works).
same() {
	name=$1
	shift
	(eval "\"\$REF\" $*") >"$tmp/r.out" 2>"$tmp/r.err"
	rs=$?
	(eval "\"\$KDMESG\" $*") >"$tmp/k.out" 2>"$tmp/k.err"
	ks=$?
	sed 's/^test_dmesg:/kdmesg:/' "$tmp/r.err" >"$tmp/r.err2"
	if [ $rs = $ks ] && cmp -s "$tmp/r.out" "$tmp/k.out" &&
	   cmp -s "$tmp/r.err2" "$tmp/k.err"; then
		ok 0 "$name: $*"
		return
	fi
	ok 1 "$name: $*"
	[ $rs = $ks ] || echo "# exit status: dmesg $rs, kdmesg $ks"
	diff -u "$tmp/r.out" "$tmp/k.out" | head -n 20 | sed 's/^/# /'
	diff -u "$tmp/r.err2" "$tmp/k.err" | head -n 10 | sed 's/^/# /'
}

# --- mutually exclusive options: both names, in the order given -------
same excl-raw-delta -r -d
same excl-delta-raw --show-delta --raw
same excl-clear-read-clear -C -c
same excl-read-clear-clear -c -C
same excl-console -D -E
same excl-console-level-clear -n 3 --clear
same excl-read-clear-raw -c -r
same excl-human-raw -H -r
same excl-color-raw -L -r
same excl-syslog-follow -S -w
same excl-file-kmsg-file -F syslog.txt -K kmsg-nul.dump

tap_done
