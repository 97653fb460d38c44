// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kmsg-shim.c - an LD_PRELOAD library that fakes the kernel's log
 * interfaces, so that the live readers (and the kdmesg program) can be
 * tested without root and without touching the machine's real log.
 *
 * /dev/kmsg: open("/dev/kmsg") opens $KDMESG_SHIM_KMSG instead, a text
 * file of records in the newline dump form ("pri,seq,usec,flags;text"
 * then " KEY=value" lines).  read() on it behaves as the kernel's device:
 * one whole record per call, EINVAL when the buffer is too small, EAGAIN
 * at the end with O_NONBLOCK; without O_NONBLOCK it waits for records
 * appended to the file, for at most $KDMESG_SHIM_WAIT_MS (default 3000),
 * then fails with EINTR - or, with KDMESG_SHIM_AT_END=exit, ends the
 * process with exit(0) so a follow-mode CLI test terminates cleanly.
 * fcntl(F_SETFL) switches O_NONBLOCK as on the device (the --tui viewer
 * opens it blocking, then polls it non-blocking).
 * lseek(fd, 0, SEEK_SET/SEEK_DATA/SEEK_END) moves to the first record,
 * the first record after the last "#CLEAR" line, or the end, and appends
 * "lseek set/data/end" to $KDMESG_SHIM_SEEK_LOG if set, so that a test
 * can append a record only once the reader has moved.  Directive
 * lines in the file script the kernel's errors when reached:
 *	#EPIPE		read() fails once with EPIPE (records were lost;
 *			the records after it should have a seq gap)
 *	#EINVAL		read() fails once with EINVAL (pre-3.5 kernels)
 *	#CLEAR		the point `dmesg -C` last cleared (for SEEK_DATA)
 * $KDMESG_SHIM_KMSG_OPEN_ERRNO=N makes open() fail with errno N (e.g. 1
 * for EPERM under dmesg_restrict); without $KDMESG_SHIM_KMSG the open
 * fails with ENOENT.
 *
 * klogctl(): SIZE_BUFFER returns $KDMESG_SHIM_SYSLOG_SIZE or the size of
 * $KDMESG_SHIM_SYSLOG; READ_ALL and READ_CLEAR copy that file; every call
 * is appended to $KDMESG_SHIM_LOG as "klogctl TYPE LEN" lines, so tests
 * can check which actions ran (clear, console on/off/level).
 * $KDMESG_SHIM_SYSLOG_ERRNO=N makes every call fail with errno N; without
 * $KDMESG_SHIM_SYSLOG reads fail with ENOSYS.  The real klogctl() is never
 * called.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define KMSG_PATH	"/dev/kmsg"
#define MAX_FAKE	16
#define MAX_FILE	(16 * 1024 * 1024)

/* Tests look this up to make sure they run under the shim. */
int kd_shim_loaded = 1;

struct fake {
	int fd;			/* -1: slot free */
	int nonblock;
	size_t pos;		/* byte offset of the next line to serve */
};

static struct fake fakes[MAX_FAKE] = {
	[0 ... MAX_FAKE - 1] = { .fd = -1 },
};

/* Interposed symbols that no header declares. */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen);
int klogctl(int type, char *bufp, int len);

