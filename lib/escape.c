// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * escape.c - dmesg's escaping of message bytes for text output.
 *
 * The common case, printable ASCII, is copied in runs with one fwrite();
 * only control bytes and bytes >= 0x80 take the per-character path that
 * asks the locale, so a million plain records cost little more than cat.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "escape.h"

static const char hexdigits[] = "0123456789abcdef";

static void put_hex(FILE *out, const unsigned char *p, size_t n)
{
	char buf[4 * 8];
	size_t i, k = 0;

	/* Multibyte characters are at most MB_LEN_MAX (16) bytes; chunk. */
	for (i = 0; i < n; i++) {
		buf[k++] = '\\';
		buf[k++] = 'x';
		buf[k++] = hexdigits[p[i] >> 4];
		buf[k++] = hexdigits[p[i] & 0xf];
		if (k == sizeof(buf)) {
			fwrite_unlocked(buf, 1, k, out);
			k = 0;
		}
	}
	fwrite_unlocked(buf, 1, k, out);
}

static void put_indent(FILE *out, int indent)
{
	static const char spaces[] = "                                ";
	size_t n = (size_t)indent;

	while (n > 0) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		fwrite_unlocked(spaces, 1, k, out);
		n -= k;
	}
}

/* Whether byte @c goes out as is without asking the locale. */
static inline bool plain_ascii(unsigned char c)
{
	return c >= 0x20 && c < 0x7f;
}

#define ONES	0x0101010101010101ULL
#define HIGHS	0x8080808080808080ULL

/*
 * Index of the first byte in @p[@i..@len) that is not plain ASCII, eight
 * bytes at a time: a word is skipped when no byte is below 0x20 (the
 * classic "has less than" bit trick), none has the top bit set and none
 * equals 0x7f.  Kernel messages are almost all plain ASCII, so this loop
 * is where the text writer spends its time.
 */
static size_t skip_plain(const unsigned char *p, size_t i, size_t len)
{
	while (i + 8 <= len) {
		uint64_t v, x;

		memcpy(&v, p + i, 8);
		x = v ^ (0x7f * ONES);
		if (((v - 0x20 * ONES) & ~v & HIGHS) | (v & HIGHS) |
		    ((x - ONES) & ~x & HIGHS))
			break;
		i += 8;
	}
	while (i < len && plain_ascii(p[i]))
		i++;
	return i;
}

int kd_escape_write(FILE *out, const char *s, size_t len, int indent,
		    bool noescape)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0;	/* bytes [run, i) still to copy as they are */
	mbstate_t st;

	if (noescape && indent <= 0) {
		fwrite_unlocked(p, 1, len, out);
		return ferror_unlocked(out) ? -EIO : 0;
	}

	memset(&st, 0, sizeof(st));
	while (i < len) {
		unsigned char c;
		size_t n = 1;
		bool hex = false;

		if (!noescape) {
			i = skip_plain(p, i, len);
		} else {
			const unsigned char *nl = memchr(p + i, '\n', len - i);

			i = nl ? (size_t)(nl - p) : len;
		}
		if (i == len)
			break;
		c = p[i];

		if (c == '\n') {
			/* dmesg looks at the byte after the newline. */
			if (indent > 0 && i + 1 < len && p[i + 1] != '\0') {
				fwrite_unlocked(p + run, 1, i + 1 - run, out);
				put_indent(out, indent);
				run = ++i;
			} else {
				i++;
			}
			continue;
		}
		if (noescape || plain_ascii(c)) {
			i++;
			continue;
		}

		if (c == '\0') {
			hex = true;
		} else {
			wchar_t wc;
			size_t r = mbrtowc(&wc, (const char *)p + i, len - i, &st);

			if (r == (size_t)-1 || r == (size_t)-2) {
				memset(&st, 0, sizeof(st));
				hex = true;
			} else if (r > 1) {
				n = r;
				hex = !iswprint((wint_t)wc) && !iswspace((wint_t)wc);
			} else {
				hex = !isprint(c) && !isspace(c);
			}
		}
		if (!hex) {
			i += n;
			continue;
		}
		fwrite_unlocked(p + run, 1, i - run, out);
		put_hex(out, p + i, n);
		i += n;
		run = i;
	}
	fwrite_unlocked(p + run, 1, i - run, out);
	return ferror_unlocked(out) ? -EIO : 0;
}
