#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# follow.sh - -w/-W on the live /dev/kmsg: -W shows only records logged
# after it started, -w shows the buffer and then new records, Ctrl-C
# (SIGINT) ends a follow run with status 0 and a closed JSON array, and a
# reader that goes away (SIGPIPE/EPIPE) ends it quietly.  Marker records
# are written to /dev/kmsg, so this needs root; otherwise it is skipped.
# Prints TAP.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"

if ! { : >>/dev/kmsg && : </dev/kmsg; } 2>/dev/null; then
	echo "1..0 # SKIP /dev/kmsg is not readable and writable (needs root)"
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

tag="kdmesg-follow-test-$$"
mark() {	# log a user-space record with a unique text
	printf '<13>%s-%s\n' "$tag" "$1" >/dev/kmsg
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

# stop_follow: SIGINT the running kdmesg and collect its exit status.
stop_follow() {
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
	status=$?
	pid=
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
		grep -q -- "$tag-$2-" "$1" 2>/dev/null && return 0
	done
	return 1
}

mark before
"$KDMESG" -W >"$tmp/new" 2>"$tmp/new.err" &
pid=$!
mark_until "$tmp/new" after
ok $? "-W prints a record logged after it started"
sleep 0.3
stop_follow
ok "$status" "-W ends with status 0 on SIGINT"
! grep -q -- "$tag-before" "$tmp/new"
ok $? "-W does not print records logged before it started"
[ -z "$(grep -o -- "$tag-after-[0-9]*" "$tmp/new" | sort | uniq -d)" ]
ok $? "-W prints each new record once"
[ ! -s "$tmp/new.err" ]
ok $? "-W writes nothing on standard error"

"$KDMESG" -w -x >"$tmp/all" 2>"$tmp/all.err" &
pid=$!
wait_for "$tmp/all" "$tag-before"
ok $? "-w prints the records already in the buffer"
mark again
wait_for "$tmp/all" "user  :notice: .*$tag-again"
ok $? "-w -x prints a new record, decoded"
stop_follow
ok "$status" "-w ends with status 0 on SIGINT"

"$KDMESG" -w -J >"$tmp/json" 2>"$tmp/json.err" &
pid=$!
mark json
wait_for "$tmp/json" "$tag-json"
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
( "$KDMESG" -w 2>"$tmp/pipe.err"; echo $? >"$tmp/pipe.rc" ) | head -n 1 >/dev/null &
bg=$!
sleep 1
mark pipe
i=0
while [ ! -s "$tmp/pipe.rc" ] && [ $i -lt 50 ]; do
	sleep 0.2
	mark "pipe$i"
	i=$((i + 1))
done
wait "$bg"
[ "$(cat "$tmp/pipe.rc" 2>/dev/null)" = 0 ] && [ ! -s "$tmp/pipe.err" ]
ok $? "-w stops quietly with status 0 when its reader goes away"

tap_done
