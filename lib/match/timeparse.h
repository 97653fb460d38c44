/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timeparse.h - the time syntax of util-linux (--since/--until): absolute
 * dates ("2026-12-03 10:15[:SS[.frac]]", "20261203101500", "16:34"),
 * "@epoch[.frac]", "now", "today", "yesterday", "tomorrow", an optional
 * leading weekday, and relative spans ("+5min", "-1h 30min", "3 hours ago").
 *
 * The reference point is passed in, so tests can pin "now".
 */
#ifndef KDMESG_TIMEPARSE_H
#define KDMESG_TIMEPARSE_H

#include <stdint.h>
#include <time.h>

/**
 * kd_timeparse_span() - parse a span such as "1h 30min", "1.5 days", "250ms".
 * Every number needs its unit, as in dmesg 2.42.  Stores microseconds in
 * *@usec.
 * Returns 0, -EINVAL (not a span) or -ERANGE (negative or too large).
 */
int kd_timeparse_span(const char *str, uint64_t *usec);

/**
 * kd_timeparse() - parse @str as util-linux parse_timestamp() does, with
 * @now (seconds since the epoch) as the reference for relative forms and
 * local time (TZ) for calendar forms.  Stores microseconds since the epoch
 * in *@usec (clamped at 0, as util-linux does for "-100years"; "@-5"
 * wraps to a time after every record, as in util-linux).
 * Returns 0, -EINVAL, -ERANGE or -ENOMEM.
 */
int kd_timeparse(const char *str, time_t now, uint64_t *usec);

#endif /* KDMESG_TIMEPARSE_H */
