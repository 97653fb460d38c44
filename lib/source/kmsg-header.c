// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kmsg-header.c - the header of a /dev/kmsg record,
 * "pri,seq,usec[,flags][,name=value...];", for both record parsers of
 * kmsg-parse.c (kmsg-parse-internal.h).  Strict: a header that does not
 * parse means the bytes are not a record.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "source/kmsg-parse-internal.h"
#include "record/priority.h"
#include "source/scan.h"

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
 * kd_kmsg_header_parse(): parse_header() for the header of a record as
 * the kernel writes it, "pri,seq,usec[,fields];" within 48 bytes,
 * numbers of at most 9, 16 and 16 digits: one look at the 48 bytes
 * finds the separators and proves that the numbers are digits, and each
 * number is read with one or two word loads (it was a third of reading
 * a -K dump, number by number).  Anything else, and any input that
 * parse_header() would refuse, goes to parse_header(), so the result is
 * always parse_header()'s.  The field loop below is parse_header()'s,
 * over the separators found here: with no newline or NUL before the
 * ';', field_end() stops exactly there.
 */
const char *kd_kmsg_header_parse(const char *p, const char *end, struct kd_record *rec)
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
