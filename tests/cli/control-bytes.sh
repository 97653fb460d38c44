#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# control-bytes.sh - no terminal control byte of a record reaches the
# terminal (issue 19).  A dump whose text, dictionary keys and values
# (CODE_FILE, CODE_LINE, CODE_FUNC, MODULE, FORMAT, SUBSYSTEM, ...) hold
# ESC sequences (CSI, OSC 52, OSC 0), C1 controls (raw and as UTF-8),
# \001 and \177 goes through every writer that prints for a terminal -
# text, -x, -r, --location, -o verbose, -J, -o json, -o jsonl, --stats,
# --stats -J, a translation whose msgstr holds an ESC (the UBSan memcpy
# of issue 19), kdmesg-po extract --dump - in the C and the C.UTF-8
# locale; the output must hold none of those bytes, and the reproducers
# of the issue must give the escaped text they name.  The viewer is
# checked in tmux when tmux is installed.  Prints TAP; under the
# sanitizer build a UBSan or ASan report fails the run's exit status.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
KDMESG_PO=${KDMESG_PO:-$(dirname "$KDMESG")/kdmesg-po}

tmp=$(mktemp -d)
sock=$tmp/tmux.sock
cleanup() {
	command -v tmux >/dev/null 2>&1 && tmux -S "$sock" kill-server 2>/dev/null
	reap_viewer "$tmp/tui.pid"
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
export TZ=GMT LC_ALL=C LANG=C LANGUAGE=
export DMESG_TEST_BOOTIME=1234567890.123456 KDMESG_TEST_CALLER_WIDTH=6
export KDMESG_MODULES_DIR=/nonexistent
unset NO_COLOR PAGER

. "$srcdir/tests/cli/tap.sh"
. "$srcdir/tests/cli/reap.sh"

# Two records: the second has the kprint fields, every one hostile.
{
	printf '6,1,1000,-;t \033[31mred \033]52;c;SGk\033\\ csi\302\2331m c1\233x soh\001 del\177 end\n'
	printf ' X\033]52;c;SGk\033\\=v\n'
	printf ' K\302\233Y=v\n K\233Z=v\n K\001=v\n K\177=v\n'
	printf '3,2,2000,-;site text \033[2J\n'
	printf ' CODE_FILE=drivers/f\033[2J.c\n CODE_LINE=12\033[m\n CODE_FUNC=fn\302\233x\n'
	printf ' MODULE=m\033]0;title\007\n FORMAT=site text \033[2J%%s\177\n ARG0=a\001\n'
	printf ' SUBSYSTEM=s\233\n DEVICE=+d\033P\n'
} >"$tmp/hostile.kmsg"

# clean FILE: holds no C0 control but tab and newline, no DEL, no C1
# (U+0080..U+009F, or a lone byte 0x80..0x9f).
clean() {
	python3 - "$1" <<'EOF'
import sys
s = open(sys.argv[1], 'rb').read().decode('utf-8', 'surrogateescape')
bad = [c for c in s if (ord(c) < 0x20 and c not in '\t\n') or ord(c) == 0x7f
       or 0x80 <= ord(c) <= 0x9f or 0xdc80 <= ord(c) <= 0xdc9f]
if bad:
    print('# control bytes in the output: %r' % ''.join(bad)[:40])
    sys.exit(1)
EOF
}

if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi

# run NAME ARGS...: kdmesg on the hostile dump; status 0, nothing on
# standard error but kdmesg's own notes, and a clean output.
run() {
	name=$1
	shift
	"$KDMESG" "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	[ "$st" = 0 ] && clean "$tmp/out" && clean "$tmp/err" &&
		! grep -q 'runtime error\|Sanitizer' "$tmp/err"
	ok $? "$name ($LC_ALL): exit 0, no control byte on the terminal"
	[ "$st" = 0 ] || sed 's/^/# /' "$tmp/err"
}

for LC_ALL in C C.UTF-8; do
	export LC_ALL
	run "text" -K "$tmp/hostile.kmsg"
	run "-x" -K "$tmp/hostile.kmsg" -x
	run "-r" -K "$tmp/hostile.kmsg" -r
	run "--location" -K "$tmp/hostile.kmsg" --location
	run "-o verbose" -K "$tmp/hostile.kmsg" -o verbose
	run "-J" -K "$tmp/hostile.kmsg" -J
	run "-o json" -K "$tmp/hostile.kmsg" -o json
	run "-o jsonl" -K "$tmp/hostile.kmsg" -o jsonl
	run "--stats" -K "$tmp/hostile.kmsg" --stats
	run "--stats -J" -K "$tmp/hostile.kmsg" --stats -J
	run "--stats of a stock record" -K "$tmp/hostile.kmsg" --stats SEQNUM=1
done
export LC_ALL=C

# The reproducer of the issue: an OSC 52 clipboard write in a key name.
printf '6,1,1000,-;hi\n X\033]52;c;SGk\033\\=v\n' |
	"$KDMESG" -K - -o verbose >"$tmp/out" 2>&1
grep -qxF '    X\x1b]52;c;SGk\x1b\=v' "$tmp/out"
ok $? "-o verbose: the key of the issue's reproducer is escaped"
"$KDMESG" -K "$tmp/hostile.kmsg" -o verbose >"$tmp/out" 2>&1
grep -qxF '    K\xc2\x9bY=v' "$tmp/out" && grep -qxF '    K\x9bZ=v' "$tmp/out" &&
	grep -qxF '    K\x01=v' "$tmp/out" && grep -qxF '    K\x7f=v' "$tmp/out"
ok $? "-o verbose: C1 (UTF-8 and raw), SOH and DEL in keys are escaped"

# JSON: the same strings once parsed; C1 and DEL as \u00XX.
LC_ALL=C.UTF-8 "$KDMESG" -K "$tmp/hostile.kmsg" -o jsonl >"$tmp/out" 2>/dev/null
python3 -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert r[0]["message"].endswith("c1\ufffdx soh\x01 del\x7f end"), r[0]["message"]
assert "K\x9bY" in r[0] and r[1]["MODULE"] == "m\x1b]0;title\x07"
' "$tmp/out" && grep -qF 'K\u009bY' "$tmp/out" && grep -qF 'del\u007f' "$tmp/out"
ok $? "-o jsonl: C1 and DEL written as u00XX escapes, the parsed strings unchanged"

# -o export carries control bytes as they are: never onto a terminal.
if command -v script >/dev/null 2>&1; then
	script -qec "'$KDMESG' -K '$tmp/hostile.kmsg' -o export" /dev/null >"$tmp/out" 2>&1
	grep -q 'the export format is binary and not written to a terminal' "$tmp/out" &&
		! grep -q 'MESSAGE' "$tmp/out"
	ok $? "-o export is refused when standard output is a terminal"
else
	ok 0 "# SKIP script(1) is not installed"
fi
"$KDMESG" -K "$tmp/hostile.kmsg" -o export >"$tmp/out" 2>&1
[ $? = 0 ] && grep -q '^MESSAGE$' "$tmp/out"
ok $? "-o export into a pipe or file: the binary fields as the format wants"

# A translation with a control byte (issue 19: UBSan memcpy NULL in
# clean_part); the ESC of the msgstr comes out escaped.
if command -v msgfmt >/dev/null 2>&1; then
	mkdir -p "$tmp/cat/xx/LC_MESSAGES"
	printf 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n#, c-format\nmsgid "%%s"\nmsgstr "\\x1b[31m%%s"\n' \
		>"$tmp/esc.po"
	msgfmt -o "$tmp/cat/xx/LC_MESSAGES/linux-kmsg.mo" "$tmp/esc.po"
	printf '6,1,1000,-;hello\n FORMAT=%%s\n ARG0=hello\n' >"$tmp/esc.kmsg"
	for o in text verbose json; do
		LANGUAGE=xx LC_ALL=C.UTF-8 "$KDMESG" -K "$tmp/esc.kmsg" --translate=always \
			--catalog-dir "$tmp/cat" -o $o >"$tmp/out" 2>"$tmp/err"
		st=$?
		case $o in
		text) want='[    0.001000] \x1b[31mhello' ;;
		verbose) want='    MESSAGE_TRANSLATED[translated]=\x1b[31mhello' ;;
		json) want='         "msg_translated": "\u001b[31mhello",' ;;
		esac
		[ $st = 0 ] && grep -qxF "$want" "$tmp/out" && clean "$tmp/out" &&
			! grep -q 'runtime error' "$tmp/err"
		ok $? "-o $o: a msgstr with ESC is translated, the ESC escaped"
		[ $st = 0 ] || sed 's/^/# /' "$tmp/err"
	done
