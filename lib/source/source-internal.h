/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * source-internal.h - what the source implementations share: the common
 * head of every source object and the constructors source.c dispatches to.
 * Not for use outside lib/source*.c (tests may include it).
 */
#ifndef KDMESG_SOURCE_INTERNAL_H
#define KDMESG_SOURCE_INTERNAL_H

#include <stddef.h>

#include "source/kmsg-parse.h"
#include "source/source.h"

struct kd_source_ops {
	/* Returns as kd_source_next(), without counting stats.records. */
	int (*next)(struct kd_source *src, struct kd_record *rec);
	void (*close)(struct kd_source *src);
	/* Optional: see kd_source_input_error() and kd_source_boots(). */
	const char *(*input_error)(const struct kd_source *src, size_t i, int *err);
	int (*boots)(struct kd_source *src, struct kd_source_boot **out, size_t *n);
};

/* The head of every source; implementations embed it first. */
struct kd_source {
	const struct kd_source_ops *ops;
	const struct kd_source_type *type;
	unsigned int caps;		/* the type's, narrowed once open */
	unsigned int flags;
	int fd;				/* to poll, or -1 */
	/* kd_source_keep_keys(): @keys holds them when @has_keys. */
	bool has_keys;
	struct kd_kmsg_keys keys;
	struct kd_source_stats stats;
};

/* Path of the kernel's record device. */
#define KD_KMSG_PATH	"/dev/kmsg"

/* The largest single read() we ask of /dev/kmsg (kernel needs 8192+1). */
#define KD_KMSG_READ_MAX	(2 * KD_RECORD_MAX)

/* The registry's entries (source.c) the readers name themselves by. */
extern const struct kd_source_type kd_source_type_kmsg;
extern const struct kd_source_type kd_source_type_syslog;

/** kd_source_init() - fill the head of a new source of @type. */
static inline void kd_source_init(struct kd_source *src, const struct kd_source_type *type,
				  const struct kd_source_ops *ops, unsigned int flags)
{
	src->ops = ops;
	src->type = type;
	src->caps = type->caps;
	src->flags = flags;
	src->fd = -1;
}

/** kd_kmsg_source_open() - live /dev/kmsg (or @a->path), see source-kmsg.c. */
int kd_kmsg_source_open(struct kd_source **out, const struct kd_source_type *type,
			const struct kd_source_args *a);

/** kd_syslog_source_open() - the syslog(2) buffer, see source-syslog.c. */
int kd_syslog_source_open(struct kd_source **out, const struct kd_source_type *type,
			  const struct kd_source_args *a);

/**
 * kd_file_source_set_window() - for tests and fuzzing: the read window of
 * the file sources opened after this call, in bytes (0: the default of
 * 1 MiB; at least 64).  A small window makes small inputs reach what only
 * records longer than the window reach otherwise (cut records, the format
 * check of a window that holds no whole record), and a fuzz run cheap.
 */
void kd_file_source_set_window(size_t bytes);

/**
 * kd_file_source_open() - -F / -K files, stdin and descriptors
 * (@a->fd >= 0), see source-file.c; @type says which format.
 */
int kd_file_source_open(struct kd_source **out, const struct kd_source_type *type,
			const struct kd_source_args *a);

/**
 * kd_buffer_source_open() - records from a syslog(2)-format buffer in
 * memory; the source takes ownership of @buf (malloc'd) and frees it.
 * Used by the syslog(2) reader once klogctl() has filled the buffer.
 */
int kd_buffer_source_open(struct kd_source **out, const struct kd_source_type *type,
			  char *buf, size_t len);

#ifdef HAVE_SYSTEMD
/** kd_journal_source_open() - the systemd journal, see source-journal.c. */
int kd_journal_source_open(struct kd_source **out, const struct kd_source_type *type,
			   const struct kd_source_args *a);
#endif

#endif /* KDMESG_SOURCE_INTERNAL_H */
