#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# docs.sh - every long option kdmesg accepts (its getopt_long table in
# src/kdmesg-options.c) is shown by --help and documented in man/kdmesg.1,
# every long option of kdmesg's and kdmesg-po's --help is in the bash and
# zsh completions (completion/) and kdmesg-po's in its man page, the
# man page has the sections an admin looks for, and the viewer's screens
# shown in the man page and README.md are the ones tests/cli/tui.sh
# captures (tests/expected/tui/).  Prints TAP.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
man=$srcdir/man/kdmesg.1

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

help=$(LC_ALL=C "$KDMESG" --help)
# The page with roff's \- turned back into plain dashes.
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT INT TERM
sed 's/\\-/-/g' "$man" >"$tmp"
# Rows of the option table look like: { "name", ..._argument, NULL, ... },
# (the journal's and the site table's rows are macros of src/kdmesg.h).
opts=$(sed -n 's/^[[:space:]]*{ "\([a-z-]*\)",[[:space:]]*[a-z_]*_argument,.*/\1/p' \
	"$srcdir/src/kdmesg-options.c" "$srcdir/src/kdmesg.h")
[ -n "$opts" ]
ok $? "found the option table in src/kdmesg-options.c"

# --list-values is for shell completion only (src/kdmesg-complete.c).
hidden=" list-values "
for o in $opts; do
	case $hidden in *" $o "*) continue ;; esac
	printf '%s\n' "$help" | grep -q -- "--$o\\b"
	ok $? "--help shows --$o"
	grep -q -- "--$o\\b" "$tmp"
	ok $? "man page documents --$o"
done

# As util-linux checks its bash-completion/: every long option that
# --help shows is offered by the bash completion (and the zsh one), and
# kdmesg-po's are in its man page and both completions too.
comp=$srcdir/completion/kdmesg
zcomp=$srcdir/completion/_kdmesg
for o in $(printf '%s\n' "$help" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
	grep -q -- "$o\\b" "$comp"
	ok $? "bash completion offers $o"
	grep -q -- "$o\\b" "$zcomp"
	ok $? "zsh completion offers $o"
done
pohelp=$(LC_ALL=C "${KDMESG_PO:-$(dirname "$KDMESG")/kdmesg-po}" --help)
sed 's/\\-/-/g' "$srcdir/man/kdmesg-po.1" >"$tmp.po"
for o in $(printf '%s\n' "$pohelp" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
	grep -q -- "$o\\b" "$tmp.po"
	ok $? "kdmesg-po man page documents $o"
	grep -q -- "$o\\b" "$comp"
	ok $? "bash completion offers kdmesg-po $o"
	grep -q -- "$o\\b" "$zcomp"
	ok $? "zsh completion offers kdmesg-po $o"
done
rm -f "$tmp.po"

for section in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" ENVIRONMENT FILES EXAMPLES "SEE ALSO"; do
	grep -q "^\\.SH \"\\{0,1\\}$section\"\\{0,1\\}\$" "$man"
	ok $? "man page has a $section section"
done

if command -v groff >/dev/null 2>&1; then
	out=$(LC_ALL=C groff -man -ww -z "$man" 2>&1)
	[ -z "$out" ]
	ok $? "groff renders the man page without warnings"
fi

# block FILE START END N: the lines of the Nth block of FILE between lines
# matching START and END, blank lines left out.
block() {
	awk -v s="$2" -v e="$3" -v want="$4" '
		inb && $0 ~ e { inb = 0; next }
		inb && n == want && $0 != "" { print }
		!inb && $0 ~ s { inb = 1; n++ }' "$1"
}

# capture NAME FILE START END: one of FILE's blocks is the golden capture
# NAME (blank rows left out, as the docs leave them out).
capture() {
	grep -v '^$' "$srcdir/tests/expected/tui/$1.txt" >"$tmp.want"
	i=1
	while block "$2" "$3" "$4" $i >"$tmp.got" && [ -s "$tmp.got" ]; do
		cmp -s "$tmp.want" "$tmp.got" && return 0
		i=$((i + 1))
	done
	echo "# no block of $2 is tests/expected/tui/$1.txt:"
	sed 's/^/#   /' "$tmp.want"
	return 1
}

capture main "$tmp" '^[.]EX$' '^[.]EE$'
ok $? "the man page shows the viewer's main screen as tests/cli/tui.sh captures it"
capture details-kprint "$tmp" '^[.]EX$' '^[.]EE$'
ok $? "the man page shows the detail pane as tests/cli/tui.sh captures it"
capture page "$srcdir/README.md" '^```' '^```$'
ok $? "README.md shows the viewer's screen as tests/cli/tui.sh captures it"
rm -f "$tmp.want" "$tmp.got"

tap_done
