// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timeparse.c - --since/--until time syntax, accepting exactly what
 * util-linux's parse_timestamp() accepts so scripts written for dmesg keep
 * working.  Calendar forms are tried one after another with strptime() on a
 * copy of the reference time, so fields a form does not name (the date in
 * "16:34") keep the reference's values; mktime() then folds the result
 * back into seconds since the epoch in the local time zone.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "match/timeparse.h"

#define USEC_SEC	1000000ULL
#define SPACES		" \t\n\r"

struct span_unit {
	const char *suffix;
	uint64_t usec;
};

/*
 * Longer suffixes come before their prefixes ("msec" before "ms" before
 * "m") because the first suffix the text starts with wins.  There is no
 * empty suffix: dmesg 2.42 refuses a number without its unit ("+5",
 * "5 ago", "+1min 5").
 */
static const struct span_unit span_units[] = {
	{ "seconds", USEC_SEC },
	{ "second", USEC_SEC },
	{ "sec", USEC_SEC },
	{ "s", USEC_SEC },
	{ "minutes", 60 * USEC_SEC },
	{ "minute", 60 * USEC_SEC },
	{ "min", 60 * USEC_SEC },
	{ "months", 2629800 * USEC_SEC },
	{ "month", 2629800 * USEC_SEC },
	{ "msec", 1000 },
	{ "ms", 1000 },
	{ "m", 60 * USEC_SEC },
	{ "hours", 3600 * USEC_SEC },
	{ "hour", 3600 * USEC_SEC },
	{ "hr", 3600 * USEC_SEC },
	{ "h", 3600 * USEC_SEC },
	{ "days", 86400 * USEC_SEC },
	{ "day", 86400 * USEC_SEC },
	{ "d", 86400 * USEC_SEC },
	{ "weeks", 7 * 86400 * USEC_SEC },
	{ "week", 7 * 86400 * USEC_SEC },
	{ "w", 7 * 86400 * USEC_SEC },
	{ "years", 31557600 * USEC_SEC },
	{ "year", 31557600 * USEC_SEC },
	{ "y", 31557600 * USEC_SEC },
	{ "usec", 1 },
	{ "us", 1 },
};

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int kd_timeparse_span(const char *str, uint64_t *usec)
{
	const char *p = str;
	uint64_t total = 0;
	bool any = false;

	for (;;) {
		long long whole, frac = 0;
		unsigned int frac_digits = 0;
		const struct span_unit *u = NULL;
		char *end;
		size_t i;

		p += strspn(p, SPACES);
		if (*p == '\0')
			break;

		errno = 0;
		whole = strtoll(p, &end, 10);
		if (errno)
			return -errno;
		if (whole < 0)
			return -ERANGE;

		if (*end == '.') {
			const char *digits = end + 1;

			errno = 0;
			frac = strtoll(digits, &end, 10);
			if (errno)
				return -errno;
			if (frac < 0)
				return -ERANGE;
			if (end == digits)
				return -EINVAL;
			frac_digits = end - digits;
		} else if (end == p) {
			return -EINVAL;
		}

		end += strspn(end, SPACES);
		for (i = 0; i < sizeof(span_units) / sizeof(span_units[0]); i++) {
			if (starts_with(end, span_units[i].suffix)) {
				u = &span_units[i];
				break;
			}
		}
		if (!u)
			return -EINVAL;

		{
			uint64_t part = (uint64_t)frac * u->usec;

			while (frac_digits-- > 0)
				part /= 10;
			total += (uint64_t)whole * u->usec + part;
		}
		p = end + strlen(u->suffix);
		any = true;
	}

	if (!any)
		return -EINVAL;
	*usec = total;
	return 0;
}

/*
 * ".123456" or ",12" after a seconds field: up to six digits of fraction.
 * A lone separator counts as zero, as in util-linux.
 */
static int parse_fraction(const char *s, uint64_t *usec)
{
	uint64_t factor = USEC_SEC / 10, v = 0;

	if (*s != '.' && *s != ',')
		return -EINVAL;
	for (s++; *s; s++) {
		if (!isdigit((unsigned char)*s) || factor == 0)
			return -EINVAL;
		v += (uint64_t)(*s - '0') * factor;
		factor /= 10;
	}
	*usec = v;
	return 0;
}

struct calendar_form {
	const char *format;
	bool fraction;		/* may be followed by .frac */
	bool zero_sec;		/* form has no seconds: set them to 0 */
	bool zero_time;		/* form has no time of day: midnight */
};

/* Tried in this order; the first that consumes the whole string wins. */
static const struct calendar_form calendar_forms[] = {
	{ "%y-%m-%d %H:%M:%S", true, false, false },
	{ "%Y-%m-%d %H:%M:%S", true, false, false },
	{ "%Y-%m-%dT%H:%M:%S", true, false, false },
	{ "%y-%m-%d %H:%M", false, true, false },
	{ "%Y-%m-%d %H:%M", false, true, false },
	{ "%y-%m-%d", false, false, true },
	{ "%Y-%m-%d", false, false, true },
	{ "%H:%M:%S", true, false, false },
	{ "%H:%M", false, true, false },
	{ "%Y%m%d%H%M%S", true, false, false },
};

