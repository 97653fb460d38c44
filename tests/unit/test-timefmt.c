// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-timefmt.c - dmesg 2.42's rules for combining -d, -e, -T, -t and
 * --time-format (the cases of util-linux's timestamp-format tests).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sink/timefmt.h"
#include "tap.h"

#define END	(-1)

/* Add the formats in @in, resolve, compare with @want (END-terminated). */
static void check(const char *name, const int *in, const int *want)
{
	struct kd_output_opts o;
	size_t i, n = 0;
	bool same;

	memset(&o, 0, sizeof(o));
	for (i = 0; in[i] != END; i++)
		kd_timefmt_add(&o, in[i]);
	kd_timefmt_resolve(&o);
	while (want[n] != END)
		n++;
	same = o.ntime == n;
	for (i = 0; same && i < n; i++)
		same = (int)o.time[i] == want[i];
	if (!tap_ok(same, "%s", name)) {
		for (i = 0; i < o.ntime; i++)
			tap_diag("got[%zu] = %d", i, (int)o.time[i]);
	}
}

int main(void)
{
	check("no option: default raw stamp", (int[]){ END }, (int[]){ END });
	check("-d: stamp and delta in one bracket",
	      (int[]){ KD_TIME_RAW_DELTA, END }, (int[]){ KD_TIME_RAW_DELTA, END });
	check("--time-format delta alone stays a bare delta",
	      (int[]){ KD_TIME_DELTA, END }, (int[]){ KD_TIME_DELTA, END });
	check("-d -t: delta only",
	      (int[]){ KD_TIME_RAW_DELTA, KD_TIME_NONE, END }, (int[]){ KD_TIME_DELTA, END });
	check("-t -d: order does not matter",
	      (int[]){ KD_TIME_NONE, KD_TIME_RAW_DELTA, END }, (int[]){ KD_TIME_DELTA, END });
	check("-t -T: notime wins",
	      (int[]){ KD_TIME_NONE, KD_TIME_CTIME, END }, (int[]){ KD_TIME_NONE, END });
	check("-T -d: ctime with delta",
	      (int[]){ KD_TIME_CTIME, KD_TIME_RAW_DELTA, END }, (int[]){ KD_TIME_CTIME_DELTA, END });
	check("delta + raw merge",
	      (int[]){ KD_TIME_DELTA, KD_TIME_RAW, END }, (int[]){ KD_TIME_RAW_DELTA, END });
	check("iso + delta + ctime keeps iso first",
	      (int[]){ KD_TIME_ISO, KD_TIME_DELTA, KD_TIME_CTIME, END },
	      (int[]){ KD_TIME_ISO, KD_TIME_CTIME_DELTA, END });
	check("iso then raw keeps the order",
	      (int[]){ KD_TIME_ISO, KD_TIME_RAW, END }, (int[]){ KD_TIME_ISO, KD_TIME_RAW, END });
	check("repeated option counts once",
	      (int[]){ KD_TIME_CTIME, KD_TIME_CTIME, END }, (int[]){ KD_TIME_CTIME, END });
	check("-e -T both printed",
	      (int[]){ KD_TIME_RELTIME, KD_TIME_CTIME, END },
	      (int[]){ KD_TIME_RELTIME, KD_TIME_CTIME, END });

	tap_is_int(kd_timefmt_from_name("iso"), KD_TIME_ISO, "name iso");
	tap_is_int(kd_timefmt_from_name("raw"), KD_TIME_RAW, "name raw");
	tap_is_int(kd_timefmt_from_name("notime"), KD_TIME_NONE, "name notime");
	tap_is_int(kd_timefmt_from_name("ISO"), -EINVAL, "names are case-sensitive");
	tap_is_int(kd_timefmt_from_name("foo"), -EINVAL, "unknown name");

	{
		struct kd_output_opts o;

		memset(&o, 0, sizeof(o));
		tap_ok(!kd_timefmt_needs_boot_time(&o), "raw stamps need no boot time");
		kd_timefmt_add(&o, KD_TIME_ISO);
		tap_ok(kd_timefmt_needs_boot_time(&o), "iso needs the boot time");
	}
	return tap_done();
}
