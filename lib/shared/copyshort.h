/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * copyshort.h - a copy of bytes that are mostly few (a key, a JSON member
 * name, a number, a printed argument), for the per-record paths of the
 * writers and of the record's dictionary.
 */
#ifndef KDMESG_COPYSHORT_H
#define KDMESG_COPYSHORT_H

#include <stddef.h>
#include <string.h>

/**
 * kd_copy_short() - memcpy() of @n bytes for pieces that are mostly short
 * (a JSON member name, a number, a key): two overlapping fixed-size moves
 * instead of a call to memcpy() with a length known only when it runs.
 */
static inline void kd_copy_short(char *d, const char *s, size_t n)
{
	if (n >= 8 && n <= 16) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n < 4) {
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	} else {
		memcpy(d, s, n);
	}
}

#endif /* KDMESG_COPYSHORT_H */
