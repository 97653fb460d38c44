// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source.c - the public face of the readers: the registry that opens a
 * source by name, the one fallback from /dev/kmsg to syslog(2) that dmesg
 * makes, and the counters every source shares.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/source-internal.h"

/* The live device; without a path it falls back to syslog(2) (see below). */
const struct kd_source_type kd_source_type_kmsg = {
	.name = KD_SOURCE_KMSG,
	.summary = "/dev/kmsg",
	.caps = KD_SOURCE_CAN_FOLLOW | KD_SOURCE_HAS_BOOT_TIME | KD_SOURCE_THIS_BOOT |
		KD_SOURCE_HAS_SEQ | KD_SOURCE_HAS_DICT,
	.open = kd_kmsg_source_open,
};

const struct kd_source_type kd_source_type_syslog = {
	.name = KD_SOURCE_SYSLOG,
	.summary = "syslog(2)",
	.caps = KD_SOURCE_HAS_BOOT_TIME | KD_SOURCE_THIS_BOOT | KD_SOURCE_SYSLOG_TEXT,
	.open = kd_syslog_source_open,
};

static const struct kd_source_type type_syslog_file = {
	.name = KD_SOURCE_SYSLOG_FILE,
	.summary = "a saved syslog(2)-format buffer (-F)",
	.caps = KD_SOURCE_CAN_FOLLOW_FILE | KD_SOURCE_SYSLOG_TEXT | KD_SOURCE_NAMED_INPUT,
	.reads_fd = true,
	.open = kd_file_source_open,
};

static const struct kd_source_type type_kmsg_file = {
	.name = KD_SOURCE_KMSG_FILE,
	.summary = "a saved /dev/kmsg dump (-K)",
	.caps = KD_SOURCE_CAN_FOLLOW_FILE | KD_SOURCE_HAS_SEQ | KD_SOURCE_HAS_DICT |
		KD_SOURCE_NAMED_INPUT,
	.reads_fd = true,
	.open = kd_file_source_open,
};

#ifdef HAVE_SYSTEMD
static const struct kd_source_type type_journal = {
	.name = KD_SOURCE_JOURNAL,
	.summary = "the systemd journal",
	.caps = KD_SOURCE_CAN_FOLLOW | KD_SOURCE_HAS_WALLCLOCK | KD_SOURCE_HAS_BOOT_TIME |
		KD_SOURCE_HAS_DICT | KD_SOURCE_NAMED_INPUT | KD_SOURCE_HAS_HOST,
	.open = kd_journal_source_open,
};
#endif

static const struct kd_source_type *const registry[] = {
	&kd_source_type_kmsg,
	&kd_source_type_syslog,
	&type_syslog_file,
	&type_kmsg_file,
#ifdef HAVE_SYSTEMD
	&type_journal,
#endif
};

const struct kd_source_type *kd_source_type_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(registry) / sizeof(registry[0]); i++)
		if (strcmp(registry[i]->name, name) == 0)
			return registry[i];
	return NULL;
}

const struct kd_source_type *kd_source_type_at(size_t i)
{
	return i < sizeof(registry) / sizeof(registry[0]) ? registry[i] : NULL;
}

/* A name this build knows but left out tells the caller why. */
static int type_missing(const char *name)
{
	return name && strcmp(name, KD_SOURCE_JOURNAL) == 0 ? -EOPNOTSUPP : -ENOENT;
}

int kd_source_open_args(struct kd_source **out, const char *name,
			const struct kd_source_args *args)
{
	const struct kd_source_type *type = kd_source_type_find(name);
	struct kd_source_args a = *args;
	int rc;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!type)
		return type_missing(name);
	if (a.fd >= 0 && !type->reads_fd)
		return -EOPNOTSUPP;

	rc = type->open(out, type, &a);
	/*
	 * dmesg reads syslog(2) whenever /dev/kmsg is unusable (not there,
	 * too old, or refused).  When that fails too, the /dev/kmsg error is
	 * the one worth reporting: -EPERM/-EACCES tell the user about
	 * dmesg_restrict.  An explicit path is a test or a user's choice: no
	 * fallback.
	 */
	if (rc < 0 && rc != -ENOMEM && type == &kd_source_type_kmsg && !a.path) {
		/* The syslog(2) buffer is read once: nothing to follow. */
		a.flags &= ~(unsigned int)(KD_SOURCE_FOLLOW | KD_SOURCE_FOLLOW_NEW);
		if (kd_syslog_source_open(out, &kd_source_type_syslog, &a) == 0)
			return 0;
	}
	return rc;
}

int kd_source_open(struct kd_source **out, const char *name,
		   const char *path, unsigned int flags, size_t size)
{
	const struct kd_source_args a = {
		.path = path,
		.fd = -1,
		.flags = flags,
		.size = size,
	};

	return kd_source_open_args(out, name, &a);
}

int kd_source_open_fd(struct kd_source **out, const char *name, int fd,
		      unsigned int flags)
{
	const struct kd_source_args a = { .fd = fd, .flags = flags };
	const struct kd_source_type *type = kd_source_type_find(name);

	if (fd < 0) {
		if (out)
			*out = NULL;
		return -EBADF;
	}
	if (!type || !type->reads_fd) {
		/* The source owns @fd, also on failure. */
		close(fd);
		if (out)
			*out = NULL;
		return type ? -EOPNOTSUPP : type_missing(name);
	}
	return kd_source_open_args(out, name, &a);
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

const struct kd_source_type *kd_source_type(const struct kd_source *src)
{
	return src->type;
}

const char *kd_source_name(const struct kd_source *src)
{
	return src->type->name;
}

unsigned int kd_source_caps(const struct kd_source *src)
{
	return src->caps;
}

const char *kd_source_input_error(const struct kd_source *src, size_t i, int *err)
{
	return src->ops->input_error ? src->ops->input_error(src, i, err) : NULL;
}

int kd_source_boots(struct kd_source *src, struct kd_source_boot **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	return src->ops->boots ? src->ops->boots(src, out, n) : -EOPNOTSUPP;
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
