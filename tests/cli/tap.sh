# SPDX-License-Identifier: GPL-2.0-or-later
# tap.sh - TAP helpers for the shell tests, sourced by each of them:
#   ok STATUS DESCRIPTION   one check, passed when STATUS is 0
#   tap_done                the plan line; the status is 1 if a check failed
n=0
failed=0

ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

tap_done() {
	echo "1..$n"
	[ "$failed" = 0 ]
}
