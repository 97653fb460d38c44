# SPDX-License-Identifier: GPL-2.0-or-later
# reap.sh - sourced by the tests that run kdmesg in a tmux pane:
#   reap_viewer PIDFILE   after the tmux server is gone, kill the kdmesg
#                         whose pid is in PIDFILE if it still runs
# Once, in CI, a kdmesg --tui built with AddressSanitizer outlived its
# pane (LeakSanitizer's exit-time check spinning after the terminal went
# away) and took a whole CPU for half an hour, which made the kernel boot
# test's contention timings of that run fail.  Nothing a test starts may
# stay behind.
reap_viewer() {
	[ -s "$1" ] || return 0
	_v=$(cat "$1")
	_i=0
	while [ $_i -lt 30 ] && [ -d "/proc/$_v" ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if grep -qa kdmesg "/proc/$_v/cmdline" 2>/dev/null; then
		echo "# reap.sh: kdmesg (pid $_v) outlived its tmux pane; killed" >&2
		kill -KILL "$_v" 2>/dev/null
	fi
	return 0
}
