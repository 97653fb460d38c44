// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source-syslog.c - records from the syslog(2) buffer (dmesg -S, and the
 * fallback when /dev/kmsg is unusable).
 *
 * The whole buffer is fetched with one klogctl() call, sized as dmesg
 * sizes it: the -s value, else the kernel's SYSLOG_ACTION_SIZE_BUFFER,
 * else a buffer that grows until the log fits.  Parsing is the -F file
 * code's job (kd_buffer_source_open), since the bytes are the same format.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/klog.h>

#include "source-internal.h"

#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_READ_CLEAR	4
#define SYSLOG_ACTION_SIZE_BUFFER	10

/* Without a size from anywhere, start here and grow 4x (as dmesg). */
#define GROW_START	16392
#define GROW_LIMIT	(1 << 28)

int kd_syslog_source_open(struct kd_source **out, unsigned int flags,
			  size_t size)
{
	int action = flags & KD_SOURCE_CLEAR ? SYSLOG_ACTION_READ_CLEAR
					     : SYSLOG_ACTION_READ_ALL;
	char *buf = NULL;
	size_t sz;
	int n, rc;

	*out = NULL;
	if (!size) {
		n = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
		if (n > 0)
			size = (size_t)n;
	}
	if (size > (size_t)GROW_LIMIT * 4)
		return -EINVAL;

	if (size) {
		sz = size + 8;
		buf = malloc(sz);
		if (!buf)
			return -ENOMEM;
		n = klogctl(action, buf, (int)sz);
	} else {
		for (sz = GROW_START;; sz *= 4) {
			buf = malloc(sz);
			if (!buf)
				return -ENOMEM;
			n = klogctl(action, buf, (int)sz);
			/* A full buffer may mean a cut log: try a bigger one. */
			if (n < 0 || (size_t)n != sz || sz > GROW_LIMIT)
				break;
			free(buf);
		}
	}
	if (n < 0) {
		rc = -errno;
		free(buf);
		return rc;
	}

	rc = kd_buffer_source_open(out, KD_SOURCE_SYSLOG, buf, (size_t)n);
	if (rc == 0)
		(*out)->flags = flags;
	return rc;
}
