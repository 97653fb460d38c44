// SPDX-License-Identifier: GPL-2.0-or-later
/* lost.c - the once-a-second rule for lost-record reports; see lost.h. */
#include "shared/lost.h"

static uint64_t take(struct kd_lost *l, bool force)
{
	struct timespec now;
	uint64_t n = l->pending;

	if (!n)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!force && l->lines &&
	    (now.tv_sec - l->last.tv_sec) * 1000000000L +
	    (now.tv_nsec - l->last.tv_nsec) < 1000000000L)
		return 0;
	l->pending = 0;
	l->lines++;
	l->last = now;
	return n;
}

uint64_t kd_lost_add(struct kd_lost *l, uint64_t n)
{
	l->pending += n;
	l->total += n;
	return take(l, false);
}

uint64_t kd_lost_finish(struct kd_lost *l, uint64_t *total)
{
	uint64_t n = take(l, true);

	*total = l->lines > 1 ? l->total : 0;
	return n;
}
