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

/* 10^k, k < 20: a number below 10^k has at most k digits. */
static const uint64_t kd_decimal_pow10[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
	10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
};

/* "00" to "99": two digits per division. */
static const char kd_decimal_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/** kd_decimal_u64() - "%llu" of @v into @buf (NUL-terminated); its length. */
static inline size_t kd_decimal_u64(char *buf, uint64_t v)
{
	size_t n = 1;
	char *p;

	/*
	 * The digits counted first and written in place, from the last, two
	 * per division: a copy of a length known only now was a call to
	 * memcpy(), and these run several times per record (sequence
	 * number, level, time; a recovered line).
	 */
	while (n < 20 && v >= kd_decimal_pow10[n])
		n++;
	p = buf + n;
	*p = '\0';
	while (v >= 100) {
		unsigned int d = (unsigned int)(v % 100);

		v /= 100;
		p -= 2;
		memcpy(p, kd_decimal_pairs + 2 * d, 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, kd_decimal_pairs + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
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

/**
 * kd_decimal_parse() - the number that @s (NUL-terminated) is, when it is
 * decimal digits only, 1 to @max; 0 for anything else: empty, a sign,
 * spaces, a crafted "-1" (which strtoul() turns into its largest value).
 */
static inline uint64_t kd_decimal_parse(const char *s, uint64_t max)
{
	uint64_t v = 0;

	if (!*s)
		return 0;
	for (; *s; s++) {
		uint64_t d = (uint64_t)(*s - '0');

		if (*s < '0' || *s > '9' || d > max || v > (max - d) / 10)
			return 0;
		v = v * 10 + d;
	}
	return v;
}

#endif /* KDMESG_DECIMAL_H */
