// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kmsg-parse.c - the /dev/kmsg record format (see kmsg-parse.h).
 *
 * Parsing is strict about the header, because a header that does not
 * parse means the bytes are not a record (a binary file, a cut dump), and
 * lenient about the rest: text and dictionary values are whatever the
 * kernel sent, bounded by KD_RECORD_MAX and KD_DICT_MAX so that no input
 * makes a record grow without limit.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "source/kmsg-parse.h"
#include "record/priority.h"
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

/* Digits only (the kernel never sends a sign or blanks); NULL on overflow. */
static const char *parse_u64(const char *p, const char *end, uint64_t *val)
{
	static const uint32_t pow10[8] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
	};
	const char *start = p;
	uint64_t v = 0;

	/*
	 * Eight bytes at a time while sixteen are left: a header's numbers
	 * are 1 to 12 digits, and a loop per digit was a sixth of reading
	 * a -K dump.  Fifteen digits cannot overflow; 16 or more take the
	 * loops below, which test for it.
	 */
	if (end - p >= 16) {
		uint64_t a, b;
		unsigned int k1, k2;

		a = kd_scan_load8(p);
		k1 = kd_scan_lead_digits8(a);
		if (k1 == 0)
			return NULL;
		if (k1 < 8) {
			*val = kd_scan_digits8_value(a, k1);
			return p + k1;
		}
		b = kd_scan_load8(p + 8);
		k2 = kd_scan_lead_digits8(b);
		if (k2 < 8) {
			v = kd_scan_digits8_value(a, 8);
			if (k2)
				v = v * pow10[k2] + kd_scan_digits8_value(b, k2);
			*val = v;
			return p + 8 + k2;
		}
	}

	/*
	 * Up to 19 digits cannot overflow: no bound test per digit while
	 * that many bytes are left (header numbers are a few digits).
	 */
	if (end - p > 19) {
		const char *lim = p + 19;

		while (p < lim && *p >= '0' && *p <= '9')
			v = v * 10 + (unsigned int)(*p++ - '0');
		if (p < lim || *p < '0' || *p > '9') {
			if (p == start)
				return NULL;
			*val = v;
			return p;
		}
	}
	while (p < end && *p >= '0' && *p <= '9') {
		unsigned int d = (unsigned int)(*p - '0');

		/* The exact test only once v is near the limit. */
		if (v >= UINT64_MAX / 10 && v > (UINT64_MAX - d) / 10)
			return NULL;
		v = v * 10 + d;
		p++;
	}
	if (p == start)
		return NULL;
	*val = v;
	return p;
}

/*
 * The end of the header field at @p: the next ',' or ';' before a newline
 * or a NUL byte (the record ends at a NUL, see kd_kmsg_parse()).
 */
static const char *field_end(const char *p, const char *end)
{
#ifdef __SSE2__
	/* "caller=T1234" is a dozen bytes: one test of sixteen, not twelve. */
	const __m128i comma = _mm_set1_epi8(','), semi = _mm_set1_epi8(';'),
		      nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();

	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		unsigned int m = (unsigned int)_mm_movemask_epi8(_mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, comma), _mm_cmpeq_epi8(v, semi)),
			_mm_or_si128(_mm_cmpeq_epi8(v, nl), _mm_cmpeq_epi8(v, zero))));

		if (m)
			return p + __builtin_ctz(m);
		p += 16;
	}
#endif
	while (p < end && *p != ',' && *p != ';' && *p != '\n' && *p != '\0')
		p++;
	return p;
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
 * The caller id [p, end); @end_of_input bounds what may be read.  False
 * when it is longer than dmesg keeps (KD_CALLER_MAX).
 */
static bool set_caller(struct kd_record *rec, const char *p, const char *end,
		       const char *end_of_input)
{
	size_t n = (size_t)(end - p);

	if (n > KD_CALLER_MAX)
		return false;
	if (n == 0)
		return true;
	/* A fixed-size copy where the input has room: a move, not a call. */
	if (end_of_input - p >= (ptrdiff_t)sizeof(rec->caller))
		memcpy(rec->caller, p, sizeof(rec->caller));
	else
		memcpy(rec->caller, p, n);
	rec->caller[n] = '\0';
	return true;
}

