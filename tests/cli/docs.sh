#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# docs.sh - every long option kdmesg accepts (its getopt_long table in
# src/kdmesg-options.c) is shown by --help and documented in man/kdmesg.1, and the
# man page has the sections an admin looks for.  Prints TAP.
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
opts=$(sed -n 's/^[[:space:]]*{ "\([a-z-]*\)",[[:space:]]*[a-z_]*_argument,.*/\1/p' \
	"$srcdir/src/kdmesg-options.c")
[ -n "$opts" ]
ok $? "found the option table in src/kdmesg-options.c"

for o in $opts; do
	printf '%s\n' "$help" | grep -q -- "--$o\\b"
	ok $? "--help shows --$o"
	grep -q -- "--$o\\b" "$tmp"
	ok $? "man page documents --$o"
done

for section in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" ENVIRONMENT FILES EXAMPLES "SEE ALSO"; do
	grep -q "^\\.SH \"\\{0,1\\}$section\"\\{0,1\\}\$" "$man"
	ok $? "man page has a $section section"
done

if command -v groff >/dev/null 2>&1; then
	out=$(LC_ALL=C groff -man -ww -z "$man" 2>&1)
	[ -z "$out" ]
	ok $? "groff renders the man page without warnings"
fi

tap_done
