/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decimal.h - numbers in decimal without printf, for what runs once per
 * record (writers, field values): printf's parsing of its format cost
 * more than the digits.
 */
#ifndef KDMESG_DECIMAL_H
#define KDMESG_DECIMAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Room for any 64-bit number, sign and NUL included. */
#define KD_DECIMAL_MAX	24

/** kd_decimal_u64() - "%llu" of @v into @buf (NUL-terminated); its length. */
static inline size_t kd_decimal_u64(char *buf, uint64_t v)
{
	size_t n = 1;
	char *p;

	/*
	 * The digits counted first and written in place, from the last:
	 * a copy of a length known only now was a call to memcpy(), and
	 * most numbers (a level, a line, a time) have few digits.
	 */
	for (uint64_t t = v; t >= 10; t /= 10)
		n++;
	p = buf + n;
	*p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return n;
}

/** kd_decimal_i64() - "%lld" of @v into @buf (NUL-terminated); its length. */
static inline size_t kd_decimal_i64(char *buf, int64_t v)
{
	if (v >= 0)
		return kd_decimal_u64(buf, (uint64_t)v);
	buf[0] = '-';
	/* -(v + 1) + 1: INT64_MIN has no positive twin */
	return 1 + kd_decimal_u64(buf + 1, (uint64_t)-(v + 1) + 1);
}

#endif /* KDMESG_DECIMAL_H */
