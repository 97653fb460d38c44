/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * format-internal.h - what the pieces of dmesg's text formatter share:
 * one call's state (struct run) and the stamp it prints, between the line
 * writer (format.c), the time formats (format-time.c) and the columns
 * before the text (format-columns.c).  Not for use outside
 * lib/sink/format*.c.
 */
#ifndef KDMESG_FORMAT_INTERNAL_H
#define KDMESG_FORMAT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/record.h"
#include "shared/escape.h"
#include "sink/format.h"
#include "sink/sink.h"

/* dmesg's per-format buffer size; its snprintf() truncates there. */
#define TS_MAX		KD_FORMAT_STAMP_MAX
/* dmesg's caller-id buffer: PID_CHARS_MAX + 3 bytes with the NUL. */
#define CID_MAX		23

struct stamp {
	int64_t sec, usec;	/* the record's stamp, 0.000000 if absent */
	double delta;
};

/*
 * One kd_format_text() call: the formatter, where the bytes go, and what
 * came before.  Passed down instead of being kept in struct kd_format, so
 * that nothing of one record stays behind for the next.
 */
struct run {
	int64_t boot_usec;		/* dates this record (record/host.h) */
	struct kd_format *f;
	struct kd_escape_buf *line;
	struct kd_spans *spans;		/* NULL: no colours */
	const struct kd_prev *prev;
};

/* format-time.c */

/** kd_format_ctime() - the stamp as ctime's "%a %b %e %H:%M:%S %Y" into @buf. */
void kd_format_ctime(const struct run *w, const struct stamp *st,
		     char *buf, size_t size);

/** kd_format_iso() - the stamp as "YYYY-MM-DDTHH:MM:SS,uuuuuu+HH:MM " into @buf. */
int kd_format_iso(const struct run *w, const struct stamp *st,
		  char *buf, size_t size);

/**
 * kd_format_reltime() - -e's stamp into @buf (TS_MAX bytes): the minute
 * when it changed since the record shown before (*@timebreak set), else
 * the delta; returns what snprintf would.
 */
int kd_format_reltime(struct run *w, const struct stamp *st,
		      char *buf, bool *timebreak);

/** kd_format_has_time() - whether @f prints time format @t (none given: raw). */
bool kd_format_has_time(const struct kd_format *f, enum kd_time_format t);

/* format-columns.c */

/** kd_format_put_host() - the host column and a space; the bytes it added. */
int kd_format_put_host(const struct kd_format *f, struct kd_escape_buf *line,
		       const struct kd_record *rec);

/** kd_format_put_location() - --location's "file:line function() ". */
void kd_format_put_location(const struct kd_format *f, struct kd_escape_buf *line,
			    const struct kd_record *rec);

#endif /* KDMESG_FORMAT_INTERNAL_H */