/*
 * One header field [@f, @e) after the three numbers: "caller=" sets the
 * caller id; the first field, when it is "c", is the continuation flag
 * ('-' and '+' and unknown fields are ignored).  Both header readers.
 * False for a caller id longer than dmesg keeps: dmesg then prints the
 * header from the second field on as text, and so do the readers.
 */
static inline bool header_field(struct kd_record *rec, const char *f,
				const char *e, const char *end, bool first)
{
	if (e - f >= 7 && memcmp(f, "caller=", 7) == 0)
		return set_caller(rec, f + 7, e, end);
	if (first && e - f == 1 && *f == 'c')
		rec->flags |= KD_REC_CONT;
	return true;
}

/* Same masking as syslog(3)'s LOG_FAC()/LOG_PRI(), as dmesg does. */
static inline void header_numbers(struct kd_record *rec, uint64_t pri,
				  uint64_t usec)
{
	kd_priority_set(rec, pri);
	rec->flags |= KD_REC_HAS_SEQ;
	rec->ts_usec = (int64_t)usec;
}

/*
 * The header "pri,seq,usec[,flags][,name=value...];" at @p into @rec;
 * returns where the text starts, or NULL when it does not parse.  A NUL
 * byte or newline in it ends it early, as a cut record does: every test
 * below fails on one the same way as on @end.
 */
static const char *parse_header(const char *p, const char *end,
				struct kd_record *rec)
{
	const char *f, *after_first = NULL;
	uint64_t pri, seq, usec;
	bool first = true, bad = false;

	p = parse_u64(p, end, &pri);
	if (!p || p == end || *p != ',' || pri > INT_MAX)
		return NULL;
	p = parse_u64(p + 1, end, &seq);
	if (!p || p == end || *p != ',')
		return NULL;
	p = parse_u64(p + 1, end, &usec);
	if (!p || p == end || (*p != ',' && *p != ';') || usec > INT64_MAX)
		return NULL;

	/* Flags, then optional "name=value" fields, up to the ';'. */
	while (*p == ',') {
		f = p + 1;
		p = field_end(f, end);
		if (p == end || *p == '\n' || *p == '\0')
			return NULL;
		bad |= !header_field(rec, f, p, end, first);
		if (first)
			after_first = p + 1;
		first = false;
	}

	header_numbers(rec, pri, usec);
	rec->seq = seq;
	/* After the ';', or where dmesg starts the text (header_field()). */
	return bad ? after_first : p + 1;
}

/*
 * The value of the @n digits at @p (1..16, known to be digits), with one
 * or two word loads (kd_scan_digits8_value()).
 */
static inline uint64_t digits_value(const char *p, unsigned int n)
{
	static const uint32_t pow10[9] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	};

	if (n <= 8)
		return kd_scan_digits8_value(kd_scan_load8(p), n);
	return (uint64_t)kd_scan_digits8_value(kd_scan_load8(p), 8) * pow10[n - 8] +
	       kd_scan_digits8_value(kd_scan_load8(p + 8), n - 8);
}

#ifdef __SSE2__
/* Bit i (0 <= i < 48) set where byte i of @v0, @v1, @v2 is in @m's test. */
#define MASK48(t) ((uint64_t)(unsigned int)_mm_movemask_epi8(t(v0)) |	\
		   (uint64_t)(unsigned int)_mm_movemask_epi8(t(v1)) << 16 |	\
		   (uint64_t)(unsigned int)_mm_movemask_epi8(t(v2)) << 32)
#endif

