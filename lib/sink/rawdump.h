/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rawdump.h - dmesg -r for syslog-format input (-F files, syslog(2)):
 * dmesg prints those buffers as they are, escaped but not re-formatted,
 * so malformed lines and caller ids come out byte for byte.  Records from
 * /dev/kmsg are re-formatted by the text writer instead.
 */
#ifndef KDMESG_RAWDUMP_H
#define KDMESG_RAWDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* dmesg writes a mapped -F file page by page. */
#define KD_RAWDUMP_FILE_CHUNK	4096

/**
 * kd_rawdump_read() - read all of @fd into a new buffer (*@buf, *@len;
 * free() it).  Returns 0 or a negative errno.
 */
int kd_rawdump_read(int fd, char **buf, size_t *len);

/**
 * kd_rawdump_write() - write @len bytes of @buf to @out escaped as dmesg
 * escapes text, in pieces of @chunk bytes (0: all at once) because dmesg
 * restarts its multibyte decoding at every piece, then a newline when the
 * buffer does not end with one.  Returns 0 or -EIO.
 */
int kd_rawdump_write(FILE *out, const char *buf, size_t len, size_t chunk,
		     bool noescape);

#endif /* KDMESG_RAWDUMP_H */
