// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tui-render.c - the viewer's record list, drawn from what the command
 * line prints: each row is lib/sink/format.c's rendering of the record
 * (kd_format_text(): the time formats, the caller id, --location, the
 * escaping) with its colour spans, after the record the pipeline read
 * before it (struct kd_prev, kept per record by the intake), and the
 * translated text the translation stage added.  The colours are dmesg's
 * colour scheme (terminal-colors.d, lib/sink/colors.h) turned into curses
 * attributes.  So `kdmesg --tui` shows the bytes `kdmesg` prints; only the
 * drawing (wrapping, horizontal scroll, search highlights, the
 * selection, the scrollbar) is the viewer's.
 */
#include "config.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "nls.h"
#include "sink/colors.h"
#include "stage/translate.h"
#include "view/view.h"
#include "tui-internal.h"

/* Colour pairs: one per terminal colour, foreground on the default background. */
#define PAIR_OF(fg)	((short)((fg) + 1))

/* Set when tui_put_text() ran out of rows while wrapping. */
static bool text_clipped;

/* Turn an SGR sequence ("\033[1m\033[31m", "\033[1;30m") into curses terms. */
static void sgr_attr(const char *seq, attr_t *attr, short *pair)
{
	*attr = A_NORMAL;
	*pair = 0;
	while ((seq = strstr(seq, "\033["))) {
		const char *p = seq + 2;

		for (;;) {
			char *end;
			long n = strtol(p, &end, 10);

			if (end == p)
				n = 0;
			if (n == 1)
				*attr |= A_BOLD;
			else if (n == 2)
				*attr |= A_DIM;
			else if (n == 4)
				*attr |= A_UNDERLINE;
			else if (n == 5)
				*attr |= A_BLINK;
			else if (n == 7)
				*attr |= A_REVERSE;
			else if (n >= 30 && n <= 37)
				*pair = PAIR_OF(n - 30);
			p = end;
			if (*p != ';')
				break;
			p++;
		}
		seq = p;
	}
}

int tui_render_init(struct tui *t)
{
	struct kd_colors *colors;
	int rc;

	if (t->can_color) {
		for (short c = 0; c < 8; c++)
			init_pair(PAIR_OF(c), c, -1);
	}
	rc = kd_colors_new(&colors, COLORS_UTILNAME);
	if (rc < 0)
		return rc;
	for (int i = 0; i < KD_COLOR__COUNT; i++)
		sgr_attr(kd_colors_seq(colors, (enum kd_color)i), &t->span_attr[i],
			 &t->span_pair[i]);
	kd_colors_free(colors);
	return 0;
}

int tui_keep_prev(struct tui *t, const struct kd_prev *prev)
{
	if (t->nprevs == t->cap_prevs) {
		size_t cap = t->cap_prevs ? 2 * t->cap_prevs : 4096;
		struct kd_prev *v = realloc(t->prevs, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->prevs = v;
		t->cap_prevs = cap;
	}
	t->prevs[t->nprevs++] = *prev;
	return 0;
}

struct kd_prev tui_prev_of(const struct tui *t, size_t idx)
{
	struct kd_prev none = { .usec = 0, .shown_usec = KD_NO_TIME };

	return idx < t->nprevs ? t->prevs[idx] : none;
}

/* The attribute of byte @i: its colour span's, or @p->base. */
static attr_t span_at(const struct tui_paint *p, size_t i, short *pair)
{
	*pair = p->pair;
	if (!p->spans || !p->t->color)
		return p->base;
	for (size_t k = 0; k < p->spans->n; k++) {
		const struct kd_span *s = &p->spans->v[k];

		if (i >= s->start && i < s->start + s->len) {
			*pair = p->t->span_pair[s->color];
			return p->base | p->t->span_attr[s->color];
		}
	}
	return p->base;
}

int tui_put_text(int y, int ymax, int x0, int width, const char *s, size_t len,
		 size_t skip, bool wrap, const struct tui_paint *p)
{
	mbstate_t ms;
	size_t col = 0, i = 0, h = 0;
	int row = y;

	memset(&ms, 0, sizeof(ms));
	while (i < len) {
		wchar_t wc, ws[2] = { 0, 0 };
		size_t n = mbrtowc(&wc, s + i, len - i, &ms);
		int w, x, reps;
		short pair;
		attr_t a = span_at(p, i, &pair);
		cchar_t cc;

		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&ms, 0, sizeof(ms));
			wc = L'?';
			n = 1;
		}
		/* A tab (dmesg keeps them) moves to the next multiple of 8. */
		reps = wc == L'\t' ? 8 - (int)(col % 8) : 1;
		if (wc == L'\t')
			wc = L' ';
		w = wcwidth(wc);
		if (w < 0) {
			wc = L'?';
			w = 1;
		}
		while (h < p->nhl && p->hl[2 * h + 1] <= i)
			h++;
		if (h < p->nhl && p->hl[2 * h] <= i)
			a ^= A_REVERSE;
		i += n;
		ws[0] = wc;
		setcchar(&cc, ws, a, pair, NULL);
		for (; reps > 0; reps--, col += (size_t)w) {
			if (wrap) {
				if ((int)(col % (size_t)(width - x0)) + w > width - x0)
					col += (size_t)(width - x0) - col % (size_t)(width - x0);
				x = x0 + (int)(col % (size_t)(width - x0));
				row = y + (int)(col / (size_t)(width - x0));
				if (row > ymax) {
					text_clipped = true;
					return row - y;
				}
			} else {
				if (col < skip)
					continue;
				x = x0 + (int)(col - skip);
				if (x + w > width)
					return row - y + 1;
			}
			mvadd_wch(row, x, &cc);
		}
	}
	return row - y + 1;
}

