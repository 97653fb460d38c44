#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# terminal.sh - what changes when standard output is a terminal: -H pipes
# through $PAGER (not with -P or -w), colours come on by default when the
# terminal has them and go off for TERM=dumb, NO_COLOR, a
# terminal-colors.d "dmesg.disable" file or -L=never, while -L=always
# wins over all of those.  script(1) provides the terminal.  Prints TAP;
# skips when script(1), a pseudo-terminal or the xterm terminfo entry is
# missing.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
fixtures=$srcdir/tests/fixtures

if ! command -v script >/dev/null 2>&1; then
	echo "1..0 # SKIP script(1) is not installed"
	exit 0
fi
if ! TERM=xterm tput colors >/dev/null 2>&1 && ! infocmp xterm >/dev/null 2>&1; then
	echo "1..0 # SKIP no terminfo entry for xterm"
	exit 0
fi

# Containers without /dev/pts have no pseudo-terminals to give script(1).
if ! SHELL=/bin/sh script -qec true /dev/null </dev/null >/dev/null 2>&1; then
	echo "1..0 # SKIP script(1) cannot open a pseudo-terminal here"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/config/terminal-colors.d"
export XDG_CONFIG_HOME="$tmp/config" HOME="$tmp"
export LC_ALL=C TZ=GMT DMESG_TEST_BOOTIME=1234567890.123456 KDMESG_TEST_CALLER_WIDTH=6
unset NO_COLOR LESS

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

# tty ARGS...: run kdmesg on a pseudo-terminal, output into $tmp/out.
tty() {
	# script(1) runs its command through $SHELL -c.
	printf '%s\n' "cd '$fixtures' && exec '$KDMESG' $*" >"$tmp/cmd"
	SHELL=/bin/sh script -qec "sh '$tmp/cmd'" /dev/null </dev/null >"$tmp/out" 2>&1
}

esc=$(printf '\033')
# The time stamp is green in dmesg's default scheme.
colored() { grep -q "$esc\[32m.*\] $esc\[0m" "$tmp/out"; }
paged() { grep -q '^PAGED:' "$tmp/out"; }

export TERM=xterm PAGER="sed -e s/^/PAGED:/"

tty -K kmsg-nul.dump -H
paged && colored
ok $? "-H on a terminal pages through \$PAGER and colours"
tty -K kmsg-nul.dump -H -P
! paged && colored && grep -q 'Feb13 23:31' "$tmp/out"
ok $? "-H -P colours without a pager"
# -w follows a file as tail -F does: the log comes through a pipe, which ends.
printf '%s\n' "cd '$fixtures' && cat kmsg-nul.dump | '$KDMESG' -K - -H -w" >"$tmp/cmd"
SHELL=/bin/sh script -qec "sh '$tmp/cmd'" /dev/null </dev/null >"$tmp/out" 2>&1
! paged && colored
ok $? "-H -w does not page (a pipe ends the follow at its end)"
PAGER=cat tty -K kmsg-nul.dump -H
! paged && colored
ok $? "PAGER=cat means no pager"
tty -K kmsg-nul.dump
! paged && colored
ok $? "colours are on by default on a colour terminal, no pager without -H"
TERM=dumb tty -K kmsg-nul.dump
! grep -q "$esc" "$tmp/out"
ok $? "TERM=dumb has no colours"
NO_COLOR=1 tty -K kmsg-nul.dump
! grep -q "$esc" "$tmp/out"
ok $? "NO_COLOR turns the default colours off"
NO_COLOR=1 tty -K kmsg-nul.dump -L
colored
ok $? "an explicit -L wins over NO_COLOR"
tty -K kmsg-nul.dump --color=never
! grep -q "$esc" "$tmp/out"
ok $? "--color=never on a terminal"

: >"$tmp/config/terminal-colors.d/dmesg.disable"
tty -K kmsg-nul.dump
! grep -q "$esc" "$tmp/out"
ok $? "terminal-colors.d/dmesg.disable turns the default colours off"
tty -K kmsg-nul.dump -L=always
colored
ok $? "-L=always wins over dmesg.disable"
: >"$tmp/config/terminal-colors.d/dmesg@xterm.enable"
tty -K kmsg-nul.dump
colored
ok $? "dmesg@xterm.enable outscores dmesg.disable"
rm -f "$tmp/config/terminal-colors.d/"*

# The pager's environment: LESS=FRSX and LV=-c, as util-linux sets them.
PAGER="env >'$tmp/env'; cat >/dev/null" tty -K kmsg-nul.dump -H
grep -qx 'LESS=FRSX' "$tmp/env" && grep -qx 'LV=-c' "$tmp/env"
ok $? "the pager gets LESS=FRSX and LV=-c"
LV=-x PAGER="env >'$tmp/env'; cat >/dev/null" tty -K kmsg-nul.dump -H
grep -qx 'LV=-x' "$tmp/env"
ok $? "an LV of the user's is kept"

# A pager that quits before reading (more output than a pipe holds):
# exit status 1 and no message, as dmesg; not death by SIGPIPE (141).
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	cat "$fixtures/kmsg-nul.dump"
done >"$tmp/big.dump"
printf '%s\n' "exec '$KDMESG' -K '$tmp/big.dump' -H; " >"$tmp/cmd"
PAGER=/bin/false SHELL=/bin/sh script -qec "sh '$tmp/cmd'; echo status=\$?" /dev/null \
	</dev/null >"$tmp/out" 2>&1
st=$(sed -n 's/^status=\([0-9]*\).*/\1/p' "$tmp/out")
[ "$st" = 1 ] && ! grep -v '^status=' "$tmp/out" | grep -q .
ok $? "PAGER=/bin/false: exit status 1, nothing printed (got ${st:-none})"

"$KDMESG" -K "$fixtures/kmsg-nul.dump" -H >"$tmp/out" 2>&1
! grep -q "$esc" "$tmp/out" && ! paged
ok $? "-H into a pipe neither colours nor pages"

tap_done
