// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source.c - the public face of the readers: picks the implementation for
 * a source kind, falls back from /dev/kmsg to syslog(2) as dmesg does (the
 * only place that does), and
 * keeps the counters every source shares.
 */
#include <errno.h>
#include <stdlib.h>

#include "source/source-internal.h"

int kd_source_open(struct kd_source **out, enum kd_source_kind kind,
		   const char *path, unsigned int flags, size_t size)
{
	int rc, rc2;

	if (!out)
		return -EINVAL;
	*out = NULL;

	switch (kind) {
	case KD_SOURCE_KMSG:
		rc = kd_kmsg_source_open(out, path, flags);
		/*
		 * dmesg reads syslog(2) whenever /dev/kmsg is unusable (not
		 * there, too old, or refused).  When that fails too, the
		 * /dev/kmsg error is the one worth reporting: -EPERM/-EACCES
		 * tell the user about dmesg_restrict.  An explicit path is a
		 * test or a user's choice: no fallback.
		 */
		if (rc < 0 && rc != -ENOMEM && !path) {
			/* The syslog(2) buffer is read once: nothing to follow. */
			rc2 = kd_syslog_source_open(out, flags & ~(KD_SOURCE_FOLLOW |
								   KD_SOURCE_FOLLOW_NEW),
						    size);
			if (rc2 == 0)
				return 0;
		}
		return rc;
	case KD_SOURCE_SYSLOG:
		return kd_syslog_source_open(out, flags, size);
	case KD_SOURCE_SYSLOG_FILE:
	case KD_SOURCE_KMSG_FILE:
		if (!path)
			return -EINVAL;
		return kd_file_source_open(out, kind, path, flags);
	}
	return -EINVAL;
}

int kd_source_next(struct kd_source *src, struct kd_record *rec)
{
	int rc;

	if (!src || !rec)
		return -EINVAL;
	rc = src->ops->next(src, rec);
	if (rc == 1)
		src->stats.records++;
	return rc;
}

void kd_source_keep_keys(struct kd_source *src, const char *const *keys)
{
	/* Too many for the reader: it keeps every key, always correct. */
	src->has_keys = keys && kd_kmsg_keys_init(&src->keys, keys) == 0;
}

int kd_source_fd(const struct kd_source *src)
{
	return src ? src->fd : -1;
}

enum kd_source_kind kd_source_kind(const struct kd_source *src)
{
	return src->kind;
}

const struct kd_source_stats *kd_source_stats(const struct kd_source *src)
{
	return &src->stats;
}

void kd_source_close(struct kd_source *src)
{
	if (src)
		src->ops->close(src);
}
