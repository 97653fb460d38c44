// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * host.c - this machine as a struct kd_host: the IDs journald stamps on
 * every record it stores (_BOOT_ID, _MACHINE_ID, _HOSTNAME), so that
 * records of the live log exported by kdmesg land in the journal as
 * journald's own would.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "record/host.h"

/* The first 32 hex digits of @path (dashes dropped, lower case), or "". */
static void read_id(const char *path, char id[KD_ID128_LEN + 1])
{
	char buf[64];
	ssize_t n;
	size_t k = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	id[0] = '\0';
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	for (ssize_t i = 0; i < n && k < KD_ID128_LEN; i++) {
		char c = buf[i];

		if (c == '-')
			continue;
		if (c >= 'A' && c <= 'F')
			c = (char)(c + 32);
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			break;
		id[k++] = c;
	}
	id[k == KD_ID128_LEN ? k : 0] = '\0';
}

int kd_host_local(struct kd_host *h, int64_t boot_usec)
{
	memset(h, 0, sizeof(*h));
	read_id("/proc/sys/kernel/random/boot_id", h->boot_id);
	read_id("/etc/machine-id", h->machine_id);
	if (gethostname(h->hostname, sizeof(h->hostname) - 1) < 0)
		h->hostname[0] = '\0';
	h->boot_usec = boot_usec;
	return h->boot_id[0] || h->machine_id[0] || h->hostname[0] ? 0 : -ENOENT;
}

/*
 * A dump names no boot, but the journal files records by _BOOT_ID and
 * `journalctl -b` (which -k implies) finds nothing without one.  The boot
 * is named by the boot time that dates its records (--boot-time, or this
 * machine's, as dmesg assumes): the same dump gives the same ID, and two
 * boots two IDs.  Two rounds of splitmix64 make the 128 bits.
 */
void kd_host_dump(struct kd_host *h, int64_t boot_usec)
{
	uint64_t x = (uint64_t)boot_usec ^ 0x6b646d6573672d62ULL, v[2];

	memset(h, 0, sizeof(*h));
	for (int i = 0; i < 2; i++) {
		uint64_t z = (x += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		v[i] = z ^ (z >> 31);
	}
	snprintf(h->boot_id, sizeof(h->boot_id), "%016" PRIx64 "%016" PRIx64, v[0], v[1]);
	h->boot_usec = boot_usec;
}
