/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape.h - printing kernel-supplied bytes the way dmesg does: bytes that
 * are neither printable nor white space in the current locale, invalid
 * multibyte sequences and NUL become \xNN; continuation lines of a
 * multi-line message are indented under the prefix.
 */
#ifndef KDMESG_ESCAPE_H
#define KDMESG_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "shared/copyshort.h"

/**
 * kd_escape_write() - write @len bytes of @s to @out as dmesg's text
 * output does.
 * @indent:   after a '\n' that is followed by a non-NUL byte, write this
 *            many spaces (so later lines line up under the time stamp);
 *            the byte after @s[@len - 1] counts as NUL.
 * @noescape: --noescape: copy every byte as is (indenting still applies).
 *
 * Escaping follows the locale (call setlocale() first): in a UTF-8 locale
 * a valid multibyte character is kept when iswprint() or iswspace() says
 * so and escaped whole otherwise; an invalid or truncated sequence is
 * escaped one byte at a time; single bytes are kept when isprint() or
 * isspace() say so.  Returns 0 or -EIO.
 */
int kd_escape_write(FILE *out, const char *s, size_t len, int indent,
		    bool noescape);

/*
 * An output buffer in front of a stream, so that a writer can assemble a
 * whole line in memory and hand it to stdio with one fwrite() instead of
 * one call per piece.  When @data is full it is written to @out and
 * emptied, so a line of any length fits; the bytes that reach @out are the
 * same whatever @cap is.  With @out NULL it is a memory buffer instead
 * (the formatter's output for the viewer or for colour spans): it grows,
 * and @failed says when it could not (bytes were then dropped).
 */
struct kd_escape_buf {
	char *data;		/* @cap bytes owned by the user of the buffer */
	size_t len;		/* bytes of @data not yet written to @out */
	size_t cap;
	FILE *out;		/* NULL: a memory buffer */
	bool failed;		/* memory buffer: a grow failed */
};

/**
 * kd_escape_buf_flush() - write @b's pending bytes to its stream; for a
 * memory buffer, make room instead (at least double @cap).
 */
void kd_escape_buf_flush(struct kd_escape_buf *b);

/** kd_escape_buf_put_slow() - kd_escape_buf_put() when @n does not fit. */
void kd_escape_buf_put_slow(struct kd_escape_buf *b, const char *s, size_t n);

/**
 * kd_escape_buf_put() - append @n bytes of @s as they are (no escaping).
 * A memory buffer starts without data: even 0 bytes then take the slow
 * path, as memcpy() must not see a NULL destination.
 */
static inline void kd_escape_buf_put(struct kd_escape_buf *b, const char *s,
				     size_t n)
{
	if (n > b->cap - b->len || !b->data) {
		kd_escape_buf_put_slow(b, s, n);
		return;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
}

/**
 * kd_escape_buf_put_short() - kd_escape_buf_put() for pieces that are
 * mostly short (kd_copy_short()).  The same bytes.
 */
static inline void kd_escape_buf_put_short(struct kd_escape_buf *b, const char *s,
				     size_t n)
{
	if (n > b->cap - b->len) {
		kd_escape_buf_put_slow(b, s, n);
		return;
	}
	kd_copy_short(b->data + b->len, s, n);
	b->len += n;
}

/**
 * kd_escape_buf_reserve() - room for @n bytes (@n <= @b->cap) at the end
 * of @b, flushing (or growing) first when needed; the caller writes there
 * and adds what it used to @b->len.
 */
static inline char *kd_escape_buf_reserve(struct kd_escape_buf *b, size_t n)
{
	if (n > b->cap - b->len)
		kd_escape_buf_flush(b);
	return b->data + b->len;
}

/** kd_escape_buf_putc() - append one byte. */
static inline void kd_escape_buf_putc(struct kd_escape_buf *b, char c)
{
	if (b->len == b->cap)
		kd_escape_buf_flush(b);
	if (b->len < b->cap)
		b->data[b->len++] = c;
}

/** kd_escape_buf_puts() - append the string @s as it is. */
static inline void kd_escape_buf_puts(struct kd_escape_buf *b, const char *s)
{
	kd_escape_buf_put_short(b, s, strlen(s));
}

/** kd_escape_buf_put_u64() - append @v in decimal (printf's %llu). */
void kd_escape_buf_put_u64(struct kd_escape_buf *b, unsigned long long v);

/** kd_escape_buf_put_i64() - append @v in decimal (printf's %lld). */
void kd_escape_buf_put_i64(struct kd_escape_buf *b, long long v);

/**
 * kd_escape_append() - kd_escape_write() into @b: the same bytes, appended
 * to the buffer (flushed to its stream when full).  Returns 0.
 */
int kd_escape_append(struct kd_escape_buf *b, const char *s, size_t len,
		     int indent, bool noescape);

#endif /* KDMESG_ESCAPE_H */
