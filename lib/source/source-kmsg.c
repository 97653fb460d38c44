// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source-kmsg.c - records from the live /dev/kmsg device.
 *
 * Each read() returns exactly one record.  Without follow the device is
 * opened non-blocking and drained until EAGAIN; with follow reads block
 * (or the caller polls kd_source_fd()).  Like dmesg, the reader starts at
 * SEEK_DATA - the first record after the last `dmesg -C` - or, for -W,
 * at SEEK_END so that only new records come.
 *
 * EPIPE means the kernel overwrote records we had not read yet.  dmesg
 * retries silently; we count the lost records from the gap in sequence
 * numbers, report -EPIPE once, then return the record that followed.  An
 * EPIPE before the first record is not a loss: the ring buffer had simply
 * wrapped before we started.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "source/kmsg-parse.h"
#include "source/source-internal.h"

struct kmsg_source {
	struct kd_source base;
	uint64_t last_seq;	/* of the last record returned */
	bool overrun;		/* EPIPE seen since then */
	size_t pending;		/* bytes of an unreturned record in buf */
	bool at_end;		/* the probe read found nothing (EAGAIN) */
	char buf[KD_KMSG_READ_MAX + 1];
};

/* One read(): >0 bytes, 0 at end of a plain file, or -errno. */
static ssize_t read_one(struct kmsg_source *ks)
{
	ssize_t n;

	do
		n = read(ks->base.fd, ks->buf, KD_KMSG_READ_MAX);
	while (n < 0 && errno == EINTR && !(ks->base.flags & KD_SOURCE_FOLLOW));
	return n < 0 ? -errno : n;
}

static int kmsg_next(struct kd_source *src, struct kd_record *rec)
{
	struct kmsg_source *ks = (struct kmsg_source *)src;
	unsigned int cut;
	ssize_t n;
	int rc;

	for (;;) {
		if (ks->pending) {
			n = (ssize_t)ks->pending;
			ks->pending = 0;
		} else if (ks->at_end && !(src->flags & KD_SOURCE_FOLLOW)) {
			return 0;
		} else {
			n = read_one(ks);
			if (n == -EPIPE) {
				ks->overrun = true;
				continue;
			}
			if (n == -EAGAIN)
				return src->flags & KD_SOURCE_FOLLOW ? -EAGAIN : 0;
			if (n < 0)
				return (int)n;
			if (n == 0)
				return 0;
		}

		rc = kd_kmsg_parse(ks->buf, (size_t)n, rec, &cut);
		if (rc == -EINVAL) {
			src->stats.malformed++;
			continue;
		}
		if (rc < 0)
			return rc;

		if (ks->overrun) {
			ks->overrun = false;
			if (ks->last_seq != KD_NO_SEQ && rec->seq > ks->last_seq + 1) {
				src->stats.lost += rec->seq - ks->last_seq - 1;
				ks->pending = (size_t)n;	/* returned next call */
				return -EPIPE;
			}
		}
		if (cut)
			src->stats.truncated++;
		ks->last_seq = rec->seq;
		return 1;
	}
}

static void kmsg_close(struct kd_source *src)
{
	if (src->fd >= 0)
		close(src->fd);
	free(src);
}

static const struct kd_source_ops kmsg_ops = {
	.next = kmsg_next,
	.close = kmsg_close,
};

int kd_kmsg_source_open(struct kd_source **out, const struct kd_source_type *type,
			const struct kd_source_args *a)
{
	unsigned int flags = a->flags;
	const char *path = a->path;
	struct kmsg_source *ks;
	int mode = O_RDONLY | O_CLOEXEC;
	ssize_t n;

	*out = NULL;
	if (flags & KD_SOURCE_FOLLOW_NEW)
		flags |= KD_SOURCE_FOLLOW;
	if (!(flags & KD_SOURCE_FOLLOW))
		mode |= O_NONBLOCK;

	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return -ENOMEM;
	kd_source_init(&ks->base, type, &kmsg_ops, flags);
	ks->last_seq = KD_NO_SEQ;
	ks->base.fd = open(path ? path : KD_KMSG_PATH, mode);
	if (ks->base.fd < 0) {
		int rc = -errno;

		free(ks);
		return rc;
	}

	/* Errors are harmless: kernels before 3.5 cannot seek here. */
	(void)lseek(ks->base.fd, 0,
		    flags & KD_SOURCE_FOLLOW_NEW ? SEEK_END : SEEK_DATA);

	/*
	 * Probe with a first read, as dmesg does: kernels that have the
	 * device but not the record interface fail it with EINVAL, and then
	 * the caller falls back to syslog(2).  In follow mode a read could
	 * block, so the probe is left to the first kd_source_next().
	 */
	if (!(flags & KD_SOURCE_FOLLOW)) {
		do
			n = read_one(ks);
		while (n == -EPIPE);
		if (n == -EAGAIN || n == 0) {
			ks->at_end = true;
		} else if (n < 0) {
			kmsg_close(&ks->base);
			return (int)n;
		} else {
			ks->pending = (size_t)n;
		}
	}
	*out = &ks->base;
	return 0;
}
