// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source-syslog.c - records from the syslog(2) buffer (dmesg -S, and the
 * fallback when /dev/kmsg is unusable).
 *
 * The whole buffer is fetched by kd_klogctl_read_all(), sized as dmesg
 * sizes it: the -s value, else the kernel's SYSLOG_ACTION_SIZE_BUFFER,
 * else a buffer that grows until the log fits.  Parsing is the -F file
 * code's job (kd_buffer_source_open), since the bytes are the same format.
 */
#include "source/klogctl.h"
#include "source/source-internal.h"

int kd_syslog_source_open(struct kd_source **out, const struct kd_source_type *type,
			  const struct kd_source_args *a)
{
	unsigned int flags = a->flags;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	rc = kd_klogctl_read_all(&buf, &len, a->size, flags & KD_SOURCE_CLEAR);
	if (rc < 0)
		return rc;

	rc = kd_buffer_source_open(out, type, buf, len);
	if (rc == 0)
		(*out)->flags = flags;
	return rc;
}
