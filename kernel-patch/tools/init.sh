#!/bin/sh
# /init of the check-kernel.sh initramfs (busybox sh).
#
# The kernel console is ttyS0; everything the host checks is written to the
# second serial port, ttyS1, between "=====NAME-BEGIN=====" and
# "=====NAME-END=====" markers, followed by "=====NAME-RC=<status>=====".
# /etc/kptest.conf (written by check-kernel.sh) sets VARIANT, SWITCH,
# SITES_GLOB, BENCH_N, BENCH2_N, FLOOD_N and MAXREC_N.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
exec 0</dev/console 1>/dev/console 2>&1
# shellcheck disable=SC1091
. /etc/kptest.conf

stty -F /dev/ttyS1 raw -echo 2>/dev/null
exec 3>/dev/ttyS1
out() { echo "$*" >&3; }
sec() {
	name=$1
	shift
	out "=====$name-BEGIN====="
	"$@" >&3 2>&1
	rc=$?
	out "=====$name-END====="
	out "=====$name-RC=$rc====="
}

PARAMS=/sys/module/kprint_test/parameters
if [ ! -e "$SWITCH" ]; then
	for f in /sys/module/printk/parameters/*kprint*; do
		if [ -e "$f" ]; then SWITCH=$f; break; fi
	done
fi

info() {
	echo "variant=$VARIANT"
	uname -a
	cat /proc/cmdline
	echo "cpus=$(grep -c ^processor /proc/cpuinfo)"
	# where the kernel runs (KASLR of the relocatable kprint variant)
	echo "text=$(grep -m 1 ' _text$' /proc/kallsyms)"
	echo "console_loglevel=$(cat /proc/sys/kernel/printk)"
	echo "switch=$SWITCH"
	if [ -e "$SWITCH" ]; then
		echo "switch_value=$(cat "$SWITCH")"
	else
		echo "switch_value=<missing>"
	fi
	echo "printk_parameters:"
	ls /sys/module/printk/parameters 2>&1
	echo "debugfs:"
	ls /sys/kernel/debug 2>&1
}

sites() {
	found=1
	for f in $SITES_GLOB; do
		[ -f "$f" ] || continue
		found=0
		echo "@@ file=$f lines=$(wc -l < "$f")"
		head -n 3 "$f"
		echo "@@ module lines"
		grep -e kprint_test -e kptest "$f"
	done
	return $found
}

set_switch() {
	[ -e "$SWITCH" ] || { echo "no switch at $SWITCH"; return 1; }
	echo "$1" > "$SWITCH" || return 1
	echo "$SWITCH=$(cat "$SWITCH")"
}

emit_again() {
	echo 1 > $PARAMS/trigger
}

# bench TAG [PV]: PV 1 times kp_pv_msg(), a "%pV" wrapper as ext4_msg() is
# (issue 24), instead of printk()
bench() {
	echo "$1" > $PARAMS/bench_tag
	echo "${2:-0}" > $PARAMS/bench_pv
	echo "$BENCH_N" > $PARAMS/bench
	out "kptest:bench ns_per_call=$(cat $PARAMS/bench_result) switch=$1 n=$BENCH_N min=$(cat $PARAMS/bench_min) pv=${2:-0}"
}

# Ring exhaustion (issue 4, EMERG reserve): a reader opens /dev/kmsg at its
# end and does not read while kprint_api.ko emits an EMERG record and then
# FLOOD_N INFO records (far more than the 128 KiB ring holds); then it reads
# and must get EPIPE and after it the EMERG record (from the reserve).
reserve() {
	rm -f /tmp/go /tmp/go.ready
	echo 1 > /proc/sys/kernel/printk
	kmsg-dump --wait /tmp/go > /tmp/reserve.out 2>&1 &
	pid=$!
	i=0
	while [ ! -e /tmp/go.ready ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	echo "flood=$FLOOD_N"
	echo "$FLOOD_N" > /sys/module/kprint_api/parameters/flood
	touch /tmp/go
	wait $pid
	echo 7 > /proc/sys/kernel/printk
	# only what the host checks: the EPIPEs, the reserve_* records and the
	# first flood record after an EPIPE (the rest is thousands of records)
	awk '
	/^@@ EPIPE/ { print; ep = 1; next }
	/^@@/ { next }
	/^[0-9]+,[0-9]+,/ {
		n++
		keep = ($0 ~ /kpapi:reserve_/) || (ep && !ff && $0 ~ /kpapi:flood/)
		if (ep && $0 ~ /kpapi:flood/) ff = 1
		if (keep) print
		next
	}
	/^ / { if (keep) print }
	END { print "@@ records read: " n }
	' /tmp/reserve.out
}

out "=====KPTEST-START variant=$VARIANT====="
sec INFO info
# The checks read the full lines (printk.kprint_dict=full); the default
# form (site: SITE=) is read once more below (KMSG-SITE) and
# resolved on the host.  The switch is read when a record is read.
if [ -e "$SWITCH" ]; then echo full > "$SWITCH"; fi
# the boot log before any test adds records (early records, cut-off checks)
if [ "$VARIANT" != stock ]; then
	sec BOOTKMSG kmsg-dump
fi
# issue 24: with "kptest.drivers" on the command line (check-kernel.sh's
# kprint boot, tools/drivers-devices.sh) drive the real devices QEMU gives
# the kernel, before any test module loads, and save the ring after them
# for check-drivers.py: a line "<step> <status>" per step in DRIVERS, the
# records in KMSG-DRIVERS
step() {
	what=$1
	shift
	"$@" > /dev/null 2>&1
	echo "$what $?"
}
# mount DEV as TYPE (with OPTS) on /mnt, write a file there, unmount it
fs_steps() {
	step "mount $1 $2" mount -t "$2" ${3:+-o "$3"} "$1" /mnt
	step "write /mnt/kdmesg" sh -c 'echo kdmesg > /mnt/kdmesg && sync'
	step "umount /mnt" umount /mnt
}
# read the first 64 KiB of DEV, waiting up to WAIT seconds for it: a USB
# stick is scanned a second or more after its hub port comes up
read_start() {
	i=0
	while [ ! -e "$1" ] && [ $i -lt "$2" ]; do
		sleep 1
		i=$((i + 1))
	done
	dd if="$1" of=/dev/null bs=65536 count=1
}
drivers() {
	mkdir -p /mnt
	fs_steps /dev/vda ext4
	fs_steps /dev/vdb btrfs
	fs_steps /dev/vdc xfs
	fs_steps /dev/vdd f2fs
	fs_steps /dev/vde nilfs2
	# debug=4: P9_DEBUG_9P, a p9_debug() line per 9P message
	fs_steps kd9p 9p trans=virtio,debug=4
	step "read /dev/sda" read_start /dev/sda 0
	step "read /dev/sr0" read_start /dev/sr0 0
	step "read /dev/sdb" read_start /dev/sdb 20
	step "up eth0" ip link set eth0 up
	# e1000's watchdog reports the link about 2 s later
	sleep 4
}
if grep -qw kptest.drivers /proc/cmdline; then
	sec DRIVERS drivers
	sec KMSG-DRIVERS kmsg-dump
fi
sec INSMOD insmod /kprint_test.ko dyndbg=+p
sec KMSG kmsg-dump
# issue 18: the running kernel's own format sources, taken with the records
# above, for the recovery proof on the host (check-recover.py): the printk
# index (CONFIG_PRINTK_INDEX: the kprint variant) and the dynamic-debug
# control file
printk_index() {
	for f in /sys/kernel/debug/printk/index/*; do
		[ -f "$f" ] || continue
		echo "@@ file=${f##*/}"
		cat "$f"
	done
}
case $VARIANT in
cut*) ;;
*)
	[ ! -d /sys/kernel/debug/printk/index ] || sec PRINTKINDEX printk_index
	[ ! -f /sys/kernel/debug/dynamic_debug/control ] ||
		sec DYNDBG cat /sys/kernel/debug/dynamic_debug/control
	;;
