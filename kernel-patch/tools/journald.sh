# shellcheck shell=sh
# journald.sh - sourced by /init (tools/init.sh) of the check-kernel.sh
# initramfs after the test module printed its messages (issue 3: "systemd-
# journald stores them as _KERNEL_<KEY>; check it still works on the patched
# kernel").
#
# Starts the real systemd-journald of the build host (Debian 12: systemd 252,
# copied into the initramfs by check-kernel.sh with its libraries), lets it
# read the whole /dev/kmsg ring into a volatile journal in /run/log/journal,
# stops it, and writes the journal's kernel entries as JSON (journalctl -o
# json --all: every field, binary ones as byte arrays; gzip'ed and base64'ed)
# to the data channel in the JOURNAL-JSON-GZ section; journald's own log goes
# to JOURNALD-LOG, journalctl's error output to JOURNALCTL-STDERR.
# check-journald.py (called by check-records.py) checks them on the host.
# Uses out() and sec() of init.sh.

KPJ_JOURNALD=/lib/systemd/systemd-journald
KPJ_JOURNALCTL=/usr/bin/journalctl
KPJ_DIR=/run/log/journal

kpj_t() { echo "[$(cut -d' ' -f1 /proc/uptime)] $*"; }

# kpj_run LOG: run journald until it has read the whole ring, then stop
# it, so that it closes the journal file cleanly; its output goes to LOG.
# Sets kpj_i (polls, 300 = gave up) and kpj_rc (its exit status).
kpj_run() {
	SYSTEMD_LOG_LEVEL=debug SYSTEMD_LOG_TARGET=console SYSTEMD_COLORS=0 \
		"$KPJ_JOURNALD" < /dev/null > "$1" 2>&1 &
	kpj_pid=$!
	# journald reads the whole ring ("Flushing /dev/kmsg...") before it
	# logs "running as PID"; no journalctl polling (each exec of a systemd
	# binary costs a second or more under TCG)
	kpj_i=0
	while [ $kpj_i -lt 300 ]; do
		if grep -q 'systemd-journald running as PID' "$1"; then
			kpj_t "journald has read /dev/kmsg"
			break
		fi
		if ! kill -0 "$kpj_pid" 2>/dev/null; then
			kpj_t "systemd-journald exited early"
			break
		fi
		sleep 0.1
		kpj_i=$((kpj_i + 1))
	done
	kill -TERM "$kpj_pid" 2>/dev/null
	wait "$kpj_pid"
	kpj_rc=$?
}

kpj_start() {
	kpj_t "starting systemd-journald"
	mkdir -p /run
	mount -t tmpfs -o mode=0755,size=64m tmpfs /run || return 1
	mkdir -p "$KPJ_DIR" /run/systemd/journal
	# journald 252 exits with "Failed to acquire cgroup root path" unless a
	# cgroup file system is mounted here
	mount -t cgroup2 cgroup2 /sys/fs/cgroup || return 1
	# a last record before journald starts, found in the journal by the host
	echo "<14>kptest-journald-sync: before journald" > /dev/kmsg
	kpj_run /tmp/journald.log
	kpj_t "systemd-journald exit status $kpj_rc"
	echo "----- journald log (last 150 lines)"
	tail -n 150 /tmp/journald.log
	echo "----- journal files"
	ls -lR "$KPJ_DIR"
	[ $kpj_i -lt 300 ] && [ $kpj_rc -eq 0 ]
}

# The journal's kernel entries as JSON, gzip'ed and base64'ed: a sixth of
# the bytes on the (slow, emulated) serial port.
kpj_dump() {
	# the data channel is a tty: no colours
	SYSTEMD_COLORS=0 "$KPJ_JOURNALCTL" -D "$KPJ_DIR" -o json --all --no-pager \
		_TRANSPORT=kernel > /tmp/journal.json 2> /tmp/journalctl.err
	kpj_rc=$?
	gzip -c /tmp/journal.json | base64
	return $kpj_rc
}

