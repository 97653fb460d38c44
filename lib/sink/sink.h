/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sink.h - what a sink is told besides the record, kept apart from
 * pipeline.h so that the writers, the formatter and --stats do not
 * depend on the pipeline that drives them.
 */
#ifndef KDMESG_SINK_H
#define KDMESG_SINK_H

#include <stdint.h>

#include "record/record.h"

/* What a stage or sink needs from the reader. */
enum kd_need {
	KD_NEED_DICT		= 1 << 0,	/* reads the dictionary */
	KD_NEED_OWN_TEXT	= 1 << 1,	/* keeps records past the next read */
};

/*
 * What sinks are told about the records before this one, as dmesg keeps
 * it: the delta reference is the stamp of the previous record read,
 * shown or rejected by the filter (a shown record with empty text does
 * not move it: dmesg prints a bare newline for it and returns early);
 * reltime's minute breaks follow the last record shown with text.
 */
struct kd_prev {
	int64_t usec;		/* delta reference, µs; 0 for none (dmesg: a zero stamp is "none") */
	int64_t shown_usec;	/* stamp of the last record shown with text, KD_NO_TIME for none */
};

/* The rules, in one place: the pipeline (and the writer tests) follow them. */

/** kd_prev_init() - nothing came before. */
static inline void kd_prev_init(struct kd_prev *p)
{
	p->usec = 0;
	p->shown_usec = KD_NO_TIME;
}

/** kd_prev_rejected() - dmesg: a rejected record still becomes the delta reference. */
static inline void kd_prev_rejected(struct kd_prev *p, const struct kd_record *rec)
{
	p->usec = rec->ts_usec == KD_NO_TIME ? 0 : rec->ts_usec;
}

/**
 * kd_prev_shown() - after @rec was shown: dmesg prints a bare newline for
 * empty text, and moves nothing.
 */
static inline void kd_prev_shown(struct kd_prev *p, const struct kd_record *rec)
{
	if (rec->text_len) {
		p->usec = rec->ts_usec == KD_NO_TIME ? 0 : rec->ts_usec;
		p->shown_usec = p->usec;
	}
}

#endif /* KDMESG_SINK_H */
