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

#endif /* KDMESG_ESCAPE_H */
