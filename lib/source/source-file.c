// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source-file.c - records from saved logs: -F (syslog(2) format, as
 * `dmesg -F` reads it), -K (/dev/kmsg records separated by NUL bytes, as
 * `dmesg -K` reads them, or by newlines as `cat /dev/kmsg > f` writes
 * them), standard input for "-", and the in-memory syslog(2) buffer.
 *
 * Files and pipes alike are read through one fixed window (STREAM_CAP),
 * READ_CHUNK bytes at a time, and records are parsed in place there with
 * no per-record allocation beyond the record's own buffers.  A record
 * that does not fit is cut, counted as truncated, and the rest of it
 * skipped, so no input makes the reader allocate without bound.
 *
 * Regular files are not mapped: on the machine of bench/README.md -F
 * took 1.5x the CPU time on a mapping that it takes reading 256 KiB at
 * a time into a window that stays in the cache (-K the same either way),
 * and one path serves files and pipes alike.
 *
 * Before the first record the start of the input is checked: empty input
 * is -ENODATA, input that is plainly not a log (NUL bytes inside a syslog
 * file, control bytes, or a kmsg dump none of whose first records parse)
 * is -EINVAL, so that a wrong file gives one clear error, not garbage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "source/kmsg-parse.h"
#include "source/scan.h"
#include "source/source-internal.h"
#include "source/syslog-parse.h"

/* Read window: far above any real record (8 KiB + dictionary). */
#define STREAM_CAP	(1024 * 1024)
/* Bytes asked of one read(): what is parsed stays in the CPU's cache. */
#define READ_CHUNK	(256 * 1024)
/* How much of the input the format checks look at. */
#define DETECT_WINDOW	(64 * 1024)
/* How many kmsg records may fail to parse before input is called binary. */
#define DETECT_RECORDS	8

/* The read window of files opened next (kd_file_source_set_window()). */
static size_t window_cap = STREAM_CAP;

void kd_file_source_set_window(size_t bytes)
{
	window_cap = !bytes ? STREAM_CAP : bytes < 64 ? 64 : bytes;
}

enum file_format {
	FMT_SYSLOG,		/* "<pri>[time] text", records split at "\n<" */
	/*
	 * kmsg records ended by a NUL byte, or by the next line that is not
	 * a " KEY=value" line; records split the same way in both (see
	 * record_end()), the detected form only decides how the start of
	 * the input is checked.
	 */
	FMT_KMSG_NUL,
	FMT_KMSG_NL,
};

struct file_source {
	struct kd_source base;
	enum file_format fmt;
	int in_fd;
	bool close_fd;

	const char *data;	/* the input window: data[pos..len) unread */
	size_t len;
	size_t pos;
	bool eof;		/* nothing follows data[len - 1] */
	bool skipping;		/* dropping the rest of a cut record */

	char *buf;		/* the read window, or the owned buffer */
	size_t cap;

	/* The -K fast path's mode, from the flags at open (file_next()). */
	bool lend_dict;		/* kd_kmsg_parse_simple_lend() */
	unsigned int kflags;	/* else kd_kmsg_parse_simple()'s flags */

	/*
	 * KD_SOURCE_FOLLOW_FILE of a named regular file, as `tail -F`:
	 * @offset bytes of it were read; the name is looked at again at the
	 * end of the input, for truncation and replacement (follow_check()).
	 */
	char *path;
	bool regular;
	bool hup;		/* a pipe's writer closed: the real end */
	off_t offset;
	dev_t dev;
	ino_t ino;
};

