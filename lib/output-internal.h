/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output-internal.h - what the writers share behind lib/output.h: the
 * writer object and the per-format entry points that output.c dispatches
 * to.  Only lib/output*.c include this file (and unit tests that need to
 * drive one format directly).
 */
#ifndef KDMESG_OUTPUT_INTERNAL_H
#define KDMESG_OUTPUT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "escape.h"
#include "json.h"
#include "output.h"
#include "priority.h"
#include "record.h"

struct kd_colors;

struct kd_writer {
	struct kd_output_opts opts;	/* a copy: callers may free theirs */
	FILE *out;

	/*
	 * dmesg's delta state: the stamp of the previous record in the
	 * buffer (shown or filtered out).  dmesg treats a zero stamp as
	 * "no previous record", so a record after one stamped 0.000000
	 * also gets a zero delta; prev_usec == 0 reproduces that.
	 */
	int64_t prev_usec;

	/*
	 * reltime state: the local time of the last shown record.  It
	 * starts zeroed, as in dmesg, so the first record breaks unless it
	 * falls in the first minute of a year.
	 */
	struct tm last_tm;

	int caller_width;		/* "[%*s] " width for caller ids */

	struct kd_json json;		/* -J: opened on the first record */

	struct kd_colors *colors;	/* NULL unless opts.color */

	/*
	 * -x prefixes for every facility/level pair, built once: snprintf()
	 * per record would cost more than the rest of the line.
	 */
	char (*decode_prefix)[8][24];	/* [facility][level], NULL without -x */

	bool tf_none;			/* notime among the time formats */
	bool tf_reltime;		/* reltime among the time formats */
	bool tf_delta;			/* a format that prints the delta */
	/*
	 * Only the default stamp, no -x, -r or -p: the common case, which
	 * has a short path of its own (colours are checked per record).
	 */
	bool tf_default;
	/*
	 * tf_default, no colours, no follow: kd_writer_write() goes straight
	 * to kd_output_text_write_default(), whose frame is small (the
	 * general writer's buffers cost more than the default line).
	 */
	bool text_fast;
	/* The default stamp's "%5ld." for sec_cache (-1: none yet). */
	int64_t sec_cache;
	size_t sec_cache_len;
	char sec_cache_buf[32];

	/*
	 * The text writer assembles each record's output here and hands it
	 * to stdio in one fwrite(): a call per piece (prefix, stamp, caller
	 * id, text runs, newline) cost more than formatting them.  Empty
	 * between records, so other writes to @out keep their order, unless
	 * opts.batch says there are none.
	 */
	struct kd_escape_buf line;

	char *scratch;			/* -p line copies; grows, never shrinks */
	size_t scratch_cap;
};

/**
 * kd_output_text_write() - print @rec as dmesg's text output (every time
 * format, -x, -r, -p, colours, escaping).  Returns 0 or -EIO.
 */
int kd_output_text_write(struct kd_writer *w, const struct kd_record *rec);

/**
 * kd_output_text_write_default() - kd_output_text_write() for a writer
 * with text_fast set.  Returns 0 or -EIO.
 */
int kd_output_text_write_default(struct kd_writer *w, const struct kd_record *rec);

/**
 * kd_output_text_flush() - write what opts.batch kept in the line buffer
 * to the stream (kd_writer_finish() calls it).
 */
void kd_output_text_flush(struct kd_writer *w);

/**
 * kd_output_text_prepare() - precompute what the text writer needs for
 * every record.  Returns 0 or -ENOMEM.
 */
int kd_output_text_prepare(struct kd_writer *w);

/** kd_output_json_write() - one object of dmesg -J. Returns 0 or -EIO. */
int kd_output_json_write(struct kd_writer *w, const struct kd_record *rec);

/** kd_output_json_finish() - close dmesg -J's array and root object. */
int kd_output_json_finish(struct kd_writer *w);

/*
 * The formats beyond dmesg (lib/output-jsonl.c, lib/output-export.c).
 * They need nothing from the writer but the stream and the boot time, so
 * they take those directly and stay testable without a writer.
 */

/**
 * kd_output_jsonl_record() - write @rec to @out as one compact JSON line.
 * Returns 0 or -EIO.
 */
int kd_output_jsonl_record(FILE *out, const struct kd_record *rec);

/**
 * kd_output_export_record() - write @rec to @out as one journal export
 * entry; @boot_usec is the boot time in µs since the epoch.
 * Returns 0 or -EIO.
 */
int kd_output_export_record(FILE *out, const struct kd_record *rec,
			    int64_t boot_usec);

#endif /* KDMESG_OUTPUT_INTERNAL_H */
