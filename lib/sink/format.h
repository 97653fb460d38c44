/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * format.h - dmesg's text output as a stateless formatter: one record and
 * what came before it (struct kd_prev) in, the line's bytes and its colour
 * spans out.  The text writer (output-text.c) turns spans into escape
 * sequences on a stream; the viewer (src/tui-render.c) draws the same
 * bytes and spans with curses, so a row is the command line's line.
 * Every rule of dmesg's text output (time formats, -x, -r, -p, the caller
 * id, escaping, what dmesg colours) is described at the top of format.c.
 */
#ifndef KDMESG_FORMAT_H
#define KDMESG_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "sink/colors.h"
#include "shared/escape.h"
#include "sink/output.h"
#include "record/record.h"
#include "sink/sink.h"

/* One coloured run of the formatted bytes. */
struct kd_span {
	size_t start;		/* offset into the output buffer's data */
	size_t len;		/* may be 0: dmesg still colours (and resets) it */
	enum kd_color color;
};

/* The spans of one kd_format_text() call; grows, reused across calls. */
struct kd_spans {
	struct kd_span *v;
	size_t n, cap;
	bool failed;		/* a span was dropped for want of memory */
};

/*
 * What the formatter precomputes from the options.  Nothing here depends
 * on the records formatted before (the seconds cache is keyed by its
 * value), so records may be formatted in any order, any number of times.
 */
struct kd_format {
	struct kd_output_opts opts;	/* a copy */
	int caller_width;		/* "[%*s] " width, resolved as dmesg does */

	/* -x prefixes for every facility/level pair, NULL without -x. */
	char (*decode_prefix)[8][24];

	bool tf_none;			/* notime among the time formats */
	bool tf_reltime;		/* reltime among the time formats */
	bool tf_delta;			/* a format that prints the delta */
	/* Only the default stamp, no -x, -r or -p: the common case. */
	bool tf_default;

	/* Caches (results only, keyed by their input). */
	int64_t sec_cache;		/* the default stamp's "%5ld." (-1: none) */
	size_t sec_cache_len;
	char sec_cache_buf[32];
	int64_t tm_cache_sec;		/* reltime: local time of this second */
	bool tm_cache_ok;
	struct tm tm_cache;

	char *scratch;			/* -p line copies; grows, never shrinks */
	size_t scratch_cap;
};

/**
 * kd_format_init() - set @f up for @opts (text mode); @caller_width is the
 * resolved caller-id column width.  Returns 0 or -ENOMEM.
 */
int kd_format_init(struct kd_format *f, const struct kd_output_opts *opts,
		   int caller_width);

/** kd_format_release() - free what kd_format_init() allocated. */
void kd_format_release(struct kd_format *f);

/**
 * kd_format_text() - append @rec's output line(s), newline included, to
 * @out, as dmesg prints it after the records summarised in @prev.
 * @spans: NULL for plain bytes; else the colour spans are appended to it
 *         (offsets into @out->data, so @out must be a memory buffer,
 *         @out->out == NULL, which grows instead of flushing).
 * Returns 0, or -ENOMEM when a memory buffer could not grow.
 */
int kd_format_text(struct kd_format *f, const struct kd_record *rec,
		   const struct kd_prev *prev, struct kd_escape_buf *out,
		   struct kd_spans *spans);

/**
 * kd_format_text_default() - kd_format_text() without spans for a
 * formatter with tf_default set (no previous record needed): the short
 * path of the common case.
 */
void kd_format_text_default(struct kd_format *f, const struct kd_record *rec,
			    struct kd_escape_buf *out);

/** kd_spans_release() - free @s's array. */
void kd_spans_release(struct kd_spans *s);

/**
 * kd_format_split_usec() - @usec since boot as dmesg's seconds and
 * microseconds: the microseconds always 0..999999, the seconds rounded
 * down.  A -F stamp "[   -1.500000]" is read as -500000 µs and comes
 * back as -1 and 500000, as dmesg prints it ("0.-500000" otherwise).
 */
static inline void kd_format_split_usec(int64_t usec, int64_t *sec, int64_t *frac)
{
	*sec = usec / 1000000;
	*frac = usec % 1000000;
	if (*frac < 0) {
		*sec -= 1;
		*frac += 1000000;
	}
}

/* Room kd_format_sec_usec() needs, NUL included. */
#define KD_FORMAT_STAMP_MAX	64

/**
 * kd_format_sec_usec() - "%5lld.%06lld" of @sec and @usec into @buf
 * (KD_FORMAT_STAMP_MAX bytes), without printf: the stamp of every record
 * of the text and JSON outputs.  Returns its length.
 */
size_t kd_format_sec_usec(char *buf, int64_t sec, int64_t usec);

#endif /* KDMESG_FORMAT_H */
