// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * format-time.c - the time formats of dmesg's text output that date a
 * record by the wall clock: ctime, iso and reltime (rule 6 of format.c),
 * each record dated with its own boot time, and which formats a writer
 * prints.  Apart from the line writer (format.c), whose stamps of
 * seconds since boot are formatted by hand for speed, because these go
 * through the C library's local time.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sink/format-internal.h"

/*
 * Boot time plus the stamp in µs, unsigned as dmesg computes it: a stamp
 * near INT64_MAX gives dmesg's date, and no addition overflows.
 */
static uint64_t wall_usec(const struct run *w, const struct stamp *st)
{
	return (uint64_t)w->boot_usec + (uint64_t)st->sec * 1000000 +
	       (uint64_t)st->usec;
}

static time_t wall_seconds(const struct run *w, const struct stamp *st)
{
	return (time_t)(wall_usec(w, st) / 1000000);
}

void kd_format_ctime(const struct run *w, const struct stamp *st,
		     char *buf, size_t size)
{
	time_t t = wall_seconds(w, st);
	struct tm tm;

	if (!localtime_r(&t, &tm) ||
	    strftime(buf, size, "%a %b %e %H:%M:%S %Y", &tm) == 0)
		*buf = '\0';
}

/* util-linux strtimeval_iso(ISO_TIMESTAMP_COMMA_T), local time. */
int kd_format_iso(const struct run *w, const struct stamp *st,
		  char *buf, size_t size)
{
	uint64_t all = wall_usec(w, st);
	time_t t = (time_t)(all / 1000000);
	long usec = (long)(all % 1000000);
	struct tm tm;
	int tmin, zhour, zmin;

	if (!localtime_r(&t, &tm))
		return snprintf(buf, size, "(null) ");
	tmin = (int)(tm.tm_gmtoff / 60);
	zhour = tmin / 60;
	zmin = abs(tmin % 60);
	return snprintf(buf, size, "%4ld-%.2d-%.2dT%02d:%02d:%02d,%06ld%+03d:%02d ",
			tm.tm_year + 1900L, tm.tm_mon + 1, tm.tm_mday,
			tm.tm_hour, tm.tm_min, tm.tm_sec, usec, zhour, zmin);
}

/* Local time of wall-clock second @t, cached: reltime asks twice a record. */
static void local_tm(struct kd_format *f, time_t t, struct tm *out)
{
	if (!f->tm_cache_ok || f->tm_cache_sec != (int64_t)t) {
		if (!localtime_r(&t, &f->tm_cache))
			memset(&f->tm_cache, 0, sizeof(f->tm_cache));
		f->tm_cache_sec = (int64_t)t;
		f->tm_cache_ok = true;
	}
	*out = f->tm_cache;
}

int kd_format_reltime(struct run *w, const struct stamp *st,
		      char *buf, bool *timebreak)
{
	time_t t = wall_seconds(w, st);
	struct tm cur, last;
	int n;

	/*
	 * dmesg compares with the last record it showed, starting from a
	 * zeroed struct tm, so the first record breaks unless it falls in
	 * the first minute of a year.
	 */
	memset(&last, 0, sizeof(last));
	if (w->prev->shown_usec != KD_NO_TIME) {
		struct stamp ps = { 0, 0, 0.0 };

		kd_format_split_usec(w->prev->shown_usec, &ps.sec, &ps.usec);
		local_tm(w->f, wall_seconds(w, &ps), &last);
	}
	local_tm(w->f, t, &cur);
	if (cur.tm_min != last.tm_min || cur.tm_hour != last.tm_hour ||
	    cur.tm_yday != last.tm_yday) {
		char sbuf[TS_MAX];

		*timebreak = true;
		if (strftime(sbuf, sizeof(sbuf), "%b%e %H:%M", &cur) == 0)
			*sbuf = '\0';
		n = snprintf(buf, TS_MAX, "[%s] ", sbuf);
	} else if (st->delta < 10) {
		n = snprintf(buf, TS_MAX, "[  %+8.06f] ", st->delta);
	} else {
		n = snprintf(buf, TS_MAX, "[ %+9.06f] ", st->delta);
	}
	return n;
}

bool kd_format_has_time(const struct kd_format *w, enum kd_time_format f)
{
	size_t i;

	if (w->opts.ntime == 0)
		return f == KD_TIME_RAW;
	for (i = 0; i < w->opts.ntime; i++)
		if (w->opts.time[i] == f)
			return true;
	return false;
}
