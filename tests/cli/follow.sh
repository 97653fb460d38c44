#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# follow.sh - -w/-W on a live /dev/kmsg: -W shows only records logged
# after it started, -w shows the buffer and then new records, Ctrl-C
# (SIGINT) ends a follow run with status 0 and a closed JSON array, a
# reader that goes away (SIGPIPE/EPIPE) ends it quietly, and a burst of
# overruns gives a few "records lost" lines, not one per overrun.
#
# The device is the LD_PRELOAD shim's (tests/shim/kmsg-shim.c): records
# are "logged" by appending them to a file, so the test needs no root and
# never writes into the machine's real kernel log.  Prints TAP.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}" "${top_builddir:?}"
shim=$top_builddir/tests/shim/kmsg-shim.so
if [ ! -f "$shim" ]; then
	echo "1..0 # SKIP the /dev/kmsg shim $shim is not built"
	exit 0
fi

tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
export LC_ALL=C TZ=GMT

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

# kdmesg runs under the shim (LD_PRELOAD given per command, so that a
# background run's $! is kdmesg itself); a blocked read gives up every
# 100 ms (EINTR), so a SIGINT is seen at once.
export KDMESG_SHIM_KMSG="$tmp/kmsg" KDMESG_SHIM_WAIT_MS=100
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

seq=0
mark() {	# log a user-space record (user.notice) with a unique text
	seq=$((seq + 1))
	printf '13,%d,%d,-;kdmesg-follow-test-%s\n' "$seq" "$((seq * 1000))" "$1" >>"$tmp/kmsg"
}

# wait_for FILE TEXT: up to ~10 s for TEXT to show up in FILE.
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# mark_until FILE NAME: log NAME-1, NAME-2, ... every 0.2 s until one of
# them shows up in FILE (up to ~10 s).  A follower that is slow to start
# (sanitizers, a loaded machine) misses the first ones; none may show twice.
mark_until() {
	i=0
	while [ $i -lt 50 ]; do
		i=$((i + 1))
		mark "$2-$i"
		sleep 0.2
		grep -q -- "test-$2-" "$1" 2>/dev/null && return 0
	done
	return 1
}

# stop_follow: SIGINT the running kdmesg and collect its exit status.
stop_follow() {
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
	status=$?
	pid=
}

: >"$tmp/kmsg"
mark before
LD_PRELOAD="$shim" "$KDMESG" -W >"$tmp/new" 2>"$tmp/new.err" &
pid=$!
mark_until "$tmp/new" after
ok $? "-W prints a record logged after it started"
sleep 0.3
stop_follow
ok "$status" "-W ends with status 0 on SIGINT"
! grep -q -- "test-before" "$tmp/new"
ok $? "-W does not print records logged before it started"
[ -z "$(grep -o -- "test-after-[0-9]*" "$tmp/new" | sort | uniq -d)" ]
ok $? "-W prints each new record once"
[ ! -s "$tmp/new.err" ]
ok $? "-W writes nothing on standard error"

LD_PRELOAD="$shim" "$KDMESG" -w -x >"$tmp/all" 2>"$tmp/all.err" &
pid=$!
wait_for "$tmp/all" "test-before"
ok $? "-w prints the records already in the buffer"
mark again
wait_for "$tmp/all" "user  :notice: .*test-again"
ok $? "-w -x prints a new record, decoded"
stop_follow
ok "$status" "-w ends with status 0 on SIGINT"

LD_PRELOAD="$shim" "$KDMESG" -w -J >"$tmp/json" 2>"$tmp/json.err" &
pid=$!
mark json
wait_for "$tmp/json" "test-json"
ok $? "-w -J prints new records as they come"
stop_follow
[ "$status" = 0 ] && [ "$(tail -n 2 "$tmp/json" | tr -d ' \n')" = "]}" ]
ok $? "-w -J closes the JSON array when interrupted"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/json" 2>/dev/null
	ok $? "-w -J output is valid JSON after SIGINT"
fi

# A reader that exits: the next write fails with EPIPE and kdmesg stops
# quietly with status 0 (SIGPIPE is not allowed to kill it mid-line).
( LD_PRELOAD="$shim" "$KDMESG" -w 2>"$tmp/pipe.err"; echo $? >"$tmp/pipe.rc" ) | head -n 1 >/dev/null &
bg=$!
i=0
while [ ! -s "$tmp/pipe.rc" ] && [ $i -lt 50 ]; do
	sleep 0.2
	mark "pipe$i"
	i=$((i + 1))
done
wait "$bg"
[ "$(cat "$tmp/pipe.rc" 2>/dev/null)" = 0 ] && [ ! -s "$tmp/pipe.err" ]
ok $? "-w stops quietly with status 0 when its reader goes away"

# A burst of 200 overruns, each losing 2 records: a "lost" line at most
# once a second (the shim rereads its file per read, so under sanitizers
# the burst takes seconds) and the total, not a line per overrun.
: >"$tmp/kmsg"
s=1
printf '6,%d,1,-;first\n' $s >>"$tmp/kmsg"
i=0
while [ $i -lt 200 ]; do
	s=$((s + 3))
	printf '#EPIPE\n6,%d,%d,-;after overrun %d\n' $s $((s * 10)) $i
	i=$((i + 1))
done >>"$tmp/kmsg"
t0=$(date +%s)
LD_PRELOAD="$shim" "$KDMESG" >"$tmp/burst" 2>"$tmp/burst.err"
rc=$?
secs=$(($(date +%s) - t0))
[ $rc = 0 ] && [ "$(wc -l <"$tmp/burst")" = 201 ]
ok $? "an overrun burst: every record that was not lost is printed"
lines=$(grep -c "lost" "$tmp/burst.err")
[ "$lines" -le $((secs + 3)) ] && grep -q "^kdmesg: 400 records lost in all$" "$tmp/burst.err"
ok $? "an overrun burst: $lines lines in ${secs}s on stderr, ending with the total of 400"
[ "$(sed -n 's/^kdmesg: \([0-9]*\) records\{0,1\} lost (.*/\1/p' "$tmp/burst.err" |
     awk '{ s += $1 } END { print s }')" = 400 ]
ok $? "an overrun burst: the lines add up to the total"
sed 's/^/# /' "$tmp/burst.err"

tap_done
