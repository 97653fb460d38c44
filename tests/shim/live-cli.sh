#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# live-cli.sh - kdmesg's live readers end to end, under the LD_PRELOAD shim
# (kmsg-shim.so fakes /dev/kmsg and klogctl()): reading the device prints
# what -K prints for the same records, syslog(2) what -F prints, -w waits
# for appended records, an overrun is reported with its count,
# dmesg_restrict gives exit status 1 with a hint, and /dev/kmsg refused
# falls back to syslog(2).  Prints TAP.
set -u

: "${top_srcdir:?}" "${top_builddir:?}" "${KDMESG:?}"
fix=$top_srcdir/tests/fixtures
shim=$top_builddir/tests/shim/kmsg-shim.so
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kdmesg-live.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
	fi
}

# shim VAR=VALUE... -- ARGS: run kdmesg with the shim preloaded.
shim() {
	env LD_PRELOAD="$shim" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		KDMESG_SHIM_KMSG="$tmp/kmsg" KDMESG_SHIM_SYSLOG="$tmp/syslog" \
		KDMESG_SHIM_LOG="$tmp/log" "$@"
}

cp "$fix/kmsg-newline.dump" "$tmp/kmsg"
cp "$fix/syslog.txt" "$tmp/syslog"

"$KDMESG" -K "$fix/kmsg-newline.dump" >"$tmp/want" 2>&1
shim "$KDMESG" >"$tmp/got" 2>&1
cmp -s "$tmp/want" "$tmp/got"
ok $? "/dev/kmsg prints what -K prints for the same records"

"$KDMESG" -K "$fix/kmsg-newline.dump" -x -J >"$tmp/want" 2>&1
shim "$KDMESG" -x -J >"$tmp/got" 2>&1
cmp -s "$tmp/want" "$tmp/got"
ok $? "same for -x -J"

"$KDMESG" -F "$fix/syslog.txt" >"$tmp/want" 2>&1
shim "$KDMESG" -S >"$tmp/got" 2>&1
cmp -s "$tmp/want" "$tmp/got"
ok $? "-S prints what -F prints for the same buffer"

shim env KDMESG_SHIM_KMSG_OPEN_ERRNO=2 "$KDMESG" >"$tmp/got" 2>&1
cmp -s "$tmp/want" "$tmp/got"
ok $? "no /dev/kmsg: falls back to syslog(2)"

shim env KDMESG_SHIM_KMSG_OPEN_ERRNO=1 KDMESG_SHIM_SYSLOG_ERRNO=1 "$KDMESG" >"$tmp/got" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ ! -s "$tmp/got" ]
ok $? "dmesg_restrict: exit status 1, nothing on stdout"
grep -q "CAP_SYSLOG" "$tmp/err"
ok $? "dmesg_restrict: the error says what is needed"

# The fallback happens once: /dev/kmsg refused and syslog(2) failing for
# another reason still reports the /dev/kmsg error with the hint.
shim env KDMESG_SHIM_KMSG_OPEN_ERRNO=1 KDMESG_SHIM_SYSLOG_ERRNO=22 "$KDMESG" >"$tmp/got" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q "CAP_SYSLOG" "$tmp/err" && ! grep -q "Invalid argument" "$tmp/err"
ok $? "/dev/kmsg refused, syslog(2) EINVAL: the dmesg_restrict hint, not EINVAL"

# Records lost while reading: the seq gap after EPIPE is the count.
printf '6,1,1,-;a\n6,2,2,-;b\n#EPIPE\n6,7,3,-;c\n' >"$tmp/kmsg"
shim "$KDMESG" >"$tmp/got" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/got")" -eq 3 ]
ok $? "overrun: reading goes on after EPIPE"
grep -q "4 records lost" "$tmp/err"
ok $? "overrun: 4 lost records reported on stderr"

# -w: records appended while kdmesg waits are printed; the shim ends
# the process once nothing more comes.
printf '6,1,1,-;old\n' >"$tmp/kmsg"
(sleep 1; printf '6,2,2,-;appended\n' >>"$tmp/kmsg") &
shim env KDMESG_SHIM_AT_END=exit KDMESG_SHIM_WAIT_MS=3000 "$KDMESG" -w >"$tmp/got" 2>&1
wait
grep -q "appended" "$tmp/got" && grep -q "old" "$tmp/got"
ok $? "-w prints old records, then appended ones"

printf '6,1,1,-;old\n#CLEAR\n6,2,2,-;after clear\n' >"$tmp/kmsg"
shim "$KDMESG" >"$tmp/got" 2>&1
! grep -q "old" "$tmp/got" && grep -q "after clear" "$tmp/got"
ok $? "records before the last clear are not shown (SEEK_DATA)"

echo "1..$n"
