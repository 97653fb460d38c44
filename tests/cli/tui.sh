#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tui.sh - `kdmesg --tui` driven in a real terminal, as tmux's own
# regress/ tests do: the viewer runs in a detached tmux session of a fixed
# size (its own server socket), keys go in with send-keys, screens come
# out with capture-pane and are compared with golden captures in
# tests/expected/tui/ (or searched for what a step must show).  Covered:
# opening a fixture at its end, search, jumps, filters and the filter
# panel, the detail pane, the help screen, following a growing file and a
# FIFO, the log on standard input, pause, resize, q and SIGTERM restoring
# the terminal, translation (T), and a
# standard output that is not a terminal.  Skipped without tmux.
#
#   tests/cli/tui.sh [--update]    (--update rewrites the golden captures)
#
# Pinned: LC_ALL=C.UTF-8 (the fixture has UTF-8 text), TERM=screen,
# TZ=GMT, DMESG_TEST_BOOTIME, a caller-id width of 6, NO_COLOR unset, no
# modules for libkmod (KDMESG_MODULES_DIR).
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
expected=$srcdir/tests/expected/tui
update=0
[ "${1:-}" = "--update" ] && update=1

. "$srcdir/tests/cli/tap.sh"

if ! command -v tmux >/dev/null 2>&1; then
	echo "1..0 # SKIP tmux is not installed (Debian package tmux)"
	exit 0
fi

tmp=$(mktemp -d)
sessions=0
sock=$tmp/tmux0.sock
writer=
cleanup() {
	tmux -S "$sock" kill-server 2>/dev/null
	[ -n "$writer" ] && kill "$writer" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
cp "$srcdir/tests/fixtures/kmsg-newline.dump" "$tmp/log.kmsg"
cp "$srcdir/tests/fixtures/kmsg-kprint-small.dump" "$tmp/kprint.kmsg"
cd "$tmp" || exit 1

# start ARGS...: the viewer in a new 80x12 (80x$ROWS) session; its exit status goes
# to $tmp/exit, its pid to $tmp/pid, its standard error to $tmp/err.
start() {
	tmux -S "$sock" kill-server 2>/dev/null
	# A new server each time: a client may reach one still shutting down.
	sessions=$((sessions + 1))
	sock=$tmp/tmux$sessions.sock
	rm -f exit pid err
	tmux -S "$sock" -f /dev/null new-session -d -x 80 -y "${ROWS:-12}" \
		"cd '$tmp' && env LC_ALL=C.UTF-8 LANGUAGE=${TLANG:-} TERM=screen TZ=GMT NO_COLOR=${TNO_COLOR:-} \
		DMESG_TEST_BOOTIME=1234567890.000000 KDMESG_TEST_CALLER_WIDTH=6 \
		KDMESG_MODULES_DIR=/nonexistent \
		sh -c 'echo \$\$ >pid; ${PIPE_FROM:+cat $PIPE_FROM |} exec \"\$0\" --tui \"\$@\" 2>err' '$KDMESG' $*; \
		echo \$? >exit; echo VIEWER-ENDED; sleep 60"
}

screen() {
	tmux -S "$sock" capture-pane -p
}

keys() {
	tmux -S "$sock" send-keys "$@"
}

# wait_for REGEX: up to ~10 s for the screen to show REGEX.
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		screen | grep -q -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	screen | sed 's/^/# /'
	return 1
}

# status: the status line (the last row).
status() {
	screen | tail -n 1
}

# golden NAME: the screen equals tests/expected/tui/NAME.txt (waited for,
# as the viewer may still be drawing).
golden() {
	if [ $update = 1 ]; then
		sleep 0.5
		screen >"$expected/$1.txt"
		ok 0 "$1: capture written"
		return
	fi
	i=0
	while [ $i -lt 50 ]; do
		screen >"$1.got"
		cmp -s "$1.got" "$expected/$1.txt" && break
		sleep 0.1
		i=$((i + 1))
	done
	diff -u "$expected/$1.txt" "$1.got" | sed 's/^/# /'
	cmp -s "$1.got" "$expected/$1.txt"
	ok $? "$1: the screen is tests/expected/tui/$1.txt"
}

# ended: the viewer has exited (the shell after it printed its marker).
ended() {
	wait_for VIEWER-ENDED >/dev/null
}

