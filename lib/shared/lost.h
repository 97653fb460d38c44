/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lost.h - how often to say that records were lost (overwritten in the
 * ring buffer before they were read): at most once a second, since a -w
 * run behind a burst hears of an overrun per read (1,774 lines for one
 * burst).  What comes in between waits for a later record or loss a
 * second on, or for the end, which also gives the total when there was
 * more than one line.  The front end prints; this only decides when.
 */
#ifndef KDMESG_LOST_H
#define KDMESG_LOST_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct kd_lost {
	uint64_t pending;	/* lost, not said yet */
	uint64_t total;		/* lost in all */
	unsigned int lines;	/* reports said */
	struct timespec last;	/* when the last one was said */
};

/**
 * kd_lost_add() - @n more records were lost (0: none, just check the
 * clock).  Returns how many to report now, 0 to wait.
 */
uint64_t kd_lost_add(struct kd_lost *l, uint64_t n);

/** kd_lost_pending() - whether a report waits for its turn. */
static inline bool kd_lost_pending(const struct kd_lost *l)
{
	return l->pending != 0;
}

/**
 * kd_lost_finish() - at the end: how many to report still (0: none), and
 * in *@total the total to give after it, or 0 when one line said it all.
 */
uint64_t kd_lost_finish(struct kd_lost *l, uint64_t *total);

#endif /* KDMESG_LOST_H */
