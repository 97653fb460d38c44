// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * readfile.c - a whole file in memory, NUL-terminated.  See readfile.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "shared/readfile.h"
#include "sink/rawdump.h"

char *kd_read_fd(int fd, size_t *len)
{
	char *buf = NULL, *t;
	int rc = kd_rawdump_read(fd, &buf, len);

	if (rc < 0) {
		errno = -rc;
		return NULL;
	}
	if (!(t = realloc(buf, *len + 1))) {
		free(buf);
		errno = ENOMEM;
		return NULL;
	}
	t[*len] = '\0';
	return t;
}

char *kd_read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), saved;
	char *t;

	if (fd < 0)
		return NULL;
	t = kd_read_fd(fd, len);
	saved = errno;
	close(fd);
	errno = saved;
	return t;
}
