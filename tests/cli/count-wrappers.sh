#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# count-wrappers.sh - kernel-patch/count-wrappers.py (issue 24) on a tiny
# fake kernel tree, tests/fixtures/wrappers: a %pV wrapper behind a chain
# of macros and an alias (foo), one written by a generator macro with a
# bottom that takes a struct va_format (bar), one that hands its va_list
# on (baz_probe_err -> __baz_failed), a vprintk and a buffer wrapper,
# functions that take a va_list but are no wrappers, the series' own
# functions (covered), calls in comments, strings and members, macros of
# the same name in other directories, and Documentation/, tools/,
# scripts/.  The counts were checked by hand (comments in the fixture
# mark each call that counts); the whole output is a golden file.
set -u

srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
F=$srcdir/tests/fixtures/wrappers
EXP=$srcdir/tests/expected/count-wrappers
SCRIPT=$srcdir/kernel-patch/count-wrappers.py
. "$srcdir/tests/cli/tap.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

(cd "$F" && python3 "$SCRIPT" . --entries) >"$tmp/out" 2>"$tmp/err"
ok $? "count-wrappers.py runs on the fixture tree"
[ ! -s "$tmp/err" ]
ok $? "no error output"
diff -u "$EXP/fixture.out" "$tmp/out" >"$tmp/diff"
ok $? "output matches tests/expected/count-wrappers/fixture.out"
[ -s "$tmp/diff" ] && head -40 "$tmp/diff" | sed 's/^/# /'

# row FAMILY: "kind sites" of a family in the table of all families
row() {
	sed -n '/^## all/,/^all:/p' "$tmp/out" | awk -v f="$1" '$3 == f { print $2, $5 }'
}
# entry FAMILY NAME: call sites of one entry point
entry() {
	sed -n '/^## entry points/,$p' "$tmp/out" | awk -v f="$1" -v n="$2" \
		'$1 == f && $2 == n { s += $3 } END { print s + 0 }'
}

[ "$(row __foo_msg)" = "%pV 6" ]
ok $? "foo: 6 call sites (not the ones in comments, strings, members, Documentation/, tools/, scripts/)"
[ "$(entry __foo_msg foo_err) $(entry __foo_msg foo_warn) $(entry __foo_msg foo_error)" = "2 1 1" ]
ok $? "foo: foo_err 2, foo_warn 1, the alias foo_error 1"
[ "$(entry __foo_msg foo_printk) $(entry __foo_msg __foo_msg)" = "1 1" ]
ok $? "foo: the inner macro and the function called directly count once each, prototypes not"
[ "$(row __bar_print)" = "%pV 7" ]
ok $? "bar: 7 call sites of functions written by define_bar_level()"
[ "$(entry __bar_print ERR) $(entry __bar_print BAR_DBG) $(entry __bar_print bar_err)" = "2 2 2" ]
ok $? "bar: a .c file's ERR() counts there only, bar.h's BAR_DBG() below drivers/bar/ only"
! grep -q 'define_bar_level' "$tmp/out"
ok $? "bar: the generator macro is no entry point"
[ "$(row __baz_failed) $(entry __baz_failed baz_probe_err) $(entry __baz_failed __baz_failed)" = "%pV 2 2 0" ]
ok $? "baz: a va_list handed on joins the family, the hand-over is no call site"
[ "$(row baz_log) $(row baz_vdbg)" = "buffer 2 vprintk 1" ]
ok $? "a buffer wrapper (2) and a vprintk wrapper (1)"
! grep -Eq 'note_add|load_module|foo_name' "$tmp/out"
ok $? "functions with a va_list that print no caller's format are not wrappers"
grep -q '^# files: 12; families: 5; covered by the series (not counted): 3 functions$' "$tmp/out"
ok $? "12 files (Documentation/, tools/, scripts/ skipped), 5 families, 3 covered"
[ "$(grep -c '^covered ' "$tmp/out")" = 3 ] &&
	grep -Eq '^covered +_dev_printk +drivers/base/core.c:10$' "$tmp/out" &&
	grep -Eq '^covered +_printk +kernel/printk/printk.c:3$' "$tmp/out"
ok $? "the series' own functions are listed as covered with file:line"
grep -q '^%pV: the first 3 of 3 families hold >= 90% of these call sites: __bar_print __foo_msg __baz_failed$' "$tmp/out"
ok $? "the 90% set of the %pV families"
grep -q '^all: the first 4 of 5 families hold >= 90% of these call sites: __bar_print __foo_msg __baz_failed baz_log$' "$tmp/out"
ok $? "the 90% set of all families"

(cd "$F" && python3 "$SCRIPT" . --min-share 50) >"$tmp/out50" 2>&1
grep -q '^%pV: the first 2 of 3 families hold >= 50% ' "$tmp/out50"
ok $? "--min-share 50: two %pV families"

# --functions: what check-drivers.py reads (the functions of each family,
# generated ones and those that hand a va_list on included; no covered one)
(cd "$F" && python3 "$SCRIPT" . --functions) >"$tmp/funcs" 2>&1
diff -u "$EXP/functions.out" "$tmp/funcs" >"$tmp/diff"
ok $? "--functions matches tests/expected/count-wrappers/functions.out"
[ -s "$tmp/diff" ] && head -20 "$tmp/diff" | sed 's/^/# /'
[ "$(wc -l <"$tmp/funcs")" = 8 ] && grep -qx '%pV bar_err __bar_print' "$tmp/funcs" &&
	grep -qx '%pV baz_probe_err __baz_failed' "$tmp/funcs" && ! grep -q '_dev_printk' "$tmp/funcs"
ok $? "--functions: 8 functions, bar_err of the generator, baz_probe_err handing on, no covered one"

python3 "$SCRIPT" "$tmp/nonexistent" >"$tmp/out" 2>"$tmp/err"
st=$?
[ "$st" = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'not a directory' "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "a missing tree: one line on stderr, exit status 1"

tap_done
