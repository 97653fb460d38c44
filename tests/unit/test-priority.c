// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-priority.c - level and facility names and parsing as dmesg spells
 * and accepts them.
 */
#include <errno.h>
#include <string.h>

#include "record/priority.h"
#include "tap.h"

static int lp(const char *s)
{
	return kd_priority_level_parse(s, strlen(s));
}

static int fp(const char *s)
{
	return kd_priority_facility_parse(s, strlen(s));
}

int main(void)
{
	tap_is_str(kd_priority_level_name(0), "emerg", "level 0 is emerg");
	tap_is_str(kd_priority_level_name(4), "warn", "level 4 is warn, not warning");
	tap_is_str(kd_priority_level_name(7), "debug", "level 7 is debug");
	tap_ok(kd_priority_level_name(8) == NULL, "no level 8");
	tap_ok(kd_priority_level_name(-1) == NULL, "no level -1");

	tap_is_str(kd_priority_facility_name(0), "kern", "facility 0 is kern");
	tap_is_str(kd_priority_facility_name(10), "authpriv", "facility 10 is authpriv");
	tap_is_str(kd_priority_facility_name(12), "res0", "facility 12 is dmesg's res0");
	tap_is_str(kd_priority_facility_name(15), "res3", "facility 15 is res3");
	tap_is_str(kd_priority_facility_name(16), "local0", "facility 16 is local0");
	tap_is_str(kd_priority_facility_name(23), "local7", "facility 23 is local7");
	tap_ok(kd_priority_facility_name(24) == NULL, "no facility 24");

	tap_is_int(lp("err"), 3, "err parses");
	tap_is_int(lp("ERR"), 3, "names are case-insensitive");
	tap_is_int(lp("warning"), -EINVAL, "warning is not a dmesg level name");
	tap_is_int(lp("er"), -EINVAL, "a prefix is not a name");
	tap_is_int(lp("7"), 7, "numbers parse");
	tap_is_int(lp("8"), -EINVAL, "8 is out of range");
	tap_is_int(lp("07"), 7, "leading zeros are fine, as strtol");
	tap_is_int(lp("3x"), -EINVAL, "trailing garbage after a number");
	tap_is_int(lp("99999999999999999999999"), -ERANGE, "overflow is ERANGE");
	tap_is_int(lp(""), -EINVAL, "empty is invalid");
	tap_is_int(kd_priority_level_parse("err,warn", 3), 3, "only @len bytes are read");

	tap_is_int(fp("daemon"), 3, "daemon parses");
	tap_is_int(fp("Local7"), 23, "Local7 parses");
	tap_is_int(fp("res2"), 14, "res2 parses");
	tap_is_int(fp("23"), 23, "23 parses");
	tap_is_int(fp("24"), -EINVAL, "24 is out of range");
	tap_is_int(fp("security"), -EINVAL, "unknown facility");

	return tap_done();
}
