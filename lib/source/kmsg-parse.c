// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kmsg-parse.c - the /dev/kmsg record format (see kmsg-parse.h): the
 * text and the dictionary lines; the header is kmsg-header.c's.
 *
 * Parsing is strict about the header, because a header that does not
 * parse means the bytes are not a record (a binary file, a cut dump), and
 * lenient about the rest: text and dictionary values are whatever the
 * kernel sent, bounded by KD_RECORD_MAX and KD_DICT_MAX so that no input
 * makes a record grow without limit.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "source/kmsg-parse.h"
#include "source/kmsg-parse-internal.h"
#include "source/scan.h"

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

size_t kd_kmsg_unescape(char *dst, size_t max, const char *src, size_t len,
			int *more)
{
	size_t i = 0, n = 0;

	if (more)
		*more = 0;
	while (i < len) {
		unsigned char c = src[i];
		size_t step = 1;
		int hi, lo;

		if (c == '\\' && i + 3 < len &&
		    src[i + 1] == 'x' &&
		    (hi = hexval(src[i + 2])) >= 0 &&
		    (lo = hexval(src[i + 3])) >= 0) {
			c = (unsigned char)(hi << 4 | lo);
			step = 4;
		}
		if (n == max) {
			if (more)
				*more = 1;
			break;
		}
		dst[n++] = (char)c;
		i += step;
	}
	return n;
}


static int set_text(struct kd_record *rec, const char *p, size_t len,
		    bool esc, unsigned int *cut)
{
	char buf[KD_RECORD_MAX];
	int more;

	if (!esc || !memchr(p, '\\', len)) {
		if (len > KD_RECORD_MAX) {
			len = KD_RECORD_MAX;
			*cut |= KD_KMSG_CUT_TEXT;
		}
		return kd_record_set_text(rec, p, len);
	}
	len = kd_kmsg_unescape(buf, sizeof(buf), p, len, &more);
	if (more)
		*cut |= KD_KMSG_CUT_TEXT;
	return kd_record_set_text(rec, buf, len);
}

/*
 * One " KEY=value" line, @p after the leading space, @end at its newline;
 * @esc: whether the record has a backslash anywhere.
 */
static int add_dict_line(struct kd_record *rec, const char *p, const char *end,
			 bool esc, unsigned int *cut)
{
	char key[128];
	char val[KD_RECORD_MAX];
	const char *eq = memchr(p, '=', (size_t)(end - p));
	const char *k = key, *v = val;
	size_t klen, vlen;
	int more, rc;

	if (!eq || eq == p) {
		*cut |= KD_KMSG_BAD_DICT;
		return 0;
	}
	/*
	 * Without a backslash, unescaping is a copy: hand the bytes over as
	 * they are, with the same limits (most dictionary lines, and the
	 * per-byte unescape loop was a tenth of reading a -K dump).
	 */
	if (!esc || !memchr(p, '\\', (size_t)(end - p))) {
		k = p;
		klen = (size_t)(eq - p);
		if (klen > sizeof(key)) {
			*cut |= KD_KMSG_BAD_DICT;
			return 0;
		}
		if (rec->dict_len >= KD_DICT_MAX) {
			*cut |= KD_KMSG_CUT_DICT;
			return 0;
		}
		v = eq + 1;
		vlen = (size_t)(end - eq - 1);
		if (vlen > sizeof(val)) {
			vlen = sizeof(val);
			*cut |= KD_KMSG_CUT_TEXT;
		}
		rc = kd_record_dict_add(rec, k, klen, v, vlen);
		return rc == -E2BIG ? 0 : rc;
	}
	klen = kd_kmsg_unescape(key, sizeof(key), p, (size_t)(eq - p), &more);
	if (more || memchr(key, '\0', klen)) {
		*cut |= KD_KMSG_BAD_DICT;
		return 0;
	}
	if (rec->dict_len >= KD_DICT_MAX) {
		*cut |= KD_KMSG_CUT_DICT;
		return 0;
	}
	vlen = kd_kmsg_unescape(val, sizeof(val), eq + 1,
				(size_t)(end - eq - 1), &more);
	if (more)
		*cut |= KD_KMSG_CUT_TEXT;
	rc = kd_record_dict_add(rec, k, klen, v, vlen);
	return rc == -E2BIG ? 0 : rc;
}


/*
 * The first newline, NUL or backslash in [p, end), or @end; *@eq: the
 * first '=' before it, or NULL.  One pass for both: a memchr() for the
 * '=' of every dictionary line was a tenth of reading a structured dump.
 */
