#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# count-rewrites.sh - kernel-patch/count-rewrites.py counts the lines a
# commit of a series removes that an earlier commit of the same series
# added (issue 23), and not the lines it removes from the base.
set -u

: "${top_srcdir:?top_srcdir must be set}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$top_srcdir/tests/cli/tap.sh"

if ! command -v python3 >/dev/null 2>&1 || ! command -v git >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 or git is not installed"
	exit 0
fi
cr="python3 $top_srcdir/kernel-patch/count-rewrites.py"
r=$tmp/repo
g() { git -C "$r" -c user.name=t -c user.email=t@example.invalid "$@" >/dev/null; }

mkdir "$r"
g init -q
printf 'base 1\nbase 2\nbase 3\n' >"$r/a.c"
g add a.c
g commit -q -m base
g tag base
# patch 1 adds two lines and changes a line of the base (not a rewrite)
printf 'base 1\nnew A\nnew B\nbase 2 changed\nbase 3\n' >"$r/a.c"
g commit -q -a -m "one: add A and B"
# patch 2 adds a file
printf 'x\ny\n' >"$r/b.c"
g add b.c
g commit -q -m "two: add b.c"
# patch 3 changes A (from patch 1) and y (from patch 2), and base 3
printf 'base 1\nnew A!\nnew B\nbase 2 changed\nbase 3!\n' >"$r/a.c"
printf 'x\ny!\n' >"$r/b.c"
g commit -q -a -m "three: touch A, y and base 3"

$cr "$r" base >"$tmp/out" 2>"$tmp/err"
st=$?
cat >"$tmp/want" <<'WANT'
  0  one: add A and B
  0  two: add b.c
  2  three: touch A, y and base 3
          1 a.c <- one: add A and B
          1 b.c <- two: add b.c
2 lines rewritten in all
WANT
[ $st = 0 ] && cmp -s "$tmp/out" "$tmp/want"
ok $? "two rewritten lines of patches 1 and 2 counted, the base's lines not"
[ $st = 0 ] && cmp -s "$tmp/out" "$tmp/want" || diff "$tmp/want" "$tmp/out" | sed 's/^/# /'

$cr "$r" no-such-ref >/dev/null 2>"$tmp/err"
[ $? = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q '^count-rewrites.py: ' "$tmp/err"
ok $? "an unknown base: one line on stderr, exit 2"

tap_done
