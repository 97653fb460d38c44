#!/bin/sh
# /init of debian-boot.sh's initramfs (busybox sh), inside Debian's own
# linux-image-6.12 kernel.  Loads the modules listed in /etc/modules.order
# (dependencies first), brings the network cards up and mounts the ext4
# disk, so that drivers and file systems log as on an installed system,
# then writes on the second serial port (ttyS1), between
# "=====NAME-BEGIN=====" and "=====NAME-END=====" markers:
#   INFO     uname -r, /proc/version, /proc/cmdline
#   INSMOD   each insmod and its exit status
#   KMSG     every /dev/kmsg record (kmsg-dump)
#   DYNDBG   /sys/kernel/debug/dynamic_debug/control
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
exec 0</dev/console 1>/dev/console 2>&1

stty -F /dev/ttyS1 raw -echo 2>/dev/null
exec 3>/dev/ttyS1
out() { echo "$*" >&3; }
sec() {
	name=$1
	shift
	out "=====$name-BEGIN====="
	"$@" >&3 2>&1
	out "=====$name-END====="
}

info() {
	uname -r
	cat /proc/version /proc/cmdline
}

load() {
	while read -r m; do
		[ -n "$m" ] || continue
		insmod "/modules/$m.ko"
		echo "insmod $m: $?"
	done < /etc/modules.order
}

work() {
	for i in /sys/class/net/*; do
		ip link set "${i##*/}" up
	done
	mkdir -p /mnt
	if [ -b /dev/vda ]; then
		mount -t ext4 /dev/vda /mnt && echo hello > /mnt/hello && umount /mnt
	fi
	# e1000 reports "Link is Up" from a work queue
	sleep 3
}

out "=====DEBIAN-START====="
sec INFO info
sec INSMOD load
work
sec KMSG kmsg-dump
sec DYNDBG cat /sys/kernel/debug/dynamic_debug/control
out "=====DEBIAN-DONE====="
sync
poweroff -f
