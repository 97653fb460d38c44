/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * source.h - where records come from: live /dev/kmsg, the syslog(2) buffer,
 * saved files (syslog text as `dmesg -F` reads, /dev/kmsg dumps as
 * `dmesg -K` reads, NUL- or newline-separated) and standard input.
 *
 * Every source yields struct kd_record one at a time through
 * kd_source_next(), so filters and writers never know where a record came
 * from.  Sources never print: problems are returned as negative errno
 * values and counted (see struct kd_source_stats) for the front end to
 * report.
 */
#ifndef KDMESG_SOURCE_H
#define KDMESG_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "record/record.h"

enum kd_source_kind {
	KD_SOURCE_KMSG,		/* live /dev/kmsg (or a path given for tests) */
	KD_SOURCE_SYSLOG,	/* syslog(2) SYSLOG_ACTION_READ_ALL / READ_CLEAR */
	KD_SOURCE_SYSLOG_FILE,	/* -F: a file in syslog(2) buffer format */
	KD_SOURCE_KMSG_FILE,	/* -K: /dev/kmsg records, NUL or newline separated */
};

enum kd_source_flags {
	KD_SOURCE_FOLLOW	= 1 << 0,	/* -w: wait for new records */
	KD_SOURCE_FOLLOW_NEW	= 1 << 1,	/* -W: only records after start */
	KD_SOURCE_CLEAR		= 1 << 2,	/* -c: read then clear (syslog) */
	/*
	 * The caller uses each record before it asks for the next one and
	 * before kd_source_close(), so a reader may lend the record its
	 * input instead of copying the text (kd_record_ref_text(): text not
	 * NUL-terminated, use text_len), and the -K file reader lends the
	 * dictionary entries too (kd_record_dict_lend()).  Without it every
	 * record owns its text and dictionary.  Honoured by the -F/-K file
	 * readers; others ignore it.
	 */
	KD_SOURCE_LEND_TEXT	= 1 << 3,
	/*
	 * The caller never reads a record's dictionary (the text output
	 * prints none; no --subsystem/--device match): the -K file reader
	 * may leave it empty.  It still checks the dictionary lines, so the
	 * counts of truncated records stay the same.
	 */
	KD_SOURCE_NO_DICT	= 1 << 4,
	/*
	 * -F/-K files and pipes: at the end of the input, return -EAGAIN
	 * instead of 0 and read on when asked again, as `tail -F` does (-w
	 * and the --tui viewer).  A pipe's descriptor, non-blocking, is
	 * kd_source_fd(), and the pipe ends (0) when its writer closes it; a
	 * regular file has none to poll (ask again on a timer) and never
	 * ends: when it shrinks it is read again from its start
	 * (stats.rewound), and when its name leads to a new file (rotation
	 * by rename, a new copy) that file is followed from its start
	 * (stats.reopened).  With KD_SOURCE_FOLLOW_NEW a file's present
	 * records are skipped.  A record at the end is taken once it ends in
	 * a newline (or NUL) and nothing more came; a half-written one waits
	 * for the rest.
	 */
	KD_SOURCE_FOLLOW_FILE	= 1 << 5,
	/*
	 * The caller decodes priorities (-x, -l, -f, colours, -J): the
	 * syslog-format readers read "<pri>" as dmesg then does
	 * (KD_SYSLOG_DECODED_PRI).
	 */
	KD_SOURCE_DECODED_PRI	= 1 << 6,
};

struct kd_source_stats {
	uint64_t records;	/* records returned */
	uint64_t malformed;	/* records skipped because they did not parse */
	/*
	 * Records cut at KD_RECORD_MAX or by the end of the input.  Records
	 * that were returned without part of their dictionary (more than
	 * KD_DICT_MAX lines, or a line without '=') count here too; a record
	 * whose header was cut by the end of the input is counted here and
	 * not returned.
	 */
	uint64_t truncated;
	uint64_t lost;		/* records overwritten before we read them (EPIPE) */
	/* KD_SOURCE_FOLLOW_FILE: the file was truncated / replaced (read from its start). */
	uint64_t rewound;
	uint64_t reopened;
};

struct kd_source;

/**
 * kd_source_open() - open a source.
 * @path: device or file; NULL for the default (/dev/kmsg) or for syslog(2);
 *        "-" for standard input with the file kinds.
 * @size: syslog(2) buffer size hint (-s), 0 for the kernel's size.
 *
 * Returns 0 and sets *@out, or a negative errno (-EACCES/-EPERM for
 * dmesg_restrict, -ENOENT, -EINVAL for an empty or binary file, ...).
 *
 * Details of the readers (lib/source-*.c):
 * - KD_SOURCE_KMSG with @path NULL falls back to syslog(2) when /dev/kmsg
 *   cannot be used, as dmesg does; kd_source_kind() then says
 *   KD_SOURCE_SYSLOG.  When syslog(2) fails too, the /dev/kmsg error is
 *   returned (-EPERM/-EACCES under dmesg_restrict).  In follow mode a
 *   blocked read interrupted by a signal returns -EINTR.
 * - Files: an empty file (or one holding only NUL bytes) is -ENODATA; a
 *   binary file is -EINVAL (-F: NUL or control bytes inside the text; -K:
 *   none of the first 8 records parse), -EMEDIUMTYPE when it is the
 *   other format (-F given a /dev/kmsg dump, -K a syslog(2) buffer,
 *   judged by its first record); a directory is -EISDIR; a
 *   named character or block device (/dev/kmsg never ends) is -ENODEV.
 * - -K detects NUL-separated dumps (`dmesg -K`) and newline dumps
 *   (`cat /dev/kmsg`, " KEY=value" lines belong to the record above).
 */
int kd_source_open(struct kd_source **out, enum kd_source_kind kind,
		   const char *path, unsigned int flags, size_t size);

/**
 * kd_source_next() - read the next record into @rec (reset first).
 *
 * Returns 1 when a record was read, 0 at the end (for follow sources: never,
 * except on a signal-driven stop), -EAGAIN when a non-blocking read has
 * nothing yet, -EPIPE after records were lost (the count is in the stats,
 * the next call continues), or another negative errno on a read error.
 */
int kd_source_next(struct kd_source *src, struct kd_record *rec);

/**
 * kd_source_keep_keys() - the caller reads only these dictionary keys
 * (NULL-terminated, at most KD_KMSG_KEYS_MAX; the array must outlive
 * @src): the -K file reader may leave other keys out, as with
 * KD_SOURCE_NO_DICT.  Others keep every key, which is always correct.
 * Call before the first kd_source_next().
 */
void kd_source_keep_keys(struct kd_source *src, const char *const *keys);

/** kd_source_fd() - the descriptor to poll for a follow source, or -1. */
int kd_source_fd(const struct kd_source *src);

/** kd_source_kind() - what was opened (after syslog fallback decisions). */
enum kd_source_kind kd_source_kind(const struct kd_source *src);

/** kd_source_stats() - counters since open. */
const struct kd_source_stats *kd_source_stats(const struct kd_source *src);

/** kd_source_close() - release @src; NULL is fine. */
void kd_source_close(struct kd_source *src);

#endif /* KDMESG_SOURCE_H */
