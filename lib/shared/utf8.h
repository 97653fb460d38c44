/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * utf8.h - the one UTF-8 decoder of lib/: RFC 3629 validity (no overlong
 * forms, no surrogates, nothing past U+10FFFF), as JSON output, the
 * journal export format and the charset conversion of translations all
 * need it.  Inline: the writers call it for every byte >= 0x80.
 */
#ifndef KDMESG_UTF8_H
#define KDMESG_UTF8_H

#include <stddef.h>
#include <stdint.h>

/**
 * kd_utf8_decode() - length of the valid UTF-8 sequence at @s (at most @n
 * bytes available, @n >= 1) with its code point in *@cp, or 0 when the
 * byte at @s does not start one.  An ASCII byte is a sequence of 1.
 */
static inline size_t kd_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;	/* range of the second byte */
	size_t len, i;
	uint32_t v;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		v = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		v = c & 0x0f;
		if (c == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (c == 0xed)
			hi = 0x9f;	/* surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		v = c & 0x07;
		if (c == 0xf0)
			lo = 0x90;	/* overlong */
		else if (c == 0xf4)
			hi = 0x8f;	/* past U+10FFFF */
	} else {
		return 0;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	*cp = v;
	return len;
}

/** kd_utf8_len() - kd_utf8_decode() without the code point. */
static inline size_t kd_utf8_len(const unsigned char *s, size_t n)
{
	uint32_t cp;

	return kd_utf8_decode(s, n, &cp);
}

#endif /* KDMESG_UTF8_H */
