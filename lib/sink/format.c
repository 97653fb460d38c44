// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * format.c - dmesg's text output, byte for byte as util-linux 2.42 prints
 * it, as a stateless formatter: record + previous record -> bytes + colour
 * spans (format.h).  output-text.c writes the result to a stream.  This
 * file writes a record's lines: prefix, stamps, caller id, the message
 * and its colours; the time formats that go through the C library's
 * clock (ctime, iso, reltime) are format-time.c's, the host column and
 * --location format-columns.c's.  The rules the three reproduce (read
 * from dmesg.c's print_record and helpers):
 *
 *  1. A record with empty text prints a bare "\n": no prefix, no time, and
 *     it does not move the delta reference (lib/pipeline.c).
 *  2. Delta = this stamp - the previous record's stamp (shown or filtered
 *     out: struct kd_prev, which the pipeline keeps), computed in double as
 *     (sec - sec) + (usec - usec) / 1e6; it is 0 while the previous stamp
 *     is 0.000000, so the record after a zero stamp also shows 0.
 *  3. A missing stamp prints as 0.000000 (dmesg zero-fills the record).
 *  4. -r: "<N>[%5ld.%06ld] " with N = facility * 8 | level, where a
 *     facility above 24 counts as -1 and a missing priority is -1; no -x
 *     prefix, no other time format.
 *  5. -x: "%-6s:%-6s: " (facility, level) before the time, only when
 *     level is 0..7 and facility 0..23.
 *  6. Time formats are printed in the order resolved by the front end,
 *     concatenated: raw "[%5ld.%06ld] ", ctime "[%a %b %e %H:%M:%S %Y] ",
 *     delta "[<%12.06f>] ", raw+delta "[%5ld.%06ld <%12.06f>] ",
 *     ctime+delta "[ctime <%12.06f>] ", iso
 *     "YYYY-MM-DDTHH:MM:SS,uuuuuu+HH:MM " and reltime: "[%b%e %H:%M] "
 *     when minute, hour or day of year differ from the previous shown
 *     record (starting from a zeroed struct tm), else "[  %+8.06f] "
 *     below 10 s and "[ %+9.06f] " from 10 s.  notime anywhere in the
 *     list suppresses every stamp.
 *  7. Continuation lines (a '\n' followed by a non-NUL byte) are indented
 *     by the width of the last time format computed, plus the -x prefix,
 *     plus the caller-id column (dmesg's ctl->indent).
 *  8. Caller id: "[%*s] " right-aligned in the caller width (see
 *     output.c), cut at 22 bytes like dmesg's buffer, after the time.
 *  9. -p: the text up to its first NUL is split at newlines, empty lines
 *     dropped (strtok), and every line gets the full prefix again; with
 *     reltime among the formats, lines after the first show
 *     "[  +0.000000] " instead of the stamps.  A text of only newlines
 *     prints the prefix alone.
 * 10. Colours: the whole stamp in "time" (or "timebreak" on a reltime
 *     break), the text up to the first ": " or ":\t" that is followed by
 *     something in "subsys", the rest in "alert"/"crit"/"err"/"warn" by
 *     level, or "segfault" when it contains "segfault at"; emerg and
 *     notice..debug are not coloured; each span ends with ESC[0m.  The -x
 *     prefix and the caller id are never coloured.
 * 11. Escaping and --noescape: see escape.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "record/field.h"
#include "sink/colors.h"
#include "shared/escape.h"
#include "record/priority.h"
#include "record/host.h"
#include "sink/format.h"
#include "sink/format-internal.h"
#include "record/priority.h"

/* Size of the writer's line buffer: any usual record fits; opts.batch
 * fills it with many records before one fwrite(). */
#define LINE_CAP	(64 * 1024)
/* What a record's prefix can take: -x, every stamp, the caller id. */
#define DIRECT_MAX	(32 + TS_MAX * KD_TIME_FORMATS_MAX + CID_MAX)

static inline void put_str(struct run *w, const char *s, size_t n)
{
	kd_escape_buf_put(w->line, s, n);
}

/*
 * dmesg's "[%*s] " for the caller id, cut at CID_MAX - 1 bytes, into @buf
 * (CID_MAX bytes); returns its length.  By hand for the usual widths:
 * snprintf() here was the largest single cost of a -K record.
 */
static size_t fmt_caller(char *buf, const char *id, int width)
{
	size_t n = strlen(id), pad, k;

	pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;
	k = 1 + pad + n + 2;
	/* Written in place (no scratch copy); snprintf() for what it cuts. */
	if (width < 0 || k > CID_MAX - 1) {
		int r = snprintf(buf, CID_MAX, "[%*s] ", width, id);

		return r >= CID_MAX ? CID_MAX - 1 : (size_t)r;
	}
	buf[0] = '[';
	memset(buf + 1, ' ', pad);
	memcpy(buf + 1 + pad, id, n);
	buf[k - 2] = ']';
	buf[k - 1] = ' ';
	buf[k] = '\0';
	return k;
}

static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* "%06u" of @u (below 1000000), no NUL. */
static inline void fmt_usec6(char *buf, uint32_t u)
{
	memcpy(buf, digit_pairs + 2 * (u / 10000), 2);
	memcpy(buf + 2, digit_pairs + 2 * (u / 100 % 100), 2);
	memcpy(buf + 4, digit_pairs + 2 * (u % 100), 2);
}

/*
 * fmt_caller() into the line buffer, where there is room for fixed-size
 * moves (1 + 16 + 16 bytes): no loop and no library call for the padding
 * and the id.  Same bytes as fmt_caller() for widths up to 16, without
 * the NUL.
 */
static size_t fmt_caller_direct(char *buf, const char *caller, int width)
{
	size_t n, pad;

#ifdef __SSE2__
	{
		/* The id's length from one compare of its 16 bytes. */
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)caller);
		unsigned int m = (unsigned int)_mm_movemask_epi8(
			_mm_cmpeq_epi8(v, _mm_setzero_si128()));

		n = m ? (size_t)__builtin_ctz(m) : 16;
	}
#else
	n = strnlen(caller, 16);
#endif
	if (width < 0 || width > 16 || n > 15)
		return fmt_caller(buf, caller, width);
	pad = (size_t)width > n ? (size_t)width - n : 0;
	buf[0] = '[';
	memset(buf + 1, ' ', 16);
	memcpy(buf + 1 + pad, caller, 16);
	buf[1 + pad + n] = ']';
	buf[2 + pad + n] = ' ';
	return 3 + pad + n;
}