static inline __attribute__((always_inline)) const char *
dict_stop(const char *p, const char *end, const char **eq)
{
	*eq = NULL;
#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128(),
		      bs = _mm_set1_epi8('\\'), is = _mm_set1_epi8('=');

	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		unsigned int m = (unsigned int)_mm_movemask_epi8(_mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, nl), _mm_cmpeq_epi8(v, zero)),
			_mm_cmpeq_epi8(v, bs)));
		unsigned int e = *eq ? 0 : (unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(v, is));

		if (m) {
			unsigned int stop = (unsigned int)__builtin_ctz(m);

			e &= (1u << stop) - 1;
			if (e)
				*eq = p + __builtin_ctz(e);
			return p + stop;
		}
		if (e)
			*eq = p + __builtin_ctz(e);
		p += 16;
	}
#endif
	for (; p < end; p++) {
		if (*p == '\n' || *p == '\0' || *p == '\\')
			return p;
		if (*p == '=' && !*eq)
			*eq = p;
	}
	return end;
}

static inline size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

/*
 * The end of parse_simple(): with @wbuf, the lent entries (all of
 * @rec's) become strings where they lie, the '=' after each key and the
 * byte after each value (its newline, or the byte KD_RECORD_MAX cut it
 * at) overwritten by NUL.  Returns @next.
 */
static inline __attribute__((always_inline)) const char *
lend_done(struct kd_record *rec, const char *next, char *wbuf)
{
	if (wbuf)
		for (size_t i = 0; i < rec->dict_len; i++) {
			rec->dict[i].value[-1] = '\0';
			rec->dict[i].value[rec->dict[i].value_len] = '\0';
		}
	return next;
}

/*
 * add_dict_line() without a backslash, for a caller that never reads the
 * dictionary: the same checks and the same *@cut bits, nothing stored.
 * The line is [@p, @end), @eq its first '=' or NULL (dict_stop()); @n
 * counts the entries add_dict_line() would have kept.  Returns @eq when
 * it counted one, else NULL.  Always inlined: once per dictionary line
 * of every record.
 */
static inline __attribute__((always_inline)) const char *
check_dict_line(size_t *n, const char *p, const char *eq, const char *end, unsigned int *cut)
{
	if (!eq || eq == p || (size_t)(eq - p) > 128) {
		*cut |= KD_KMSG_BAD_DICT;
		return NULL;
	}
	if (*n >= KD_DICT_MAX) {
		*cut |= KD_KMSG_CUT_DICT;
		return NULL;
	}
	if ((size_t)(end - eq - 1) > KD_RECORD_MAX)
		*cut |= KD_KMSG_CUT_TEXT;
	(*n)++;
	return eq;
}

int kd_kmsg_keys_init(struct kd_kmsg_keys *keys, const char *const *names)
{
	memset(keys, 0, sizeof(*keys));
	for (; *names; names++) {
		size_t len = strlen(*names);

		if (keys->n == KD_KMSG_KEYS_MAX || len > 255)
			return -E2BIG;
		if (len < 64)
			keys->lens |= 1ULL << len;
		else
			keys->long_key = true;
		memcpy(&keys->head[keys->n], *names, len < 8 ? len : 8);
		keys->len[keys->n] = (unsigned char)len;
		keys->name[keys->n++] = *names;
	}
	return 0;
}

/* The bits of the first @n (1..7) bytes of a word loaded with memcpy(). */
static inline uint64_t first_bytes_mask(size_t n)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return ~0ULL << (64 - 8 * n);
#else
	return ~0ULL >> (64 - 8 * n);
#endif
}

/*
 * Whether the key of the line at @p (@klen bytes, no NUL among them) is
 * one of @keys; @end: the end of the readable input.  Once per
 * dictionary line: the length settles most lines (CODE_FUNC against
 * MODULE, FORMAT, ARGn) with one bit test, and the first 8 bytes most
 * of the rest (CODE_FUNC against CODE_FILE); a loop comparing bytes
 * cost some 30 instructions a line (bench/README.md).
 */
