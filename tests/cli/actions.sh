#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# actions.sh - the syslog(2) side of kdmesg, driven through an LD_PRELOAD
# shim (tests/shim/kmsg-shim.so, shared with the reader tests) so no root is needed and the machine's
# kernel log is never cleared: -C, -c, -D, -E, -n and their failures, -S,
# the automatic fallback from /dev/kmsg to syslog(2), and the
# dmesg_restrict error.  Prints TAP.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-.}
shim=$builddir/tests/shim/kmsg-shim.so
fixtures=$srcdir/tests/fixtures

if [ ! -f "$shim" ]; then
	echo "1..0 # SKIP $shim not built"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

export TZ=GMT LC_ALL=C LANG=C LANGUAGE=
export DMESG_TEST_BOOTIME=1234567890.123456 KDMESG_TEST_CALLER_WIDTH=6
# A sanitizer runtime refuses to start behind a preloaded library.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
unset KDMESG_SHIM_SYSLOG_ERRNO KDMESG_SHIM_KMSG_OPEN_ERRNO KDMESG_SHIM_SYSLOG \
	KDMESG_SHIM_SYSLOG_SIZE KDMESG_SHIM_KMSG

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

# shim ENV... -- ARGS: run kdmesg under the shim; sets $status, fills
# $tmp/out, $tmp/err and $tmp/log (the klogctl calls).
shim() {
	: >"$tmp/log"
	env_args=
	while [ "$1" != "--" ]; do
		env_args="$env_args $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	env KDMESG_SHIM_LOG="$tmp/log" LD_PRELOAD="$shim" $env_args \
		"$KDMESG" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
}

expect() {	# expect STATUS LOG-TEXT STDERR-TEXT NAME
	if [ "$status" = "$1" ] &&
	   [ "$(cat "$tmp/log")" = "$2" ] &&
	   [ "$(cat "$tmp/err")" = "$3" ] &&
	   [ ! -s "$tmp/out" ]; then
		ok 0 "$4"
	else
		ok 1 "$4"
		echo "# status $status, log: $(tr '\n' '|' <"$tmp/log") stderr: $(cat "$tmp/err")"
	fi
}

shim -- -C
expect 0 "klogctl 5 0" "" "-C clears through SYSLOG_ACTION_CLEAR"
shim -- --clear
expect 0 "klogctl 5 0" "" "--clear"
shim -- -D
expect 0 "klogctl 6 0" "" "-D switches console logging off"
shim -- --console-on
expect 0 "klogctl 7 0" "" "--console-on switches it on"
shim -- -n 3
expect 0 "klogctl 8 3" "" "-n 3 sets console level 3"
shim -- -n emerg
expect 0 "klogctl 8 1" "" "-n emerg means level 1"
shim -- --console-level=DEBUG
expect 0 "klogctl 8 8" "" "--console-level=DEBUG means level 8"

shim KDMESG_SHIM_SYSLOG_ERRNO=1 -- -C
expect 1 "klogctl 5 0" "kdmesg: clear kernel buffer failed: Operation not permitted" \
	"-C without privilege fails with dmesg's message"
shim KDMESG_SHIM_SYSLOG_ERRNO=1 -- -E
expect 1 "klogctl 7 0" "kdmesg: klogctl failed: Operation not permitted" \
	"-E without privilege fails with dmesg's message"
shim KDMESG_SHIM_SYSLOG_ERRNO=1 -- -n 1
expect 1 "klogctl 8 1" "kdmesg: klogctl failed: Operation not permitted" \
	"-n without privilege fails with dmesg's message"