#define REAL(name) real_##name
#define LOAD(name) \
	do { if (!REAL(name)) REAL(name) = dlsym(RTLD_NEXT, #name); } while (0)

static int (*REAL(open))(const char *, int, ...);
static int (*REAL(openat))(int, const char *, int, ...);
static ssize_t (*REAL(read))(int, void *, size_t);
static off_t (*REAL(lseek))(int, off_t, int);
static int (*REAL(close))(int);
static int (*REAL(fcntl))(int, int, ...);

static int env_int(const char *name, int dflt)
{
	const char *s = getenv(name);

	return s && *s ? atoi(s) : dflt;
}

static struct fake *find_fake(int fd)
{
	for (int i = 0; i < MAX_FAKE; i++)
		if (fd >= 0 && fakes[i].fd == fd)
			return &fakes[i];
	return NULL;
}

static int open_kmsg(int flags)
{
	const char *path = getenv("KDMESG_SHIM_KMSG");
	int err = env_int("KDMESG_SHIM_KMSG_OPEN_ERRNO", 0);
	int fd;

	LOAD(open);
	if (err) {
		errno = err;
		return -1;
	}
	if (!path) {
		errno = ENOENT;
		return -1;
	}
	fd = REAL(open)(path, O_RDONLY | (flags & O_CLOEXEC));
	if (fd < 0)
		return -1;
	for (int i = 0; i < MAX_FAKE; i++) {
		if (fakes[i].fd < 0) {
			fakes[i].fd = fd;
			fakes[i].nonblock = !!(flags & O_NONBLOCK);
			fakes[i].pos = 0;
			return fd;
		}
	}
	REAL(close)(fd);
	errno = EMFILE;
	return -1;
}

static int is_kmsg(const char *path)
{
	return path && strcmp(path, KMSG_PATH) == 0;
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (is_kmsg(path))
		return open_kmsg(flags);
	LOAD(open);
	va_start(ap, flags);
	if (flags & (O_CREAT | __O_TMPFILE))
		mode = va_arg(ap, mode_t);
	va_end(ap);
	return REAL(open)(path, flags, mode);
}

int open64(const char *path, int flags, ...)
	__attribute__((alias("open")));

int __open_2(const char *path, int flags)
{
	return open(path, flags);
}

int __open64_2(const char *path, int flags)
	__attribute__((alias("__open_2")));

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (is_kmsg(path))
		return open_kmsg(flags);
	LOAD(openat);
	va_start(ap, flags);
	if (flags & (O_CREAT | __O_TMPFILE))
		mode = va_arg(ap, mode_t);
	va_end(ap);
	return REAL(openat)(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
	__attribute__((alias("openat")));

/* The whole backing file, read fresh so that appended records show. */
static char *slurp(const char *path, size_t *len)
{
	char *buf = malloc(MAX_FILE);
	ssize_t n;
	size_t got = 0;
	int fd;

	LOAD(open);
	LOAD(read);
	LOAD(close);
	if (!buf)
		return NULL;
	fd = REAL(open)(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	while (got < MAX_FILE && (n = REAL(read)(fd, buf + got, MAX_FILE - got)) > 0)
		got += (size_t)n;
	REAL(close)(fd);
	*len = got;
	return buf;
}

/* The end of the line at @p (past its newline), within [p, end). */
static size_t line_end(const char *buf, size_t p, size_t end)
{
	const char *nl = memchr(buf + p, '\n', end - p);

	return nl ? (size_t)(nl - buf) + 1 : end;
}

/*
 * Serve what is at f->pos: 1 with a record in [*b, *e), 0 at the end, or
 * -1 with errno set for a scripted error.
 */
static int next_item(struct fake *f, const char *buf, size_t len,
		     size_t *b, size_t *e)
{
	while (f->pos < len) {
		size_t p = f->pos, q = line_end(buf, p, len);

		if (buf[p] == '#') {
			f->pos = q;
			if (strncmp(buf + p, "#EPIPE", 6) == 0) {
				errno = EPIPE;
				return -1;
			}
			if (strncmp(buf + p, "#EINVAL", 7) == 0) {
				errno = EINVAL;
				return -1;
			}
			continue;
		}
		if (buf[p] == '\n' || buf[p] == ' ') {
			f->pos = q;
			continue;
		}
		/* A record ends where a line does not start with a blank. */
		while (q < len && buf[q] == ' ')
			q = line_end(buf, q, len);
		/* Only whole lines: a record still being written waits. */
		if (buf[q - 1] != '\n')
			return 0;
		*b = p;
		*e = q;
		f->pos = q;
		return 1;
	}
	return 0;
}

static ssize_t fake_read(struct fake *f, void *dst, size_t count)
{
	const char *path = getenv("KDMESG_SHIM_KMSG");
	int wait_ms = env_int("KDMESG_SHIM_WAIT_MS", 3000);
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	for (int waited = 0;; waited += 10) {
		size_t len = 0, b, e;
		char *buf = path ? slurp(path, &len) : NULL;
		int rc;

		if (!buf) {
			errno = EIO;
			return -1;
		}
		rc = next_item(f, buf, len, &b, &e);
		if (rc > 0 && e - b > count) {
			free(buf);
			f->pos = b;
			errno = EINVAL;
			return -1;
		}
		if (rc > 0)
			memcpy(dst, buf + b, e - b);
		free(buf);
		if (rc > 0)
			return (ssize_t)(e - b);
		if (rc < 0)
			return -1;
		if (f->nonblock) {
			errno = EAGAIN;
			return -1;
		}
		if (waited >= wait_ms) {
			const char *act = getenv("KDMESG_SHIM_AT_END");

			if (act && strcmp(act, "exit") == 0)
				exit(0);
			errno = EINTR;
			return -1;
		}
		nanosleep(&ts, NULL);
	}
}

ssize_t read(int fd, void *buf, size_t count)
{
	struct fake *f = find_fake(fd);

	if (f)
		return fake_read(f, buf, count);
	LOAD(read);
	return REAL(read)(fd, buf, count);
}

ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen)
{
	(void)buflen;
	return read(fd, buf, count);
}

/* Note the reader's move in $KDMESG_SHIM_SEEK_LOG (after it is made). */
static void log_seek(int whence)
{
	const char *path = getenv("KDMESG_SHIM_SEEK_LOG");
	FILE *f;

	if (!path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "lseek %s\n", whence == SEEK_SET ? "set" : whence == SEEK_END ? "end" : "data");
	fclose(f);
}

static off_t fake_seek(struct fake *f, off_t off, int whence)
{
	const char *path = getenv("KDMESG_SHIM_KMSG");
	size_t len = 0, p, clear = 0;
	char *buf;

	if (off != 0) {
		errno = ESPIPE;
		return -1;
	}
	switch (whence) {
	case SEEK_SET:
		f->pos = 0;
		log_seek(whence);
		return 0;
	case SEEK_DATA:
	case SEEK_END:
		buf = path ? slurp(path, &len) : NULL;
		if (!buf) {
			errno = EIO;
			return -1;
		}
		for (p = 0; p < len; p = line_end(buf, p, len))
			if (strncmp(buf + p, "#CLEAR", 6) == 0)
				clear = line_end(buf, p, len);
		f->pos = whence == SEEK_END ? len : clear;
		free(buf);
		log_seek(whence);
		return 0;
	}
	errno = EINVAL;
	return -1;
}

off_t lseek(int fd, off_t off, int whence)
{
	struct fake *f = find_fake(fd);

	if (f)
		return fake_seek(f, off, whence);
	LOAD(lseek);
	return REAL(lseek)(fd, off, whence);
}

off_t lseek64(int fd, off_t off, int whence)
	__attribute__((alias("lseek")));

int fcntl(int fd, int cmd, ...)
{
	struct fake *f = find_fake(fd);
	va_list ap;
	void *ptr;
	int arg;

	LOAD(fcntl);
	switch (cmd) {
	case F_GETFD:
	case F_GETFL:
	case F_GETOWN:
	case F_GETSIG:
	case F_GETLEASE:
	case F_GETPIPE_SZ:
	case F_GET_SEALS:
		return REAL(fcntl)(fd, cmd);
	case F_GETLK:
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_GETLK:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
	case F_GETOWN_EX:
	case F_SETOWN_EX:
		va_start(ap, cmd);
		ptr = va_arg(ap, void *);
		va_end(ap);
		return REAL(fcntl)(fd, cmd, ptr);
	}
	va_start(ap, cmd);
	arg = va_arg(ap, int);
	va_end(ap);
	if (f && cmd == F_SETFL)
		f->nonblock = !!(arg & O_NONBLOCK);
	return REAL(fcntl)(fd, cmd, arg);
}

int fcntl64(int fd, int cmd, ...)
	__attribute__((alias("fcntl")));

int close(int fd)
{
	struct fake *f = find_fake(fd);

	if (f)
		f->fd = -1;
	LOAD(close);
	return REAL(close)(fd);
}

static void log_call(int type, int len)
{
	const char *path = getenv("KDMESG_SHIM_LOG");
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f, "klogctl %d %d\n", type, len);
	fclose(f);
}

int klogctl(int type, char *bufp, int len)
{
	const char *path = getenv("KDMESG_SHIM_SYSLOG");
	int err = env_int("KDMESG_SHIM_SYSLOG_ERRNO", 0);
	size_t flen = 0;
	char *data;

	log_call(type, len);
	if (err) {
		errno = err;
		return -1;
	}
	switch (type) {
	case 10:	/* SYSLOG_ACTION_SIZE_BUFFER */
		if (getenv("KDMESG_SHIM_SYSLOG_SIZE"))
			return env_int("KDMESG_SHIM_SYSLOG_SIZE", 0);
		/* fall through */
	case 3:		/* SYSLOG_ACTION_READ_ALL */
	case 4:		/* SYSLOG_ACTION_READ_CLEAR */
		data = path ? slurp(path, &flen) : NULL;
		if (!data) {
			errno = ENOSYS;
			return -1;
		}
		if (type != 10) {
			if (len < 0 || !bufp) {
				free(data);
				errno = EINVAL;
				return -1;
			}
			/* Like the kernel: the newest bytes that fit. */
			if (flen > (size_t)len) {
				memmove(data, data + flen - (size_t)len, (size_t)len);
				flen = (size_t)len;
			}
			memcpy(bufp, data, flen);
		}
		free(data);
		return (int)flen;
	default:
		return 0;
	}
}
