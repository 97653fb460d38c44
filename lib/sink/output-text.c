// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * output-text.c - the text writer: the stateless formatter (format.c)
 * into the writer's line buffer, and for colours its spans turned into
 * the escape sequences dmesg writes (the scheme's sequence before each
 * span, ESC[0m after it).  The line buffer reaches the stream once per
 * record, or in 64 KiB blocks with opts.batch (output.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record/field.h"
#include "sink/colors.h"
#include "sink/format.h"
#include "sink/output-internal.h"
#include "sink/sink.h"

#define CLINE_CAP	(64 * 1024)

static int text_prepare(struct kd_writer *w)
{
	int rc = kd_format_init(&w->fmt, &w->opts, w->caller_width);

	if (rc < 0)
		return rc;
	if (w->opts.color) {
		/* Colours: the formatter writes here first, with spans. */
		w->cline.cap = CLINE_CAP;
		w->cline.data = malloc(w->cline.cap);
		if (!w->cline.data)
			return -ENOMEM;
		rc = kd_colors_new(&w->colors, "dmesg");
		if (rc < 0)
			return rc;
	}
	w->text_fast = w->fmt.tf_default && !w->colors && !w->opts.follow;
	return 0;
}

static void text_release(struct kd_writer *w)
{
	kd_colors_free(w->colors);
	kd_format_release(&w->fmt);
	kd_spans_release(&w->spans);
	free(w->cline.data);
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

	if (!w->colors)
		return kd_format_text(&w->fmt, rec, prev, &w->line, NULL);
	w->cline.len = 0;
	w->spans.n = 0;
	rc = kd_format_text(&w->fmt, rec, prev, &w->cline, &w->spans);
	if (rc == 0)
		emit_spans(w);
	return rc;
}

/* Text reads the dictionary only for --location. */
static unsigned int text_needs(const struct kd_output_opts *opts)
{
	return opts->location ? KD_NEED_DICT : 0;
}

static const char *const *text_keys(const struct kd_output_opts *opts)
{
	static const char *const location[] = {
		KD_KEY_CODE_FILE, KD_KEY_CODE_LINE, KD_KEY_CODE_FUNC, NULL
	};

	return opts->location ? location : NULL;
}

const struct kd_writer_ops kd_writer_text = {
	.name = "text",
	.flags = KD_OUTPUT_TEXT_OPTIONS,
	.needs = text_needs,
	.keys = text_keys,
	.prepare = text_prepare,
	.write = kd_output_text_write,
	.release = text_release,
};