# Issue 19: an action on the live kernel never rides along with a file
# or with kdmesg's reading options.  Run under the shim, so a regression
# shows up as a klogctl call in the log instead of touching this machine.
refused() {	# refused NAME EXPECTED-STDERR ARGS...
	name=$1 want=$2
	shift 2
	shim KDMESG_SHIM_SYSLOG="$fixtures/syslog.txt" -- "$@"
	expect 1 "" "kdmesg: $want" "$name"
}
for a in -c --read-clear -C --clear -D --console-off -E --console-on; do
	case $a in
	-c|--read-clear) long=--read-clear ;;
	-C|--clear) long=--clear ;;
	-D|--console-off) long=--console-off ;;
	*) long=--console-on ;;
	esac
	refused "$a -F is refused before any klogctl" \
		"options $long and --file cannot be combined: $long acts on the live kernel, not on the file" \
		$a -F "$fixtures/syslog.txt"
	refused "-K - $a is refused before any klogctl" \
		"options $long and --kmsg-file cannot be combined: $long acts on the live kernel, not on the file" \
		-K - $a
done
refused "-K FILE -n 5 is refused before any klogctl" \
	"options --console-level and --kmsg-file cannot be combined: --console-level acts on the live kernel, not on the file" \
	-K "$fixtures/kmsg-kprint.dump" -n 5
refused "--journal -C is refused: the journal is not the live ring buffer" \
	"options --clear and --journal cannot be combined: --clear acts on the live kernel, not on the file" \
	--journal -C
refused "--journal-file F -n 3 is refused" \
	"options --console-level and --journal-file cannot be combined: --console-level acts on the live kernel, not on the file" \
	--journal-file /nonexistent -n 3
refused "--console-level=5 --file=FILE is refused" \
	"options --console-level and --file cannot be combined: --console-level acts on the live kernel, not on the file" \
	--console-level=5 --file="$fixtures/syslog.txt"
refused "-F - -c -o json: the file error comes first" \
	"options --read-clear and --file cannot be combined: --read-clear acts on the live kernel, not on the file" \
	-F - -c -o json
refused "--stats -n 10 is refused, pointing to --top" \
	"options --console-level and --stats cannot be combined: --console-level sets the console level; the number of call sites is --top N" \
	--stats -n 10
refused "-n 10 --top 10 is refused" \
	"options --console-level and --top cannot be combined: --console-level sets the console level; the number of call sites is --top N" \
	-n 10 --top 10
refused "-o json --top 3 -n 5: the pointer to --top, naming --top" \
	"options --console-level and --top cannot be combined: --console-level sets the console level; the number of call sites is --top N" \
	-o json --top 3 -n 5
refused "-o json -n 5 is refused: -n prints nothing" \
	"options --console-level and --output cannot be combined: --console-level changes the live kernel and prints no messages" \
	-o json -n 5
refused "-C --tui is refused" \
	"options --clear and --tui cannot be combined: --clear changes the live kernel and prints no messages" \
	-C --tui
shim KDMESG_SHIM_SYSLOG="$fixtures/syslog.txt" KDMESG_SHIM_KMSG_OPEN_ERRNO=2 -- -c -o json
[ "$status" = 0 ] && [ "$(tail -n 1 "$tmp/log")" = "klogctl 5 0" ] && grep -q '"dmesg"' "$tmp/out"
ok $? "-c -o json still reads the live buffer, then clears it"

# Reading through syslog(2) must give what -F gives for the same bytes.
(cd "$fixtures" && "$KDMESG" -F syslog.txt) >"$tmp/want" 2>&1
(cd "$fixtures" && "$KDMESG" -F syslog.txt -x) >"$tmp/want-x" 2>&1

shim KDMESG_SHIM_SYSLOG="$fixtures/syslog.txt" -- -S
cmp -s "$tmp/out" "$tmp/want" && [ "$status" = 0 ] && [ ! -s "$tmp/err" ] &&
	grep -q '^klogctl 3 ' "$tmp/log"
ok $? "-S reads SYSLOG_ACTION_READ_ALL and prints it as -F does"

shim KDMESG_SHIM_SYSLOG="$fixtures/syslog.txt" -- --syslog -x
cmp -s "$tmp/out" "$tmp/want-x" && [ "$status" = 0 ]
ok $? "--syslog -x decodes like -F -x"

shim KDMESG_SHIM_SYSLOG="$fixtures/syslog.txt" KDMESG_SHIM_KMSG_OPEN_ERRNO=2 --
cmp -s "$tmp/out" "$tmp/want" && [ "$status" = 0 ] && [ ! -s "$tmp/err" ] &&
	grep -q '^klogctl 3 ' "$tmp/log"
