// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * output-text.c - the text writer: the stateless formatter (format.c)
 * into the writer's line buffer, and for colours its spans turned into
 * the escape sequences dmesg writes (the scheme's sequence before each
 * span, ESC[0m after it).  The line buffer reaches the stream once per
 * record, or in 64 KiB blocks with opts.batch.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sink/colors.h"
#include "sink/format.h"
#include "sink/output-internal.h"

/* Size of the writer's line buffer: any usual record fits; opts.batch
 * fills it with many records before one fwrite(). */
#define LINE_CAP	(64 * 1024)

void kd_output_text_flush(struct kd_writer *w)
{
	if (w->line.data)
		kd_escape_buf_flush(&w->line);
}

int kd_output_text_prepare(struct kd_writer *w)
{
	int rc = kd_format_init(&w->fmt, &w->opts, w->caller_width);

	if (rc < 0)
		return rc;
	w->line.cap = LINE_CAP;
	w->line.data = malloc(w->line.cap);
	w->line.out = w->out;
	if (!w->line.data)
		return -ENOMEM;
	if (!w->opts.color)
		return 0;
	/* Colours: the formatter writes here first, with spans. */
	w->cline.cap = LINE_CAP;
	w->cline.data = malloc(w->cline.cap);
	return w->cline.data ? 0 : -ENOMEM;
}

void kd_output_text_release(struct kd_writer *w)
{
	kd_format_release(&w->fmt);
	kd_spans_release(&w->spans);
	free(w->line.data);
	free(w->cline.data);
}

int kd_output_text_write_default(struct kd_writer *w, const struct kd_record *rec)
{
	kd_format_text_default(&w->fmt, rec, &w->line);
	return kd_output_text_end(w);
}

/* The formatted bytes with each span wrapped in its escape sequences. */
static void emit_spans(struct kd_writer *w)
{
	const char *p = w->cline.data;
	size_t at = 0, i;

	for (i = 0; i < w->spans.n; i++) {
		const struct kd_span *s = &w->spans.v[i];
		const char *seq = kd_colors_seq(w->colors, s->color);

		kd_escape_buf_put(&w->line, p + at, s->start - at);
		kd_escape_buf_put(&w->line, seq, strlen(seq));
		kd_escape_buf_put(&w->line, p + s->start, s->len);
		kd_escape_buf_put(&w->line, KD_COLOR_RESET, sizeof(KD_COLOR_RESET) - 1);
		at = s->start + s->len;
	}
	kd_escape_buf_put(&w->line, p + at, w->cline.len - at);
}

int kd_output_text_write(struct kd_writer *w, const struct kd_record *rec,
			 const struct kd_prev *prev)
{
	int rc;

	if (!w->colors) {
		rc = kd_format_text(&w->fmt, rec, prev, &w->line, NULL);
	} else {
		w->cline.len = 0;
		w->spans.n = 0;
		rc = kd_format_text(&w->fmt, rec, prev, &w->cline, &w->spans);
		if (rc == 0)
			emit_spans(w);
	}
	if (rc < 0)
		return rc;
	return kd_output_text_end(w);
}
