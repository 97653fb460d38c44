/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timefmt.h - how dmesg turns -d, -e, -H, -T, -t and repeated
 * --time-format options into the list of stamps a text line starts with
 * (struct kd_output_opts.time[]).  Kept apart from the program so the
 * combination rules have unit tests.
 */
#ifndef KDMESG_TIMEFMT_H
#define KDMESG_TIMEFMT_H

#include <stdbool.h>

#include "sink/output.h"

/**
 * kd_timefmt_from_name() - a --time-format name: notime, ctime, delta,
 * reltime, iso or raw.  Returns the format or -EINVAL.
 */
int kd_timefmt_from_name(const char *name);

/**
 * kd_timefmt_has() - is @f in @o's list?  An empty list is the default,
 * which holds KD_TIME_RAW only.
 */
bool kd_timefmt_has(const struct kd_output_opts *o, enum kd_time_format f);

/**
 * kd_timefmt_add() - append @f unless already listed (an option repeated
 * is the same option).  -d adds KD_TIME_RAW_DELTA, --time-format delta
 * adds KD_TIME_DELTA; they differ once resolved.
 */
void kd_timefmt_add(struct kd_output_opts *o, enum kd_time_format f);

/**
 * kd_timefmt_resolve() - apply dmesg 2.42's merge rules once all options
 * are in: notime with a delta leaves the bare delta, notime alone no
 * stamp; -d with ctime becomes "[ctime <delta>]"; a bare delta next to
 * raw or ctime merges into that stamp's bracket.
 */
void kd_timefmt_resolve(struct kd_output_opts *o);

/** kd_timefmt_needs_boot_time() - does any listed stamp show wall-clock time? */
bool kd_timefmt_needs_boot_time(const struct kd_output_opts *o);

#endif /* KDMESG_TIMEFMT_H */
