/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * readfile.h - a whole file in memory, NUL-terminated after its bytes,
 * for the line readers (site tables, kernel notes, /proc files, format
 * sources) that split it with string functions.
 */
#ifndef KDMESG_READFILE_H
#define KDMESG_READFILE_H

#include <stddef.h>

/**
 * kd_read_fd() - all of @fd in a new buffer (free() it), @len bytes and
 * a NUL after them; NULL with errno set.
 */
char *kd_read_fd(int fd, size_t *len);

/** kd_read_file() - kd_read_fd() of the file at @path. */
char *kd_read_file(const char *path, size_t *len);

#endif /* KDMESG_READFILE_H */