esac
case $VARIANT in
cut*)
	# cut-off variants: the API module, its records, then done
	sec INSMOD-API insmod /kprint_api.ko dyndbg=+p
	sec KMSG-API kmsg-dump
	# the module's call sites as debugfs lists them (function names)
	sec SITES sites
	out "=====KPTEST-DONE====="
	sync
	reboot -f
	;;
esac
sec DMESG /usr/bin/dmesg
sec DMESG-X /usr/bin/dmesg -x
sec DMESG-R /usr/bin/dmesg -r
# syslog(2) (busybox dmesg uses klogctl) and /proc/kmsg must not change
sec SYSLOG /bin/busybox dmesg
# (in a shell that exits normally: when the command itself dies of
# timeout's SIGTERM, busybox sh reports "Terminated" while the section's
# redirection to ttyS1 is still in place, into the captured text).  Read
# into memory first: /proc/kmsg blocks once it is read out, and copied
# straight to the emulated serial port the whole log did not always get
# through before the timeout on a busy host.
sec PROCKMSG sh -c 'exec 2>/dev/null; timeout 5 cat /proc/kmsg > /tmp/prockmsg
	rc=$?; cat /tmp/prockmsg; exit $rc'
if [ -x /usr/bin/kdmesg ]; then
	sec KDMESG /usr/bin/kdmesg
	sec KDMESG-X /usr/bin/kdmesg -x
	sec KDMESG-JSONL /usr/bin/kdmesg -o jsonl
	# shellcheck disable=SC1091 # issue 10: the structured command line
	[ ! -f /etc/structured.sh ] || . /etc/structured.sh
