#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# hostile-files.sh - the hostile inputs of issue 19: a FIFO or a directory
# named linux-kmsg.mo (never waited on, named in the warning); a -F log
# with a NUL byte early or late (read either way, as dmesg 2.42 reads it);
# a file of NUL bytes (binary, not "empty"); dmesg's usage errors for -p
# and -r -l before any file error; a -K line without a header of 8 KB,
# 70 KB and 1 MB (one rule, one message); -o json without records (a
# valid document; -J as dmesg: nothing); kdmesg-po -n that is not a
# count; and the leftover-bytes bug of dmesg 2.42 that kdmesg does not
# reproduce.  The comparisons with util-linux 2.42's own dmesg (see
# tests/cli/reference.sh) are skipped when it is absent.  Prints TAP.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=$(cd "${top_srcdir:-$(dirname "$0")/../..}" && pwd)
KDMESG_PO=${KDMESG_PO:-$(dirname "$KDMESG")/kdmesg-po}
REF=${KDMESG_REFERENCE_DMESG:-$srcdir/../shared/reference/util-linux-2.42/test_dmesg}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export TZ=GMT LC_ALL=C LANG=C LANGUAGE=
export DMESG_TEST_BOOTIME=1234567890.123456
export KDMESG_MODULES_DIR=/nonexistent
unset NO_COLOR PAGER KDMESG_TEST_CALLER_WIDTH

. "$srcdir/tests/cli/tap.sh"
cd "$tmp" || exit 1

# kd ARGS...: run kdmesg; $st, out, err.
kd() {
	"$KDMESG" "$@" >out 2>err
	st=$?
}

# ref_same NAME ARGS...: kdmesg prints dmesg 2.42's bytes and status
# (skipped without the reference).
ref_same() {
	name=$1
	shift
	if [ ! -x "$REF" ]; then
		ok 0 "# SKIP $name: no util-linux 2.42 reference dmesg"
		return
	fi
	"$REF" "$@" >r.out 2>r.err
	rs=$?
	kd "$@"
	sed 's/^test_dmesg:/kdmesg:/' r.err >r.err2
	[ $rs = $st ] && cmp -s r.out out && cmp -s r.err2 err
	ok $? "$name: as dmesg 2.42"
	[ $rs = $st ] || echo "# exit status: dmesg $rs, kdmesg $st"
}

# --- catalogues that are not regular files ---------------------------
printf '6,1,1000,-;hello\n FORMAT=hello\n' >t.kmsg
mkdir -p fifo/xx/LC_MESSAGES dir/xx/LC_MESSAGES/linux-kmsg.mo
mkfifo fifo/xx/LC_MESSAGES/linux-kmsg.mo
LANGUAGE=xx LC_ALL=C.UTF-8 timeout 30 "$KDMESG" -K t.kmsg --translate=always \
	--catalog-dir fifo >out 2>err
st=$?
[ $st = 0 ] && grep -qx '\[    0.001000\] hello' out &&
	grep -qxF "kdmesg: ignoring the catalogue fifo/xx/LC_MESSAGES/linux-kmsg.mo: not a regular file" err
ok $? "a FIFO named linux-kmsg.mo is not waited on, and named in the warning"
[ $st = 0 ] || echo "# exit status $st: $(cat err)"
LANGUAGE=xx LC_ALL=C.UTF-8 timeout 30 "$KDMESG" -K t.kmsg --translate=always \
	--catalog-dir dir >out 2>err
[ $? = 0 ] &&
	grep -qxF "kdmesg: ignoring the catalogue dir/xx/LC_MESSAGES/linux-kmsg.mo: Is a directory" err
ok $? "a directory named linux-kmsg.mo: 'Is a directory', named"

# --- NUL bytes in a -F log -------------------------------------------
python3 -c '
def log(n, at):
    lines = [b"<6>[%5d.%06d] line %d of the log" % (i, i, i) for i in range(n)]
    lines[at] = lines[at][:15] + b"\0" + lines[at][15:]
    return b"\n".join(lines) + b"\n"
open("nul-early.txt", "wb").write(log(2000, 20))
open("nul-late.txt", "wb").write(log(4000, 3000))
open("nuls.bin", "wb").write(b"\0" * 5000)
'
kd -F nul-early.txt
[ $st = 0 ] && [ "$(wc -l <out)" = 2000 ] &&
	grep -qF '20.00002\x000] line 20 of the log' out
ok $? "-F: one NUL byte in the first 64 KiB of a 2,000-line log: read, the byte shown escaped"
kd -F nul-late.txt
[ $st = 0 ] && grep -qF '3000.00300\x000] line 3000 of the log' out
ok $? "-F: the same byte after 64 KiB: the same treatment"
ref_same "-F log with an early NUL" -F nul-early.txt
ref_same "-F log with a late NUL" -F nul-late.txt
for o in -F -K; do
	kd $o nuls.bin
	[ $st = 1 ] && [ "$(cat err)" = "kdmesg: nuls.bin: not a kernel log (binary or unrecognised data)" ]
	ok $? "$o: a file of NUL bytes is not a kernel log (not 'file is empty')"
done
kd -F "$srcdir/tests/fixtures/binary.elf"
[ $st = 1 ]
ok $? "-F: a binary file is still refused"

