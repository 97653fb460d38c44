// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-timeparse.c - --since/--until syntax against a pinned "now"
 * (2023-01-20 02:07:07 GMT, a Friday), with the values util-linux's own
 * parse_timestamp() yields for the same strings.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "match/timeparse.h"
#include "tap.h"

#define NOW ((time_t)1674180427)

static const struct {
	const char *in;
	uint64_t want;
} good[] = {
	{ "2012-09-22 16:34:22", 1348331662000000ULL },
	{ "2012-09-22 16:34:22,012", 1348331662012000ULL },
	{ "2012-09-22 16:34:22.012", 1348331662012000ULL },
	{ "2012-09-22T16:34:22", 1348331662000000ULL },
	{ "12-09-22 16:34:22", 1348331662000000ULL },
	{ "@1348331662", 1348331662000000ULL },
	{ "@1348331662.234567", 1348331662234567ULL },
	{ "2012-09-22 16:34", 1348331640000000ULL },
	{ "2012-09-22", 1348272000000000ULL },
	{ "16:34:22", 1674232462000000ULL },
	{ "16:34:22,123456", 1674232462123456ULL },
	{ "16:34:22.123456", 1674232462123456ULL },
	{ "16:34", 1674232440000000ULL },
	{ "now", 1674180427000000ULL },
	{ "yesterday", 1674086400000000ULL },
	{ "today", 1674172800000000ULL },
	{ "tomorrow", 1674259200000000ULL },
	{ "+5min", 1674180727000000ULL },
	{ "-5days", 1673748427000000ULL },
	{ "20120922163422", 1348331662000000ULL },
	{ "3 hours ago", 1674169627000000ULL },
	{ "1h 30min ago", 1674175027000000ULL },
	{ "-1.5h", 1674175027000000ULL },
	{ "+250ms", 1674180427250000ULL },
	{ "+10s", 1674180437000000ULL },
	/* dmesg 2.42's "@": blanks and a sign, kept unsigned (wraps). */
	{ "@ 5", 5000000ULL },
	{ "@+5", 5000000ULL },
	{ "@-0", 0 },
	{ "@-5", 0 - 5000000ULL },
	{ "@-5.5", 0 - 5000000ULL + 500000 },
	{ "@5.", 5000000ULL },
	{ "Fri 2023-01-20", 1674172800000000ULL },
	{ "friday 2023-01-20 10:00", 1674208800000000ULL },
	{ "-100years", 0 },
};

static const char *const bad[] = {
	"", "foo", "2012-13-45", "Mon 2023-01-20", "+", "+5 parsecs",
	"+-5min", "16:34:22.1234567", "@12x", "5 fortnights ago", "1.h ago",
	"2012-09-22 16", "yesterday ",
	/* dmesg 2.42 wants a unit after every number of a span. */
	"+10", "+0", "-5", "+1.5", "5 ago", "+5min 5", "-5min5",
	/* mktime()'s error value, and what is not a number. */
	"@-1", "@", "@.5", "@1e3", "@0x10", "@99999999999999999999",
};

int main(void)
{
	size_t i;

	setenv("TZ", "GMT", 1);
	tzset();

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		uint64_t got = 1;
		int rc = kd_timeparse(good[i].in, NOW, &got);

		if (!tap_ok(rc == 0 && got == good[i].want, "parse \"%s\"", good[i].in))
			tap_diag("rc=%d got=%llu want=%llu", rc,
				 (unsigned long long)got,
				 (unsigned long long)good[i].want);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t got = 0;
		int rc = kd_timeparse(bad[i], NOW, &got);

		if (!tap_ok(rc < 0, "reject \"%s\"", bad[i]))
			tap_diag("got %llu", (unsigned long long)got);
	}

	/* Spans on their own. */
	{
		uint64_t v = 0;

		tap_is_int(kd_timeparse_span("1 week 2d", &v), 0, "span with two units");
		tap_ok(v == 9ULL * 86400 * 1000000, "1 week 2d is nine days");
		tap_is_int(kd_timeparse_span("   ", &v), -EINVAL, "blank span is rejected");
		tap_is_int(kd_timeparse_span("99999999999999999999s", &v), -ERANGE,
			   "overflowing span is out of range");
	}
	return tap_done();
}
