#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# check-stack.sh - the arm64 reader of kernel-patch/check-stack.py (issue
# 23: the stack of the printk paths measured on arm64) on a hand-written
# disassembly, tests/fixtures/stack/a64.dis, whose frames were counted by
# hand: top 48 (stp pre-index) + 32 (sub sp) = 80; mid (a .constprop
# copy) 16 + 16 = 32; leaf 0; big "sub sp, sp, #0x1, lsl #12" and the
# "sub sp, sp, #0x10" right after it, 4096 + 16 = 4112.  Calls are "bl";
# "b" and "b.<cond>" to another function are tail calls; a branch inside
# the function is neither, and a call of itself is not followed.
set -u

srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/cli/tap.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi

out=$(python3 - "$srcdir/kernel-patch/check-stack.py" \
	"$srcdir/tests/fixtures/stack/a64.dis" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("cs", sys.argv[1])
cs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cs)
frame, calls, jmps = cs.graph_a64(open(sys.argv[2]).read())
for f in sorted(frame):
    print(f, frame[f], ",".join(sorted(calls[f])) or "-", ",".join(sorted(jmps[f])) or "-")
PY
)
ok $? "check-stack.py's graph_a64() reads the fixture"
expect="big 4112 - -
leaf 0 - -
mid 32 - big,leaf
top 80 mid -"
[ "$out" = "$expect" ]
ok $? "frames, calls and tail calls as counted by hand"
[ "$out" = "$expect" ] || printf '%s\n' "$out" | sed 's/^/# got: /'
tap_done