else
	ok 0 "# SKIP msgfmt is not installed"
fi

# kdmesg-po extract --dump: comments escaped, CODE_LINE only a line
# number, and msgfmt -c accepts the template.
"$KDMESG_PO" extract --dump "$tmp/hostile.kmsg" >"$tmp/pot" 2>"$tmp/err"
[ $? = 0 ] && clean "$tmp/pot" && clean "$tmp/err"
ok $? "kdmesg-po extract --dump: no control byte in the template"
grep -qxF '#. module: m\x1b]0;title\x07' "$tmp/pot" &&
	grep -qxF '#: drivers/f\x1b[2J.c' "$tmp/pot" &&
	grep -qxF '#. function: fn\xc2\x9bx' "$tmp/pot" &&
	grep -qxF 'msgid "site text \033[2J%s\177"' "$tmp/pot"
ok $? "kdmesg-po extract --dump: MODULE, places and functions escaped, the msgid with octal escapes"
printf '6,1,1000,-;x\n FORMAT=x %%d\n CODE_FILE=a.c\n CODE_LINE=-1\n\n6,2,1000,-;y\n FORMAT=y %%d\n CODE_FILE=b.c\n CODE_LINE=99999999999\n\n6,3,1000,-;z\n FORMAT=z %%d\n CODE_FILE=c.c\n CODE_LINE=42\n' |
	"$KDMESG_PO" extract --dump - >"$tmp/pot2" 2>&1
