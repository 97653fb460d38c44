/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * charset.h - bring UTF-8 catalogue text to the terminal's charset before
 * the terminal escaping sees it: each character is converted with iconv,
 * transliterated (//TRANSLIT) where the charset cannot hold it, and
 * written as \xNN escapes of its UTF-8 bytes where not even that works,
 * so nothing is dropped.  Bytes that are not valid UTF-8 pass unchanged;
 * the terminal escaping judges them as it judges kernel text.
 */
#ifndef KDMESG_CHARSET_H
#define KDMESG_CHARSET_H

#include <stddef.h>

struct kd_charset;

/**
 * kd_charset_new() - a converter from UTF-8 to @tocode (as
 * nl_langinfo(CODESET) names it).  *@cs is NULL, and no conversion is
 * needed, when @tocode is UTF-8.  Returns 0, -EINVAL for a charset iconv
 * does not know, or -ENOMEM.
 */
int kd_charset_new(struct kd_charset **cs, const char *tocode);

/**
 * kd_charset_convert() - @len bytes of UTF-8 at @in in @cs's charset, as
 * a new NUL-terminated string in *@out (its length in *@out_len; free()
 * it).  @cs NULL copies.  Returns 0 or -ENOMEM.
 */
int kd_charset_convert(struct kd_charset *cs, const char *in, size_t len,
		       char **out, size_t *out_len);

/** kd_charset_free() - release @cs (NULL is fine). */
void kd_charset_free(struct kd_charset *cs);

#endif /* KDMESG_CHARSET_H */