# The first 256 bytes of each journal file (struct Header: n_entries,
# tail_object_offset), as hex: the host computes the journal's growth per
# entry from them.
kpj_headers() {
	for kpj_f in $(find "$KPJ_DIR" -name '*.journal' | sort); do
		echo "@@ header $kpj_f"
		head -c 256 "$kpj_f" | od -An -tx1 -v
	done
}

# Issue 13: journald started once more on the same journal after the ring
# was filled with maximal records (init.sh, maxlog); prints the headers
# before and after, then the numbers ("kptest:maxrec N") of the kernel
# entries it stored and of those that carry _KERNEL_CODE_FUNC.
kpj_again() {
	echo "@@ before"
	kpj_headers
	kpj_run /tmp/journald2.log
	echo "@@ journald exit status $kpj_rc after $kpj_i polls"
	echo "@@ after"
	kpj_headers
	echo "@@ messages"
	SYSTEMD_COLORS=0 "$KPJ_JOURNALCTL" -D "$KPJ_DIR" -o cat --all --no-pager \
		_TRANSPORT=kernel 2>&1 | maxlog_ids
	echo "@@ with _KERNEL_CODE_FUNC=kp_maxfill"
	SYSTEMD_COLORS=0 "$KPJ_JOURNALCTL" -D "$KPJ_DIR" -o cat --all --no-pager \
		_TRANSPORT=kernel _KERNEL_CODE_FUNC=kp_maxfill 2>&1 | maxlog_ids
	[ $kpj_i -lt 300 ] && [ $kpj_rc -eq 0 ]
}

# Issue 23: what journald stores of the same ring in another form of the
# lines: kpj_form MODE sets printk.kprint_dict=MODE (site: the default;
# off: no lines, what a kernel without the series shows of the same
# records).  journald writes to $KPJ_DIR and resumes after the last record
# it stored (kernel-seqnum): both are put aside, a fresh journal reads the
# whole ring once more, and everything is put back for the maximal-record
# run.  Prints its file headers (as "@@ after", for the bytes per entry)
# and, gzip'ed and base64'ed, its kernel entries' MESSAGE,
# _SOURCE_MONOTONIC_TIMESTAMP and _KERNEL_ fields of the series.
kpj_form() {
	kpj_seq=/run/systemd/journal/kernel-seqnum
	echo "$1" > "$SWITCH" || return 1
	mv "$KPJ_DIR" /run/log/journal.full
	[ ! -e "$kpj_seq" ] || mv "$kpj_seq" /run/kernel-seqnum.full
	mkdir -p "$KPJ_DIR"
	kpj_run /tmp/journald-site.log
	echo "@@ journald exit status $kpj_rc after $kpj_i polls"
	echo "@@ after"
	kpj_headers
	echo "@@ json"
	SYSTEMD_COLORS=0 "$KPJ_JOURNALCTL" -D "$KPJ_DIR" -o json --all --no-pager \
		--output-fields=MESSAGE,_SOURCE_MONOTONIC_TIMESTAMP,_KERNEL_SITE,_KERNEL_CODE_FILE,_KERNEL_FORMAT \
		_TRANSPORT=kernel 2>/tmp/journalctl-site.err | gzip -c | base64
	echo "@@ end"
	cat /tmp/journalctl-site.err
	rm -rf "$KPJ_DIR"
	mv /run/log/journal.full "$KPJ_DIR"
	[ ! -e /run/kernel-seqnum.full ] || mv /run/kernel-seqnum.full "$kpj_seq"
	echo full > "$SWITCH"
	[ $kpj_i -lt 300 ] && [ $kpj_rc -eq 0 ]
}

if [ -x "$KPJ_JOURNALD" ] && [ -x "$KPJ_JOURNALCTL" ]; then
	sec JOURNALD-LOG kpj_start
	sec JOURNAL-JSON-GZ kpj_dump
	sec JOURNALCTL-STDERR cat /tmp/journalctl.err
	if [ "$VARIANT" = kprint ] && [ -e "$SWITCH" ]; then
		sec JOURNAL-SITE kpj_form site
		sec JOURNAL-OFF kpj_form off
	fi
else
	out "=====JOURNAL-ABSENT====="
fi