/*
 * "%5ld.%06ld" without printf: this runs once per record in the default
 * format and printf's parsing dominates the cost of a short line.
 */
static size_t fmt_sec_usec(char *buf, int64_t sec, int64_t usec)
{
	/*
	 * Two digits per division, written straight to their place: going
	 * through a scratch buffer made the copy wait on the narrow stores
	 * (store forwarding), which cost more than the digits.
	 */
	const char *pairs = digit_pairs;
	size_t n = 0, nd = 1;
	uint64_t s, t;
	uint32_t u;
	char *d;

	if (sec < 0 || usec < 0 || usec > 999999)
		return (size_t)snprintf(buf, TS_MAX, "%5" PRId64 ".%06" PRId64,
					sec, usec);
	s = (uint64_t)sec;
	for (t = 10; nd < 19 && s >= t; t *= 10)
		nd++;
	while (n + nd < 5)
		buf[n++] = ' ';
	n += nd;
	d = buf + n;
	while (s >= 100) {
		d -= 2;
		memcpy(d, pairs + 2 * (s % 100), 2);
		s /= 100;
	}
	if (s >= 10)
		memcpy(d - 2, pairs + 2 * s, 2);
	else
		d[-1] = (char)('0' + s);
	buf[n++] = '.';
	u = (uint32_t)usec;
	fmt_usec6(buf + n, u);
	n += 6;
	buf[n] = '\0';
	return n;
}

size_t kd_format_sec_usec(char *buf, int64_t sec, int64_t usec)
{
	return fmt_sec_usec(buf, sec, usec);
}

/*
 * fmt_sec_usec() for the default stamp, remembering the seconds part
 * ("%5ld." ) of the previous record: a log has several records per
 * second, and then only the six microsecond digits change.
 */
