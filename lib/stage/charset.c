// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * charset.c - UTF-8 catalogue text to the terminal's charset, one
 * character at a time so that one character that cannot be written never
 * costs another.  Runs once per catalogue entry, not per record.  See
 * charset.h.
 */
#include <errno.h>
#include <iconv.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "shared/utf8.h"
#include "stage/charset.h"

struct kd_charset {
	iconv_t cd;		/* UTF-8 -> tocode//TRANSLIT */
	/*
	 * glibc transliterates with the tables of the current LC_CTYPE, and
	 * the C locale has none: convert under C.UTF-8's when it exists.
	 */
	locale_t translit;
};

int kd_charset_new(struct kd_charset **cs, const char *tocode)
{
	char name[80];

	*cs = NULL;
	if (!tocode || strcasecmp(tocode, "UTF-8") == 0 || strcasecmp(tocode, "utf8") == 0)
		return 0;
	if (snprintf(name, sizeof(name), "%s//TRANSLIT", tocode) >= (int)sizeof(name))
		return -EINVAL;
	*cs = calloc(1, sizeof(**cs));
	if (!*cs)
		return -ENOMEM;
	(*cs)->cd = iconv_open(name, "UTF-8");
	(*cs)->translit = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	if ((*cs)->cd == (iconv_t)-1) {
		if ((*cs)->translit)
			freelocale((*cs)->translit);
		free(*cs);
		*cs = NULL;
		return -EINVAL;
	}
	return 0;
}

/*
 * One character through iconv into @out (room for 32 bytes); 0 when the
 * charset has no better than glibc's "?" placeholder for it.
 */
static size_t convert_one(struct kd_charset *cs, const char *c, size_t n, char *out)
{
	char *ip = (char *)(uintptr_t)c, *op = out;
	size_t il = n, ol = 32;
	locale_t old = cs->translit ? uselocale(cs->translit) : (locale_t)0;
	bool ok;

	iconv(cs->cd, NULL, NULL, NULL, NULL);
	ok = iconv(cs->cd, &ip, &il, &op, &ol) != (size_t)-1 && il == 0 &&
	     iconv(cs->cd, NULL, NULL, &op, &ol) != (size_t)-1;
	if (old)
		uselocale(old);
	if (!ok)
		return 0;
	if (op - out == 1 && out[0] == '?')
		return 0;
	return (size_t)(op - out);
}

int kd_charset_convert(struct kd_charset *cs, const char *in, size_t len,
		       char **out, size_t *out_len)
{
	/* Worst case: every byte an escape of 4 bytes. */
	char *o = malloc(len * 4 + 1);
	size_t at = 0, i = 0;

	if (!o)
		return -ENOMEM;
	while (i < len) {
		const unsigned char *s = (const unsigned char *)in + i;
		size_t l, w;
		char tmp[32];

		if (!cs || s[0] < 0x80 || !(l = kd_utf8_len(s, len - i))) {
			o[at++] = in[i++];
			continue;
		}
		w = convert_one(cs, in + i, l, tmp);
		if (w && w <= l * 4) {
			memcpy(o + at, tmp, w);
			at += w;
		} else {
			for (size_t k = 0; k < l; k++)
				at += (size_t)sprintf(o + at, "\\x%02x", s[k]);
		}
		i += l;
	}
	o[at] = '\0';
	*out = o;
	*out_len = at;
	return 0;
}

void kd_charset_free(struct kd_charset *cs)
{
	if (!cs)
		return;
	iconv_close(cs->cd);
	if (cs->translit)
		freelocale(cs->translit);
	free(cs);
}
