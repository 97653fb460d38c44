/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tap.h - a small TAP producer for the unit tests; Automake's tap-driver.sh
 * counts every "ok"/"not ok" line, so each check is reported on its own.
 */
#ifndef KDMESG_TAP_H
#define KDMESG_TAP_H

#include <stdbool.h>
#include <stddef.h>

/** tap_ok() - report one check; returns @cond. */
bool tap_ok(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** tap_is_str() - compare strings (NULL-safe), print both on failure. */
bool tap_is_str(const char *got, const char *want, const char *name);

/** tap_is_mem() - compare byte strings, print both escaped on failure. */
bool tap_is_mem(const void *got, size_t got_len, const void *want,
		size_t want_len, const char *name);

/** tap_is_int() - compare integers, print both on failure. */
bool tap_is_int(long long got, long long want, const char *name);

/**
 * tap_skip() - report @n checks as skipped ("ok N # SKIP @why"), so that a
 * missing precondition shows in the totals instead of checks vanishing.
 */
void tap_skip(unsigned int n, const char *why);

/** tap_diag() - a "# " comment line. */
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** tap_done() - print the plan; returns the process exit status. */
int tap_done(void);

#endif /* KDMESG_TAP_H */
