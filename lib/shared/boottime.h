/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boottime.h - the wall-clock offset dmesg adds to kernel time stamps
 * (ctime, iso, reltime, --since/--until, -o export).
 */
#ifndef KDMESG_BOOTTIME_H
#define KDMESG_BOOTTIME_H

#include <stdint.h>

/* The environment variable util-linux's dmesg test program honours. */
#define KD_BOOTTIME_ENV	"DMESG_TEST_BOOTIME"

/**
 * kd_boottime_get() - µs since the epoch to add to a record's stamp (µs
 * since boot) to get its wall-clock time, into *@usec.
 *
 * As dmesg: the boot time is CLOCK_REALTIME minus CLOCK_BOOTTIME (or the
 * sysinfo(2) uptime when CLOCK_BOOTTIME is missing), plus the time spent
 * suspended (CLOCK_BOOTTIME minus CLOCK_MONOTONIC), because printk stamps
 * stop while the machine sleeps.  When DMESG_TEST_BOOTIME=SEC.USEC is set
 * (both parts decimal; USEC is taken as microseconds as written, "5" is
 * 5 µs), that is the boot time and nothing is added for suspend, so tests
 * get reproducible wall-clock output.
 *
 * Returns 0, or a negative errno (and *@usec = 0) when the clocks fail.
 */
int kd_boottime_get(int64_t *usec);

#endif /* KDMESG_BOOTTIME_H */