grep -qxF '#: a.c' "$tmp/pot2" && grep -qxF '#: b.c' "$tmp/pot2" &&
	grep -qxF '#: c.c:42' "$tmp/pot2" && ! grep -q 4294967295 "$tmp/pot2"
ok $? "kdmesg-po: CODE_LINE=-1 or too large is no line (not :4294967295)"
if command -v msgfmt >/dev/null 2>&1; then
	msgfmt -c -o /dev/null "$tmp/pot" 2>"$tmp/msgfmt.err"
	ok $? "msgfmt -c accepts the template of the hostile dump"
	grep -v 'header field' "$tmp/msgfmt.err" | sed 's/^/# /'
fi

# The viewer: curses draws a control character as '?', and the detail
# pane escapes keys and values; nothing reaches the terminal (an OSC 0
# would retitle the pane, a CSI 2J clear it).
if command -v tmux >/dev/null 2>&1; then
	tmux -S "$sock" -f /dev/null new-session -d -x 100 -y 30 \
		"sh -c 'echo \$\$ >\"$tmp/tui.pid\"; exec env LC_ALL=C.UTF-8 TERM=screen TZ=GMT KDMESG_MODULES_DIR=/nonexistent \"$KDMESG\" --tui -K \"$tmp/hostile.kmsg\" 2>\"$tmp/tui.err\"'; sleep 60"
	tmux -S "$sock" set -g set-titles off 2>/dev/null
	before=$(tmux -S "$sock" display -p '#{pane_title}')
	i=0 scr=
	while [ $i -lt 200 ]; do
		scr=$(tmux -S "$sock" capture-pane -p 2>/dev/null)
		printf '%s\n' "$scr" | grep -q '2/2 of 2' && break
		sleep 0.1
		i=$((i + 1))
	done
	tmux -S "$sock" send-keys k Enter
	i=0
	while [ $i -lt 200 ]; do
		scr=$(tmux -S "$sock" capture-pane -p 2>/dev/null)
		printf '%s\n' "$scr" | grep -qF 'X\x1b]52;c;SGk\x1b\' && break
		sleep 0.1
		i=$((i + 1))
	done
	printf '%s\n' "$scr" | grep -qF 'X\x1b]52;c;SGk\x1b\' &&
		printf '%s\n' "$scr" | grep -qF 'K\x9bZ' &&
		printf '%s\n' "$scr" | grep -qF 'K\x7f'
	ok $? "--tui: the detail pane shows keys escaped"
	[ $? = 0 ] || printf '%s\n' "$scr" | sed 's/^/#  |/'
	[ "$(tmux -S "$sock" display -p '#{pane_title}')" = "$before" ]
	ok $? "--tui: no OSC reached the terminal (the pane title is unchanged)"
	tmux -S "$sock" send-keys q
	tmux -S "$sock" kill-server 2>/dev/null
	reap_viewer "$tmp/tui.pid"
else
	ok 0 "# SKIP tmux is not installed: no viewer test"
fi

tap_done
