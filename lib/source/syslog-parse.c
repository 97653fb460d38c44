// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * syslog-parse.c - the syslog(2) buffer format (see syslog-parse.h).
 *
 * The numeric fields are read the way strtol() reads them (leading blanks
 * and a sign accepted), but bounded to the record, because that is what
 * decides which bytes dmesg shows as text when the input is not quite
 * what the kernel writes.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "record/priority.h"
#include "source/scan.h"
#include "source/syslog-parse.h"

const char *kd_syslog_record_end(const char *begin, const char *end)
{
	const char *p = begin + 1;

	while (p < end - 1) {
		const char *nl = memchr(p, '\n', (size_t)(end - 1 - p));

		if (!nl)
			return NULL;
		if (nl[1] == '<')
			return nl;
		p = nl + 1;
	}
	return NULL;
}

const char *kd_syslog_skip_nul(const char *p, const char *end)
{
	while (p < end && *p == '\0')
		p++;
	return p;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * strtol() on [p, end): returns the end of the number, or @p when there
 * are no digits.  *@ovf is set on overflow (the value saturates, as
 * strtol's does).  The caller guarantees a non-number byte before @end.
 */
static const char *parse_long(const char *p, const char *end, long *val,
			      int *ovf)
{
	const char *q = p;
	unsigned long v = 0, lim;
	int neg = 0;

	*ovf = 0;
	*val = 0;
	while (q < end && is_space(*q))
		q++;
	if (q < end && (*q == '+' || *q == '-'))
		neg = *q++ == '-';
	if (q == end || !is_digit(*q))
		return p;
	lim = neg ? (unsigned long)LONG_MAX + 1 : (unsigned long)LONG_MAX;
	for (; q < end && is_digit(*q); q++) {
		unsigned long d = (unsigned long)(*q - '0');

		if (*ovf || v > (lim - d) / 10) {
			*ovf = 1;
			continue;
		}
		v = v * 10 + d;
	}
	if (*ovf)
		*val = neg ? LONG_MIN : LONG_MAX;
	else
		*val = neg ? (long)(0 - v) : (long)v;
	return q;
}

/* The first @c or NUL in [p, end), or NULL. */
static const char *find_stop(const char *p, const char *end, char c)
{
	for (; p < end; p++)
		if (*p == c || *p == '\0')
			return p;
	return NULL;
}

/*
 * "<pri>": a number (strtol(), no overflow) right up to '>' sets the
 * priority.  Otherwise, as dmesg's plain output has it, the text starts
 * after the '>' (or the NUL that stands for it; the end without one);
 * with @decoded, as dmesg reads it when it decodes the priority (-x, -l,
 * -f, colours, -J), the text starts after the '<' and no stamp is looked
 * for.
 */
static const char *parse_pri(const char *p, const char *end,
			     struct kd_record *rec, bool decoded)
{
	const char *gt = find_stop(p + 1, end, '>');
	const char *num_end;
	long pri;
	int ovf;

	if (gt && *gt == '>') {
		num_end = parse_long(p + 1, gt, &pri, &ovf);
		if (num_end == gt && num_end > p + 1 && !ovf) {
			kd_priority_set(rec, (uint64_t)pri);
			return gt + 1;
		}
	}
	if (decoded)
		return p + 1;
	return gt ? gt + 1 : end;
}

/*
 * The microseconds of a fraction field [@d, @end) whose value is @v: the
 * kernel writes six digits; of a longer fraction only the first six count
 * (a decimal fraction, "1.9999999" is 1.999999 s), where dmesg would add
 * the whole number as microseconds.
 */
static long frac_usec(const char *d, const char *end, long v)
{
	int neg = 0;

	while (d < end && is_space(*d))
		d++;
	if (d < end && (*d == '+' || *d == '-'))
		neg = *d++ == '-';
	if (end - d <= 6)
		return v;
	v = 0;
	for (int i = 0; i < 6; i++)
		v = v * 10 + (d[i] - '0');
	return neg ? -v : v;
}

/*
 * sec * 1000000 + usec, saturated to what a record can hold (never
 * KD_NO_TIME): a crafted stamp must not overflow.
 */
static int64_t stamp_usec(long sec, long usec)
{
	int64_t r;

	if (sec > INT64_MAX / 1000000)
		return INT64_MAX;
	if (sec < -(INT64_MAX / 1000000))
		return -INT64_MAX;
	if (__builtin_add_overflow((int64_t)sec * 1000000, (int64_t)usec, &r) ||
	    r == KD_NO_TIME)
		return usec > 0 ? INT64_MAX : -INT64_MAX;
	return r;
}

/* "[sssss.uuuuuu]": @p is at the '['; returns where the text goes on. */
static const char *parse_time(const char *p, const char *end,
			      struct kd_record *rec)
{
	const char *str0 = p + 1, *str = str0, *rb, *num_end;
	long sec = 0, usec = 0;
	int ovf, ok, seen;

	rb = find_stop(str0, end, ']');
	if (!rb || *rb != ']')
		return str0;

	num_end = parse_long(str, rb, &sec, &ovf);
	seen = num_end != str;
	if (!ovf && *num_end == '.' && num_end + 1 < rb) {
		str = num_end + 1;
		num_end = parse_long(str, rb, &usec, &ovf);
		usec = frac_usec(str, num_end, usec);
	}
	ok = !ovf && num_end != str && *num_end == ']';

	/*
	 * dmesg keeps what it converted even when the field is bad; seconds
	 * beyond what fits (it saturates them as strtol() does) saturate.
	 */
	if (seen)
		rec->ts_usec = stamp_usec(sec, usec);
	return ok ? num_end + 1 : str0;
}

/*
 * The fast path for what the kernel writes: "<N>" with 1..9 digits, and
 * "[" blanks, 1..12 digits, ".", 1..9 digits, "]".  For such input the
 * results are exactly those of parse_pri()/parse_time() (no sign, no
 * overflow, no NUL, the first ']' is the one that ends the digits); for
 * anything else these return NULL and the general parsers run.  They are
 * most of the time spent reading a -F file, hence the special case.
 */
static const char *fast_pri(const char *p, const char *end,
			    struct kd_record *rec)
{
	const char *q = p + 1, *lim = end - p > 11 ? p + 11 : end;
	unsigned long pri = 0;

	while (q < lim && is_digit(*q))
		pri = pri * 10 + (unsigned long)(*q++ - '0');
	if (q == p + 1 || q == lim || *q != '>')
		return NULL;
	kd_priority_set(rec, pri);
	return q + 1;
}

static const char *fast_time(const char *p, const char *end,
			     struct kd_record *rec)
{
	const char *q = p + 1;
	int64_t sec = 0, usec = 0;
	int k;

	while (q < end && *q == ' ')
		q++;
	/* Room checked per field, so no end test per digit. */
	if (end - q < 12 + 1)
		return NULL;
	/* Up to 7 digits (115 days) in one word, more in the loop. */
	k = (int)kd_scan_lead_digits8(kd_scan_load8(q));
	if (k > 0 && k < 8) {
		sec = kd_scan_digits8_value(kd_scan_load8(q), (unsigned int)k);
	} else {
		for (k = 0; k < 12 && is_digit(q[k]); k++)
			sec = sec * 10 + (q[k] - '0');
	}
	if (k == 0 || q[k] != '.')
		return NULL;
	q += k + 1;
	if (end - q < 9 + 1)
		return NULL;
	if (q[6] == ']' && is_digit(q[0]) && is_digit(q[1]) && is_digit(q[2]) &&
	    is_digit(q[3]) && is_digit(q[4]) && is_digit(q[5])) {
		/* "%06ld", what the kernel writes: no loop. */
		usec = (((((q[0] - '0') * 10 + (q[1] - '0')) * 10 + (q[2] - '0')) * 10 +
			 (q[3] - '0')) * 10 + (q[4] - '0')) * 10 + (q[5] - '0');
		k = 6;
	} else {
		for (k = 0; k < 9 && is_digit(q[k]); k++)
			usec = usec * 10 + (q[k] - '0');
		if (k == 0 || q[k] != ']')
			return NULL;
		/* frac_usec(): six digits count. */
		for (int x = k; x > 6; x--)
			usec /= 10;
	}
	rec->ts_usec = sec * 1000000 + usec;
	return q + k + 1;
}

/* kd_syslog_parse_ref() with kd_syslog_parse_flags()'s @decoded_pri. */
static int parse_ref(const char *begin, const char *end, bool last,
		     struct kd_record *rec, unsigned int *cut, bool decoded_pri)
{
	const char *p = begin, *mesg, *q;
	size_t size;

	kd_record_reset(rec);
	if (cut)
		*cut = 0;

	if (p < end && *p == '<') {
		q = fast_pri(p, end, rec);
		if (!q)
			q = parse_pri(p, end, rec, decoded_pri);
		p = q;
	}

	if (p + 1 < end && *p == '[' &&
	    (p[1] == ' ' || is_digit(p[1]))) {
		q = fast_time(p, end, rec);
		p = q ? q : parse_time(p, end, rec);
		if (p < end && *p == ' ')
			p++;
	}

	if (p + 1 < end && *p == '[' &&
	    (p[1] == ' ' || p[1] == 'T' || p[1] == 'C')) {
		const char *start = p + 1, *rb, *after;
		size_t id;

		while (start < end && *start == ' ')
			start++;
		rb = find_stop(p, end, ']');
		after = rb ? rb + 1 : end;
		id = (size_t)(after - start);
		if (id > 1 && id - 1 <= KD_CALLER_MAX) {
			const char *nul = memchr(start, '\0', id - 1);
			size_t n = nul ? (size_t)(nul - start) : id - 1;

			memcpy(rec->caller, start, n);
			rec->caller[n] = '\0';
		}
		mesg = after < end ? after + 1 : end;
	} else {
		mesg = p;
	}

	size = (size_t)(end - mesg);
	if (last && size > 0 && end[-1] == '\n')
		size--;
	if (size > KD_RECORD_MAX) {
		size = KD_RECORD_MAX;
		if (cut)
			*cut = 1;
	}
	kd_record_ref_text(rec, mesg, size);
	return 0;
}

const char *kd_syslog_parse_simple(const char *buf, const char *end,
				   struct kd_record *rec, bool lend)
{
	const char *q, *lb, *text, *nl;
	unsigned int k, sp, pri;
	int64_t sec, usec;
	uint64_t x;
	size_t n;

	/*
	 * Room for every load below (the header is at most 34 bytes); the
	 * last lines of the input take the general path.
	 */
	if (end - buf < 64 || *buf != '<')
		return NULL;
	/* "<N>" with 1..3 digits: what fast_pri() reads, in one load. */
	x = kd_scan_load8(buf + 1);
	k = kd_scan_lead_digits8(x);
	if (k == 0 || k > 3 || buf[1 + k] != '>')
		return NULL;
	pri = kd_scan_digits8_value(x, k);
	lb = buf + 2 + k;
	if (*lb != '[')
		return NULL;
	/* "[", blanks, 1..7 digits, ".", 6 digits, "] ": fast_time()'s result. */
	for (q = lb + 1, sp = 0; sp < 12 && *q == ' '; sp++)
		q++;
	x = kd_scan_load8(q);
	k = kd_scan_lead_digits8(x);
	if (k == 0 || k > 7 || q[k] != '.')
		return NULL;
	sec = kd_scan_digits8_value(x, k);
	x = kd_scan_load8(q + k + 1);
	if (kd_scan_lead_digits8(x) != 6 || q[k + 7] != ']' || q[k + 8] != ' ')
		return NULL;
	usec = kd_scan_digits8_value(x, 6);
	text = q + k + 9;
	/* A caller id after the stamp is the general parser's business. */
	if (*text == '[' && (text[1] == ' ' || text[1] == 'T' || text[1] == 'C'))
		return NULL;
	/*
	 * The header is printable ASCII, so the first other byte after it is
	 * the first after '<', where kd_syslog_record_end() would stop too;
	 * it must be the "\n<" that ends the record within the input.
	 */
	nl = kd_scan_plain(text, end - 1);
	if (nl == end - 1 || *nl != '\n' || nl[1] != '<')
		return NULL;
	n = (size_t)(nl - text);
	if (n > KD_RECORD_MAX)
		return NULL;

	kd_record_reset(rec);
	kd_priority_set(rec, pri);
	rec->ts_usec = sec * 1000000 + usec;
	if (lend) {
		kd_record_ref_text(rec, text, n);
		rec->text_nl = true;
		/*
		 * The stamp as dmesg prints it, "[%5ld.%06ld] ": blanks up to
		 * five columns, no leading zero.  Then the output line is
		 * these input bytes from '[' to the newline.
		 */
		if ((k >= 5 ? sp == 0 : sp == 5 - k) && (k == 1 || *q != '0'))
			rec->text_pre = (unsigned char)(text - lb);
	} else if (kd_record_set_text(rec, text, n) < 0) {
		return NULL;
	}
	rec->text_plain = true;
	return nl + 1;
}

int kd_syslog_parse_ref(const char *begin, const char *end, bool last,
			struct kd_record *rec, unsigned int *cut)
{
	return parse_ref(begin, end, last, rec, cut, false);
}

int kd_syslog_parse_flags(const char *begin, const char *end, bool last,
			  struct kd_record *rec, unsigned int *cut,
			  unsigned int flags)
{
	parse_ref(begin, end, last, rec, cut, flags & KD_SYSLOG_DECODED_PRI);
	if (flags & KD_SYSLOG_LEND)
		return 0;
	return kd_record_set_text(rec, rec->text, rec->text_len);
}

int kd_syslog_parse(const char *begin, const char *end, bool last,
		    struct kd_record *rec, unsigned int *cut)
{
	/*
	 * One parser, so the header code is inlined once: parse lending
	 * the text, then copy what was lent.
	 */
	kd_syslog_parse_ref(begin, end, last, rec, cut);
	return kd_record_set_text(rec, rec->text, rec->text_len);
}
