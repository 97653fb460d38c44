/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * klogctl.h - the syslog(2) actions behind dmesg's -C, -c, -D, -E and -n:
 * clear the ring buffer, switch console logging off and on, set the
 * console log level.  Each returns 0 or a negative errno (-EPERM without
 * CAP_SYSLOG) and prints nothing.
 */
#ifndef KDMESG_KLOGCTL_H
#define KDMESG_KLOGCTL_H

#include <stdbool.h>
#include <stddef.h>

/** kd_klogctl_clear() - empty the kernel ring buffer (SYSLOG_ACTION_CLEAR). */
int kd_klogctl_clear(void);

/** kd_klogctl_console_off() - stop printing messages to the console. */
int kd_klogctl_console_off(void);

/** kd_klogctl_console_on() - resume printing messages to the console. */
int kd_klogctl_console_on(void);

/**
 * kd_klogctl_console_level() - print messages below @level (1..8) to the
 * console, as "dmesg -n" does.  Returns -EINVAL outside 1..8.
 */
int kd_klogctl_console_level(int level);

/**
 * kd_klogctl_parse_console_level() - dmesg's -n argument: a number 1..8
 * or a level name (case-insensitive), where a name means "that level and
 * more severe", i.e. its number + 1 ("emerg" is 1, "debug" is 8).
 * Returns 0 and sets *@level, -EINVAL for an unknown level, -ERANGE for a
 * number that overflows.
 */
int kd_klogctl_parse_console_level(const char *str, int *level);

/** kd_klogctl_buffer_size() - the kernel ring buffer size in bytes, or -errno. */
int kd_klogctl_buffer_size(void);

/**
 * kd_klogctl_read_all() - the whole syslog(2) buffer (SYSLOG_ACTION_READ_ALL,
 * or SYSLOG_ACTION_READ_CLEAR with @clear) into a new buffer *@buf of *@len
 * bytes (free() it), sized as dmesg sizes it: @size (-s) or the kernel's
 * buffer size, plus 8; when neither is known, 16392 bytes growing fourfold
 * while the buffer comes back full (up to 1 GiB).  Returns 0 or -errno
 * (-EINVAL for a @size over 1 GiB).
 */
int kd_klogctl_read_all(char **buf, size_t *len, size_t size, bool clear);

#endif /* KDMESG_KLOGCTL_H */