/* Read more into the window, first moving the unread part to its start. */
static int fill(struct file_source *fs)
{
	size_t room;
	ssize_t n;

	if (fs->eof)
		return 0;
	if (fs->pos > 0) {
		memmove(fs->buf, fs->buf + fs->pos, fs->len - fs->pos);
		fs->len -= fs->pos;
		fs->pos = 0;
	}
	if (fs->len == fs->cap)
		return 0;
	room = fs->cap - fs->len;
	if (room > READ_CHUNK)
		room = READ_CHUNK;
	do
		n = read(fs->in_fd, fs->buf + fs->len, room);
	while (n < 0 && errno == EINTR);
	fs->data = fs->buf;
	/* Followed input with nothing more for now ends like a file (input_end()). */
	if (n < 0 && errno == EAGAIN && (fs->base.flags & KD_SOURCE_FOLLOW_FILE)) {
		fs->eof = true;
		return 0;
	}
	if (n < 0)
		return -errno;
	if (n == 0) {
		fs->eof = true;
		/* A followed pipe ends when its writer does; a followed file never. */
		fs->hup = !fs->regular;
	}
	fs->offset += n;
	fs->len += (size_t)n;
	return 0;
}

/* Forget what the window holds: the input starts again (follow_check()). */
static void restart(struct file_source *fs)
{
	fs->len = fs->pos = 0;
	fs->data = fs->buf;
	fs->eof = fs->skipping = false;
	fs->offset = 0;
}

/*
 * At the end of a followed regular file, as `tail -F` does: a file now
 * shorter than what was read was truncated (read it again from its
 * start); a name that leads to another file was replaced, by rotation or
 * by a new copy (follow the new file from its start, once the old one is
 * read to its end, which it is here).  A name that leads nowhere (moved
 * away, not yet created again) keeps the old file.  Counted in the
 * stats (rewound, reopened) for the front end to tell.
 */
static void follow_check(struct file_source *fs)
{
	struct stat st, now;
	int fd;

	if (!fs->regular || fstat(fs->in_fd, &st) < 0)
		return;
	if (st.st_size < fs->offset) {
		if (lseek(fs->in_fd, 0, SEEK_SET) == 0) {
			restart(fs);
			fs->base.stats.rewound++;
		}
		return;
	}
	if (!fs->path || stat(fs->path, &now) < 0 || !S_ISREG(now.st_mode) ||
	    (now.st_dev == fs->dev && now.st_ino == fs->ino))
		return;
	fd = open(fs->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fs->in_fd);
	fs->in_fd = fd;
	fs->dev = st.st_dev;
	fs->ino = st.st_ino;
	restart(fs);
	fs->base.stats.reopened++;
}

/*
 * The end of the input so far.  KD_SOURCE_FOLLOW_FILE: forget it and
 * tell the caller to come back (-EAGAIN), unless a pipe's writer has
 * gone; else the end (0).
 */
