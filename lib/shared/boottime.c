// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * boottime.c - the wall-clock boot time, computed the way util-linux's
 * dmesg computes it, with its DMESG_TEST_BOOTIME override for tests.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <time.h>

#include "shared/boottime.h"

static int64_t ts_usec(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000 + ts->tv_nsec / 1000;
}

/* dmesg's boot time: now minus uptime, at microsecond resolution. */
static int boot_time(int64_t *usec)
{
	struct timespec up;
	struct timeval now;
	struct sysinfo info;

	if (gettimeofday(&now, NULL) != 0)
		return -errno;
	if (clock_gettime(CLOCK_BOOTTIME, &up) == 0) {
		/* timersub() of two timevals: truncate the uptime first. */
		*usec = (int64_t)now.tv_sec * 1000000 + now.tv_usec -
			((int64_t)up.tv_sec * 1000000 + up.tv_nsec / 1000);
		return 0;
	}
	if (sysinfo(&info) != 0)
		return -errno;
	*usec = ((int64_t)now.tv_sec - info.uptime) * 1000000;
	return 0;
}

static int64_t suspended_time(void)
{
	struct timespec boot, mono;

	if (clock_gettime(CLOCK_BOOTTIME, &boot) == 0 &&
	    clock_gettime(CLOCK_MONOTONIC, &mono) == 0)
		return ts_usec(&boot) - ts_usec(&mono);
	return 0;
}

int kd_boottime_get(int64_t *usec)
{
	const char *env = getenv(KD_BOOTTIME_ENV);
	uintmax_t sec, us;
	int64_t boot = 0;
	int rc;

	/* sscanf("%ju.%ju") as util-linux: "12.5" is 12 s and 5 µs. */
	if (env && sscanf(env, "%ju.%ju", &sec, &us) == 2) {
		*usec = (int64_t)sec * 1000000 + (int64_t)us;
		return 0;
	}

	rc = boot_time(&boot);
	if (rc < 0) {
		*usec = 0;
		return rc;
	}
	*usec = boot + suspended_time();
	return 0;
}
