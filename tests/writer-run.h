/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * writer-run.h - drive a lib/output writer into memory for the writer unit
 * tests, so each test states only its options, records and expected bytes.
 */
#ifndef KDMESG_WRITER_RUN_H
#define KDMESG_WRITER_RUN_H

#include <stddef.h>

#include "sink/output.h"
#include "sink/sink.h"
#include "record/record.h"

/**
 * writer_show() - hand @rec to @w as lib/pipeline.c hands a shown record
 * to its sink: kd_writer_sink_write() with @prev, which then moves by
 * sink.h's rules.  A record the filter rejected: kd_prev_rejected(@prev).
 */
static inline int writer_show(struct kd_writer *w, struct kd_prev *prev,
			      const struct kd_record *rec)
{
	int rc = kd_writer_sink_write(w, rec, prev);

	kd_prev_shown(prev, rec);
	return rc;
}

/**
 * writer_run() - format @n records with a fresh writer made from @opts,
 * finish it, and hand back the bytes (*@buf, to be freed by the caller).
 * Returns the first error of the writer, or 0.
 */
int writer_run(const struct kd_output_opts *opts, const struct kd_record *recs,
	       size_t n, char **buf, size_t *len);

/** writer_check() - one TAP check: writer_run() gives exactly @want. */
void writer_check(const struct kd_output_opts *opts, const struct kd_record *recs,
		  size_t n, const void *want, size_t want_len, const char *name);

/** writer_check_full_disk() - one TAP check: @mode reports -EIO on /dev/full. */
void writer_check_full_disk(enum kd_output_mode mode);

/** record_add() - add a dictionary entry, reporting a failure as a diagnostic. */
void record_add(struct kd_record *r, const char *key, const char *value, size_t len);

#endif /* KDMESG_WRITER_RUN_H */