# --- translation of kernel messages (T switches it), when msgfmt is there ---
if command -v msgfmt >/dev/null 2>&1; then
	mkdir -p cat/xx/LC_MESSAGES
	msgfmt -o cat/xx/LC_MESSAGES/linux-kmsg.mo "$srcdir/tests/fixtures/kmsg-test-xx.po"
	TLANG=xx ROWS=24 start -K kprint.kmsg --catalog-dir cat
	wait_for "eth0: Netzwerkverbindung steht: 100 Mbit/s" >/dev/null
	ok $? "a catalogue for the language: records are shown translated"
	keys T
	wait_for "NIC Link is Up 100 Mbps Half Duplex" >/dev/null
	ok $? "T: the kernel's text"
	keys T Enter
	wait_for "MESSAGE_TRANSLATED" >/dev/null && screen | grep -q "NIC Link is Up 100 Mbps"
	ok $? "T again, Enter: the detail pane has both texts"
	keys q q
	ended
else
	ok 0 "# SKIP msgfmt is not installed: no translation test"
fi

# --- wrapping long lines (S) keeps the selection on the screen ---
start -K log.kmsg
tmux -S "$sock" resize-window -x 50 -y 8
wait_for "47/47 of 47  following" >/dev/null
keys k k S
wait_for "45/47 of 47" >/dev/null && screen | grep -q "^k 1234567 ns" && screen | grep -q "^unstable"
ok $? "S wraps long records; the selected one (45) is whole on the screen"
keys C-c
ended
[ "$(cat exit 2>/dev/null)" = 0 ] && ! screen | grep -q "of 47"
ok $? "Ctrl-C: status 0, the terminal restored"

# --- NO_COLOR ---
TNO_COLOR=1 start -K log.kmsg
wait_for "47/47 of 47  following" >/dev/null
! tmux -S "$sock" capture-pane -p -e | grep -q "$(printf '\033')\[3[0-9]m"
ok $? "NO_COLOR: no colours"
keys c
sleep 0.3
tmux -S "$sock" capture-pane -p -e | grep -q "$(printf '\033')\[31m"
ok $? "c switches them on anyway"
keys q
ended

# --- a standard output that is not a terminal ---
"$KDMESG" --tui -K log.kmsg >out 2>err </dev/null
st=$?
[ $st = 1 ] && grep -q -- "--tui needs a terminal" err
ok $? "standard output not a terminal: one clear error, status 1 (got $st: $(cat err))"

# --- opening a fixture: at its end, following ---
start -K log.kmsg
wait_for "following" >/dev/null
golden main
status | grep -q "47/47 of 47  following"
ok $? "opens at the last record of 47, following"
esc=$(printf '\033')
tmux -S "$sock" capture-pane -p -e | grep -q "${esc}\[31m.*message from facility local3"
ok $? "colours: an error in red, as journalctl shows it"
tmux -S "$sock" capture-pane -p -e | grep "message from facility local2" | grep -q "${esc}\[1m"
ok $? "colours: worse than an error, bold"

# --- moving and jumps ---
keys g
wait_for "1/47 of 47" >/dev/null
ok $? "g selects the first record"
keys Space
wait_for "11/47 of 47" >/dev/null
golden page
keys g
wait_for "1/47 of 47" >/dev/null
keys e
wait_for "2/47 of 47" >/dev/null
ok $? "e: the next error or worse (record 2, alert)"
keys w w w
wait_for "5/47 of 47" >/dev/null
ok $? "w three times: next warnings or worse (3, 4, 5)"
keys T
wait_for "no kernel message catalogue" >/dev/null
ok $? "T without a catalogue says so"
keys G E
wait_for "38/47 of 47" >/dev/null
ok $? "G then E: the previous error or worse from the end (38)"
keys k
wait_for "37/47 of 47" >/dev/null && ! status | grep -q following
ok $? "k moves up and stops following"

# --- search: / highlights and jumps, wrapping around; n/N ---
keys / "usb [0-9]" Enter
wait_for "10/47 of 47" >/dev/null
ok $? "/usb [0-9]: from 37 the search wraps to the first match, record 10"
keys n
wait_for "18/47 of 47" >/dev/null
ok $? "n: the next match"
keys N
wait_for "10/47 of 47" >/dev/null
ok $? "N: back to the previous one"
keys / "no-such-text" Enter
wait_for "pattern not found" >/dev/null
ok $? "a pattern nothing matches says so"
keys Escape

# --- the detail pane ---
keys g j j j j j j j j
wait_for "9/47 of 47" >/dev/null
tmux -S "$sock" resize-window -x 80 -y 16
keys Enter
wait_for "Record details" >/dev/null
golden details
keys Escape
wait_for "9/47 of 47" >/dev/null
ok $? "Esc leaves the detail pane where it was"
tmux -S "$sock" resize-window -x 80 -y 12