static size_t fmt_sec_usec_cached(struct kd_format *w, char *buf, int64_t sec,
				  int64_t usec)
{
	size_t n;

	if (sec != w->sec_cache || sec < 0 || usec < 0 || usec > 999999) {
		n = fmt_sec_usec(buf, sec, usec);
		if (sec < 0 || usec < 0 || usec > 999999)
			return n;
		/* "%5ld." is all but the six digits; at most 20 bytes. */
		w->sec_cache = sec;
		w->sec_cache_len = n - 6;
		memcpy(w->sec_cache_buf, buf, sizeof(w->sec_cache_buf));
		return n;
	}
	n = w->sec_cache_len;
	/* The whole cache: a fixed-size copy is one move, not a loop. */
	memcpy(buf, w->sec_cache_buf, sizeof(w->sec_cache_buf));
	fmt_usec6(buf + n, (uint32_t)usec);
	buf[n + 6] = '\0';
	return n + 6;
}

/* One time format into @buf (TS_MAX bytes); returns what snprintf would. */
static int fmt_one(struct run *w, enum kd_time_format f,
		   const struct stamp *st, char *buf, bool *timebreak)
{
	char sbuf[TS_MAX], cbuf[128];
	size_t n;

	switch (f) {
	case KD_TIME_NONE:
		*buf = '\0';
		return 0;
	case KD_TIME_RAW:
		buf[0] = '[';
		n = fmt_sec_usec(buf + 1, st->sec, st->usec) + 1;
		buf[n++] = ']';
		buf[n++] = ' ';
		buf[n] = '\0';
		return (int)n;
	case KD_TIME_RAW_DELTA:
		fmt_sec_usec(sbuf, st->sec, st->usec);
		return snprintf(buf, TS_MAX, "[%s <%12.06f>] ", sbuf, st->delta);
	case KD_TIME_CTIME:
		kd_format_ctime(w, st, cbuf, sizeof(cbuf));
		return snprintf(buf, TS_MAX, "[%s] ", cbuf);
	case KD_TIME_CTIME_DELTA:
		kd_format_ctime(w, st, cbuf, sizeof(cbuf));
		return snprintf(buf, TS_MAX, "[%s <%12.06f>] ", cbuf, st->delta);
	case KD_TIME_DELTA:
		return snprintf(buf, TS_MAX, "[<%12.06f>] ", st->delta);
	case KD_TIME_RELTIME:
		return kd_format_reltime(w, st, buf, timebreak);
	case KD_TIME_ISO:
		return kd_format_iso(w, st, buf, TS_MAX);
	}
	*buf = '\0';
	return 0;
}

/* dmesg's get_subsys_delimiter(): end of "name: " or NULL. */
static const char *subsys_end(const char *s, size_t size)
{
	const char *p = s;
	size_t sz = size;

	while (sz > 0) {
		const char *d;
		size_t k;

		for (k = 0; k < sz && p[k] && p[k] != ':'; k++)
			;
		if (k == sz || !p[k])
			return NULL;
		d = p + k;
		sz -= k + 1;
		if (sz) {
			if (sz >= 2 && (d[1] == ' ' || d[1] == '\t'))
				return d + 2;
			p = d + 1;
		}
	}
	return NULL;
}

static int level_color(const struct kd_record *rec, const char *s, size_t size)
{
	switch (rec->level) {
	case 1:
		return KD_COLOR_ALERT;
	case 2:
		return KD_COLOR_CRIT;
	case 3:
		return KD_COLOR_ERR;
	case 4:
		return KD_COLOR_WARN;
	default:
		break;
	}
	if (memmem(s, size, "segfault at", 11))
		return KD_COLOR_SEGFAULT;
	return -1;
}

/* Start a coloured span at the current end of the output. */
static void put_color(struct run *w, enum kd_color id)
{
	struct kd_spans *sp = w->spans;

	if (sp->n == sp->cap) {
		size_t cap = sp->cap ? 2 * sp->cap : 8;
		struct kd_span *v = realloc(sp->v, cap * sizeof(*v));

		if (!v) {
			sp->failed = true;
			return;
		}
		sp->v = v;
		sp->cap = cap;
	}
	sp->v[sp->n++] = (struct kd_span){ .start = w->line->len, .color = id };
}