static const struct {
	const char *name;
	int wday;
} weekdays[] = {
	{ "Sunday", 0 }, { "Sun", 0 }, { "Monday", 1 }, { "Mon", 1 },
	{ "Tuesday", 2 }, { "Tue", 2 }, { "Wednesday", 3 }, { "Wed", 3 },
	{ "Thursday", 4 }, { "Thu", 4 }, { "Friday", 5 }, { "Fri", 5 },
	{ "Saturday", 6 }, { "Sat", 6 },
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t sl = strlen(s), xl = strlen(suffix);

	return sl >= xl && strcmp(s + sl - xl, suffix) == 0;
}

/* Try the calendar forms on @t; fills @tm (starting from @ref) and @frac. */
static int parse_calendar(const char *t, const struct tm *ref, struct tm *tm,
			  uint64_t *frac)
{
	size_t i;

	for (i = 0; i < sizeof(calendar_forms) / sizeof(calendar_forms[0]); i++) {
		const struct calendar_form *f = &calendar_forms[i];
		const char *rest;

		*tm = *ref;
		rest = strptime(t, f->format, tm);
		if (!rest)
			continue;
		if (*rest != '\0') {
			if (f->fraction && parse_fraction(rest, frac) == 0)
				return 0;
			continue;
		}
		if (f->zero_sec)
			tm->tm_sec = 0;
		if (f->zero_time)
			tm->tm_hour = tm->tm_min = tm->tm_sec = 0;
		return 0;
	}
	return -EINVAL;
}

/*
 * "@seconds[.fraction]" as dmesg 2.42 reads it: blanks and a sign
 * allowed, -1 refused (mktime()'s error value), the result kept unsigned
 * as util-linux keeps it, so "@-5" is a time after every record.
 */
static int parse_epoch(const char *s, uint64_t *usec)
{
	uint64_t frac = 0, v = 0;
	bool neg = false;
	const char *d;

	s += strspn(s, SPACES);
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	for (d = s; isdigit((unsigned char)*s); s++) {
		if (v > ((uint64_t)INT64_MAX - 9) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (s == d || (*s && parse_fraction(s, &frac) != 0))
		return -EINVAL;
	if (neg && v == 1)
		return -EINVAL;
	/* Unsigned arithmetic wraps as util-linux's does: no overflow. */
	*usec = (neg ? 0 - v : v) * USEC_SEC + frac;
	return 0;
}

int kd_timeparse(const char *str, time_t now, uint64_t *usec)
{
	struct tm tm, ref;
	uint64_t plus = 0, minus = 0, frac = 0, result;
	int wday = -1, rc = 0;
	time_t secs;

	if (!str || !usec)
		return -EINVAL;

	localtime_r(&now, &ref);
	ref.tm_isdst = -1;
	tm = ref;

	if (strcmp(str, "now") == 0) {
		/* the reference itself */
	} else if (strcmp(str, "today") == 0 || strcmp(str, "yesterday") == 0 ||
		   strcmp(str, "tomorrow") == 0) {
		if (strcmp(str, "yesterday") == 0)
			tm.tm_mday--;
		else if (strcmp(str, "tomorrow") == 0)
			tm.tm_mday++;
		tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	} else if (str[0] == '+') {
		rc = kd_timeparse_span(str + 1, &plus);
	} else if (str[0] == '-') {
		rc = kd_timeparse_span(str + 1, &minus);
	} else if (str[0] == '@') {
		return parse_epoch(str + 1, usec);
	} else if (ends_with(str, " ago")) {
		char *span = strndup(str, strlen(str) - 4);

		if (!span)
			return -ENOMEM;
		rc = kd_timeparse_span(span, &minus);
		free(span);
	} else {
		const char *t = str;
		size_t i;

		for (i = 0; i < sizeof(weekdays) / sizeof(weekdays[0]); i++) {
			size_t n = strlen(weekdays[i].name);

			if (strncasecmp(t, weekdays[i].name, n) == 0 && t[n] == ' ') {
				wday = weekdays[i].wday;
				t += n + 1;
				break;
			}
		}
		rc = parse_calendar(t, &ref, &tm, &frac);
	}
	if (rc < 0)
		return rc;

	secs = mktime(&tm);
	if (secs == (time_t)-1)
		return -EINVAL;
	if (wday >= 0 && tm.tm_wday != wday)
		return -EINVAL;

	/* util-linux keeps this unsigned and clamps at the epoch. */
	result = (uint64_t)secs * USEC_SEC + frac + plus;
	result = result > minus ? result - minus : 0;
	*usec = result;
	return 0;
}
