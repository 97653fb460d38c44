# shellcheck shell=sh
# structured.sh - issue 10's command line inside the kprint boot, sourced
# by /init (tools/init.sh) after its KDMESG sections, while the ring holds
# the boot and the test module's records.  Each run is a "KD10-*" section
# on the data channel; check-structured.py checks them on the host against
# the records of the KMSG section.  check-kernel.sh gives the initramfs a
# /lib/modules/$(uname -r) with the test module and depmod's indexes, so
# that libkmod knows the loaded module.
if [ -x /usr/bin/kdmesg ] && [ "$VARIANT" = kprint ]; then
	# The kernel's own fields are checked here: no recovery from the
	# kprint kernel's printk index (issue 18), which would also give the
	# record whose dictionary /dev/kmsg cut (long_cut) a MODULE.
	# '-' for '_': modprobe's spelling must match too
	sec KD10-MODULE /usr/bin/kdmesg --recover=never --module kprint-test
	sec KD10-FILE /usr/bin/kdmesg --recover=never --code-file kprint_test.c
	sec KD10-FUNCTION /usr/bin/kdmesg --recover=never --function 'kp_form*'
	sec KD10-GREP /usr/bin/kdmesg --recover=never --grep 'KPTEST:(HEX|MAC)' -i MODULE=kprint_test
	sec KD10-LOCATION /usr/bin/kdmesg --recover=never --location --module kprint_test
	sec KD10-VERBOSE /usr/bin/kdmesg --recover=never -o verbose --function kp_formats
	sec KD10-JSONL /usr/bin/kdmesg --recover=never -o jsonl --module kprint_test
	sec KD10-STATS /usr/bin/kdmesg --recover=never --stats -J
	sec KD10-STATS-TEXT /usr/bin/kdmesg --recover=never --top 5
	sec KD10-MODULES sh -c 'ls -R /lib/modules; cat /proc/modules'
fi