/*
 * parse_header() for the header of a record as the kernel writes it,
 * "pri,seq,usec[,fields];" within 48 bytes, numbers of at most 9, 16
 * and 16 digits: one look at the 48 bytes finds the separators and
 * proves that the numbers are digits, and each number is read with one
 * or two word loads (it was a third of reading a -K dump, number by
 * number).  Anything else, and any input that parse_header() would
 * refuse, goes to parse_header(), so the result is always
 * parse_header()'s.  The field loop below is parse_header()'s, over the
 * separators found here: with no newline or NUL before the ';',
 * field_end() stops exactly there.
 */
static const char *parse_header_fast(const char *p, const char *end,
				     struct kd_record *rec)
{
#ifdef __SSE2__
	const __m128i semi_c = _mm_set1_epi8(';'), comma_c = _mm_set1_epi8(','),
		      nl_c = _mm_set1_epi8('\n'), zero = _mm_setzero_si128(),
		      d_lo = _mm_set1_epi8('0' - 1), d_hi = _mm_set1_epi8('9' + 1);
	__m128i v0, v1, v2;
	uint64_t semi, sep, other, below, pri, usec;
	unsigned int s, a, b, c;
	const char *after_first = NULL;
	bool first = true, bad = false;

	/* The loads reach 48 + 16 bytes in (a number's second word). */
	if (end - p < 64)
		return parse_header(p, end, rec);
	v0 = _mm_loadu_si128((const __m128i *)(const void *)p);
	v1 = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
	v2 = _mm_loadu_si128((const __m128i *)(const void *)(p + 32));
#define IS_SEMI(v) _mm_cmpeq_epi8((v), semi_c)
#define IS_COMMA(v) _mm_cmpeq_epi8((v), comma_c)
#define IS_STOP(v) _mm_or_si128(_mm_cmpeq_epi8((v), nl_c), _mm_cmpeq_epi8((v), zero))
#define IS_DIGIT(v) _mm_and_si128(_mm_cmpgt_epi8((v), d_lo), _mm_cmplt_epi8((v), d_hi))
	semi = MASK48(IS_SEMI);
	if (!semi)
		return parse_header(p, end, rec);
	s = (unsigned int)__builtin_ctzll(semi);
	below = (1ULL << s) - 1;
	/* Separators before the ';', then the ';' itself. */
	sep = (MASK48(IS_COMMA) & below) | (1ULL << s);
	/* The ';' stays in @sep until the field loop reaches it. */
	a = (unsigned int)__builtin_ctzll(sep);
	sep &= sep - 1;
	if (a == s)
		return parse_header(p, end, rec);
	b = (unsigned int)__builtin_ctzll(sep);
	sep &= sep - 1;
	if (b == s)
		return parse_header(p, end, rec);
	c = (unsigned int)__builtin_ctzll(sep);
	sep &= sep - 1;
	/*
	 * pri "," seq "," usec: all digits but the two commas, no field
	 * empty, no number too long; and no newline or NUL up to the ';'.
	 */
	other = ~(MASK48(IS_DIGIT) | (1ULL << a) | (1ULL << b)) & ((1ULL << c) - 1);
	if (other || a == 0 || a > 9 || b - a - 1 == 0 ||
	    b - a - 1 > 16 || c - b - 1 == 0 || c - b - 1 > 16 ||
	    (MASK48(IS_STOP) & below))
		return parse_header(p, end, rec);
#undef IS_SEMI
#undef IS_COMMA
#undef IS_STOP
#undef IS_DIGIT
	pri = digits_value(p, a);
	rec->seq = digits_value(p + a + 1, b - a - 1);
	usec = digits_value(p + b + 1, c - b - 1);

	/* Flags, then optional "name=value" fields, up to the ';'. */
	while (c != s) {
		const char *f = p + c + 1, *e;

		c = (unsigned int)__builtin_ctzll(sep);
		sep &= sep - 1;
		e = p + c;
		bad |= !header_field(rec, f, e, end, first);
		if (first)
			after_first = e + 1;
		first = false;
	}

	header_numbers(rec, pri, usec);
	return bad ? after_first : p + s + 1;
#else
	return parse_header(p, end, rec);
#endif
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
	p = parse_header_fast(buf, end, rec);
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
	p = parse_header_fast(p, end, rec);
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