static int input_end(struct file_source *fs)
{
	if (!(fs->base.flags & KD_SOURCE_FOLLOW_FILE) || fs->hup)
		return 0;
	follow_check(fs);
	fs->eof = false;
	return -EAGAIN;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

/* The first newline or NUL byte in [p, end), or @end. */
static const char *line_stop(const char *p, const char *end)
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

static inline bool plain_byte(char c)
{
	return (unsigned char)c >= 0x20 && (unsigned char)c < 0x7f;
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

	*plain = plain_byte(*b);
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
static const char *record_end(const struct file_source *fs, const char *b,
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
			e = line_stop(p, end);
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
static const char *skip_end(const struct file_source *fs, const char *p,
			    const char *end)
{
	const char *nl;

	for (; p < end; p = nl + 1) {
		if (fs->fmt == FMT_SYSLOG) {
			nl = memchr(p, '\n', (size_t)(end - p));
		} else {
			nl = line_stop(p, end);
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

/* Skip what goes between records: zero padding, blank lines. */
static const char *skip_gap(const struct file_source *fs, const char *p,
			    const char *end)
{
	if (fs->fmt == FMT_SYSLOG)
		return kd_syslog_skip_nul(p, end);
	while (p < end && (*p == '\0' || *p == '\n'))
		p++;
	return p;
}

/*
 * The next record's span [*b, *e).  *last: it runs to the end of the
 * input; *cut: it was cut at the window size.  Returns 1, 0 at the end,
 * or a negative errno from read().
 */
static int next_span(struct file_source *fs, const char **b, const char **e,
		     bool *last, bool *cut, bool *plain)
{
	int rc;

	*last = *cut = *plain = false;
	for (;;) {
		const char *p = fs->data + fs->pos, *end = fs->data + fs->len;
		const char *next = NULL;

		if (fs->skipping) {
			next = skip_end(fs, p, end);
			if (next) {
				fs->pos = (size_t)(next - fs->data);
				fs->skipping = false;
				continue;
			}
			/* Keep a final newline: the next byte decides. */
			fs->pos = fs->len;
			if (end > p && end[-1] == '\n')
				fs->pos--;
			if (fs->eof)
				return input_end(fs);
			if ((rc = fill(fs)) < 0)
				return rc;
			continue;
		}

		p = skip_gap(fs, p, end);
		fs->pos = (size_t)(p - fs->data);
		if (p == end) {
			if (fs->eof)
				return input_end(fs);
			if ((rc = fill(fs)) < 0)
				return rc;
			continue;
		}

		*e = record_end(fs, p, end, &next, plain);
		if (!*e) {
			if (!fs->eof && (fs->pos > 0 || fs->len < fs->cap)) {
				if ((rc = fill(fs)) < 0)
					return rc;
				continue;
			}
			/* Followed input: a half-written record waits. */
			if (fs->eof && end[-1] != '\n' && end[-1] != '\0' &&
			    (fs->base.flags & KD_SOURCE_FOLLOW_FILE))
				return input_end(fs);
			*e = next = end;
			if (fs->eof) {
				*last = true;
				/*
				 * record_end() looked at [p, end - 1); the
				 * last byte is text unless it is the final
				 * newline that the parser drops.
				 */
				if (end[-1] != '\n' && !plain_byte(end[-1]))
					*plain = false;
			} else {
				*cut = true;
				fs->skipping = true;
				if (!plain_byte(end[-1]))
					*plain = false;
			}
		}
		*b = p;
		fs->pos = (size_t)(next - fs->data);
		return 1;
	}
}

static bool only_blanks(const char *b, const char *e)
{
	for (; b < e; b++)
		if (!is_blank(*b))
			return false;
	return true;
}

/* Longest /dev/kmsg header looked at: fields kdmesg does not know included. */
#define KMSG_HEADER_MAX	1024

/*
 * Whether [@b, @e) can be the start of a header that the input cut
 * before its ';': a number, then comma-separated fields without blanks.
 */
static bool header_prefix(const char *b, const char *e)
{
	const char *p = b;

	if ((size_t)(e - b) >= KMSG_HEADER_MAX || p == e || *p < '0' || *p > '9')
		return false;
	while (p < e && *p >= '0' && *p <= '9')
		p++;
	if (p < e && *p++ != ',')
		return false;
	for (; p < e; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return false;
	return true;
}

/*
 * Whether the record at @b (up to @e) starts with a /dev/kmsg header
 * ("pri,seq,ts,flags...;"), whatever follows it: what tells a record that
 * was cut (truncated) from a line that never was one (malformed), at any
 * length.
 */
static bool kmsg_header(const char *b, const char *e)
{
	const char *semi;
	struct kd_record rec;
	bool ok;

	while (b < e && is_blank(*b))
		b++;
	semi = memchr(b, ';', (size_t)(e - b) < KMSG_HEADER_MAX ? (size_t)(e - b) : KMSG_HEADER_MAX);
	if (!semi)
		return header_prefix(b, e);
	if (memchr(b, '\n', (size_t)(semi - b)))
		return false;
	kd_record_init(&rec);
	ok = kd_kmsg_parse_dump(b, (size_t)(semi + 1 - b), &rec, NULL) == 0;
	kd_record_free(&rec);
	return ok;
}

/* Every record the fast parsers do not take (see file_next()). */
static int __attribute__((noinline))
file_next_general(struct kd_source *src, struct kd_record *rec)
{
	struct file_source *fs = (struct file_source *)src;
	const char *b, *e;
	bool last, span_cut, plain;
	unsigned int cut;
	bool lend = src->flags & KD_SOURCE_LEND_TEXT;
	int rc;

	for (;;) {
		rc = next_span(fs, &b, &e, &last, &span_cut, &plain);
		if (rc <= 0)
			return rc;

		if (fs->fmt == FMT_SYSLOG) {
			/*
			 * The text stays in the read window, which
			 * nothing changes before the next read: lent,
			 * not copied, when the caller allows.
			 */
			rc = kd_syslog_parse_flags(b, e, last, rec, &cut,
						   (lend ? KD_SYSLOG_LEND : 0) |
						   (src->flags & KD_SOURCE_DECODED_PRI ?
						    KD_SYSLOG_DECODED_PRI : 0));
			if (rc < 0)
				return rc;
			/* The text is part of the span that was checked. */
			rec->text_plain = plain;
			if (cut || span_cut)
				src->stats.truncated++;
			return 1;
		}

		if (only_blanks(b, e))
			continue;
		rc = kd_kmsg_parse_dump(b, (size_t)(e - b), rec, &cut);
		if (rc == -EINVAL) {
			/*
			 * A record cut by the window or the end of the input
			 * is truncated when it was one (its header parses);
			 * a line without a header is malformed at any length.
			 */
			if ((span_cut || (last && e[-1] != '\n')) && kmsg_header(b, e))
				src->stats.truncated++;
			else
				src->stats.malformed++;
			continue;
		}
		if (rc < 0)
			return rc;
		if (cut || span_cut)
			src->stats.truncated++;
		return 1;
	}
}

/*
 * Most records of a dump are a header and one line of plain text
 * (and, in -K dumps, dictionary lines): parsed where they lie, in one
 * pass, instead of split first and parsed after (see
 * kd_syslog_parse_simple() and kd_kmsg_parse_simple()).  This runs once
 * per record and is kept small; the rest is file_next_general()'s.
 */
static int file_next(struct kd_source *src, struct kd_record *rec)
{
	struct file_source *fs = (struct file_source *)src;
	const char *end = fs->data + fs->len, *p, *next;
	unsigned int cut = 0;

	if (fs->skipping)
		return file_next_general(src, rec);
	p = fs->data + fs->pos;
	/* skip_gap(), whose loop is rarely needed. */
	if (p < end && (*p == '\0' || (*p == '\n' && fs->fmt != FMT_SYSLOG)))
		p = skip_gap(fs, p, end);
	if (fs->fmt == FMT_SYSLOG)
		next = kd_syslog_parse_simple(p, end, rec, fs->kflags & KD_KMSG_LEND);
	else if (fs->lend_dict)
		/*
		 * The dictionary lent too: the record's bytes in the window
		 * (data == buf for -K) are not looked at again once parsed.
		 * Lending a line costs less than testing its key against
		 * three or more (bench/README.md: --stats reads five).
		 */
		next = kd_kmsg_parse_simple_lend(fs->buf + (p - fs->data), end, rec, &cut,
						 src->has_keys && src->keys.n <= 2 ?
						 &src->keys : NULL);
	else if (src->has_keys)
		next = kd_kmsg_parse_simple_keys(p, end, rec, &cut, fs->kflags & KD_KMSG_LEND,
						 &src->keys);
	else
		next = kd_kmsg_parse_simple(p, end, rec, &cut, fs->kflags);
	fs->pos = (size_t)(p - fs->data);
	if (!next)
		return file_next_general(src, rec);
	fs->pos = (size_t)(next - fs->data);
	if (cut)
		src->stats.truncated++;
	return 1;
}

static void file_close(struct kd_source *src)
{
	struct file_source *fs = (struct file_source *)src;

	free(fs->buf);
	free(fs->path);
	if (fs->close_fd)
		close(fs->in_fd);
	free(fs);
}

static const struct kd_source_ops file_ops = {
	.next = file_next,
	.close = file_close,
};

/* A syslog(2) line starts "<digits>" (after zero padding). */
static bool syslog_line(const char *p, const char *end)
{
	const char *q;

	p = kd_syslog_skip_nul(p, end);
	if (p == end || *p != '<')
		return false;
	for (q = p + 1; q < end && *q >= '0' && *q <= '9'; q++)
		;
	return q > p + 1 && q < end && *q == '>';
}

/*
 * Does a syslog-format window look like a log?  -EINVAL when not.  Where
 * a byte sits must not decide it (one NUL inside a log of 2,000 lines is
 * printed as \x00 wherever it is, as dmesg does): a window most of whose
 * lines are syslog records is a log; otherwise (text without "<pri>"
 * prefixes, which dmesg prints too) it must look like text: no NUL byte
 * inside, few control bytes.
 */
static int check_syslog_text(const char *d, size_t n, bool eof)
{
	size_t last = n, ctrl = 0, lines = 0, records = 0;

	for (const char *p = d, *end = d + n, *nl; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl && !eof && lines)
			break;		/* a line cut by the window counts not */
		if (!nl)
			nl = end;
		if (only_blanks(p, nl) || kd_syslog_skip_nul(p, nl) == nl)
			continue;
		lines++;
		records += syslog_line(p, nl);
	}
	if (records * 2 > lines)
		return 0;

	while (last > 0 && d[last - 1] == '\0')
		last--;
	/* NUL bytes inside the text: a binary file, not a log. */
	if (memchr(d, '\0', last))
		return -EINVAL;
	for (size_t i = 0; i < last; i++) {
		unsigned char c = (unsigned char)d[i];

		if ((c < 0x20 && !strchr("\t\n\r\f\v\b\x1b", c)) || c == 0x7f)
			ctrl++;
	}
	return ctrl * 8 > last ? -EINVAL : 0;
}

/*
 * Does at least one of the first kmsg records in the window parse?  They
 * are split as the reader splits them (record_end()), so a stray NUL in a
 * newline dump changes nothing; a record the window cuts is judged by its
 * header, so a line without one is refused at any length.
 */
static int check_kmsg_records(const struct file_source *fs, const char *d,
			      size_t n)
{
	const char *p = d, *end = d + n, *e, *next;
	struct kd_record rec;
	int tried = 0, ok = 0;
	bool plain;

	kd_record_init(&rec);
	while (tried < DETECT_RECORDS && !ok) {
		p = skip_gap(fs, p, end);
		if (p == end)
			break;
		e = record_end(fs, p, end, &next, &plain);
		if (!e) {
			/* Cut by the window: its header is what can be judged. */
			tried++;
			ok = fs->eof && n == fs->len ?
			     kd_kmsg_parse_dump(p, (size_t)(end - p), &rec, NULL) == 0 :
			     kmsg_header(p, end);
			break;
		}
		/* Dictionary lines whose record began before the input. */
		if (*p != ' ' && !only_blanks(p, e)) {
			tried++;
			ok = kd_kmsg_parse_dump(p, (size_t)(e - p), &rec, NULL) == 0;
		}
		p = next;
	}
	kd_record_free(&rec);
	return tried > 0 && !ok ? -EINVAL : 0;
}

/*
 * Enough of a pipe has arrived to judge the input: a record separator,
 * or a newline and the byte after it.  A live pipe (`cat /dev/kmsg |`)
 * must not wait for a whole window before its first record shows.
 */
static bool can_detect(const struct file_source *fs)
{
	const char *end = fs->data + fs->len;
	const char *p = kd_syslog_skip_nul(fs->data, end), *nl;

	if (memchr(p, '\0', (size_t)(end - p)))
		return true;
	nl = memchr(p, '\n', (size_t)(end - p));
	/*
	 * Followed input: a record that ends the window as a line ends may
	 * be all there is for a while (`tail -f f | kdmesg -w -K -`).
	 */
	if (nl && (fs->base.flags & KD_SOURCE_FOLLOW_FILE) && end[-1] == '\n')
		return true;
	return nl && nl + 1 < end;
}

/* The format check looks at most at a window's worth. */
static size_t detect_window(const struct file_source *fs)
{
	return fs->cap < DETECT_WINDOW ? fs->cap : DETECT_WINDOW;
}

/*
 * The other format, for an error that names the other option: a -F
 * file whose first line is a /dev/kmsg record ("6,1,1000,-;text"), a
 * -K file that starts as syslog(2) text does ("<6>[").
 */
static bool looks_like_kmsg(const char *d, size_t n)
{
	struct kd_record rec;
	bool yes;

	if (n == 0 || !(*d >= '0' && *d <= '9'))
		return false;
	kd_record_init(&rec);
	yes = kd_kmsg_parse_dump(d, (size_t)(line_stop(d, d + n) - d), &rec, NULL) == 0;
	kd_record_free(&rec);
	return yes;
}

static bool looks_like_syslog(const char *d, size_t n)
{
	size_t i = 1;

	if (n < 3 || d[0] != '<')
		return false;
	while (i < n && i < 5 && d[i] >= '0' && d[i] <= '9')
		i++;
	return i > 1 && i < n && d[i] == '>';
}

static int detect(struct file_source *fs)
{
	size_t n = fs->len < detect_window(fs) ? fs->len : detect_window(fs);
	const char *d = fs->data;
	size_t i = 0;

	if (fs->len == 0)
		return -ENODATA;
	/* Only NUL bytes (a zeroed file) are no log, not an empty one. */
	while (i < n && d[i] == '\0')
		i++;
	if (i == n)
		return -EINVAL;

	if (fs->fmt == FMT_SYSLOG) {
		if (looks_like_kmsg(d + i, n - i))
			return -EMEDIUMTYPE;
		return check_syslog_text(d, n, fs->eof && n == fs->len);
	}
	if (!memchr(d, '\0', n))
		fs->fmt = FMT_KMSG_NL;
	if (check_kmsg_records(fs, d, n) < 0)
		return looks_like_syslog(d + i, n - i) ? -EMEDIUMTYPE : -EINVAL;
	return 0;
}

static struct file_source *file_source_new(const struct kd_source_type *type,
					   unsigned int flags)
{
	struct file_source *fs = calloc(1, sizeof(*fs));

	if (!fs)
		return NULL;
	kd_source_init(&fs->base, type, &file_ops, flags);
	fs->in_fd = -1;
	/* Syslog-format text (-F, syslog(2)) or /dev/kmsg records (-K). */
	fs->fmt = type->caps & KD_SOURCE_SYSLOG_TEXT ? FMT_SYSLOG : FMT_KMSG_NUL;
	fs->lend_dict = (flags & KD_SOURCE_LEND_TEXT) && !(flags & KD_SOURCE_NO_DICT);
	fs->kflags = (flags & KD_SOURCE_LEND_TEXT ? KD_KMSG_LEND : 0) |
		     (flags & KD_SOURCE_NO_DICT ? KD_KMSG_NO_DICT : 0);
	return fs;
}

/*
 * What a named input may be, refused before the first read() with an
 * error of its own: a directory (-EISDIR), or a device (-ENODEV) - a
 * character device such as /dev/kmsg never ends, so reading it as a
 * saved log would wait forever.  Files, pipes and sockets are read.
 */
static int check_input(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return -EISDIR;
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		return -ENODEV;
	return 0;
}

/*
 * check_input() of the opened input, noting whether it is a regular file
 * (and which) for following; standard input ("-") may be a terminal.
 */
static int check_input_fd(struct file_source *fs)
{
	struct stat st;

	if (fstat(fs->in_fd, &st) < 0)
		return -errno;
	fs->regular = S_ISREG(st.st_mode);
	fs->dev = st.st_dev;
	fs->ino = st.st_ino;
	if (!fs->close_fd && S_ISCHR(st.st_mode))
		return 0;
	return check_input(&st);
}

/*
 * KD_SOURCE_FOLLOW_FILE: a pipe is polled; a regular file cannot be (it
 * is always "readable"), so its descriptor is not offered and the caller
 * reads again on a timer; its name is kept to notice truncation and
 * replacement.  -W (KD_SOURCE_FOLLOW_NEW) skips what a file holds now.
 */
static int follow_setup(struct file_source *fs, const char *path, unsigned int flags)
{
	if (!fs->regular) {
		fs->base.fd = fs->in_fd;
		return 0;
	}
	/* (A descriptor from kd_source_open_fd() has no name to watch.) */
	if (fs->close_fd && path && !(fs->path = strdup(path)))
		return -ENOMEM;
	if (flags & KD_SOURCE_FOLLOW_NEW) {
		off_t end = lseek(fs->in_fd, 0, SEEK_END);

		if (end < 0)
			return -errno;
		restart(fs);
		fs->offset = end;
	}
	return 0;
}

int kd_file_source_open(struct kd_source **out, const struct kd_source_type *type,
			const struct kd_source_args *a)
{
	unsigned int flags = a->flags;
	const char *path = a->path;
	struct file_source *fs;
	int rc;

	*out = NULL;
	if (a->fd < 0 && !path)
		return -EINVAL;
	fs = file_source_new(type, flags);
	if (!fs) {
		if (a->fd >= 0)
			close(a->fd);
		return -ENOMEM;
	}

	if (a->fd >= 0) {
		/* kd_source_open_fd(): ours to close, also on failure. */
		fs->in_fd = a->fd;
		fs->close_fd = true;
	} else if (strcmp(path, "-") == 0) {
		fs->in_fd = STDIN_FILENO;
	} else {
		struct stat st;

		/* Before open(): opening a device may block or act. */
		if (stat(path, &st) == 0 && (rc = check_input(&st)) < 0)
			goto fail;
		fs->in_fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fs->in_fd < 0) {
			rc = -errno;
			goto fail;
		}
		fs->close_fd = true;
	}

	rc = check_input_fd(fs);
	if (rc < 0)
		goto fail;
	fs->cap = window_cap;
	fs->buf = malloc(fs->cap);
	if (!fs->buf) {
		rc = -ENOMEM;
		goto fail;
	}
	fs->data = fs->buf;
	do {
		if ((rc = fill(fs)) < 0)
			goto fail;
	} while (!fs->eof && fs->len < detect_window(fs) && !can_detect(fs));

	rc = detect(fs);
	if (rc < 0)
		goto fail;
	if (flags & KD_SOURCE_FOLLOW_FILE) {
		int fl = fcntl(fs->in_fd, F_GETFL);

		if (fl < 0 || fcntl(fs->in_fd, F_SETFL, fl | O_NONBLOCK) < 0) {
			rc = -errno;
			goto fail;
		}
		rc = follow_setup(fs, path, flags);
		if (rc < 0)
			goto fail;
	}
	*out = &fs->base;
	return 0;
fail:
	file_close(&fs->base);
	return rc;
}

int kd_buffer_source_open(struct kd_source **out, const struct kd_source_type *type,
			  char *buf, size_t len)
{
	struct file_source *fs = file_source_new(type, 0);

	*out = NULL;
	if (!fs) {
		free(buf);
		return -ENOMEM;
	}
	fs->fmt = FMT_SYSLOG;
	fs->buf = buf;
	fs->cap = len;
	fs->data = buf;
	fs->len = len;
	fs->eof = true;
	*out = &fs->base;
	return 0;
}