# --- filters: text, level, the panel ---
keys i usb Enter
wait_for "text=usb" >/dev/null
status | grep -q "/3 of 47"
ok $? "i usb: 3 records of 47 shown ($(status))"
[ "$(screen | head -n 3 | grep -c usb)" = 3 ] && [ -z "$(screen | sed -n 4,11p | tr -d ' |EW#')" ]
ok $? "only they are on the screen"
keys - - - -
wait_for " err  text=usb" >/dev/null && status | grep -q "1/1 of 47"
ok $? "- four times: err and worse, 1 left"
keys f
wait_for "Filters" >/dev/null
golden filters
keys j j Space Escape
wait_for "of 47" >/dev/null
status | grep -q "/16 of 47"
ok $? "the text filter switched off in the panel: the 16 errors or worse ($(status))"
keys ?
wait_for "Keys" >/dev/null
golden help
keys q

# --- resize ---
tmux -S "$sock" resize-window -x 50 -y 8
i=0
while [ $i -lt 50 ] && [ "$(screen | wc -l)" != 8 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(screen | wc -l)" = 8 ] && [ "$(screen | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -le 50 ] &&
	status | grep -q "of 47"
ok $? "a resize to 50x8 redraws at the new size"

# --- q leaves the terminal as it was ---
keys q
ended
[ "$(cat exit 2>/dev/null)" = 0 ] && ! screen | grep -q "of 47"
ok $? "q: status 0, the viewer's screen is gone"

# --- following a growing file; pause ---
cp log.kmsg grow.kmsg
start -K grow.kmsg
wait_for "47/47 of 47  following" >/dev/null
printf '6,500,9000000,-;appended record one\n' >>grow.kmsg
wait_for "appended record one" >/dev/null && status | grep -q "48/48 of 48  following"
ok $? "a record appended to the file shows up, selected"
keys =
wait_for "paused" >/dev/null
printf '6,501,9100000,-;appended record two\n' >>grow.kmsg
sleep 1
! screen | grep -q "appended record two" && status | grep -q "of 48"
ok $? "=: paused, a new record is not read"
keys k =
wait_for "47/49 of 49" >/dev/null && ! status | grep -q following && ! screen | grep -q "appended record two"
ok $? "= again: it is read; scrolled up, the selection and the screen stay"
printf '6,502,9200000,-;half a rec' >>grow.kmsg
sleep 1
! screen | grep -q "half a rec"
ok $? "a half-written record waits"
printf 'ord three\n' >>grow.kmsg
keys G
wait_for "half a record three" >/dev/null && status | grep -q "50/50 of 50  following"
ok $? "its rest comes: one record; G follows again"

# --- the log on standard input, keys from the terminal ---
PIPE_FROM=kprint.kmsg start -K -
wait_for "^-  4/4 of 4  following" >/dev/null
ok $? "-K -: the log from a pipe on standard input, keys from /dev/tty"
keys g q
ended
[ "$(cat exit 2>/dev/null)" = 0 ]
ok $? "g, q: status 0"
PIPE_FROM=

# --- SIGTERM restores the terminal ---
cp log.kmsg grow.kmsg
start -K grow.kmsg
wait_for "47/47 of 47  following" >/dev/null
kill -TERM "$(cat pid)"
ended
[ "$(cat exit 2>/dev/null)" = 0 ] && ! screen | grep -q "of 47"
ok $? "SIGTERM: status 0, the terminal restored"

# --- following a FIFO ---
mkfifo fifo
{ cat kprint.kmsg; sleep 1; printf '3,900,9900000,-;through the pipe\n'; sleep 30; } >fifo &
writer=$!
ROWS=24 start -K fifo
wait_for "through the pipe" >/dev/null && status | grep -q "5/5 of 5  following"
ok $? "a FIFO is followed: a record written later shows up"
kill "$writer" 2>/dev/null
writer=
sleep 0.5
keys Enter
wait_for "through the pipe" >/dev/null && screen | grep -q "err (3)"
ok $? "the writer gone: the viewer goes on, details of the last record"
keys q k Enter
wait_for "CODE_FUNC" >/dev/null
golden details-kprint
keys q o t
wait_for "netdev.c:4900 e1000_print_link_" >/dev/null
ok $? "o: the location column (file:line function)"
wait_for "Feb 13 23:31:30 2009" >/dev/null
ok $? "t: the next time format (ctime)"
keys m e1000e Enter
wait_for "2/2 of 5  following  module=e1000e" >/dev/null
ok $? "m: a module filter, the selection on the last of them"
keys q
ended
[ "$(cat exit 2>/dev/null)" = 0 ]
ok $? "q from the detail pane, then q: status 0"

tap_done