else
	out "=====KDMESG-ABSENT====="
fi
sec SITES sites
# issue 23: the same records in the default form (SITE=), and
# the whole site table their SITE= values refer to (gzip'ed, base64'ed),
# resolved by the host (check-site.py)
site_table() {
	for f in $SITES_GLOB; do
		[ -f "$f" ] || continue
		gzip -c "$f" | base64
		return 0
	done
	return 1
}
if [ "$VARIANT" = kprint ] && [ -e "$SWITCH" ]; then
	set_switch site > /dev/null
	sec KMSG-SITE kmsg-dump
	set_switch full > /dev/null
	sec SITES-GZ site_table
fi
# shellcheck disable=SC1091 # systemd-journald (issue 3)
[ ! -f /etc/journald.sh ] || . /etc/journald.sh
# shellcheck disable=SC1091 # kdmesg translates the boot (issue 11)
[ ! -f /etc/translate.sh ] || . /etc/translate.sh

# phase 2: the runtime switch off, all messages again
if [ "$VARIANT" = kprint ]; then
	sec SWITCH-OFF set_switch 0
fi
echo "kptest-phase2" > /dev/kmsg
sec TRIGGER emit_again
sec KMSG2 kmsg-dump
sec DMESG2 /usr/bin/dmesg

# the kprint API module (issue 4), with the runtime switch on again (phase 2
# turned it off), in the full form
if [ -e /kprint_api.ko ]; then
	if [ "$VARIANT" = kprint ] && [ -e "$SWITCH" ]; then
		set_switch full >/dev/null
	fi
	sec INSMOD-API insmod /kprint_api.ko dyndbg=+p
	sec KMSG-API kmsg-dump
fi

# benchmark: consoles quiet, alternate on/off to cancel drift
echo 1 > /proc/sys/kernel/printk
out "=====BENCH-BEGIN====="
for _ in 1 2 3 4 5; do
	if [ "$VARIANT" = kprint ] && [ -e "$SWITCH" ]; then
		set_switch full >/dev/null && bench on && bench on 1
		set_switch 0 >/dev/null && bench off
	elif [ "$VARIANT" = kprint ]; then
		bench noswitch
	else
		bench stock
		bench stock 1
	fi