/*
 * Store record @idx formatted into t->line and t->spans as the command
 * line prints it; returns the length of its first line (*@more: others
 * follow, shown in the detail pane).
 */
static size_t render_row(struct tui *t, size_t idx, bool *more)
{
	struct kd_prev prev = tui_prev_of(t, idx);
	char *nl;

	t->line.len = 0;
	t->spans.n = 0;
	if (kd_store_get(t->st, idx, &t->rec) < 0)
		return 0;
	if (t->translate) {
		const struct kd_dict_entry *tr = kd_record_dict_get(&t->rec, KD_TRANSLATE_KEY);

		if (tr) {
			kd_record_ref_text(&t->rec, tr->value, tr->value_len);
			t->rec.text_origin = KD_ORIGIN_TRANSLATED;
		}
	}
	kd_format_text(&t->fmt, &t->rec, &prev, &t->line, &t->spans);
	nl = memchr(t->line.data, '\n', t->line.len);
	*more = nl && nl + 1 < t->line.data + t->line.len;
	return nl ? (size_t)(nl - t->line.data) : t->line.len;
}

/* Search matches in the row's bytes, as pairs of offsets. */
static size_t highlights(struct tui *t, size_t len, size_t *hl, size_t max)
{
	const regex_t *re = kd_view_search_regex(t->v);
	size_t n = 0, from = 0, so, eo;

	/* kd_regex_find() wants a NUL after the bytes; the rest is not shown. */
	if (len == t->line.len)
		kd_escape_buf_put(&t->line, "", 1);
	t->line.data[len] = '\0';

	while (re && n < max && kd_regex_find(re, t->line.data, len, from, &so, &eo)) {
		hl[2 * n] = so;
		hl[2 * n + 1] = eo;
		n++;
		from = eo > so ? eo : eo + 1;
	}
	return n;
}

/*
 * The right-hand column is a scrollbar and only that: '|' the records
 * shown, '#' where the selection is among them.
 */
static void draw_scrollbar(struct tui *t, int rows)
{
	uint8_t marks[512];
	size_t n = (size_t)rows < sizeof(marks) ? (size_t)rows : sizeof(marks);
	size_t cell = kd_view_marks(t->v, marks, n);

	for (size_t i = 0; i < n; i++)
		mvaddch((int)i, COLS - 1, i == cell ? '#' | A_REVERSE : '|');
}

/*
 * The list; returns false when, wrapping long lines, the selected record
 * did not fit below the top one (the caller scrolls and draws again).
 */
static bool draw_list_once(struct tui *t, int rows)
{
	size_t idx[512], n, sel = kd_view_selected(t->v), hl[32];
	bool sel_fits = sel == KD_VIEW_NONE;

	n = kd_view_rows(t->v, idx, (size_t)rows < 512 ? (size_t)rows : 512);
	for (int y = 0, i = 0; y < rows && (size_t)i < n; i++) {
		bool more = false;
		size_t len = render_row(t, idx[i], &more);
		struct tui_paint paint = { .t = t, .spans = &t->spans, .hl = hl };

		if (more) {
			/* Later lines of a multi-line message: in the detail pane. */
			t->line.len = len;
			kd_escape_buf_put(&t->line, " ...", 4);
			len += 4;
		}
		if (idx[i] == sel) {
			paint.base = A_REVERSE;
			attrset(A_REVERSE);
			mvhline(y, 0, ' ', COLS - 1);
			attrset(A_NORMAL);
		}
		paint.nhl = highlights(t, len, hl, 16);
		text_clipped = false;
		y += tui_put_text(y, rows - 1, 0, COLS - 1, t->line.data, len, t->hscroll,
				  t->wrap, &paint);
		if (idx[i] == sel)
			sel_fits = !text_clipped || i == 0;
	}
	if (n == 0) {
		size_t pos, shown;
		bool complete;

		kd_view_position(t->v, &pos, &shown, &complete);
		mvaddstr(rows / 2, 2, complete ? _("No records to show.") :
			 _("Filtering..."));
	}
	draw_scrollbar(t, rows);
	return sel_fits;
}

void tui_draw_list(struct tui *t, int rows)
{
	/* The model counts records; wrapped records take more rows. */
	for (int tries = 0; !draw_list_once(t, rows) && tries < rows; tries++) {
		kd_view_scroll(t->v, 1);
		erase();
	}
}
