// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source-file-split.c - where the records of a saved log end in the read
 * window: at "\n<" in syslog(2) text, at a NUL byte or before a line
 * that is not a " KEY=value" line in a /dev/kmsg dump; and what lies
 * between records (padding, blank lines) or after a cut one.  Apart from
 * the reading (source-file.c) because the format check splits the start
 * of the input the same way (source-file-detect.c).
 */
#include <stdbool.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "source/scan.h"
#include "source/source-file-internal.h"
#include "source/syslog-parse.h"

/* The first newline or NUL byte in [p, end), or @end. */
const char *kd_file_line_stop(const char *p, const char *end)
{
#ifdef __SSE2__
	/*
	 * One pass for both bytes, sixteen at a time: two memchr() calls
	 * per line were the largest cost of splitting a -K dump.
	 */
	const __m128i nl16 = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();

	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		unsigned int m = (unsigned int)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(v, nl16), _mm_cmpeq_epi8(v, zero)));

		if (m)
			return p + __builtin_ctz(m);
		p += 16;
	}
	for (; p < end; p++)
		if (*p == '\n' || *p == '\0')
			return p;
	return end;
#else
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	const char *lim = nl ? nl : end;
	const char *z = memchr(p, '\0', (size_t)(lim - p));

	return z ? z : lim;
#endif
}

/*
 * kd_syslog_record_end(@b, @end), and *@plain: whether every byte it
 * looked at, [@b, the newline it returns) or [@b, @end - 1) when it
 * returns NULL, is printable ASCII.  One pass finds both: a record of
 * printable ASCII ends at the first byte that is not, when that byte is
 * a newline followed by '<'.  Splitting the lines with memchr() and then
 * scanning them again for bytes to escape were a third of the time of a
 * large -F file.  At the first other byte the record is not plain and
 * kd_syslog_record_end() finds its end, so the split never differs.
 */
static const char *syslog_end(const char *b, const char *end, bool *plain)
{
	const char *p = b + 1, *lim = end - 1, *q;

	*plain = kd_file_plain_byte(*b);
	if (!*plain)
		return kd_syslog_record_end(b, end);
	q = kd_scan_plain(p, lim);
	if (q == lim)
		return NULL;
	/* q < lim, so q[1] is inside the input. */
	if (*q == '\n' && q[1] == '<')
		return q;
	*plain = false;
	return kd_syslog_record_end(q, end);
}

/*
 * The end of the record at @b, or NULL when more input is needed.
 * *@plain as syslog_end() says for FMT_SYSLOG, false for the kmsg forms.
 */
const char *kd_file_record_end(const struct file_source *fs, const char *b,
			       const char *end, const char **next, bool *plain)
{
	const char *e, *p;

	*plain = false;
	switch (fs->fmt) {
	case FMT_SYSLOG:
		e = syslog_end(b, end, plain);
		*next = e ? e + 1 : NULL;
		return e;
	case FMT_KMSG_NUL:
	case FMT_KMSG_NL:
		/*
		 * Both dump forms: a record ends at a NUL byte or before a
		 * line that is not a " KEY=value" line.  The kernel escapes
		 * newlines in text, so a NUL dump never has such a line inside
		 * a record, and a newline dump with a stray NUL still splits
		 * right.
		 */
		for (p = b; p < end; p = e + 1) {
			e = kd_file_line_stop(p, end);
			if (e == end)
				return NULL;
			if (*e == '\0') {
				*next = e + 1;
				return e;
			}
			if (e + 1 == end)
				return NULL;
			if (e[1] != ' ') {
				/*
				 * dmesg -K keeps one newline of a blank
				 * line right after the text of a NUL dump's
				 * record (kd_kmsg_parse_dump()).
				 */
				if (fs->fmt == FMT_KMSG_NUL && p == b && e[1] == '\n')
					e++;
				*next = e + 1;
				return e + 1;
			}
		}
		return NULL;
	}
	return NULL;
}

/* Where a cut record's rest ends: the start of the next record, or NULL. */
const char *kd_file_skip_end(const struct file_source *fs, const char *p,
			     const char *end)
{
	const char *nl;

	for (; p < end; p = nl + 1) {
		if (fs->fmt == FMT_SYSLOG) {
			nl = memchr(p, '\n', (size_t)(end - p));
		} else {
			nl = kd_file_line_stop(p, end);
			if (nl < end && *nl == '\0')
				return nl + 1;
		}
		if (!nl || nl >= end || nl + 1 == end)
			return NULL;
		if (fs->fmt == FMT_SYSLOG ? nl[1] == '<' : nl[1] != ' ')
			return nl + 1;
	}
	return NULL;
}

bool kd_file_only_blanks(const char *b, const char *e)
{
	for (; b < e; b++)
		if (!kd_file_is_blank(*b))
			return false;
	return true;
}
