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

struct kd_host;

/*
 * Sources are opened by name from a registry (source.c): the front ends
 * never test which source they read, they ask what it can do
 * (kd_source_caps()).  The built-in names:
 */
#define KD_SOURCE_KMSG		"kmsg"		/* live /dev/kmsg (or a path given for tests) */
#define KD_SOURCE_SYSLOG	"syslog"	/* syslog(2) SYSLOG_ACTION_READ_ALL / READ_CLEAR */
#define KD_SOURCE_SYSLOG_FILE	"syslog-file"	/* -F: a file in syslog(2) buffer format */
#define KD_SOURCE_KMSG_FILE	"kmsg-file"	/* -K: /dev/kmsg records, NUL or newline separated */
#define KD_SOURCE_JOURNAL	"journal"	/* the systemd journal (built with libsystemd) */

/* What a source can do and what its records carry. */
enum kd_source_caps {
	KD_SOURCE_CAN_FOLLOW	  = 1 << 0,	/* KD_SOURCE_FOLLOW waits for new records */
	KD_SOURCE_CAN_FOLLOW_FILE = 1 << 1,	/* KD_SOURCE_FOLLOW_FILE reads on as input grows */
	/* Records carry the wall-clock time they were logged at (realtime_usec). */
	KD_SOURCE_HAS_WALLCLOCK	  = 1 << 2,
	/*
	 * The source knows the boot time that dates its records: this
	 * machine's (with KD_SOURCE_THIS_BOOT) or each record's own
	 * (record->host).  Without it the caller assumes one, as dmesg does.
	 */
	KD_SOURCE_HAS_BOOT_TIME	  = 1 << 3,
	KD_SOURCE_HAS_SEQ	  = 1 << 4,	/* kernel sequence numbers */
	KD_SOURCE_HAS_DICT	  = 1 << 5,	/* dictionaries (SUBSYSTEM=, kprint fields) */
	/*
	 * Records come as syslog(2)-format text: dmesg formats those its
	 * own way (indent after a final newline, a 6-wide caller column),
	 * and -r prints the text itself.
	 */
	KD_SOURCE_SYSLOG_TEXT	  = 1 << 6,
	KD_SOURCE_NAMED_INPUT	  = 1 << 7,	/* reads what the path names: errors are about it */
	KD_SOURCE_THIS_BOOT	  = 1 << 8,	/* records of this machine's running boot */
	KD_SOURCE_HAS_HOST	  = 1 << 9,	/* records name their machine and boot (record->host) */
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

/*
 * Everything a source may be opened with; each source reads what applies
 * to it and ignores the rest.  Zero (and fd -1) means "not given".
 */
struct kd_source_args {
	const char *path;	/* see kd_source_open() */
	/* Several inputs (journal files), NULL-terminated; instead of @path. */
	const char *const *paths;
	int fd;			/* kd_source_open_fd(): read this descriptor */
	unsigned int flags;	/* enum kd_source_flags */
	size_t size;		/* syslog(2) buffer size hint (-s) */
	/* Journal: which boot, as journalctl -b takes it ("ID", "ID+N", "-N", "N"). */
	const char *boot;
	/* Journal: keep these machines (machine IDs or host names), NULL-terminated. */
	const char *const *machines;
};

/* One entry of the registry of sources. */
struct kd_source_type {
	const char *name;	/* KD_SOURCE_KMSG, ... */
	const char *summary;	/* a few words for the viewer's status line */
	unsigned int caps;	/* enum kd_source_caps, before fallback */
	bool reads_fd;		/* kd_source_open_fd() works */
	int (*open)(struct kd_source **out, const struct kd_source_type *type,
		    const struct kd_source_args *args);
};

/**
 * kd_source_type_find() - the registered source called @name, or NULL
 * (unknown, or not built in: "journal" needs libsystemd).
 */
const struct kd_source_type *kd_source_type_find(const char *name);

/** kd_source_type_at() - the @i-th registered source, NULL past the last. */
const struct kd_source_type *kd_source_type_at(size_t i);

/**
 * kd_source_open() - open the source called @name.
 * @path: device or file; NULL for the default (/dev/kmsg) or for syslog(2);
 *        "-" for standard input with the file sources; a journal file or
 *        directory (NULL: this machine's journal).
 * @size: syslog(2) buffer size hint (-s), 0 for the kernel's size.
 *
 * Returns 0 and sets *@out, or a negative errno (-ENOENT for an unknown
 * name or a missing file, -EOPNOTSUPP for a source not built in,
 * -EACCES/-EPERM for dmesg_restrict, -EINVAL for an empty or binary file,
 * ...).
 *
 * Details of the readers (lib/source/source-*.c):
 * - KD_SOURCE_KMSG with @path NULL falls back to syslog(2) when /dev/kmsg
 *   cannot be used, as dmesg does; kd_source_type() then says
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
int kd_source_open(struct kd_source **out, const char *name,
		   const char *path, unsigned int flags, size_t size);

/** kd_source_open_args() - kd_source_open() with every argument. */
int kd_source_open_args(struct kd_source **out, const char *name,
			const struct kd_source_args *args);

/**
 * kd_source_open_fd() - read the source called @name from @fd (a file,
 * pipe or socket holding what its file would); the source owns @fd from
 * then on, also on failure.  -EOPNOTSUPP for sources that read no
 * descriptor (the live device, syslog(2), the journal).
 */
int kd_source_open_fd(struct kd_source **out, const char *name, int fd,
		      unsigned int flags);

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

/** kd_source_type() - what was opened (after the fallback to syslog(2)). */
const struct kd_source_type *kd_source_type(const struct kd_source *src);

/** kd_source_name() - kd_source_type()'s name. */
const char *kd_source_name(const struct kd_source *src);

/**
 * kd_source_caps() - what @src can do and its records carry (enum
 * kd_source_caps); may be narrower than its type's (a journal of one
 * machine has no use for host columns: no KD_SOURCE_HAS_HOST...).
 */
unsigned int kd_source_caps(const struct kd_source *src);

/** kd_source_has() - kd_source_caps() has every bit of @caps. */
static inline bool kd_source_has(const struct kd_source *src, unsigned int caps)
{
	return (kd_source_caps(src) & caps) == caps;
}

/**
 * kd_source_input_error() - the @i-th input that the source left out
 * because it could not be read (a corrupt or truncated journal file):
 * its path, with its negative errno in *@err; NULL past the last.  The
 * records of the other inputs are read as usual.
 */
const char *kd_source_input_error(const struct kd_source *src, size_t i, int *err);

/* One boot found in a source that keeps several (the journal). */
struct kd_source_boot {
	const struct kd_host *host;	/* boot ID, machine ID, host name, boot time */
	int64_t first_usec, last_usec;	/* wall-clock times of its first and last record */
};

/**
 * kd_source_boots() - the boots of @src's records (with the selection of
 * machines it was opened with, before any boot selection), oldest first
 * as journalctl --list-boots orders them.  *@out is malloc'd (free it);
 * its hosts live as long as @src.  -EOPNOTSUPP for sources of one boot.
 */
int kd_source_boots(struct kd_source *src, struct kd_source_boot **out, size_t *n);

/** kd_source_stats() - counters since open. */
const struct kd_source_stats *kd_source_stats(const struct kd_source *src);

/** kd_source_close() - release @src; NULL is fine. */
void kd_source_close(struct kd_source *src);

#endif /* KDMESG_SOURCE_H */
