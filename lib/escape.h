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
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>

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
 * same whatever @cap is.
 */
struct kd_escape_buf {
	char *data;		/* @cap bytes owned by the user of the buffer */
	size_t len;		/* bytes of @data not yet written to @out */
	size_t cap;
	FILE *out;

	/*
	 * Zero-copy mode, when @iov is set (KD_ESCAPE_IOV_MAX entries, see
	 * kd_escape_buf_ref()): the output is a list of spans, some in
	 * @data, some in the caller's memory, written with writev() to
	 * @out's descriptor.  @data[@mark, @len) is not in @iov yet.
	 */
	struct iovec *iov;
	int iovcnt;
	size_t mark;
};

/* Spans per writev(): the kernel's limit (IOV_MAX), 1024 on Linux. */
#define KD_ESCAPE_IOV_MAX	1024

/**
 * kd_escape_buf_flush() - write @b's pending bytes to its stream.  In
 * zero-copy mode the spans go to the stream's descriptor with writev()
 * (after fflush() of the stream); a write that fails hands the rest to
 * stdio, which then fails or succeeds as it would have and sets the
 * stream's error flag and errno itself, so errors read the same as
 * without zero-copy.
 */
void kd_escape_buf_flush(struct kd_escape_buf *b);

/* kd_escape_buf_put() for what does not fit (see escape.c). */
void kd_escape_buf_put_big(struct kd_escape_buf *b, const char *s, size_t n);

/** kd_escape_buf_put() - append @n bytes of @s as they are (no escaping). */
static inline void kd_escape_buf_put(struct kd_escape_buf *b, const char *s,
				     size_t n)
{
	if (n > b->cap - b->len) {
		kd_escape_buf_flush(b);
		if (n > b->cap) {
			kd_escape_buf_put_big(b, s, n);
			return;
		}
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
}

/*
 * Zero-copy mode: make @data[@mark, @len) a span of its own, so that a
 * span from elsewhere can follow it.
 */
static inline void kd_escape_buf_seal(struct kd_escape_buf *b)
{
	if (b->len > b->mark) {
		b->iov[b->iovcnt].iov_base = b->data + b->mark;
		b->iov[b->iovcnt].iov_len = b->len - b->mark;
		b->iovcnt++;
		b->mark = b->len;
	}
}

/**
 * kd_escape_buf_ref() - zero-copy mode only: append @n bytes at @s by
 * reference.  They are written at the next flush, so they must stay
 * valid and unchanged until then (the caller's promise; the text writer
 * uses this for record text that lies in a mapped input file).
 */
static inline void kd_escape_buf_ref(struct kd_escape_buf *b, const char *s,
				     size_t n)
{
	/*
	 * Room for the bytes before it, for the span itself and for the
	 * bytes after it, which the flush seals.
	 */
	if (b->iovcnt > KD_ESCAPE_IOV_MAX - 3)
		kd_escape_buf_flush(b);
	kd_escape_buf_seal(b);
	b->iov[b->iovcnt].iov_base = (void *)(uintptr_t)s;
	b->iov[b->iovcnt].iov_len = n;
	b->iovcnt++;
}

/**
 * kd_escape_buf_reserve() - room for @n bytes (@n <= @b->cap) at the end
 * of @b, flushing first when needed; the caller writes there and adds
 * what it used to @b->len.
 */
static inline char *kd_escape_buf_reserve(struct kd_escape_buf *b, size_t n)
{
	if (n > b->cap - b->len)
		kd_escape_buf_flush(b);
	return b->data + b->len;
}

/**
 * kd_escape_append() - kd_escape_write() into @b: the same bytes, appended
 * to the buffer (flushed to its stream when full).  Returns 0.
 */
int kd_escape_append(struct kd_escape_buf *b, const char *s, size_t len,
		     int indent, bool noescape);

#endif /* KDMESG_ESCAPE_H */
