// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rawdump.c - the verbatim (but escaped) output of dmesg -r for
 * syslog-format buffers; see rawdump.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "shared/escape.h"
#include "sink/rawdump.h"

int kd_rawdump_read(int fd, char **buf, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *b = malloc(cap);

	if (!b)
		return -ENOMEM;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *nb = realloc(b, cap * 2);

			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(b);
			return -e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*buf = b;
	*len = n;
	return 0;
}

int kd_rawdump_write(FILE *out, const char *buf, size_t len, size_t chunk,
		     bool noescape)
{
	size_t off = 0;

	if (!chunk)
		chunk = len;
	while (off < len) {
		size_t n = len - off < chunk ? len - off : chunk;

		if (kd_escape_write(out, buf + off, n, 0, noescape) < 0)
			return -EIO;
		off += n;
	}
	if (len && buf[len - 1] != '\n' && putc('\n', out) == EOF)
		return -EIO;
	return ferror(out) ? -EIO : 0;
}