# --- dmesg's usage errors come before the file's ----------------------
: >empty.txt
kd -F empty.txt -p
[ $st = 1 ] && [ "$(cat err)" = "kdmesg: only kmsg supports multi-line messages" ]
ok $? "-F empty -p: dmesg's usage error, not the file error"
kd -F empty.txt -r -l err
[ $st = 1 ] && [ "$(cat err)" = "kdmesg: --raw can be used together with --level or --facility only when reading messages from /dev/kmsg" ]
ok $? "-F empty -r -l: dmesg's usage error, not the file error"
"$KDMESG" -F - -r -f kern <"$srcdir/tests/fixtures/syslog.txt" >out 2>err
[ $? = 1 ] && [ ! -s out ]
ok $? "-F - -r -f: refused before standard input is printed raw"
ref_same "-F empty -p" -F empty.txt -p
ref_same "-F empty -r -l err" -F empty.txt -r -l err
ref_same "-F missing -p" -F no-such-file -p

# --- a -K line without a header, at any length -----------------------
printf '6,1,1000,-;before\n' >ok1
printf '6,3,3000,-;after\n' >ok3
for len in 8000 70000 1000000; do
	head -c $len /dev/zero | tr '\0' a >line
	echo >>line
	kd -K line
	[ $st = 1 ] && [ "$(cat err)" = "kdmesg: line: not a kernel log (binary or unrecognised data)" ]
	ok $? "-K: a first line of $len bytes without a header: not a kernel log"
	cat ok1 line ok3 >mid
	kd -K mid
	[ $st = 0 ] && [ "$(cat err)" = "kdmesg: skipped 1 malformed record" ] &&
		[ "$(cat out)" = "$(printf '[    0.001000] before\n[    0.003000] after')" ]
	ok $? "-K: a later line of $len bytes without a header: one malformed record"
done
head -c 1100000 /dev/zero | tr '\0' a >nonl
kd -K nonl
[ $st = 1 ] && [ "$(cat err)" = "kdmesg: nonl: not a kernel log (binary or unrecognised data)" ]
ok $? "-K: 1.1 MB without a header or a final newline: not a kernel log (was: truncated)"
cat ok1 nonl >mid
kd -K mid
[ $st = 0 ] && [ "$(cat err)" = "kdmesg: skipped 1 malformed record" ]
ok $? "-K: the same after a record: malformed (was: truncated)"
{ cat ok1; printf '6,2,2000,-;'; head -c 1100000 /dev/zero | tr '\0' b; echo; cat ok3; } >long
kd -K long
[ $st = 0 ] && [ "$(cat err)" = "kdmesg: 1 record was truncated" ] && grep -q 'after$' out
ok $? "-K: a record with a header cut by the 1 MiB window is truncated"

# --- -o json without records ----------------------------------------
kd -K "$srcdir/tests/fixtures/kmsg-nul.dump" -o json --grep 'matches no record'
[ $st = 0 ] && python3 -c 'import json, sys; assert json.load(open("out")) == {"dmesg": []}'
ok $? "-o json without records: a valid document with an empty array"
kd -K "$srcdir/tests/fixtures/kmsg-nul.dump" -J --grep 'matches no record'
[ $st = 0 ] && [ ! -s out ]
ok $? "-J without records: nothing, as dmesg -J"
printf '' | "$KDMESG" -K - -o json >out 2>err
st=$?
[ $st = 1 ] && [ ! -s out ]
ok $? "-o json of empty input: the file error, exit 1, no document"

# --- kdmesg-po -n: a count or an error -------------------------------
dump=$srcdir/tests/fixtures/kmsg-kprint-small.dump
"$KDMESG_PO" extract --dump "$dump" >all.pot 2>/dev/null
"$KDMESG_PO" extract --dump "$dump" -n 0 >zero.pot 2>/dev/null
[ $? = 0 ] && cmp -s all.pot zero.pot && [ "$(grep -c '^msgid ' all.pot)" -gt 2 ]
ok $? "kdmesg-po -n 0 writes every entry"
"$KDMESG_PO" extract --dump "$dump" -n 1 >one.pot 2>/dev/null
[ $? = 0 ] && [ "$(grep -c '^msgid ' one.pot)" = 2 ]
ok $? "kdmesg-po -n 1 writes one entry (and the header)"
for v in -1 99999999999999999999 +3 x 1x ''; do
	"$KDMESG_PO" extract --dump "$dump" -n "$v" >out 2>err
	[ $? = 2 ] && [ ! -s out ] && grep -qxF "kdmesg-po: invalid number: $v" err
	ok $? "kdmesg-po -n '$v' is refused (exit 2)"
done

# --- dmesg 2.42 prints bytes left over from the previous record -------
printf '6,100,1,-,caller=T1;abcdefgh\n\0006,2,2,-;x\n\000' >leftover.kmsg
kd -K leftover.kmsg -t
[ $st = 0 ] && [ "$(cat out)" = "$(printf '[    T1] abcdefgh\nx')" ]
ok $? "-K -t: a 1-byte text after a longer record with a caller id is its own"
if [ -x "$REF" ]; then
	"$REF" -K leftover.kmsg -t >r.out 2>&1
	grep -qF '[T1;abcdefgh] T1;abcdefgh' r.out && ! cmp -s r.out out
	ok $? "dmesg 2.42 prints the previous record's bytes there (COMPATIBILITY)"
else
	ok 0 "# SKIP no util-linux 2.42 reference dmesg"
fi

tap_done
