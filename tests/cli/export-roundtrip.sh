#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# export-roundtrip.sh - `kdmesg -o export` is accepted by systemd's own
# importer: the stream is fed to systemd-journal-remote, which writes a
# journal file, and `journalctl --file -o json` must give back every field
# (journald's names, dictionary keys as _KERNEL_*, binary-safe messages,
# identifiers of user-space records, the wall-clock time).
#
# Skips (TAP "1..0 # SKIP") only when systemd-journal-remote is not
# installed (Debian package systemd-journal-remote).
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"

remote=$(command -v systemd-journal-remote 2>/dev/null)
for p in /lib/systemd/systemd-journal-remote /usr/lib/systemd/systemd-journal-remote; do
	[ -n "$remote" ] && break
	[ -x "$p" ] && remote=$p
done
if [ -z "$remote" ] || ! command -v journalctl >/dev/null 2>&1; then
	echo "1..0 # SKIP systemd-journal-remote is not installed"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

# Five records in /dev/kmsg format, NUL-separated (the -K file format):
# a dev_printk() record with its dictionary, a multi-line message, a
# daemon's record (facility 3), a continuation with TAB, UTF-8 and a
# dictionary, and a message with a byte that is not UTF-8.
printf '%s\n%s\n%s\n\0' '6,1,1234567,-,caller=T12;usb 1-1: new high-speed USB device' \
	' SUBSYSTEM=usb' ' DEVICE=+usb:1-1' >"$tmp/in.kmsg"
printf '%s\n\0' '4,2,2000000,-;line one\x0aline two' >>"$tmp/in.kmsg"
printf '%s\n\0' '30,3,3000000,-;systemd[1]: Started Journal Service.' >>"$tmp/in.kmsg"
printf '%s\n%s\n%s\n\0' '3,4,4000000,c,caller=C1;tab\x09and UTF-8 Ger\xc3\xa4t' \
	' SUBSYSTEM=pci' ' DEVICE=+pci:0000:00:1f.3' >>"$tmp/in.kmsg"
printf '%s\n\0' '6,5,5000000,-;bad \xff byte' >>"$tmp/in.kmsg"

DMESG_TEST_BOOTIME=1700000000.000000 "$KDMESG" -K "$tmp/in.kmsg" -o export \
	>"$tmp/out.export" 2>"$tmp/kdmesg.err"
ok $? "kdmesg -K FILE -o export exits 0"
[ -s "$tmp/kdmesg.err" ] && sed 's/^/# kdmesg: /' "$tmp/kdmesg.err"

"$remote" --output="$tmp/out.journal" - <"$tmp/out.export" >"$tmp/remote.log" 2>&1
rc=$?
grep -q 'writing 5 entries' "$tmp/remote.log"
ok $((rc + $?)) "systemd-journal-remote imports all 5 entries"
sed 's/^/# journal-remote: /' "$tmp/remote.log"

journalctl --file="$tmp/out.journal" -o json >"$tmp/out.json" 2>"$tmp/journalctl.err"
ok $? "journalctl reads the imported journal"
[ "$(wc -l <"$tmp/out.json")" -eq 5 ]
ok $? "five entries read back"

# has ENTRY STRING...: entry ENTRY (1-based, in time order) of the JSON
# output contains every STRING (journalctl orders members arbitrarily).
has() {
	line=$(sed -n "${1}p" "$tmp/out.json")
	shift
	for s in "$@"; do
		case $line in
		*"$s"*) ;;
		*)
			echo "# missing: $s"
			echo "# in: $line"
			return 1
			;;
		esac
	done
	return 0
}

has 1 '"MESSAGE":"usb 1-1: new high-speed USB device"' '"PRIORITY":"6"' \
	'"SYSLOG_FACILITY":"0"' '"SYSLOG_IDENTIFIER":"kernel"' '"_TRANSPORT":"kernel"' \
	'"_KERNEL_SUBSYSTEM":"usb"' '"_KERNEL_DEVICE":"+usb:1-1"' \
	'"__REALTIME_TIMESTAMP":"1700000001234567"' '"__MONOTONIC_TIMESTAMP":"1234567"' \
	'"_SOURCE_MONOTONIC_TIMESTAMP":"1234567"' '"KDMESG_SEQNUM":"1"' '"KDMESG_CALLER":"T12"'
ok $? "dev_printk record: priority, facility, time, dictionary, seq and caller survive"

has 2 '"MESSAGE":"line one\nline two"' '"PRIORITY":"4"' '"__REALTIME_TIMESTAMP":"1700000002000000"'
ok $? "multi-line message survives as a binary-safe field"

has 3 '"SYSLOG_IDENTIFIER":"systemd"' '"SYSLOG_PID":"1"' '"SYSLOG_FACILITY":"3"' \
	'"PRIORITY":"6"' '"MESSAGE":"Started Journal Service."'
ok $? "daemon record: identifier and pid split off as journald does"

has 4 '"MESSAGE":"tab\tand UTF-8 Ger'"$(printf '\303\244')"'t"' '"PRIORITY":"3"' \
	'"_KERNEL_SUBSYSTEM":"pci"' '"_KERNEL_DEVICE":"+pci:0000:00:1f.3"' \
	'"KDMESG_FLAGS":"c"' '"KDMESG_CALLER":"C1"'
ok $? "continuation flag, TAB and UTF-8 survive"

# journalctl shows a value that is not UTF-8 as an array of byte values.
has 5 '"MESSAGE":[98,97,100,32,255,32,98,121,116,101]'
ok $? "a byte that is not UTF-8 survives exactly"

tap_done
