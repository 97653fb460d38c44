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


# compare FIX NAME ARGS...: both programs, same bytes and status, after
# the command FIX (":" for none) rewrote dmesg's standard output.  ARGS
# are shell words, evaluated in the input folder ("< file" works).
compare() {
	fix=$1 name=$2
	shift 2
	(eval "\"\$REF\" $*") >"$tmp/r.out" 2>"$tmp/r.err"
	rs=$?
	(eval "\"\$KDMESG\" $*") >"$tmp/k.out" 2>"$tmp/k.err"
	ks=$?
	$fix "$tmp/r.out"
	sed 's/^test_dmesg:/kdmesg:/' "$tmp/r.err" >"$tmp/r.err2"
	if [ $rs = $ks ] && cmp -s "$tmp/r.out" "$tmp/k.out" &&
	   cmp -s "$tmp/r.err2" "$tmp/k.err"; then
		ok 0 "$name: $*"
		return
	fi
	ok 1 "$name: $*"
	[ $rs = $ks ] || echo "# exit status: dmesg $rs, kdmesg $ks"
	diff -u "$tmp/r.out" "$tmp/k.out" | head -n 20 | cut -c1-200 | sed 's/^/# /'
	diff -u "$tmp/r.err2" "$tmp/k.err" | head -n 10 | cut -c1-200 | sed 's/^/# /'
}

# same NAME ARGS...: kdmesg prints dmesg's bytes.
same() {
	compare : "$@"
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

# utf8_fix FILE: dmesg -J copies bytes that are not valid UTF-8 (invalid
# JSON); kdmesg writes \ufffd for each such byte (kdmesg(1),
# COMPATIBILITY).  Rewrite dmesg's output that way, all else unchanged.
utf8_fix() {
	python3 -c '
import codecs, sys
codecs.register_error("ufffd", lambda e: ("\\ufffd" * (e.end - e.start), e.end))
d = open(sys.argv[1], "rb").read().decode("utf-8", "ufffd")
open(sys.argv[1], "wb").write(d.encode("utf-8"))' "$1"
}

# json_same NAME ARGS...: as same, after utf8_fix on dmesg's output.
json_same() {
	if ! command -v python3 >/dev/null 2>&1; then
		n=$((n + 1))
		echo "ok $n # SKIP python3 is not installed: $*"
		return
	fi
	name=$1
	shift
	compare utf8_fix "$name (invalid UTF-8 as \\ufffd)" "$@"
}

# --- -K -----------------------------------------------------------
for f in kmsg-nul.dump kmsg-blank-line.dump; do
	for o in "" -x -r -t -p "--time-format iso" -T -d -e "--noescape"; do
		same "${f%.dump}" -K $f $o
	done
	json_same "${f%.dump}" -K $f -J
	json_same "${f%.dump}" -K $f -J -x
done

# --- -F: empty continuation lines, bad priorities with and without
# decoding, long caller ids, facilities past 23 -----------------------
for o in "" -x -t "-x -t" -d -T "--time-format iso" "-l info" "-l 0,4,7" \
	 "-f kern" -k -u "-L=always" "-x -L=always"; do
	same syslog-edge -F syslog-edge.txt $o
	same syslog-malformed -F syslog-malformed.txt $o
done
json_same syslog-edge -F syslog-edge.txt -J
json_same syslog-edge -F syslog-edge.txt -J -x

# --- -F stamps with a minus sign: dmesg keeps seconds and microseconds
# apart ("-1.500000" is printed as read, -0.5 s for the deltas) -------
printf '%s\n' '<6>[   -0.500000] a' '<6>[   -1.500000] b' '<4>[   -1.000000] c' \
	'<6>[   -2.999999] d' '<6>[    1.000000] e' '<6>[-9223372036854.775808] f' \
	'<6>[   -0.000001] g' >neg-stamps.txt
for o in "" -x -d -T -e "-d -T" "--time-format iso" "--time-format reltime" \
	 "--time-format delta"; do
	same neg-stamps -F neg-stamps.txt $o
done
json_same neg-stamps -F neg-stamps.txt -J

# --- -K boundary values (the stamp INT64_MAX: no overflow, dmesg's dates)
for o in "" -x -d -T "-T -d" -e "--time-format iso" "-l 6,7" "-f kern,23" \
	 --since=@0 --until=@0 --since=@-5 --until=@-5 --until=@99999999999; do
	same kmsg-edge -K kmsg-edge.dump $o
done
json_same kmsg-edge -K kmsg-edge.dump -J

# --- -K on records with the kprint fields (issue 10): the extra dictionary
# lines change nothing dmesg prints, and -J is exactly dmesg's schema
# (no SUBSYSTEM, CODE_FILE ... members).  dmesg -K reads NUL-separated
# records, so the newline dump is converted first.
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import sys
out = b""
for line in open(sys.argv[1], "rb").read().splitlines(True):
    if out and not line.startswith(b" "):
        out += b"\0"
    out += line
open(sys.argv[2], "wb").write(out + b"\0")' kmsg-kprint.dump kmsg-kprint.nul
	for o in "" -x -r -T "-l warn+"; do
		same kmsg-kprint -K kmsg-kprint.nul $o
	done
	json_same kmsg-kprint -K kmsg-kprint.nul -J
	json_same kmsg-kprint -K kmsg-kprint.nul -J -x
fi

# --- terminal-colors.d: attribute names, a stop at an unknown name ----
scheme=$tmp/config/terminal-colors.d/dmesg.scheme
printf 'err blink\nwarn bold\ncrit halfbright\nalert reverse\nsegfault reset\ntime lightgray\nsubsys lightred\n' >"$scheme"
same scheme-attributes -K kmsg-nul.dump -L=always
same scheme-attributes -K kmsg-nul.dump -L=always -x -T
printf 'err bold\nwarn nosuchcolor\ncrit blue\n' >"$scheme"
same scheme-unknown-stops -K kmsg-nul.dump -L=always
rm -f "$scheme"

# --- --since/--until syntax ------------------------------------------
for t in @0 @-0 @+5 "'@ 5'" @-5 @-5.5 @1234567894.5 @18446744073710 \
	 +0 +10 -5 "'5 ago'" "'+5min 5'" +0min "'5 min ago'" @-1 @ @.5 @1e3; do
	same since-$t -K kmsg-nul.dump --since $t
	same until-$t -K kmsg-nul.dump --until $t
done

tap_done
