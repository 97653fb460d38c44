/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * host.h - which machine and which boot a record comes from.
 *
 * /dev/kmsg holds one machine's running boot, so its records need no
 * such mark; the journal (and a dump from elsewhere) holds records of
 * many boots of many machines, and each must be dated with its own
 * boot's time and shown with its own host.  A source that knows keeps
 * one struct kd_host per boot and points its records at it
 * (kd_record.host); it stays valid until the source is closed.
 */
#ifndef KDMESG_HOST_H
#define KDMESG_HOST_H

#include <stdint.h>

#include "record/record.h"

/* sd_id128 as 32 lower-case hex digits, and the longest host name kept. */
#define KD_ID128_LEN	32
#define KD_HOSTNAME_MAX	64

struct kd_host {
	char machine_id[KD_ID128_LEN + 1];	/* "" when unknown */
	char boot_id[KD_ID128_LEN + 1];		/* "" when unknown */
	char hostname[KD_HOSTNAME_MAX + 1];	/* "" when unknown; may be any bytes */
	/* Wall-clock time of the boot, µs since the epoch; 0 when unknown. */
	int64_t boot_usec;
};

/**
 * kd_record_boot_usec() - the boot time that dates @rec: its own host's
 * when known, else @fallback (this machine's, or --boot-time).
 */
static inline int64_t kd_record_boot_usec(const struct kd_record *rec, int64_t fallback)
{
	return rec->host && rec->host->boot_usec ? rec->host->boot_usec : fallback;
}

/**
 * kd_host_local() - this machine and its running boot into @h (what is
 * unknown stays ""), dated @boot_usec.  -ENOENT when nothing was found.
 */
int kd_host_local(struct kd_host *h, int64_t boot_usec);

/**
 * kd_host_dump() - the boot of a dump, which names none: only a boot ID,
 * made from @boot_usec (the boot time that dates its records), so that
 * one dump is one boot in the journal.  Not a kernel's boot ID.
 */
void kd_host_dump(struct kd_host *h, int64_t boot_usec);

/** kd_id128_valid() - @s is 32 hex digits (an sd_id128 as text). */
static inline int kd_id128_valid(const char *s)
{
	size_t i;

	for (i = 0; i < KD_ID128_LEN; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
		      (s[i] >= 'A' && s[i] <= 'F')))
			return 0;
	return s[i] == '\0';
}

#endif /* KDMESG_HOST_H */
