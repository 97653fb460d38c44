#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# golden.sh - run kdmesg on the fixtures with every option and error path
# listed in a case table and compare standard output, standard error and
# the exit status with golden files, printing TAP.
#
#   tests/cli/golden.sh [--update] [CASES]
#
# CASES defaults to tests/cli/golden.cases.  Each line there is
#
#   NAME  STATUS  ARGUMENTS...
#
# ARGUMENTS are shell words (quotes and "< file" work) run from
# tests/fixtures/, so file names in messages stay short and stable.  A
# leading LC_ALL=LOCALE word runs that case in another locale (C.UTF-8
# for the escaping of multibyte text).
# The expected bytes are tests/expected/cli/NAME.out (standard
# output) and NAME.err (standard error; absent means empty).
#
# --update (or `make update-golden`) rewrites the golden files from the
# current kdmesg.  Review every changed file (git diff) before committing:
# a golden file is a claim about dmesg's behaviour, not a snapshot.
#
# The environment is pinned: TZ=GMT, LC_ALL=C, DMESG_TEST_BOOTIME (the
# boot time util-linux's own tests use), a caller-id width of 6 (what a
# pid_max of 32768 gives) and an empty terminal-colors.d.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}

update=0
if [ "${1:-}" = "--update" ]; then
	update=1
	shift
fi
cases=${1:-$srcdir/tests/cli/golden.cases}
fixtures=$srcdir/tests/fixtures
expected=$srcdir/tests/expected/cli

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/config/terminal-colors.d"

export TZ=GMT LC_ALL=C LANG=C LANGUAGE=
export DMESG_TEST_BOOTIME=1234567890.123456
export KDMESG_TEST_CALLER_WIDTH=6
# libkmod reads no modules tree of the host: the same notes everywhere.
export KDMESG_MODULES_DIR=/nonexistent
export XDG_CONFIG_HOME="$tmp/config" HOME="$tmp"
unset NO_COLOR PAGER LESS TERMINAL_COLORS_DEBUG
export TERM=dumb

n=0
failed=0

# Show up to 40 lines of difference as TAP diagnostics.
show_diff() {
	diff -u "$1" "$2" 2>&1 | head -n 40 | sed 's/^/# /'
}

run_case() {
	name=$1 want_status=$2 args=$3 locale=C

	case $args in
	LC_ALL=*)
		locale=${args%%[ 	]*}
		locale=${locale#LC_ALL=}
		args=${args#*[ 	]}
		;;
	esac
	(
		cd "$fixtures" || exit 99
		export LC_ALL="$locale"
		eval "\"\$KDMESG\" $args"
	) >"$tmp/out" 2>"$tmp/err"
	status=$?

	if [ "$update" = 1 ]; then
		mkdir -p "$expected"
		cp "$tmp/out" "$expected/$name.out"
		if [ -s "$tmp/err" ]; then
			cp "$tmp/err" "$expected/$name.err"
		else
			rm -f "$expected/$name.err"
		fi
	fi

	want_err=$expected/$name.err
	[ -f "$want_err" ] || want_err=/dev/null

	n=$((n + 1))
	if [ "$status" = "$want_status" ] &&
	   cmp -s "$tmp/out" "$expected/$name.out" &&
	   cmp -s "$tmp/err" "$want_err"; then
		echo "ok $n - $name: kdmesg $args"
		return
	fi
	failed=$((failed + 1))
	echo "not ok $n - $name: kdmesg $args"
	[ "$status" = "$want_status" ] ||
		echo "# exit status $status, want $want_status"
	if [ -f "$expected/$name.out" ]; then
		cmp -s "$tmp/out" "$expected/$name.out" ||
			show_diff "$expected/$name.out" "$tmp/out"
	else
		echo "# missing $expected/$name.out (run with --update)"
	fi
	cmp -s "$tmp/err" "$want_err" || show_diff "$want_err" "$tmp/err"
}

while IFS= read -r line || [ -n "$line" ]; do
	case $line in
	'' | '#'*) continue ;;
	esac
	# NAME STATUS REST (REST keeps its own spacing and quotes).
	name=${line%%[ 	]*}
	rest=${line#"$name"}
	rest=${rest#"${rest%%[! 	]*}"}
	want=${rest%%[ 	]*}
	args=${rest#"$want"}
	args=${args#"${args%%[! 	]*}"}
	run_case "$name" "$want" "$args"
done <"$cases"

echo "1..$n"
[ "$failed" = 0 ]
