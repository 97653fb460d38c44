// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * priority.c - syslog level and facility names and their parsing, spelled
 * and accepted exactly as util-linux dmesg does (so -l/-f lists, -x output
 * and --help read the same).  The bit-level rules are inline in
 * priority.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "record/priority.h"

static const char *const level_names[KD_LEVEL_COUNT] = {
	"emerg", "alert", "crit", "err", "warn", "notice", "info", "debug",
};

static const char *const facility_names[KD_FACILITY_COUNT] = {
	"kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news",
	"uucp", "cron", "authpriv", "ftp", "res0", "res1", "res2", "res3",
	"local0", "local1", "local2", "local3", "local4", "local5", "local6",
	"local7",
};

const char *kd_priority_level_name(int level)
{
	if (level < 0 || level >= KD_LEVEL_COUNT)
		return NULL;
	return level_names[level];
}

const char *kd_priority_facility_name(int facility)
{
	if (facility < 0 || facility >= KD_FACILITY_COUNT)
		return NULL;
	return facility_names[facility];
}

/* ASCII case folding regardless of locale, as util-linux's c_strncasecmp. */
static int ascii_lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

/*
 * Look @name (@len bytes) up in @names: dmesg takes a leading digit to
 * mean a decimal number that must span all @len bytes, anything else a
 * name compared without case.
 */
static int lookup(const char *name, size_t len, const char *const *names,
		  int count)
{
	int i;

	if (!name || len == 0)
		return -EINVAL;

	if (name[0] >= '0' && name[0] <= '9') {
		unsigned long v = 0;
		size_t k;

		for (k = 0; k < len; k++) {
			if (name[k] < '0' || name[k] > '9')
				return -EINVAL;
			if (v > (ULONG_MAX - 9) / 10)
				return -ERANGE;
			v = v * 10 + (unsigned long)(name[k] - '0');
			if (v > (unsigned long)LONG_MAX)
				return -ERANGE;
		}
		return v < (unsigned long)count ? (int)v : -EINVAL;
	}

	for (i = 0; i < count; i++) {
		const char *n = names[i];
		size_t k;

		if (strlen(n) != len)
			continue;
		for (k = 0; k < len; k++)
			if (ascii_lower((unsigned char)name[k]) != n[k])
				break;
		if (k == len)
			return i;
	}
	return -EINVAL;
}

int kd_priority_level_parse(const char *name, size_t len)
{
	return lookup(name, len, level_names, KD_LEVEL_COUNT);
}

int kd_priority_facility_parse(const char *name, size_t len)
{
	return lookup(name, len, facility_names, KD_FACILITY_COUNT);
}
