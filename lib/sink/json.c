// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * json.c - util-linux-compatible pretty JSON layout (see json.h).
 *
 * The state machine is small: a member name is preceded by ",\n" when
 * the previous member is complete, by the indent otherwise; an unnamed
 * member after a complete one gets only ",", which is what produces
 * util-linux's "},{" between array elements.
 */
#include <inttypes.h>
#include <string.h>

#include "sink/json.h"

void kd_json_init(struct kd_json *j, FILE *out)
{
	j->out = out;
	j->indent = 0;
	j->after_close = false;
	j->ready = true;
}

static void put_indent(struct kd_json *j)
{
	int i;

	for (i = 0; i < j->indent; i++)
		fputs("   ", j->out);
}

size_t kd_json_utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len, i;
	unsigned char lo = 0x80, hi = 0xbf;	/* range of the second byte */

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (c == 0xed)
			hi = 0x9f;	/* surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;	/* overlong */
		else if (c == 0xf4)
			hi = 0x8f;	/* past U+10FFFF */
	} else
		return 0;

	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

void kd_json_quote(FILE *out, const char *s, size_t len, bool lower)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	putc('"', out);
	for (i = 0; i < len && p[i]; i++) {
		unsigned char c = p[i];

		switch (c) {
		case '"':
		case '\\':
			putc('\\', out);
			putc(c, out);
			continue;
		case '\b': fputs("\\b", out); continue;
		case '\t': fputs("\\t", out); continue;
		case '\n': fputs("\\n", out); continue;
		case '\f': fputs("\\f", out); continue;
		case '\r': fputs("\\r", out); continue;
		default:
			break;
		}
		if (c < 0x20 || c == 0x7f) {
			/* DEL too: the same string, inert on a terminal. */
			fputs("\\u00", out);
			putc(hex[c >> 4], out);
			putc(hex[c & 0xf], out);
		} else if (c >= 0x80) {
			/*
			 * dmesg copies every byte, which leaves invalid
			 * UTF-8 (invalid JSON) for bytes outside a valid
			 * sequence: those become U+FFFD, one per byte.
			 * A C1 control (U+0080..U+009F, a terminal's CSI or
			 * OSC) is written \u00XX: the same string once parsed.
			 */
			size_t n = kd_json_utf8_len(p + i, len - i);

			if (n == 2 && c == 0xc2 && p[i + 1] < 0xa0) {
				fputs("\\u00", out);
				putc(hex[p[i + 1] >> 4], out);
				putc(hex[p[i + 1] & 0xf], out);
				i++;
			} else if (n > 0) {
				fwrite(p + i, 1, n, out);
				i += n - 1;
			} else {
				fputs("\\ufffd", out);
			}
		} else if (lower && c >= 'A' && c <= 'Z') {
			putc(c - 'A' + 'a', out);
		} else {
			putc(c, out);
		}
	}
	putc('"', out);
}

static void print_name(struct kd_json *j, const char *name, bool lower)
{
	if (j->after_close)
		fputs(name ? ",\n" : ",", j->out);
	if (name || !j->after_close)
		put_indent(j);
	if (name)
		kd_json_quote(j->out, name, strlen(name), lower);
}

static void open_member(struct kd_json *j, const char *name,
			enum kd_json_type type, bool lower)
{
	print_name(j, name, lower);
	switch (type) {
	case KD_JSON_OBJECT:
		fputs(name ? ": {\n" : "{\n", j->out);
		j->indent++;
		break;
	case KD_JSON_ARRAY:
		fputs(name ? ": [\n" : "[\n", j->out);
		j->indent++;
		break;
	case KD_JSON_VALUE:
		fputs(name ? ": " : " ", j->out);
		break;
	}
	j->after_close = false;
}

void kd_json_open(struct kd_json *j, const char *name, enum kd_json_type type)
{
	open_member(j, name, type, true);
}

void kd_json_open_exact(struct kd_json *j, const char *name,
			enum kd_json_type type)
{
	open_member(j, name, type, false);
}

void kd_json_close(struct kd_json *j, enum kd_json_type type)
{
	char end;

	if (type == KD_JSON_VALUE) {
		j->after_close = true;
		return;
	}
	j->indent--;
	end = type == KD_JSON_OBJECT ? '}' : ']';
	putc('\n', j->out);
	put_indent(j);
	putc(end, j->out);
	if (type == KD_JSON_OBJECT && j->indent == 0)
		putc('\n', j->out);
	j->after_close = true;
}

void kd_json_value_raw(struct kd_json *j, const char *name, const char *text)
{
	kd_json_open(j, name, KD_JSON_VALUE);
	fputs(text && *text ? text : "null", j->out);
	kd_json_close(j, KD_JSON_VALUE);
}

void kd_json_value_str(struct kd_json *j, const char *name, const char *s,
		       size_t len)
{
	kd_json_open(j, name, KD_JSON_VALUE);
	if (s && len && *s)
		kd_json_quote(j->out, s, len, false);
	else
		fputs("null", j->out);
	kd_json_close(j, KD_JSON_VALUE);
}

void kd_json_value_u64(struct kd_json *j, const char *name, uint64_t v)
{
	kd_json_open(j, name, KD_JSON_VALUE);
	fprintf(j->out, "%" PRIu64, v);
	kd_json_close(j, KD_JSON_VALUE);
}
