// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source-file.c - records from saved logs: -F (syslog(2) format, as
 * `dmesg -F` reads it), -K (/dev/kmsg records separated by NUL bytes, as
 * `dmesg -K` reads them, or by newlines as `cat /dev/kmsg > f` writes
 * them), standard input for "-", and the in-memory syslog(2) buffer.
 *
 * This file reads: the window, following a file as it grows, and the
 * records parsed from it.  Where a record ends is source-file-split.c's,
 * what the input is (the format check) source-file-detect.c's, opening
 * source-file-open.c's; source-file-internal.h holds what they share.
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
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/kmsg-parse.h"
#include "source/source-file-internal.h"
#include "source/syslog-parse.h"

/* Bytes asked of one read(): what is parsed stays in the CPU's cache. */
#define READ_CHUNK	(256 * 1024)

/* Read more into the window, first moving the unread part to its start. */
int kd_file_fill(struct file_source *fs)
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
void kd_file_restart(struct file_source *fs)
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
			kd_file_restart(fs);
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
	kd_file_restart(fs);
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
			next = kd_file_skip_end(fs, p, end);
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
			if ((rc = kd_file_fill(fs)) < 0)
				return rc;
			continue;
		}

		p = kd_file_skip_gap(fs, p, end);
		fs->pos = (size_t)(p - fs->data);
		if (p == end) {
			if (fs->eof)
				return input_end(fs);
			if ((rc = kd_file_fill(fs)) < 0)
				return rc;
			continue;
		}

		*e = kd_file_record_end(fs, p, end, &next, plain);
		if (!*e) {
			if (!fs->eof && (fs->pos > 0 || fs->len < fs->cap)) {
				if ((rc = kd_file_fill(fs)) < 0)
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
				 * kd_file_record_end() looked at [p, end - 1); the
				 * last byte is text unless it is the final
				 * newline that the parser drops.
				 */
				if (end[-1] != '\n' && !kd_file_plain_byte(end[-1]))
					*plain = false;
			} else {
				*cut = true;
				fs->skipping = true;
				if (!kd_file_plain_byte(end[-1]))
					*plain = false;
			}
		}
		*b = p;
		fs->pos = (size_t)(next - fs->data);
		return 1;
	}
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

		if (kd_file_only_blanks(b, e))
			continue;
		rc = kd_kmsg_parse_dump(b, (size_t)(e - b), rec, &cut);
		if (rc == -EINVAL) {
			/*
			 * A record cut by the window or the end of the input
			 * is truncated when it was one (its header parses);
			 * a line without a header is malformed at any length.
			 */
			if ((span_cut || (last && e[-1] != '\n')) && kd_file_kmsg_header(b, e))
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
	/* kd_file_skip_gap(), whose loop is rarely needed. */
	if (p < end && (*p == '\0' || (*p == '\n' && fs->fmt != FMT_SYSLOG)))
		p = kd_file_skip_gap(fs, p, end);
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

void kd_file_close(struct kd_source *src)
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
	.close = kd_file_close,
};

struct file_source *kd_file_new(const struct kd_source_type *type, unsigned int flags)
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
