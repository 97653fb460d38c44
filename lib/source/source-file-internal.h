/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * source-file-internal.h - what the pieces of the saved-log reader share:
 * the file source object and its window (source-file.c), the record
 * boundaries (source-file-split.c), the format check
 * (source-file-detect.c) and opening (source-file-open.c).  Not for use
 * outside lib/source/source-file*.c.
 */
#ifndef KDMESG_SOURCE_FILE_INTERNAL_H
#define KDMESG_SOURCE_FILE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "source/source-internal.h"
#include "source/syslog-parse.h"

enum file_format {
	FMT_SYSLOG,		/* "<pri>[time] text", records split at "\n<" */
	/*
	 * kmsg records ended by a NUL byte, or by the next line that is not
	 * a " KEY=value" line; records split the same way in both (see
	 * kd_file_record_end()), the detected form only decides how the start of
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

static inline bool kd_file_is_blank(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

static inline bool kd_file_plain_byte(char c)
{
	return (unsigned char)c >= 0x20 && (unsigned char)c < 0x7f;
}

/* source-file.c */

/** kd_file_new() - a file source of @type, with no input yet. */
struct file_source *kd_file_new(const struct kd_source_type *type, unsigned int flags);

/** kd_file_close() - the source's close operation: input, window, object. */
void kd_file_close(struct kd_source *src);

/** kd_file_fill() - read more into the window; 0 or a negative errno. */
int kd_file_fill(struct file_source *fs);

/** kd_file_restart() - forget what the window holds: the input starts again. */
void kd_file_restart(struct file_source *fs);

/* source-file-split.c */

/** kd_file_line_stop() - the first newline or NUL byte in [@p, @end), or @end. */
const char *kd_file_line_stop(const char *p, const char *end);

/**
 * kd_file_record_end() - the end of the record at @b, or NULL when more
 * input is needed; *@next the start of the next, *@plain whether the
 * bytes looked at are printable ASCII (syslog text only).
 */
const char *kd_file_record_end(const struct file_source *fs, const char *b,
			       const char *end, const char **next, bool *plain);

/** kd_file_skip_end() - where a cut record's rest ends: the next record, or NULL. */
const char *kd_file_skip_end(const struct file_source *fs, const char *p,
			     const char *end);

/*
 * Skip what goes between records: zero padding, blank lines.  Inline:
 * file_next() runs it for most records of a -K dump.
 */
static inline const char *kd_file_skip_gap(const struct file_source *fs, const char *p,
					   const char *end)
{
	if (fs->fmt == FMT_SYSLOG)
		return kd_syslog_skip_nul(p, end);
	while (p < end && (*p == '\0' || *p == '\n'))
		p++;
	return p;
}

/** kd_file_only_blanks() - whether [@b, @e) holds only blanks. */
bool kd_file_only_blanks(const char *b, const char *e);

/* source-file-detect.c */

/** kd_file_detect() - check the start of the input; 0 or a negative errno. */
int kd_file_detect(struct file_source *fs);

/** kd_file_can_detect() - whether enough of a pipe has arrived to judge it. */
bool kd_file_can_detect(const struct file_source *fs);

/** kd_file_detect_window() - how much of the input the format check looks at. */
size_t kd_file_detect_window(const struct file_source *fs);

/** kd_file_kmsg_header() - whether the record at @b starts with a /dev/kmsg header. */
bool kd_file_kmsg_header(const char *b, const char *e);

#endif /* KDMESG_SOURCE_FILE_INTERNAL_H */
