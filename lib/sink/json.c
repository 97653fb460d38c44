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
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "shared/utf8.h"
#include "sink/json.h"

void kd_json_init(struct kd_json *j, struct kd_escape_buf *out)
{
	j->out = out;
	j->indent = 0;
	j->after_close = false;
	j->ready = true;
}

static void put_indent(struct kd_json *j)
{
	static const char spaces[] = "                ";
	size_t n = (size_t)(j->indent > 0 ? j->indent : 0) * 3;

	while (n > sizeof(spaces) - 1) {
		kd_escape_buf_put_short(j->out, spaces, sizeof(spaces) - 1);
		n -= sizeof(spaces) - 1;
	}
	kd_escape_buf_put_short(j->out, spaces, n);
}

/* Copied as they are, whatever the flags: printable ASCII but '"' and '\\'. */
static inline bool plain(unsigned char c)
{
	return (unsigned char)(c - 0x20) < 0x5f && c != '"' && c != '\\';
}

/*
 * The end of the run of plain bytes (printable ASCII but '"' and '\\')
 * that starts at @i, looking at sixteen bytes at a time where SSE2 is
 * there (all of x86-64): a byte is plain when, taken as signed, it is
 * above 0x1f (bytes >= 0x80 are negative) and none of '"', '\\', DEL.
 * Most of a message is such a run; the escaper's loop handles the rest.
 */
#ifdef __SSE2__
/* A bit set for each of the 16 bytes at @p that is not plain. */
static inline unsigned int not_plain16(const unsigned char *p)
{
	const __m128i lo = _mm_set1_epi8(0x1f), del = _mm_set1_epi8(0x7f);
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i bad = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, del),
						_mm_cmpeq_epi8(v, quote)),
				   _mm_cmpeq_epi8(v, bslash));
	__m128i ok = _mm_andnot_si128(bad, _mm_cmpgt_epi8(v, lo));

	return (unsigned int)_mm_movemask_epi8(ok) ^ 0xffff;
}
#endif

#ifdef __SSE2__
/*
 * @n < 16 bytes into @tail: kd_copy_short() without its branch for long
 * pieces, whose memcpy() of @n bytes into a 16-byte array the compiler
 * rightly warns about (-Warray-bounds) where it cannot see that @n < 16.
 */
static inline void tail_copy(unsigned char *tail, const unsigned char *s, size_t n)
{
	if (n >= 8) {
		memcpy(tail, s, 8);
		memcpy(tail + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(tail, s, 4);
		memcpy(tail + n - 4, s + n - 4, 4);
	} else {
		for (size_t i = 0; i < n; i++)
			tail[i] = s[i];
	}
}
#endif

static inline size_t plain_run(const unsigned char *p, size_t i, size_t len)
{
#ifdef __SSE2__
	unsigned char tail[16];
	unsigned int m;

	for (; i + 16 <= len; i += 16)
		if ((m = not_plain16(p + i)))
			return i + (size_t)__builtin_ctz(m);
	if (i == len)
		return i;
	/*
	 * The last bytes, padded with plain ones: most strings (keys,
	 * arguments) are shorter than 16 bytes, and reading past their end
	 * is not allowed.
	 */
	memset(tail, 'x', sizeof(tail));
	tail_copy(tail, p + i, len - i);
	m = not_plain16(tail);
	return m ? i + (size_t)__builtin_ctz(m) : len;
#else
	while (i < len && plain(p[i]))
		i++;
	return i;
#endif
}

void kd_json_escape(struct kd_escape_buf *b, const char *s, size_t len,
		    unsigned int flags)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	bool lower = flags & KD_JSON_LOWER;
	size_t i = 0, run = 0;	/* bytes [run, i) still to copy as they are */

	while (i < len) {
		unsigned char c;
		char esc[6];
		size_t n;

		if (!lower)
			i = plain_run(p, i, len);
		if (i == len)
			break;
		c = p[i];
		if (plain(c) && !(lower && c >= 'A' && c <= 'Z')) {
			i++;
			continue;
		}
		if (c >= 0x80 && (n = kd_utf8_len(p + i, len - i)) &&
		    !(n == 2 && c == 0xc2 && p[i + 1] < 0xa0)) {
			i += n;
			continue;
		}
		kd_escape_buf_put_short(b, s + run, i - run);
		if (c == 0xc2 && i + 1 < len && p[i + 1] >= 0x80 && p[i + 1] < 0xa0) {
			/*
			 * A C1 control (U+0080..U+009F, a terminal's CSI or
			 * OSC) as \u00XX: the same string once parsed.
			 */
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[p[i + 1] >> 4];
			esc[5] = hex[p[i + 1] & 0xf];
			kd_escape_buf_put(b, esc, 6);
			run = i += 2;
			continue;
		}
		run = ++i;
		switch (c) {
		case '"':  kd_escape_buf_put(b, "\\\"", 2); continue;
		case '\\': kd_escape_buf_put(b, "\\\\", 2); continue;
		case '\b': kd_escape_buf_put(b, "\\b", 2); continue;
		case '\f': kd_escape_buf_put(b, "\\f", 2); continue;
		case '\n': kd_escape_buf_put(b, "\\n", 2); continue;
		case '\r': kd_escape_buf_put(b, "\\r", 2); continue;
		case '\t': kd_escape_buf_put(b, "\\t", 2); continue;
		case '\0':
			if (flags & KD_JSON_TO_NUL)
				return;
			break;
		default:
			break;
		}
		if (c >= 'A' && c <= 'Z') {
			kd_escape_buf_putc(b, (char)(c - 'A' + 'a'));
		} else if (c >= 0x80) {
			kd_escape_buf_put(b, "\\ufffd", 6);
		} else {
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 0xf];
			kd_escape_buf_put(b, esc, 6);
		}
	}
	kd_escape_buf_put_short(b, s + run, i - run);
}

