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
};

/* The head of every source; implementations embed it first. */
struct kd_source {
	const struct kd_source_ops *ops;
	enum kd_source_kind kind;
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

/** kd_kmsg_source_open() - live /dev/kmsg (or @path), see source-kmsg.c. */
int kd_kmsg_source_open(struct kd_source **out, const char *path,
			unsigned int flags);

/** kd_syslog_source_open() - the syslog(2) buffer, see source-syslog.c. */
int kd_syslog_source_open(struct kd_source **out, unsigned int flags,
			  size_t size);

/**
 * kd_file_source_set_window() - for tests and fuzzing: the read window of
 * the file sources opened after this call, in bytes (0: the default of
 * 1 MiB; at least 64).  A small window makes small inputs reach what only
 * records longer than the window reach otherwise (cut records, the format
 * check of a window that holds no whole record), and a fuzz run cheap.
 */
void kd_file_source_set_window(size_t bytes);

/** kd_file_source_open() - -F / -K files and stdin, see source-file.c. */
int kd_file_source_open(struct kd_source **out, enum kd_source_kind kind,
			const char *path, unsigned int flags);

/**
 * kd_buffer_source_open() - records from a syslog(2)-format buffer in
 * memory; the source takes ownership of @buf (malloc'd) and frees it.
 * Used by the syslog(2) reader once klogctl() has filled the buffer.
 */
int kd_buffer_source_open(struct kd_source **out, enum kd_source_kind kind,
			  char *buf, size_t len);

#endif /* KDMESG_SOURCE_INTERNAL_H */
