#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# instr.sh COMMAND [ARG...] - print how many instructions COMMAND executes
# (valgrind --tool=callgrind: the same count on an idle or a loaded
# machine, unlike CPU time), its output thrown away.  kdmesg does the
# same work whether its output is a pipe or /dev/null (neither is a
# terminal), so the count is that of the piped runs the scripts time.
set -eu

command -v valgrind >/dev/null ||
	{ echo "instr.sh: valgrind is needed (apt-get install valgrind)" >&2; exit 2; }
log=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null) ||
	{ printf '%s\n' "$log" >&2; echo "instr.sh: failed: $*" >&2; exit 2; }
printf '%s\n' "$log" | sed -n 's/^==[0-9]*== Collected : *//p'