void kd_json_string(struct kd_escape_buf *b, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	/*
	 * Most values (a dictionary's, an argument) are short and need
	 * nothing: checked and copied between their quotes in one go, not
	 * through the escaper's loop.
	 */
#ifdef __SSE2__
	/*
	 * With SSE2, checked and copied sixteen bytes at a time: the blocks
	 * are stored whatever they hold (the room is there) and the length
	 * counts only what belongs; a byte to escape sends the string to the
	 * escaper after all.  A string shorter than 16 bytes goes through a
	 * padded copy; a longer one ends with the block of its last 16
	 * bytes, which overlaps the one before.
	 */
	if (len + 2 + 16 <= b->cap - b->len && b->data) {
		unsigned char *d = (unsigned char *)b->data + b->len;
		unsigned int bad = 0;

		d[0] = '"';
		if (len < 16) {
			unsigned char tail[16];

			memset(tail, 'x', sizeof(tail));
			tail_copy(tail, p, len);
			bad = not_plain16(tail);
			memcpy(d + 1, tail, 16);
		} else {
			size_t i = 0;

			for (; i + 16 < len && !bad; i += 16) {
				bad = not_plain16(p + i);
				memcpy(d + 1 + i, p + i, 16);
			}
			if (!bad) {
				bad = not_plain16(p + len - 16);
				memcpy(d + 1 + len - 16, p + len - 16, 16);
			}
		}
		if (!bad) {
			d[len + 1] = '"';
			b->len += len + 2;
			return;
		}
	}
#else
	if (len + 2 <= b->cap - b->len && b->data && plain_run(p, 0, len) == len) {
		unsigned char *d = (unsigned char *)b->data + b->len;

		d[0] = '"';
		kd_copy_short((char *)d + 1, s, len);
		d[len + 1] = '"';
		b->len += len + 2;
		return;
	}
#endif
	kd_escape_buf_putc(b, '"');
	kd_json_escape(b, s, len, 0);
	kd_escape_buf_putc(b, '"');
}

void kd_json_quote(struct kd_escape_buf *b, const char *s, size_t len, bool lower)
{
	kd_escape_buf_putc(b, '"');
	kd_json_escape(b, s, len, KD_JSON_TO_NUL | (lower ? KD_JSON_LOWER : 0));
	kd_escape_buf_putc(b, '"');
}

static bool has_upper(const char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			return true;
	return false;
}

static void print_name(struct kd_json *j, const char *name, bool lower)
{
	if (j->after_close)
		kd_escape_buf_put_short(j->out, ",\n", name ? 2 : 1);
	if (name || !j->after_close)
		put_indent(j);
	if (name) {
		size_t len = strlen(name);

		/* Once per member: a name that needs nothing is copied whole. */
		if (plain_run((const unsigned char *)name, 0, len) != len ||
		    (lower && has_upper(name))) {
			kd_json_quote(j->out, name, len, lower);
			return;
		}
		kd_escape_buf_putc(j->out, '"');
		kd_escape_buf_put_short(j->out, name, len);
		kd_escape_buf_putc(j->out, '"');
	}
}

static void open_member(struct kd_json *j, const char *name,
			enum kd_json_type type, bool lower)
{
	print_name(j, name, lower);
	switch (type) {
	case KD_JSON_OBJECT:
		kd_escape_buf_put_short(j->out, name ? ": {\n" : "{\n", name ? 4 : 2);
		j->indent++;
		break;
	case KD_JSON_ARRAY:
		kd_escape_buf_put_short(j->out, name ? ": [\n" : "[\n", name ? 4 : 2);
		j->indent++;
		break;
	case KD_JSON_VALUE:
		kd_escape_buf_put_short(j->out, name ? ": " : " ", name ? 2 : 1);
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
	kd_escape_buf_putc(j->out, '\n');
	put_indent(j);
	kd_escape_buf_putc(j->out, end);
	if (type == KD_JSON_OBJECT && j->indent == 0)
		kd_escape_buf_putc(j->out, '\n');
	j->after_close = true;
}

void kd_json_value_raw(struct kd_json *j, const char *name, const char *text)
{
	kd_json_open(j, name, KD_JSON_VALUE);
	kd_escape_buf_puts(j->out, text && *text ? text : "null");
	kd_json_close(j, KD_JSON_VALUE);
}

void kd_json_value_str(struct kd_json *j, const char *name, const char *s,
		       size_t len)
{
	kd_json_open(j, name, KD_JSON_VALUE);
	if (s && len && *s)
		kd_json_quote(j->out, s, len, false);
	else
		kd_escape_buf_put(j->out, "null", 4);
	kd_json_close(j, KD_JSON_VALUE);
}

void kd_json_value_u64(struct kd_json *j, const char *name, uint64_t v)
{
	kd_json_open(j, name, KD_JSON_VALUE);
	kd_escape_buf_put_u64(j->out, v);
	kd_json_close(j, KD_JSON_VALUE);
}
