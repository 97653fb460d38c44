// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source-file-open.c - opening a saved log: a named file, standard input
 * ("-"), a descriptor, or the in-memory syslog(2) buffer; what a named
 * input may be (no directory, no device), the read window's size, and
 * the set-up for following a file.  The first window is read and checked
 * here (source-file-detect.c), so a wrong input fails at open.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/source-file-internal.h"

/* Read window: far above any real record (8 KiB + dictionary). */
#define STREAM_CAP	(1024 * 1024)

/* The read window of files opened next (kd_file_source_set_window()). */
static size_t window_cap = STREAM_CAP;

void kd_file_source_set_window(size_t bytes)
{
	window_cap = !bytes ? STREAM_CAP : bytes < 64 ? 64 : bytes;
}

/*
 * What a named input may be, refused before the first read() with an
 * error of its own: a directory (-EISDIR), or a device (-ENODEV) - a
 * character device such as /dev/kmsg never ends, so reading it as a
 * saved log would wait forever.  Files, pipes and sockets are read.
 */
static int check_input(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return -EISDIR;
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		return -ENODEV;
	return 0;
}

/*
 * check_input() of the opened input, noting whether it is a regular file
 * (and which) for following; standard input ("-") may be a terminal.
 */
static int check_input_fd(struct file_source *fs)
{
	struct stat st;

	if (fstat(fs->in_fd, &st) < 0)
		return -errno;
	fs->regular = S_ISREG(st.st_mode);
	fs->dev = st.st_dev;
	fs->ino = st.st_ino;
	if (!fs->close_fd && S_ISCHR(st.st_mode))
		return 0;
	return check_input(&st);
}

/*
 * KD_SOURCE_FOLLOW_FILE: a pipe is polled; a regular file cannot be (it
 * is always "readable"), so its descriptor is not offered and the caller
 * reads again on a timer; its name is kept to notice truncation and
 * replacement.  -W (KD_SOURCE_FOLLOW_NEW) skips what a file holds now.
 */
static int follow_setup(struct file_source *fs, const char *path, unsigned int flags)
{
	if (!fs->regular) {
		fs->base.fd = fs->in_fd;
		return 0;
	}
	/* (A descriptor from kd_source_open_fd() has no name to watch.) */
	if (fs->close_fd && path && !(fs->path = strdup(path)))
		return -ENOMEM;
	if (flags & KD_SOURCE_FOLLOW_NEW) {
		off_t end = lseek(fs->in_fd, 0, SEEK_END);

		if (end < 0)
			return -errno;
		kd_file_restart(fs);
		fs->offset = end;
	}
	return 0;
}

int kd_file_source_open(struct kd_source **out, const struct kd_source_type *type,
			const struct kd_source_args *a)
{
	unsigned int flags = a->flags;
	const char *path = a->path;
	struct file_source *fs;
	int rc;

	*out = NULL;
	if (a->fd < 0 && !path)
		return -EINVAL;
	fs = kd_file_new(type, flags);
	if (!fs) {
		if (a->fd >= 0)
			close(a->fd);
		return -ENOMEM;
	}

	if (a->fd >= 0) {
		/* kd_source_open_fd(): ours to close, also on failure. */
		fs->in_fd = a->fd;
		fs->close_fd = true;
	} else if (strcmp(path, "-") == 0) {
		fs->in_fd = STDIN_FILENO;
	} else {
		struct stat st;

		/* Before open(): opening a device may block or act. */
		if (stat(path, &st) == 0 && (rc = check_input(&st)) < 0)
			goto fail;
		fs->in_fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fs->in_fd < 0) {
			rc = -errno;
			goto fail;
		}
		fs->close_fd = true;
	}

	rc = check_input_fd(fs);
	if (rc < 0)
		goto fail;
	fs->cap = window_cap;
	fs->buf = malloc(fs->cap);
	if (!fs->buf) {
		rc = -ENOMEM;
		goto fail;
	}
	fs->data = fs->buf;
	do {
		if ((rc = kd_file_fill(fs)) < 0)
			goto fail;
	} while (!fs->eof && fs->len < kd_file_detect_window(fs) && !kd_file_can_detect(fs));

	rc = kd_file_detect(fs);
	if (rc < 0)
		goto fail;
	if (flags & KD_SOURCE_FOLLOW_FILE) {
		int fl = fcntl(fs->in_fd, F_GETFL);

		if (fl < 0 || fcntl(fs->in_fd, F_SETFL, fl | O_NONBLOCK) < 0) {
			rc = -errno;
			goto fail;
		}
		rc = follow_setup(fs, path, flags);
		if (rc < 0)
			goto fail;
	}
	*out = &fs->base;
	return 0;
fail:
	kd_file_close(&fs->base);
	return rc;
}

int kd_buffer_source_open(struct kd_source **out, const struct kd_source_type *type,
			  char *buf, size_t len)
{
	struct file_source *fs = kd_file_new(type, 0);

	*out = NULL;
	if (!fs) {
		free(buf);
		return -ENOMEM;
	}
	fs->fmt = FMT_SYSLOG;
	fs->buf = buf;
	fs->cap = len;
	fs->data = buf;
	fs->len = len;
	fs->eof = true;
	*out = &fs->base;
	return 0;
}
