// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timefmt.c - dmesg's time-format option rules.  The list keeps the order
 * the options were given in, because dmesg prints the stamps in that
 * order ("--time-format iso --time-format raw" differs from the reverse).
 */
#include <errno.h>
#include <string.h>

#include "sink/timefmt.h"

int kd_timefmt_from_name(const char *name)
{
	static const struct {
		const char *name;
		enum kd_time_format f;
	} names[] = {
		{ "notime", KD_TIME_NONE }, { "ctime", KD_TIME_CTIME },
		{ "delta", KD_TIME_DELTA }, { "reltime", KD_TIME_RELTIME },
		{ "iso", KD_TIME_ISO }, { "raw", KD_TIME_RAW },
	};
	size_t i;

	for (i = 0; name && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i].name) == 0)
			return names[i].f;
	return -EINVAL;
}

bool kd_timefmt_has(const struct kd_output_opts *o, enum kd_time_format f)
{
	size_t i;

	if (o->ntime == 0)
		return f == KD_TIME_RAW;
	for (i = 0; i < o->ntime; i++)
		if (o->time[i] == f)
			return true;
	return false;
}

void kd_timefmt_add(struct kd_output_opts *o, enum kd_time_format f)
{
	if (o->ntime > 0 && kd_timefmt_has(o, f))
		return;
	if (o->ntime < KD_TIME_FORMATS_MAX)
		o->time[o->ntime++] = f;
}

static void remove_format(struct kd_output_opts *o, enum kd_time_format f)
{
	size_t i;

	for (i = 0; i < o->ntime; i++) {
		if (o->time[i] != f)
			continue;
		memmove(&o->time[i], &o->time[i + 1],
			(o->ntime - i - 1) * sizeof(o->time[0]));
		o->ntime--;
		return;
	}
}

static void replace_format(struct kd_output_opts *o, enum kd_time_format from,
			   enum kd_time_format to)
{
	size_t i;

	for (i = 0; i < o->ntime; i++) {
		if (o->time[i] == from) {
			o->time[i] = to;
			return;
		}
	}
}

/* Fold the delta into the bracket of @stamp, which becomes @merged. */
static void merge_delta(struct kd_output_opts *o, enum kd_time_format delta,
			enum kd_time_format stamp, enum kd_time_format merged)
{
	remove_format(o, delta);
	replace_format(o, stamp, merged);
}

void kd_timefmt_resolve(struct kd_output_opts *o)
{
	if (kd_timefmt_has(o, KD_TIME_NONE)) {
		bool delta = kd_timefmt_has(o, KD_TIME_RAW_DELTA) ||
			     kd_timefmt_has(o, KD_TIME_DELTA);

		o->ntime = 0;
		kd_timefmt_add(o, delta ? KD_TIME_DELTA : KD_TIME_NONE);
	}
	if (kd_timefmt_has(o, KD_TIME_RAW_DELTA) && kd_timefmt_has(o, KD_TIME_CTIME))
		merge_delta(o, KD_TIME_RAW_DELTA, KD_TIME_CTIME, KD_TIME_CTIME_DELTA);
	if (kd_timefmt_has(o, KD_TIME_DELTA)) {
		if (kd_timefmt_has(o, KD_TIME_RAW))
			merge_delta(o, KD_TIME_DELTA, KD_TIME_RAW, KD_TIME_RAW_DELTA);
		else if (kd_timefmt_has(o, KD_TIME_CTIME))
			merge_delta(o, KD_TIME_DELTA, KD_TIME_CTIME, KD_TIME_CTIME_DELTA);
	}
}

bool kd_timefmt_needs_boot_time(const struct kd_output_opts *o)
{
	return kd_timefmt_has(o, KD_TIME_RELTIME) ||
	       kd_timefmt_has(o, KD_TIME_CTIME) ||
	       kd_timefmt_has(o, KD_TIME_CTIME_DELTA) ||
	       kd_timefmt_has(o, KD_TIME_ISO);
}
