// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * escape.c - dmesg's escaping of message bytes for text output.
 *
 * The common case, printable ASCII, is copied in runs into the caller's
 * line buffer (struct kd_escape_buf), so a line reaches stdio in one
 * fwrite() however many pieces it has; only control bytes and bytes >= 0x80 take the per-character path that
 * asks the locale, so a million plain records cost little more than cat.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "shared/decimal.h"
#include "shared/escape.h"

static const char hexdigits[] = "0123456789abcdef";

/* A memory buffer: room for @n more bytes, or false (and @failed). */
static bool grow(struct kd_escape_buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 256;
	char *p;

	while (cap - b->len < n || cap < 2 * b->cap)
		cap *= 2;
	p = realloc(b->data, cap);
	if (!p) {
		b->failed = true;
		return false;
	}
	b->data = p;
	b->cap = cap;
	return true;
}

void kd_escape_buf_flush(struct kd_escape_buf *b)
{
	if (!b->out) {
		/*
		 * Callers reserve at most the capacity they were given; when
		 * even that cannot be had, start over rather than overflow.
		 */
		if (!grow(b, b->cap ? b->cap : 256))
			b->len = 0;
		return;
	}
	if (b->len)
		fwrite_unlocked(b->data, 1, b->len, b->out);
	b->len = 0;
}

void kd_escape_buf_put_slow(struct kd_escape_buf *b, const char *s, size_t n)
{
	if (n == 0)
		return;
	if (!b->out) {
		if (!grow(b, n))
			return;
	} else {
		kd_escape_buf_flush(b);
		if (n > b->cap) {
			fwrite_unlocked(s, 1, n, b->out);
			return;
		}
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
}

static void put_hex(struct kd_escape_buf *b, const unsigned char *p, size_t n)
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
			kd_escape_buf_put(b, buf, k);
			k = 0;
		}
	}
	kd_escape_buf_put(b, buf, k);
}

static void put_indent(struct kd_escape_buf *b, int indent)
{
	static const char spaces[] = "                                ";
	size_t n = (size_t)indent;

	while (n > 0) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		kd_escape_buf_put(b, spaces, k);
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
#ifdef __SSE2__
	/*
	 * Sixteen bytes at a time where SSE2 is there (all of x86-64): a
	 * byte is plain when, taken as signed, it is above 0x1f and not
	 * 0x7f (bytes >= 0x80 are negative).
	 */
	const __m128i lo = _mm_set1_epi8(0x1f), del = _mm_set1_epi8(0x7f);

	while (i + 16 <= len) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		__m128i ok = _mm_andnot_si128(_mm_cmpeq_epi8(v, del),
					      _mm_cmpgt_epi8(v, lo));
		unsigned int m = (unsigned int)_mm_movemask_epi8(ok) ^ 0xffff;

		if (m)
			return i + (size_t)__builtin_ctz(m);
		i += 16;
	}
#endif
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

void kd_escape_buf_put_u64(struct kd_escape_buf *b, unsigned long long v)
{
	char buf[KD_DECIMAL_MAX];

	kd_escape_buf_put_short(b, buf, kd_decimal_u64(buf, v));
}

void kd_escape_buf_put_i64(struct kd_escape_buf *b, long long v)
{
	char buf[KD_DECIMAL_MAX];

	kd_escape_buf_put_short(b, buf, kd_decimal_i64(buf, v));
}

int kd_escape_write(FILE *out, const char *s, size_t len, int indent,
		    bool noescape)
{
	char data[4096];
	struct kd_escape_buf b = { .data = data, .cap = sizeof(data), .out = out };

	if (noescape && indent <= 0) {
		fwrite_unlocked(s, 1, len, out);
		return ferror_unlocked(out) ? -EIO : 0;
	}
	kd_escape_append(&b, s, len, indent, noescape);
	kd_escape_buf_flush(&b);
	return ferror_unlocked(out) ? -EIO : 0;
}

int kd_escape_append(struct kd_escape_buf *b, const char *s, size_t len,
		     int indent, bool noescape)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0;	/* bytes [run, i) still to copy as they are */
	mbstate_t st;

	if (noescape && indent <= 0) {
		kd_escape_buf_put(b, s, len);
		return 0;
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
				kd_escape_buf_put(b, s + run, i + 1 - run);
				put_indent(b, indent);
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
		kd_escape_buf_put(b, s + run, i - run);
		put_hex(b, p + i, n);
		i += n;
		run = i;
	}
	kd_escape_buf_put(b, s + run, i - run);
	return 0;
}
