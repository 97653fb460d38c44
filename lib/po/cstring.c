// SPDX-License-Identifier: GPL-2.0-or-later
/* cstring.c - C string escapes; see cstring.h. */
#include "po/cstring.h"

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
		return (c | 0x20) - 'a' + 10;
	return -1;
}

int kd_cstring_escape(const char **p, const char *end)
{
	char c = *(*p)++;
	int v = 0, k;

	switch (c) {
	case 'n': return '\n';
	case 't': return '\t';
	case 'r': return '\r';
	case 'a': return '\a';
	case 'b': return '\b';
	case 'f': return '\f';
	case 'v': return '\v';
	case 'e': return 033;
	case 'x':
		/* Two digits at most: "\x5ctab" in the site table is "\" "tab". */
		for (k = 0; k < 2 && *p < end && hex_digit(**p) >= 0; k++)
			v = v * 16 + hex_digit(*(*p)++);
		return k ? v : 'x';
	default:
		if (c < '0' || c > '7')
			return (unsigned char)c;
		v = c - '0';
		for (k = 0; k < 2 && *p < end && **p >= '0' && **p <= '7'; k++)
			v = v * 8 + (*(*p)++ - '0');
		return v & 0xff;
	}
}

size_t kd_cstring_unescape(char *s, size_t n)
{
	const char *p = s, *end = s + n;
	size_t o = 0;

	while (p < end) {
		if (*p == '\\' && p + 1 < end) {
			p++;
			s[o++] = (char)kd_cstring_escape(&p, end);
		} else {
			s[o++] = *p++;
		}
	}
	return o;
}
