#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# follow-file.sh - -w/-W on a saved log, as `tail -F` follows a file:
# appended records are printed as they come, a truncated file is read
# again from its start and a file replaced under its name (rotation by
# rename) is followed into the new file, each with a note on standard
# error; -W skips what the file held; `-w -K -` on a pipe prints each
# record as it arrives and ends with the writer; --stats -w refreshes its
# table on a terminal (driven in tmux when it is installed) and says why
# it cannot otherwise.  Nothing waits a fixed time for kdmesg: every
# check polls its output.  Prints TAP.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/cli/tap.sh"
. "$srcdir/tests/cli/reap.sh"

tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	[ -S "$tmp/tmux.sock" ] && tmux -S "$tmp/tmux.sock" kill-server 2>/dev/null
	reap_viewer "$tmp/stats.pid"
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
export LC_ALL=C TZ=GMT
cd "$tmp" || exit 1

# wait_for FILE REGEX: up to ~20 s for REGEX to show up in FILE.
wait_for() {
	i=0
	while [ $i -lt 200 ]; do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "# waited for $2 in $1:"
	sed 's/^/#   /' "$1" 2>/dev/null
	return 1
}

stop() {
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
	status=$?
	pid=
}

printf '6,1,1000,-;first\n' >f.kmsg
"$KDMESG" -w -K f.kmsg >out 2>err &
pid=$!
wait_for out "first"
ok $? "-w -K FILE prints what the file holds"
printf '6,2,2000,-;appended\n' >>f.kmsg
wait_for out "appended"
ok $? "-w -K FILE prints a record appended to it"
: >f.kmsg
wait_for err "^kdmesg: f.kmsg: file truncated; reading it again from its start$"
ok $? "truncation: a note on standard error"
printf '6,3,3000,-;after truncation\n' >>f.kmsg
wait_for out "after truncation"
ok $? "truncation: the file is read again from its start"
printf '6,4,4000,-;last of the old file\n' >>f.kmsg
wait_for out "last of the old file"
mv f.kmsg f.kmsg.1
printf '6,5,5000,-;first of the new file\n' >f.kmsg
wait_for out "first of the new file"
ok $? "rotation by rename: the new file is followed from its start"
grep -q "^kdmesg: f.kmsg: file replaced; following the new file from its start$" err
ok $? "rotation: a note on standard error"
printf '6,6,6000,-;more in the new file\n' >>f.kmsg
wait_for out "more in the new file"
ok $? "the new file is followed on"
stop
[ "$status" = 0 ] && [ "$(wc -l <out)" = 6 ] && [ "$(wc -l <err)" = 2 ]
ok $? "SIGINT ends it with status 0; every record once, two notes"

printf '<6>[    1.000000] old line\n' >f.txt
"$KDMESG" -W -F f.txt >out 2>err &
pid=$!
# -W shows nothing at start: wait until it is reading (a new line shows).
i=0
while [ $i -lt 200 ] && ! grep -q "new line" out; do
	printf '<6>[    2.%06d] new line\n' $i >>f.txt
	sleep 0.1
	i=$((i + 1))
done
stop
grep -q "new line" out && ! grep -q "old line" out
ok $? "-W -F FILE prints only what was appended after it started"

# A pipe: each record as it arrives, while the writer is still there;
# the end of the pipe ends kdmesg with status 0.
mkfifo fifo
"$KDMESG" -w -K - <fifo >out 2>err &
pid=$!
exec 3>fifo
printf '6,1,1000,-;through the pipe\n' >&3
wait_for out "through the pipe"
ok $? "-w -K -: a record is printed while the writer still writes"
printf '6,2,2000,-;second through the pipe\n' >&3
wait_for out "second through the pipe"
ok $? "-w -K -: and the next"
exec 3>&-
wait "$pid"
status=$?
pid=
[ "$status" = 0 ] && [ ! -s err ]
ok $? "-w -K -: the writer closing the pipe ends kdmesg with status 0"

"$KDMESG" -w --stats -K f.kmsg >out 2>err </dev/null
[ $? = 1 ] && grep -q "^kdmesg: --stats with --follow redraws its table on a terminal, and standard output is not one" err
ok $? "--stats -w to a pipe: an error that says why"

if command -v tmux >/dev/null 2>&1; then
	printf '6,1,1000,-;one\n' >s.kmsg
	tmux -S tmux.sock -f /dev/null new-session -d -x 100 -y 20 \
		"cd '$tmp' && sh -c 'echo \$\$ >stats.pid; exec env LC_ALL=C TZ=GMT \"$KDMESG\" -w --stats -K s.kmsg'; sleep 60"
	scr=
	poll_screen() {
		i=0
		while [ $i -lt 200 ]; do
			scr=$(tmux -S tmux.sock capture-pane -p)
			printf '%s\n' "$scr" | grep -q -- "$1" && return 0
			sleep 0.1
			i=$((i + 1))
		done
		printf '%s\n' "$scr" | sed 's/^/#  |/'
		return 1
	}
	poll_screen '^ *1 100.0% .*"one"$'
	ok $? "--stats -w on a terminal: the table"
	printf '6,2,2000,-;two\n6,3,3000,-;two\n' >>s.kmsg
	poll_screen '^ *2  66.7% .*"two"$'
	ok $? "--stats -w: the table is redrawn as records come"
	[ "$(printf '%s\n' "$scr" | grep -c "COUNT  SHARE")" = 1 ]
	ok $? "--stats -w: redrawn in place, not appended"
else
	echo "# tmux is not installed: --stats -w on a terminal not driven"
fi

tap_done
