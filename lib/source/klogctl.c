// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * klogctl.c - thin syslog(2) wrappers for dmesg's control actions, so the
 * program never calls klogctl() itself and errors come back as -errno.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>

#include "source/klogctl.h"
#include "record/priority.h"

/* syslog(2) action numbers (<sys/klog.h> declares only the call). */
#define ACTION_READ_ALL		3
#define ACTION_READ_CLEAR	4
#define ACTION_CLEAR		5
#define ACTION_CONSOLE_OFF	6
#define ACTION_CONSOLE_ON	7
#define ACTION_CONSOLE_LEVEL	8
#define ACTION_SIZE_BUFFER	10

static int call(int action, int arg)
{
	int rc = klogctl(action, NULL, arg);

	return rc < 0 ? -errno : rc;
}

int kd_klogctl_clear(void)
{
	int rc = call(ACTION_CLEAR, 0);

	return rc < 0 ? rc : 0;
}

int kd_klogctl_console_off(void)
{
	int rc = call(ACTION_CONSOLE_OFF, 0);

	return rc < 0 ? rc : 0;
}

int kd_klogctl_console_on(void)
{
	int rc = call(ACTION_CONSOLE_ON, 0);

	return rc < 0 ? rc : 0;
}

int kd_klogctl_console_level(int level)
{
	int rc;

	if (level < 1 || level > 8)
		return -EINVAL;
	rc = call(ACTION_CONSOLE_LEVEL, level);
	return rc < 0 ? rc : 0;
}

int kd_klogctl_parse_console_level(const char *str, int *level)
{
	int n;

	if (!str || !*str || !level)
		return -EINVAL;
	if (isdigit((unsigned char)*str)) {
		char *end;
		long v;

		/* "-n N" lets through levels below N: 1..8, not 0..7. */
		errno = 0;
		v = strtol(str, &end, 10);
		if (errno)
			return -errno;
		if (*end || v < 1 || v > 8)
			return -EINVAL;
		*level = (int)v;
		return 0;
	}
	n = kd_priority_level_parse(str, strlen(str));
	if (n < 0)
		return n;
	*level = n + 1;
	return 0;
}

int kd_klogctl_buffer_size(void)
{
	return call(ACTION_SIZE_BUFFER, 0);
}

/* Without a size from anywhere, start here and grow 4x (as dmesg). */
#define GROW_START	16392
#define GROW_LIMIT	(1U << 28)

int kd_klogctl_read_all(char **buf, size_t *len, size_t size, bool clear)
{
	size_t sz;
	char *b;
	int n;

	if (!size) {
		n = kd_klogctl_buffer_size();
		if (n > 0)
			size = (size_t)n;
	}
	if (size > (size_t)GROW_LIMIT * 4)
		return -EINVAL;
	sz = size ? size + 8 : GROW_START;
	for (;;) {
		b = malloc(sz);
		if (!b)
			return -ENOMEM;
		/*
		 * A full buffer of a guessed size may hide more: grow it.  The
		 * guessing reads never clear, so a retry loses nothing; the
		 * clearing read comes once the size is right.
		 */
		if (size || sz > GROW_LIMIT) {
			n = klogctl(clear ? ACTION_READ_CLEAR : ACTION_READ_ALL,
				    b, (int)sz);
			break;
		}
		n = klogctl(ACTION_READ_ALL, b, (int)sz);
		if (n < 0 || (size_t)n != sz) {
			if (n >= 0 && clear)
				n = klogctl(ACTION_READ_CLEAR, b, (int)sz);
			break;
		}
		free(b);
		sz *= 4;
	}
	if (n < 0) {
		n = -errno;
		free(b);
		return n;
	}
	*buf = b;
	*len = (size_t)n;
	return 0;
}