/* End the span put_color() started (dmesg's ESC[0m). */
static void put_reset(struct run *w)
{
	struct kd_spans *sp = w->spans;

	if (sp->n)
		sp->v[sp->n - 1].len = w->line->len - sp->v[sp->n - 1].start;
}

/*
 * dmesg indents after a newline when the byte after it is not NUL, and
 * looks past the text for that: in a syslog buffer the record's own
 * separator follows, so a text that ends in a newline (an empty last
 * line) gets its indent too.  A /dev/kmsg text is followed by a NUL.
 */
static void put_tail_indent(const struct kd_format *f, struct kd_escape_buf *line,
			    const char *text, size_t len, int indent)
{
	char *dst;

	if (!f->opts.source_syslog || indent <= 0 || len == 0 ||
	    text[len - 1] != '\n')
		return;
	dst = kd_escape_buf_reserve(line, (size_t)indent);
	memset(dst, ' ', (size_t)indent);
	line->len += (size_t)indent;
}

/* The message part of one output line (all of it, or one -p line). */
static void put_message(struct run *w, const struct kd_record *rec,
			const char *line, size_t size, int indent)
{
	bool noesc = w->f->opts.noescape;
	const char *sub;
	int id;

	if (!w->spans) {
		kd_escape_append(w->line, line, size, indent, noesc);
		put_tail_indent(w->f, w->line, line, size, indent);
		return;
	}
	sub = subsys_end(line, size);
	if (sub) {
		put_color(w, KD_COLOR_SUBSYS);
		kd_escape_append(w->line, line, (size_t)(sub - line), indent, noesc);
		put_reset(w);
		size -= (size_t)(sub - line);
		line = sub;
	}
	id = level_color(rec, line, size);
	if (id >= 0)
		put_color(w, (enum kd_color)id);
	kd_escape_append(w->line, line, size, indent, noesc);
	put_tail_indent(w->f, w->line, line, size, indent);
	if (id >= 0)
		put_reset(w);
}

/* Grow the -p scratch buffer to @n bytes. */
static int scratch_reserve(struct kd_format *w, size_t n)
{
	char *p;

	if (n <= w->scratch_cap)
		return 0;
	p = realloc(w->scratch, n);
	if (!p)
		return -ENOMEM;
	w->scratch = p;
	w->scratch_cap = n;
	return 0;
}

/* strtok(s, "\n") over a NUL-terminated buffer we own. */
static char *next_line(char **cursor)
{
	char *p = *cursor, *start;

	while (*p == '\n')
		p++;
	if (!*p) {
		*cursor = p;
		return NULL;
	}
	start = p;
	while (*p && *p != '\n')
		p++;
	if (*p)
		*p++ = '\0';
	*cursor = p;
	return start;
}

int kd_format_init(struct kd_format *w, const struct kd_output_opts *opts,
		   int caller_width)
{
	int f, l;

	memset(w, 0, sizeof(*w));
	w->opts = *opts;
	w->caller_width = caller_width;
	w->sec_cache = -1;
	w->tf_none = kd_format_has_time(w, KD_TIME_NONE);
	w->tf_reltime = kd_format_has_time(w, KD_TIME_RELTIME);
	w->tf_delta = w->tf_reltime || kd_format_has_time(w, KD_TIME_DELTA) ||
		      kd_format_has_time(w, KD_TIME_RAW_DELTA) ||
		      kd_format_has_time(w, KD_TIME_CTIME_DELTA);
	w->tf_default = !w->opts.raw && !w->opts.decode && !w->opts.force_prefix &&
			!w->opts.host_column &&
			(w->opts.ntime == 0 ||
			 (w->opts.ntime == 1 && w->opts.time[0] == KD_TIME_RAW));
	if (!w->opts.decode || w->opts.raw)
		return 0;
	w->decode_prefix = calloc(KD_FACILITY_COUNT, sizeof(*w->decode_prefix));
	if (!w->decode_prefix)
		return -ENOMEM;
	for (f = 0; f < KD_FACILITY_COUNT; f++)
		for (l = 0; l < KD_LEVEL_COUNT; l++)
			snprintf(w->decode_prefix[f][l], sizeof(w->decode_prefix[f][l]),
				 "%-6s:%-6s: ", kd_priority_facility_name(f),
				 kd_priority_level_name(l));
	return 0;
}

