// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-boottime.c - the wall-clock boot time: DMESG_TEST_BOOTIME pinning
 * (util-linux's SEC.USEC reading) and the live computation.
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "shared/boottime.h"
#include "tap.h"

static int64_t now_minus_boottime(void)
{
	struct timespec rt, bt;

	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_BOOTTIME, &bt);
	return ((int64_t)rt.tv_sec - bt.tv_sec) * 1000000 +
	       (rt.tv_nsec - bt.tv_nsec) / 1000;
}

int main(void)
{
	int64_t v = -1, live;

	setenv(KD_BOOTTIME_ENV, "1234567890.123456", 1);
	tap_is_int(kd_boottime_get(&v), 0, "pinned boot time accepted");
	tap_is_int(v, 1234567890123456LL, "SEC.USEC pins the boot time");

	setenv(KD_BOOTTIME_ENV, "12.5", 1);
	kd_boottime_get(&v);
	tap_is_int(v, 12000005LL, "USEC is taken as written (5 us, not 0.5 s)");

	setenv(KD_BOOTTIME_ENV, "100.0", 1);
	kd_boottime_get(&v);
	tap_is_int(v, 100000000LL, "zero microseconds");

	setenv(KD_BOOTTIME_ENV, "garbage", 1);
	live = now_minus_boottime();
	tap_is_int(kd_boottime_get(&v), 0, "unparsable value falls back to the clocks");
	/* boot time + suspended time = realtime - monotonic >= realtime - boottime */
	tap_ok(v >= live - 1000000 && v <= live + 86400LL * 1000000 * 365,
	       "live boot time is near CLOCK_REALTIME - CLOCK_BOOTTIME (%lld vs %lld)",
	       (long long)v, (long long)live);

	unsetenv(KD_BOOTTIME_ENV);
	tap_is_int(kd_boottime_get(&v), 0, "live boot time without the variable");
	tap_ok(v > 1500000000LL * 1000000, "live boot time is after 2017");
	return tap_done();
}
