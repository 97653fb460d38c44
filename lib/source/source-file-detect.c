// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source-file-detect.c - the format check of a saved log.  Before the
 * first record the start of the input is checked: empty input is
 * -ENODATA, input that is plainly not a log (NUL bytes inside a syslog
 * file, control bytes, or a kmsg dump none of whose first records parse)
 * is -EINVAL, and a log of the other format (-F of a kmsg dump, -K of
 * syslog(2) text) is -EMEDIUMTYPE, so that a wrong file gives one clear
 * error, not garbage.  Also whether a line starts with a /dev/kmsg
 * header, which tells a cut record from a malformed one.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "source/kmsg-parse.h"
#include "source/source-file-internal.h"
#include "source/syslog-parse.h"

/* How much of the input the format checks look at. */
#define DETECT_WINDOW	(64 * 1024)
/* How many kmsg records may fail to parse before input is called binary. */
#define DETECT_RECORDS	8

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
bool kd_file_kmsg_header(const char *b, const char *e)
{
	const char *semi;
	struct kd_record rec;
	bool ok;

	while (b < e && kd_file_is_blank(*b))
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
		if (kd_file_only_blanks(p, nl) || kd_syslog_skip_nul(p, nl) == nl)
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
 * are split as the reader splits them (kd_file_record_end()), so a stray NUL in a
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
		p = kd_file_skip_gap(fs, p, end);
		if (p == end)
			break;
		e = kd_file_record_end(fs, p, end, &next, &plain);
		if (!e) {
			/* Cut by the window: its header is what can be judged. */
			tried++;
			ok = fs->eof && n == fs->len ?
			     kd_kmsg_parse_dump(p, (size_t)(end - p), &rec, NULL) == 0 :
			     kd_file_kmsg_header(p, end);
			break;
		}
		/* Dictionary lines whose record began before the input. */
		if (*p != ' ' && !kd_file_only_blanks(p, e)) {
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
bool kd_file_can_detect(const struct file_source *fs)
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
size_t kd_file_detect_window(const struct file_source *fs)
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
	yes = kd_kmsg_parse_dump(d, (size_t)(kd_file_line_stop(d, d + n) - d), &rec, NULL) == 0;
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

int kd_file_detect(struct file_source *fs)
{
	size_t n = fs->len < kd_file_detect_window(fs) ? fs->len : kd_file_detect_window(fs);
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