ok $? "without /dev/kmsg kdmesg falls back to syslog(2)"

(cd "$fixtures" && "$KDMESG" -F syslog-caller.txt -r) >"$tmp/want-r" 2>&1
shim KDMESG_SHIM_SYSLOG="$fixtures/syslog-caller.txt" -- -S -r
cmp -s "$tmp/out" "$tmp/want-r" && [ "$status" = 0 ] &&
	grep -q '^<4>\[    5\.123456\]\[  T412\] Call Trace:$' "$tmp/out"
ok $? "-S -r prints the syslog(2) buffer as it is (escaped), caller ids included"

shim KDMESG_SHIM_SYSLOG="$fixtures/syslog.txt" KDMESG_SHIM_KMSG_OPEN_ERRNO=2 -- -p
[ "$status" = 1 ] && [ "$(cat "$tmp/err")" = "kdmesg: only kmsg supports multi-line messages" ]
ok $? "-p after the syslog(2) fallback is refused as dmesg does"

shim KDMESG_SHIM_SYSLOG="$fixtures/syslog.txt" KDMESG_SHIM_KMSG_OPEN_ERRNO=2 -- -r -l err
[ "$status" = 1 ] && [ "$(cat "$tmp/err")" = "kdmesg: --raw can be used together with --level or --facility only when reading messages from /dev/kmsg" ]
ok $? "-r -l after the syslog(2) fallback is refused as dmesg does"

shim KDMESG_SHIM_SYSLOG="$fixtures/syslog.txt" KDMESG_SHIM_KMSG_OPEN_ERRNO=2 -- -c
cmp -s "$tmp/out" "$tmp/want" && [ "$status" = 0 ] &&
	[ "$(tail -n 1 "$tmp/log")" = "klogctl 5 0" ]
ok $? "-c prints the buffer, then clears it"

shim KDMESG_SHIM_SYSLOG="$fixtures/syslog.txt" -- -s 1000 -S
[ "$status" = 0 ] && grep -q '^klogctl 3 4104$' "$tmp/log"
ok $? "-s 1000 asks syslog(2) for 4096 (+8) bytes, as dmesg does"

# Without a size from the kernel the buffer starts at 16392 bytes and grows
# fourfold while it comes back full (a 40000-byte log needs 65568).
i=0
while [ $i -lt 400 ]; do
	cat "$fixtures/syslog.txt"
	i=$((i + 1))
done | head -c 40000 >"$tmp/big.txt"
"$KDMESG" -F "$tmp/big.txt" >"$tmp/big-want"
shim KDMESG_SHIM_SYSLOG="$tmp/big.txt" KDMESG_SHIM_SYSLOG_SIZE=0 -- -S
[ "$status" = 0 ] && cmp -s "$tmp/out" "$tmp/big-want" &&
	[ "$(tr '\n' ' ' <"$tmp/log")" = "klogctl 10 0 klogctl 3 16392 klogctl 3 65568 " ]
ok $? "without SIZE_BUFFER, -S grows its buffer 16392 -> 65568 and reads it all"

shim KDMESG_SHIM_KMSG_OPEN_ERRNO=1 KDMESG_SHIM_SYSLOG_ERRNO=1 --
printf '%s\n%s\n' \
	"kdmesg: read kernel buffer failed: Operation not permitted" \
	"kdmesg: reading the kernel log needs root or the CAP_SYSLOG capability (kernel.dmesg_restrict is set)" \
	>"$tmp/want-err"
[ "$status" = 1 ] && cmp -s "$tmp/err" "$tmp/want-err" && [ ! -s "$tmp/out" ]
ok $? "dmesg_restrict: dmesg's error, then what to do, exit 1"

shim KDMESG_SHIM_KMSG_OPEN_ERRNO=1 KDMESG_SHIM_SYSLOG_ERRNO=1 -- -c
[ "$status" = 1 ] && cmp -s "$tmp/err" "$tmp/want-err" &&
	! grep -q '^klogctl 5 ' "$tmp/log"
ok $? "-c does not clear what it could not read"

tap_done