done
out "=====BENCH-END====="
# printk() under contention (issue 13): the first CPU's cost while the
# other CPU logs too (flush=0), or flushes groups all the time (flush=1,
# kprint only); switch on
bench2() {
	echo "$1" > $PARAMS/bench2_flush
	echo "$BENCH2_N" > $PARAMS/bench2
	out "kptest:bench2 ns_per_call=$(cat $PARAMS/bench2_result) flush=$1 variant=$VARIANT n=$BENCH2_N min=$(cat $PARAMS/bench2_min)"
}
if [ "$VARIANT" = kprint ] && [ -e "$SWITCH" ]; then set_switch full >/dev/null; fi
out "=====BENCH2-BEGIN====="
for _ in 1 2 3; do
	bench2 0
	if [ "$VARIANT" = kprint ]; then bench2 1; fi
done
out "=====BENCH2-END====="
echo 7 > /proc/sys/kernel/printk

# Issue 13: a log full of maximal records.  kprint_test.ko fills the ring
# with records of 32 arguments and about 1 KiB of text (half of them mostly
# escaped bytes); every record must stay within 2048 bytes, and a reader
# with a 2 KiB buffer (kmsg-dump --bufsize 2048), util-linux dmesg and
# systemd-journald must each get every record that is in the ring.
maxlog_ids() {
	# the numbers N of the "kptest:maxrec N" texts on stdin, in order
	tr -d '\001-\011\013-\037\177-\377' | grep -o 'kptest:maxrec [0-9]*' | sed 's/.* //' |
		tr '\n' ' '
	echo
}
maxfill() {
	echo 1 > /proc/sys/kernel/printk
	echo "$MAXREC_N" > $PARAMS/maxfill
	rc=$?
	echo 7 > /proc/sys/kernel/printk
	echo "maxfill=$MAXREC_N"
	return $rc
}
maxdump() {
	# one line per maxrec record: length, number, dictionary lines and the
	# last key; every "@@" line of kmsg-dump (errors, cut records)
	kmsg-dump --bufsize 2048 > /tmp/maxdump.out
	rc=$?
	awk '
	function flush() { if (id != "") print "R len=" len " i=" id " lines=" nl " last=" last; id = "" }
	/^@@ len=/ { flush(); len = substr($2, 5); next }
	/^@@/ { flush(); print; next }
	/^[0-9]+,[0-9]+,/ { n++; if (len + 0 > max) max = len + 0
		id = ""; nl = 0; last = "-"
		if (match($0, /;kptest:maxrec [0-9]+/)) { id = substr($0, RSTART + 15, RLENGTH - 15) }
		next }
	/^ / { nl++; last = $1; sub(/=.*/, "", last); next }
	END { flush(); print "@@ records " n " longest " max }
	' /tmp/maxdump.out
	return $rc
}
maxdmesg() {
	/usr/bin/dmesg > /tmp/maxdmesg.out 2>&1
	rc=$?
	maxlog_ids < /tmp/maxdmesg.out
	grep -v 'kptest:maxrec' /tmp/maxdmesg.out | tail -n 3
	return $rc
}
if [ "$VARIANT" = kprint ] || [ "$VARIANT" = stock ]; then
	sec MAXFILL maxfill
	sec MAXDUMP maxdump
	sec MAXDMESG maxdmesg
	if [ -f /etc/journald.sh ] && [ -x /lib/systemd/systemd-journald ]; then
		sec MAXJOURNAL kpj_again
	fi
	sec MAXDUMP2 maxdump
fi

if [ -e /sys/module/kprint_api ]; then
	if [ -e "$SWITCH" ]; then set_switch full >/dev/null; fi
	sec RESERVE reserve
	rmmod kprint_api
fi
sec RMMOD rmmod kprint_test
out "=====KPTEST-DONE====="
sync
reboot -f