static inline bool wanted_key(const char *p, size_t klen, const char *end,
			      const struct kd_kmsg_keys *keys)
{
	if (klen < 64 ? keys->lens >> klen & 1 : keys->long_key) {
		uint64_t head = 0;

		/* The '=' and the value follow the key: 8 bytes are nearly always there. */
		if (end - p >= 8) {
			memcpy(&head, p, 8);
			if (klen < 8)
				head &= first_bytes_mask(klen);
		} else {
			memcpy(&head, p, klen < 8 ? klen : 8);
		}
		for (size_t i = 0; i < keys->n; i++)
			if (keys->head[i] == head && keys->len[i] == klen &&
			    (klen <= 8 || memcmp(keys->name[i] + 8, p + 8, klen - 8) == 0))
				return true;
	}
	/* A group's per-line keys (LINE<k>_CODE_FUNC...) go with their key. */
	if (p[0] == 'L') {
		size_t d = kd_dict_line_prefix(p, klen);

		return d && wanted_key(p + d, klen - d, end, keys);
	}
	return false;
}

/*
 * The record at @buf, for every public kd_kmsg_parse_simple*().  @wbuf:
 * NULL, or @buf writable (kd_kmsg_parse_simple_lend()): dictionary
 * entries are then lent from the input, terminated in place once the
 * record is known to be simple (no write happens when NULL is returned,
 * so the general path reads the input as it was).
 */
static inline __attribute__((always_inline)) const char *
parse_simple(const char *buf, const char *end,
				       struct kd_record *rec, unsigned int *cut,
				       unsigned int flags, const struct kd_kmsg_keys *keys,
				       char *wbuf)
{
	bool lend = flags & KD_KMSG_LEND;
	size_t ndict = 0;

	const char *p, *nl, *eq;
	size_t n;

	*cut = 0;
	/* A leading blank, and anything below, is left to the general path. */
	if (buf == end || *buf < '0' || *buf > '9')
		return NULL;
	kd_record_reset(rec);
	p = kd_kmsg_header_parse(buf, end, rec);
	if (!p)
		return NULL;
	nl = kd_scan_stop(p, end, true);
	/*
	 * The end of the input must not decide where the record ends; a
	 * blank line right after the text is parse_record()'s (dmesg keeps
	 * a newline of it).
	 */
	if (nl == end || *nl != '\n' || end - nl < 2 || nl[1] == '\n')
		return NULL;
	n = (size_t)(nl - p);
	if (n > KD_RECORD_MAX) {
		n = KD_RECORD_MAX;
		*cut |= KD_KMSG_CUT_TEXT;
	}
	/* Printable ASCII, nothing to unescape: the input bytes are the text. */
	if (lend) {
		kd_record_ref_text(rec, p, n);
		/* Not cut: the newline follows (text_nl, for zero-copy). */
		rec->text_nl = p + n == nl;
	} else if (kd_record_set_text(rec, p, n) < 0) {
		return NULL;
	}
	rec->text_plain = true;

	/*
	 * " KEY=value" lines, split where the splitter splits: a record
	 * ends at a NUL byte or before a line that does not start with a
	 * blank.  A backslash anywhere leaves the record to the general
	 * path, which unescapes.
	 */
	for (p = nl + 1; *p == ' '; p = nl + 1) {
		nl = dict_stop(p, end, &eq);
		if (nl == end || *nl == '\\')
			return NULL;
		if (wbuf) {
			eq = check_dict_line(&ndict, p + 1, eq, nl, cut);

			if (eq && (!keys || wanted_key(p + 1, (size_t)(eq - p - 1), end, keys)) &&
			    kd_record_dict_lend(rec, wbuf + (p + 1 - buf), wbuf + (eq + 1 - buf),
						min_size((size_t)(nl - eq - 1), KD_RECORD_MAX)) < 0)
				return NULL;
		} else if (keys) {
			/* Counted as NO_DICT counts; stored only if asked for. */
			eq = check_dict_line(&ndict, p + 1, eq, nl, cut);

			if (eq && wanted_key(p + 1, (size_t)(eq - p - 1), end, keys) &&
			    add_dict_line(rec, p + 1, nl, false, cut) < 0)
				return NULL;
		} else if (flags & KD_KMSG_NO_DICT) {
			check_dict_line(&ndict, p + 1, eq, nl, cut);
		} else if (add_dict_line(rec, p + 1, nl, false, cut) < 0) {
			return NULL;
		}
		if (*nl == '\0')
			return lend_done(rec, nl + 1, wbuf);
		if (end - nl < 2)
			return NULL;
	}
	return lend_done(rec, p, wbuf);
}

const char *kd_kmsg_parse_simple(const char *buf, const char *end,
				 struct kd_record *rec, unsigned int *cut,
				 unsigned int flags)
{
	return parse_simple(buf, end, rec, cut, flags, NULL, NULL);
}

