// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * klogctl-shim.c - LD_PRELOAD shim (as kmod's tests do) so the CLI tests
 * can drive syslog(2) actions and the /dev/kmsg fallback without root and
 * without touching the machine's kernel log:
 *
 *   SHIM_LOG=file          append "klogctl TYPE LEN" for every call
 *   SHIM_KLOGCTL_ERRNO=N   make every klogctl() fail with errno N
 *   SHIM_SYSLOG_FILE=file  what SYSLOG_ACTION_READ_ALL/READ_CLEAR return
 *   SHIM_NO_SIZE=1         make SYSLOG_ACTION_SIZE_BUFFER fail (EINVAL)
 *   SHIM_KMSG_ERRNO=N      make opening /dev/kmsg fail with errno N
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int klogctl(int type, char *buf, int len);
int open(const char *path, int flags, ...);
int open64(const char *path, int flags, ...);
int openat(int dirfd, const char *path, int flags, ...);
int openat64(int dirfd, const char *path, int flags, ...);
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);

static int env_errno(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? atoi(v) : 0;
}

static void log_call(int type, int len)
{
	const char *path = getenv("SHIM_LOG");
	FILE *f;

	if (!path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "klogctl %d %d\n", type, len);
	fclose(f);
}

int klogctl(int type, char *buf, int len)
{
	const char *file = getenv("SHIM_SYSLOG_FILE");
	int e = env_errno("SHIM_KLOGCTL_ERRNO");
	struct stat st;
	FILE *f;
	size_t n;

	log_call(type, len);
	if (e) {
		errno = e;
		return -1;
	}
	switch (type) {
	case 3:		/* SYSLOG_ACTION_READ_ALL */
	case 4:		/* SYSLOG_ACTION_READ_CLEAR */
		if (!file || !(f = fopen(file, "r")))
			return 0;
		n = fread(buf, 1, len > 0 ? (size_t)len : 0, f);
		fclose(f);
		return (int)n;
	case 9:		/* SYSLOG_ACTION_SIZE_UNREAD */
	case 10:	/* SYSLOG_ACTION_SIZE_BUFFER */
		if (type == 10 && env_errno("SHIM_NO_SIZE")) {
			errno = EINVAL;
			return -1;
		}
		if (file && stat(file, &st) == 0 && st.st_size > 0)
			return (int)st.st_size;
		return 16384;
	default:
		return 0;
	}
}

static int kmsg_refused(const char *path)
{
	int e = env_errno("SHIM_KMSG_ERRNO");

	if (e && path && strcmp(path, "/dev/kmsg") == 0) {
		errno = e;
		return 1;
	}
	return 0;
}

typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);
typedef int (*open2_fn)(const char *, int);

#define REAL(name, type) \
	static type real; \
	if (!real) \
		*(void **)&real = dlsym(RTLD_NEXT, name)

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t m;
	REAL("open", open_fn);

	va_start(ap, flags);
	m = mode_arg(flags, ap);
	va_end(ap);
	return kmsg_refused(path) ? -1 : real(path, flags, m);
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	mode_t m;
	REAL("open64", open_fn);

	va_start(ap, flags);
	m = mode_arg(flags, ap);
	va_end(ap);
	return kmsg_refused(path) ? -1 : real(path, flags, m);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t m;
	REAL("openat", openat_fn);

	va_start(ap, flags);
	m = mode_arg(flags, ap);
	va_end(ap);
	return kmsg_refused(path) ? -1 : real(dirfd, path, flags, m);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t m;
	REAL("openat64", openat_fn);

	va_start(ap, flags);
	m = mode_arg(flags, ap);
	va_end(ap);
	return kmsg_refused(path) ? -1 : real(dirfd, path, flags, m);
}

int __open_2(const char *path, int flags)
{
	REAL("__open_2", open2_fn);

	return kmsg_refused(path) ? -1 : real(path, flags);
}

int __open64_2(const char *path, int flags)
{
	REAL("__open64_2", open2_fn);

	return kmsg_refused(path) ? -1 : real(path, flags);
}
