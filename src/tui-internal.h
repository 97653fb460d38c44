/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tui-internal.h - what the viewer's two files share: the state of one
 * viewer run (struct tui), and the actions of tui-actions.c, which never
 * call curses, for tui.c, which alone does.
 */
#ifndef KDMESG_TUI_INTERNAL_H
#define KDMESG_TUI_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>

#include "sink/colors.h"
#include "sink/format.h"
#include "shared/modinfo.h"
#include "pipeline.h"
#include "view/store.h"
#include "view/view.h"
#include "view/view-detail.h"
#include "kdmesg.h"

enum mode { M_LIST, M_DETAIL, M_FILTERS, M_HELP };
enum prompt { P_NONE, P_SEARCH, P_FILTER };

struct tui {
	struct ctl *c;
	struct kd_pipeline *p;
	struct kd_store *st;
	struct kd_view *v;
	const char *source;
	int src_fd;
	bool src_poll;		/* the source's descriptor tells when data comes */
	bool at_end, paused;

	struct kd_output_opts opts;
	struct kd_format fmt;
	size_t time_idx;
	struct kd_escape_buf line;
	struct kd_spans spans;		/* the colours of t->line (tui-render.c) */
	attr_t span_attr[KD_COLOR__COUNT];
	short span_pair[KD_COLOR__COUNT];
	/* What the pipeline passed with each stored record: the delta's reference. */
	struct kd_prev *prevs;
	size_t nprevs, cap_prevs;
	struct kd_record rec, prev;

	enum mode mode;
	size_t mode_sel, mode_top;
	struct kd_detail detail;
	struct kd_modinfo *kmod;
	bool kmod_tried;
	char kmod_note[160];
	bool color, wrap, location;
	bool translate;		/* show MESSAGE_TRANSLATED where a record has it */
	size_t hscroll;

	enum prompt prompt;
	enum kd_vfilter_kind pkind;
	char pbuf[256];
	size_t plen;
	char saved[256];	/* the search pattern before / */
	char msg[256];
	bool quit;		/* q was pressed */
	bool redraw;		/* Ctrl-L: repaint everything */
	bool can_color;		/* the terminal has colours */
};

/* How tui_put_text() paints: a base attribute and pair, search
 * highlights (byte ranges hl[2i]..hl[2i+1], reversed), colour spans. */
struct tui_paint {
	const struct tui *t;
	attr_t base;
	short pair;
	const size_t *hl;
	size_t nhl;
	const struct kd_spans *spans;	/* NULL: none */
};

/**
 * tui_put_text() - draw @len bytes from row @y on, columns [@x0, @width),
 * skipping the first @skip columns (or wrapping onto rows up to @ymax).
 * Returns the rows used (tui-render.c).
 */
int tui_put_text(int y, int ymax, int x0, int width, const char *s, size_t len,
		 size_t skip, bool wrap, const struct tui_paint *p);

/** tui_render_init() - colour pairs and dmesg's colour scheme.  0 or -ENOMEM. */
int tui_render_init(struct tui *t);

/** tui_draw_list() - the record list on @rows rows, with its scrollbar. */
void tui_draw_list(struct tui *t, int rows);

/** tui_keep_prev() - remember what the pipeline passed with the record just stored. */
int tui_keep_prev(struct tui *t, const struct kd_prev *prev);

/** tui_prev_of() - what came before store record @idx (struct kd_prev). */
struct kd_prev tui_prev_of(const struct tui *t, size_t idx);

/** tui_set_msg() - the one-line message of the status line. */
void tui_set_msg(struct tui *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** tui_open_intake() - open what t->c names, to be followed; exits on errors. */
void tui_open_intake(struct tui *t);

/** tui_intake() - read what arrived, a bounded amount.  True when more waits. */
bool tui_intake(struct tui *t);

/** tui_time_init() - start with the command line's time format. */
void tui_time_init(struct tui *t);

/** tui_setup_format() - (re)build the formatter for the time format.  0 or -ENOMEM. */
int tui_setup_format(struct tui *t);

/** tui_list_key() - a key (lib/view/view-keys.h code) in the record list. */
void tui_list_key(struct tui *t, int key);

/** tui_screen_key() - a key in the detail, filter or help screen. */
void tui_screen_key(struct tui *t, int key);

/** tui_prompt_key() - a key while the search or filter prompt is open. */
void tui_prompt_key(struct tui *t, int key);

#endif /* KDMESG_TUI_INTERNAL_H */