const char *kd_kmsg_parse_simple_keys(const char *buf, const char *end,
				      struct kd_record *rec, unsigned int *cut,
				      unsigned int flags,
				      const struct kd_kmsg_keys *keys)
{
	return parse_simple(buf, end, rec, cut, flags, keys, NULL);
}

const char *kd_kmsg_parse_simple_lend(char *buf, const char *end,
				      struct kd_record *rec, unsigned int *cut,
				      const struct kd_kmsg_keys *keys)
{
	return parse_simple(buf, end, rec, cut, KD_KMSG_LEND, keys, buf);
}

/*
 * kd_kmsg_parse() and kd_kmsg_parse_dump(); @dump: the record comes from
 * a saved file, whose every byte is kept.
 */
static int parse_record(const char *buf, size_t len, struct kd_record *rec,
			unsigned int *cutp, bool dump)
{
	const char *p = buf, *end = buf + len, *nul, *nl, *text_end;
	unsigned int cut = 0;
	bool esc, plain;
	int rc;

	if (cutp)
		*cutp = 0;
	kd_record_reset(rec);
	/*
	 * The record ends at the first NUL byte.  The header is read up to
	 * a NUL as if it were the end (every header test fails on it the
	 * same way); the rest is bounded below, once the header is known.
	 */
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
		p++;
	p = kd_kmsg_header_parse(p, end, rec);
	if (!p)
		return -EINVAL;

	/*
	 * Text of printable ASCII up to its newline (or the end): it is the
	 * text as it stands, and only the dictionary lines after it need a
	 * look for NUL bytes and escapes.  Anything else takes the general
	 * path: the record cut at its first NUL, one look for escapes in
	 * the whole record, not one per line.
	 */
	nl = kd_scan_stop(p, end, true);
	plain = nl == end || *nl == '\n';
	if (plain) {
		nul = memchr(nl, '\0', (size_t)(end - nl));
		if (nul)
			end = nul;
		esc = memchr(nl, '\\', (size_t)(end - nl)) != NULL;
	} else {
		nul = memchr(p, '\0', (size_t)(end - p));
		if (nul)
			end = nul;
		esc = memchr(p, '\\', (size_t)(end - p)) != NULL;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
	}
	/*
	 * dmesg takes the last byte of every record for its newline and then
	 * drops the byte before the separator it expected; a text line the
	 * kernel cut at its 2048-byte limit has no newline, so dmesg loses
	 * that line's last two bytes (seen on a 6.12 boot, make check-kernel).
	 * Do the same for the live device to print the same bytes; a record
	 * of a saved dump keeps every byte (dmesg -K loses them there too).
	 */
	text_end = nl;
	if (nl == end && !nul && !dump)
		text_end = end - p > 2 ? end - 2 : p;
	/*
	 * dmesg -K reads a text up to its newline and, when a second newline
	 * follows directly, keeps one in the text: it prints one more line.
	 * The kernel never sends that; a NUL dump may hold it.
	 */
	if (nl < end && end - nl > 1 && nl[1] == '\n') {
		text_end = nl + 1;
		plain = false;
	}
	if (plain) {
		size_t n = (size_t)(text_end - p);

		if (n > KD_RECORD_MAX) {
			n = KD_RECORD_MAX;
			cut |= KD_KMSG_CUT_TEXT;
		}
		rc = kd_record_set_text(rec, p, n);
		rec->text_plain = true;
	} else {
		rc = set_text(rec, p, (size_t)(text_end - p), esc, &cut);
	}
	if (rc)
		return rc;

	for (p = nl < end ? nl + 1 : end; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (nl == p)
			continue;		/* blank line */
		if (*p != ' ') {
			cut |= KD_KMSG_BAD_DICT;
		} else {
			rc = add_dict_line(rec, p + 1, nl, esc, &cut);
			if (rc)
				return rc;
		}
		if (nl == end)
			break;
	}
	if (cutp)
		*cutp = cut;
	return 0;
}

int kd_kmsg_parse(const char *buf, size_t len, struct kd_record *rec,
		  unsigned int *cutp)
{
	return parse_record(buf, len, rec, cutp, false);
}

int kd_kmsg_parse_dump(const char *buf, size_t len, struct kd_record *rec,
		       unsigned int *cutp)
{
	return parse_record(buf, len, rec, cutp, true);
}