void kd_format_release(struct kd_format *f)
{
	free(f->decode_prefix);
	free(f->scratch);
	f->decode_prefix = NULL;
	f->scratch = NULL;
	f->scratch_cap = 0;
}

void kd_spans_release(struct kd_spans *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/*
 * The default output, "[%5ld.%06ld] " plus caller id and text, without
 * the general loop: what kd_format_text() does for it, step for
 * step, with a record whose text a reader proved plain copied as is (for
 * such text kd_escape_append() copies it unchanged: no newline to
 * indent after, no byte to escape).
 */
static inline void write_default(struct kd_format *w, struct kd_escape_buf *line,
				 const struct kd_record *rec)
{
	int64_t usec = rec->ts_usec == KD_NO_TIME ? 0 : rec->ts_usec, sec, frac;
	char *dst;
	size_t n;

	/*
	 * A -F line whose stamp the reader found written as dmesg writes
	 * it is the output line as it stands in the input: one copy of
	 * stamp, text and newline, nothing formatted.
	 */
	if (rec->text_pre && rec->text_plain && rec->text_nl && !rec->caller[0]) {
		kd_escape_buf_put(line, rec->text - rec->text_pre,
				  rec->text_pre + rec->text_len + 1);
		return;
	}
	dst = kd_escape_buf_reserve(line, DIRECT_MAX);
	dst[0] = '[';
	kd_format_split_usec(usec, &sec, &frac);
	n = fmt_sec_usec_cached(w, dst + 1, sec, frac) + 1;
	dst[n++] = ']';
	dst[n++] = ' ';
	if (rec->caller[0])
		n += fmt_caller_direct(dst + n, rec->caller, (int)(char)w->caller_width);
	line->len += n;
	if (w->opts.location && rec->dict_len)
		kd_format_put_location(w, line, rec);
	/* Plain text with its newline after it: one copy for both. */
	if (rec->text_plain && rec->text_nl) {
		kd_escape_buf_put(line, rec->text, rec->text_len + 1);
		return;
	}
	if (rec->text_plain)
		kd_escape_buf_put(line, rec->text, rec->text_len);
	else {
		kd_escape_append(line, rec->text, rec->text_len, (int)n,
				 w->opts.noescape);
		put_tail_indent(w, line, rec->text, rec->text_len, (int)n);
	}
	kd_escape_buf_put(line, "\n", 1);
}

void kd_format_text_default(struct kd_format *f, const struct kd_record *rec,
			    struct kd_escape_buf *out)
{
	/* What kd_format_text() does first, without its frame. */
	if (!rec->text || rec->text_len == 0) {
		kd_escape_buf_put(out, "\n", 1);
		return;
	}
	write_default(f, out, rec);
}

int kd_format_text(struct kd_format *fmt, const struct kd_record *rec,
		   const struct kd_prev *prev, struct kd_escape_buf *out,
		   struct kd_spans *spans)
{
	struct run run = {
		.boot_usec = kd_record_boot_usec(rec, fmt->opts.boot_usec),
		.f = fmt, .line = out, .spans = spans, .prev = prev,
	};
	struct run *w = &run;
	const char *text = rec->text ? rec->text : "";
	size_t len = rec->text ? rec->text_len : 0;
	const char *fp = "";
	char fullbuf[TS_MAX * KD_TIME_FORMATS_MAX], *full = fullbuf, *dst = NULL;
	/*
	 * Without -p or colours the prefix (-x, stamps, caller id) is
	 * formatted straight into the line buffer: formatting into a local
	 * buffer and copying made the copy wait on the byte-wise stores.
	 */
	bool direct = !fmt->opts.force_prefix && !spans;
	size_t fplen = 0, fulllen = 0;
	bool timebreak = false, first = true;
	int indent = 0, rc;
	struct stamp st = { 0, 0, 0.0 };
	int64_t usec = rec->ts_usec == KD_NO_TIME ? 0 : rec->ts_usec;
	char *cursor = NULL;
	const char *line = NULL;
	size_t size = 0;

	if (len == 0) {
		put_str(w, "\n", 1);
		return out->failed ? -ENOMEM : 0;
	}
	if (fmt->tf_default && !spans) {
		write_default(fmt, out, rec);
		return out->failed ? -ENOMEM : 0;
	}

	kd_format_split_usec(usec, &st.sec, &st.usec);
	/* Only some formats print it; the double division is not free. */
	if (fmt->tf_delta && prev->usec != 0) {
		int64_t ps, pu;

		kd_format_split_usec(prev->usec, &ps, &pu);
		st.delta = (double)(st.sec - ps) + (double)(st.usec - pu) / 1E6;
	}

	if (fmt->opts.raw) {
		char sbuf[TS_MAX];

		fmt_sec_usec(sbuf, st.sec, st.usec);
		if (direct)
			full = dst = kd_escape_buf_reserve(out, DIRECT_MAX);
		indent = snprintf(full, sizeof(fullbuf), "<%d>[%s] ",
				  kd_priority_raw(rec), sbuf);
		fulllen = strlen(full);
	} else {
		const enum kd_time_format dflt = KD_TIME_RAW;
		const enum kd_time_format *fmts = fmt->opts.ntime ? fmt->opts.time : &dflt;
		size_t i, nf = fmt->opts.ntime ? fmt->opts.ntime : 1;

		if (fmt->decode_prefix && kd_priority_valid(rec)) {
			fp = fmt->decode_prefix[kd_priority_dmesg_facility(rec)][rec->level];
			fplen = strlen(fp);
		}
		if (direct) {
			dst = kd_escape_buf_reserve(out, DIRECT_MAX);
			memcpy(dst, fp, fplen);
			full = dst + fplen;
		}

		/*
		 * Each format gets TS_MAX bytes at the end of @full (there is
		 * room for KD_TIME_FORMATS_MAX of them); with notime anywhere
		 * dmesg computes the first and prints none.
		 */
		for (i = 0; i < nf; i++) {
			size_t n;

			indent = fmt_one(w, fmts[i], &st, full + fulllen, &timebreak);
			if (fmt->tf_none)
				break;
			/* What snprintf() kept of it. */
			n = indent < 0 ? 0 : (size_t)indent;
			if (n > TS_MAX - 1)
				n = TS_MAX - 1;
			fulllen += n;
		}
		indent += (int)fplen;
	}
	full[fulllen] = '\0';
	if (direct) {
		size_t n = 0;

		if (rec->caller[0]) {
			n = fmt_caller(full + fulllen, rec->caller,
				       (int)(char)fmt->caller_width);
			indent += (int)n;
		}
		out->len += (size_t)(full - dst) + fulllen + n;
	}

	if (fmt->opts.force_prefix) {
		size_t n = strnlen(text, len);

		rc = scratch_reserve(fmt, n + 1);
		if (rc < 0)
			return rc;
		memcpy(fmt->scratch, text, n);
		fmt->scratch[n] = '\0';
		cursor = fmt->scratch;
	}

	for (;;) {
		/* In direct mode the prefix is in the line buffer already. */
		if (!direct) {
			put_str(w, fp, fplen);
			if (fulllen) {
				if (spans)
					put_color(w, timebreak ? KD_COLOR_TIMEBREAK : KD_COLOR_TIME);
				if (!first && fmt->tf_reltime)
					put_str(w, "[  +0.000000] ", 14);
				else
					put_str(w, full, fulllen);
				if (spans)
					put_reset(w);
			}
			if (rec->caller[0]) {
				char cid[CID_MAX];
				size_t n = fmt_caller(cid, rec->caller, (int)(char)fmt->caller_width);

				indent += (int)n;
				put_str(w, cid, n);
			}
		}

		if (fmt->opts.force_prefix) {
			if (first) {
				line = next_line(&cursor);
				if (!line)
					break;
				size = strlen(line);
			}
		} else {
			line = text;
			size = len;
		}
		if (first && fmt->opts.host_column)
			indent += kd_format_put_host(fmt, out, rec);
		if (first && fmt->opts.location && rec->dict_len)
			kd_format_put_location(fmt, out, rec);
		put_message(w, rec, line, size, indent);

		if (!fmt->opts.force_prefix)
			break;
		line = next_line(&cursor);
		if (!line)
			break;
		size = strlen(line);
		put_str(w, "\n", 1);
		first = false;
	}
	put_str(w, "\n", 1);
	if (out->failed || (spans && spans->failed))
		return -ENOMEM;
	return 0;
}
