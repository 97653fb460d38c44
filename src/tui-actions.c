// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tui-actions.c - what the viewer does, without curses: reading records
 * into the store as they come, and what each key does to the model
 * (lib/view/view.c), the filters, the prompts and the detail pane.  tui.c
 * draws the result.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#include "record/field.h"
#include "nls.h"
#include "stage/translate.h"
#include "view/view-keys.h"
#include "tui-internal.h"

/* Records read per loop turn: a bounded step, the screen stays live. */
#define INTAKE_STEP	5000

/* Time formats the t key cycles through. */
static const enum kd_time_format time_cycle[] = {
	KD_TIME_RAW, KD_TIME_CTIME, KD_TIME_ISO, KD_TIME_RAW_DELTA,
	KD_TIME_RELTIME, KD_TIME_NONE,
};
#define NTIMES (sizeof(time_cycle) / sizeof(time_cycle[0]))

void tui_time_init(struct tui *t)
{
	for (size_t i = 0; i < NTIMES; i++)
		if (t->c->out.ntime && time_cycle[i] == t->c->out.time[0])
			t->time_idx = i;
}

void tui_set_msg(struct tui *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof(t->msg), fmt, ap);
	va_end(ap);
}


/* The record and what the pipeline says came before it (dmesg's delta rule). */
static int to_store(void *data, const struct kd_record *rec, const struct kd_prev *prev)
{
	struct tui *t = data;
	int rc = kd_store_append(t->st, rec);

	return rc < 0 ? rc : tui_keep_prev(t, prev);
}

/* A followed file truncated or replaced: said on the status line, as -w says it on stderr. */
static void on_file_changed(void *data, bool replaced)
{
	struct tui *t = data;

	if (replaced)
		tui_set_msg(t, _("%s: file replaced; following the new file from its start"), t->source);
	else
		tui_set_msg(t, _("%s: file truncated; reading it again from its start"), t->source);
}

/* Read what is there, a bounded amount.  True when more is waiting. */
bool tui_intake(struct tui *t)
{
	/* Lost records: the pipeline counts them (kd_pipeline_lost_reported()). */
	struct kd_pipeline_hooks hooks = {
		.file_changed = on_file_changed,
		.data = t,
	};
	int rc;

	if (t->paused || t->at_end)
		return false;
	rc = kd_pipeline_step(t->p, &hooks, INTAKE_STEP);
	if (rc == 1)
		return true;
	if (rc == 0) {
		t->at_end = true;
	} else if (rc != -EAGAIN) {
		t->at_end = true;
		tui_set_msg(t, _("reading stopped: %s"), strerror(-rc));
	}
	return false;
}


void tui_open_intake(struct tui *t)
{
	struct ctl *c = t->c;
	/* The store copies each record before the next is read: text may be lent. */
	struct kd_sink sink = { .needs = KD_NEED_DICT, .write = to_store, .data = t };
	struct stat sb;
	int rc;

	const struct kd_source_type *type = kd_source_type_find(c->kind);

	/* The viewer follows whatever it reads: the device, a file, a pipe. */
	if (type && (type->caps & KD_SOURCE_CAN_FOLLOW))
		c->src_flags |= KD_SOURCE_FOLLOW;
	else if (type && (type->caps & KD_SOURCE_CAN_FOLLOW_FILE))
		c->src_flags |= KD_SOURCE_FOLLOW_FILE;
	c->src_flags &= ~KD_SOURCE_CLEAR;
	rc = kd_pipeline_new(&t->p);
	if (rc < 0) {
		errno = -rc;
		err(EXIT_FAILURE, _("cannot set up the output"));
	}
	kd_pipeline_need(t->p, sink.needs);
	kdmesg_sites_setup(c, t->p);
	kdmesg_recover_setup(c, t->p);
	kdmesg_translate_setup(c, t->p);
	t->translate = kdmesg_translate_active();
	kd_view_set_text_key(t->v, t->translate ? KD_TRANSLATE_KEY : NULL);
	kdmesg_open_source(c, t->p);
	/*
	 * The command line's filter hides records in the view, not at
	 * reading: the filter panel can switch it off and bring them back.
	 */
	kd_pipeline_set_filter(t->p, NULL);
	if (!kd_filter_is_empty(&c->filter)) {
		struct kd_vfilter *f = kd_view_filter(t->v);

		f->base = &c->filter;
		f->base_desc = c->filter_desc;
		f->base_enabled = true;
		kd_view_refilter(t->v);
	}
	if (kd_pipeline_add_sink(t->p, &sink) < 0)
		errx(EXIT_FAILURE, _("cannot set up the output"));
	t->source = c->path ? c->path : kd_source_type_find(c->kind)->summary;
	t->src_fd = kd_pipeline_fd(t->p);
	if (t->src_fd >= 0 && (c->caps & KD_SOURCE_CAN_FOLLOW)) {
		int fl = fcntl(t->src_fd, F_GETFL);

		/* The device was opened blocking for follow; the loop polls it. */
		if (fl >= 0)
			fcntl(t->src_fd, F_SETFL, fl | O_NONBLOCK);
	}
	/* A regular file is always "readable": it is read again on a timer. */
	t->src_poll = t->src_fd >= 0 && fstat(t->src_fd, &sb) == 0 && !S_ISREG(sb.st_mode);
}


/* --- actions ---------------------------------------------------------- */

int tui_setup_format(struct tui *t)
{
	t->opts.ntime = 1;
	t->opts.time[0] = time_cycle[t->time_idx];
	/* The command line's --location, rendered by the same formatter. */
	t->opts.location = t->location;
	kd_format_release(&t->fmt);
	return kd_format_init(&t->fmt, &t->opts, kd_output_caller_width(&t->opts));
}

static void refilter(struct tui *t)
{
	kd_view_refilter(t->v);
}

/* Show one level more (@dir > 0) or fewer. */
static void change_level(struct tui *t, int dir)
{
	struct kd_vfilter *f = kd_view_filter(t->v);

	if ((dir > 0 && f->max_level == 7) || (dir < 0 && f->max_level == 0))
		return;
	f->max_level += dir > 0 ? 1 : -1;
	refilter(t);
}

static void kmod_log(void *data, int level, const char *msg)
{
	(void)level;
	/* Not on stderr: the screen is curses'.  The last one is shown. */
	tui_set_msg(data, "libkmod: %s", msg);
}

/* libkmod's facts about @name for the detail pane, set up on first use. */
static void module_facts(struct tui *t, const char *name, struct kd_detail_ctx *ctx)
{
	int rc;

	if (!t->kmod_tried) {
		t->kmod_tried = true;
		kdmesg_modinfo_log_to(kmod_log, t);
		rc = kdmesg_modinfo_open(&t->kmod);
		if (rc == -ENOSYS)
			snprintf(t->kmod_note, sizeof(t->kmod_note), "%s",
				 _("none: kdmesg was built without libkmod"));
		else if (rc < 0)
			snprintf(t->kmod_note, sizeof(t->kmod_note),
				 _("none: libkmod cannot read the modules of this kernel (%s)"),
				 strerror(-rc));
	}
	ctx->module = t->kmod ? kd_modinfo_get(t->kmod, name) : NULL;
	ctx->module_note = t->kmod ? _("unknown to libkmod") : t->kmod_note;
}

static void open_details(struct tui *t)
{
	const struct kd_dict_entry *module;
	size_t idx = kd_view_selected(t->v);
	struct kd_detail_ctx ctx = {
		.prev_usec = KD_NO_TIME,
		.boot_usec = t->opts.boot_usec,
	};

	if (idx == KD_VIEW_NONE)
		return;
	/* The delta the list shows (the pipeline's reference), as dmesg -d. */
	if (tui_prev_of(t, idx).usec)
		ctx.prev_usec = tui_prev_of(t, idx).usec;
	if (kd_store_get(t->st, idx, &t->rec) < 0) {
		tui_set_msg(t, "%s", strerror(ENOMEM));
		return;
	}
	module = kd_record_dict_get(&t->rec, KD_KEY_MODULE);
	if (module) {
		module_facts(t, module->value, &ctx);
	}
	if (kd_detail_build(&t->detail, &t->rec, &ctx) < 0) {
		tui_set_msg(t, "%s", strerror(ENOMEM));
		return;
	}
	t->mode = M_DETAIL;
	t->mode_top = 0;
}

/*
 * A field filter's prompt starts with the selected record's value (its
 * file, function, module or subsystem), to take as it is or shorten
 * (Backspace: "drivers/net/e1000/" for the directory).
 */
static void prefill(struct tui *t, enum kd_vfilter_kind kind)
{
	static const char *const keys[KD_VF__COUNT] = {
		[KD_VF_FILE] = "CODE_FILE", [KD_VF_FUNC] = "CODE_FUNC",
		[KD_VF_MODULE] = "MODULE", [KD_VF_SUBSYSTEM] = "SUBSYSTEM",
	};
	size_t idx = kd_view_selected(t->v);
	const struct kd_dict_entry *e;

	if (!keys[kind] || idx == KD_VIEW_NONE || kd_store_get(t->st, idx, &t->rec) < 0 ||
	    !(e = kd_record_dict_get(&t->rec, keys[kind])))
		return;
	/* Only what the prompt can show and edit: printable text that fits. */
	if (e->value_len >= sizeof(t->pbuf))
		return;
	for (size_t i = 0; i < e->value_len; i++)
		if ((unsigned char)e->value[i] < 0x20 || e->value[i] == 0x7f)
			return;
	memcpy(t->pbuf, e->value, e->value_len);
	t->plen = e->value_len;
}

static void start_prompt(struct tui *t, enum prompt p, enum kd_vfilter_kind kind)
{
	const void *re = kd_view_search_regex(t->v);

	t->prompt = p;
	t->pkind = kind;
	t->plen = 0;
	if (p == P_SEARCH && !re)
		t->saved[0] = '\0';
	if (p == P_FILTER)
		prefill(t, kind);
}

/* The prompt's text changed: a search highlights as it is typed. */
static void prompt_changed(struct tui *t)
{
	t->pbuf[t->plen] = '\0';
	if (t->prompt == P_SEARCH && kd_view_search_set(t->v, t->pbuf) < 0)
		tui_set_msg(t, "%s", _("incomplete regular expression"));
	else
		t->msg[0] = '\0';
}

static void finish_prompt(struct tui *t, bool accept)
{
	int rc;

	t->pbuf[t->plen] = '\0';
	if (t->prompt == P_SEARCH) {
		if (!accept) {
			kd_view_search_set(t->v, t->saved);
		} else if (kd_view_search_set(t->v, t->pbuf) < 0) {
			tui_set_msg(t, _("not a valid regular expression: %s"), t->pbuf);
			kd_view_search_set(t->v, t->saved);
		} else {
			snprintf(t->saved, sizeof(t->saved), "%s", t->pbuf);
			kd_view_search(t->v, 1, true);
		}
	} else if (accept && t->plen) {
		rc = kd_vfilter_add(kd_view_filter(t->v), t->pkind, t->pbuf);
		if (rc == -EINVAL)
			tui_set_msg(t, _("not a valid regular expression: %s"), t->pbuf);
		else if (rc == -ENOSPC)
			tui_set_msg(t, "%s", _("too many filters (remove one in the filter panel)"));
		else if (rc == 0)
			refilter(t);
	}
	t->prompt = P_NONE;
}

void tui_prompt_key(struct tui *t, int key)
{
	char mb[MB_LEN_MAX];
	mbstate_t ms;
	size_t n;

	if (key == KD_KEY_ENTER || key == KD_KEY_ESC) {
		finish_prompt(t, key == KD_KEY_ENTER);
		return;
	}
	if (key == 'U' - 64) {
		/* Ctrl-U, as in a shell: start the (pre-filled) text over. */
		t->plen = 0;
		prompt_changed(t);
		return;
	}
	if (key == KD_KEY_BACKSPACE) {
		/* Drop the last character, however many bytes it took. */
		size_t i = 0, last = 0;

		memset(&ms, 0, sizeof(ms));
		while (i < t->plen) {
			n = mbrlen(t->pbuf + i, t->plen - i, &ms);
			if (n == 0 || n > t->plen - i)
				n = 1;
			last = i;
			i += n;
		}
		t->plen = last;
		prompt_changed(t);
		return;
	}
	if (key >= KD_KEY_UP || !iswprint((wint_t)key))
		return;
	memset(&ms, 0, sizeof(ms));
	n = wcrtomb(mb, (wchar_t)key, &ms);
	if (n == (size_t)-1 || t->plen + n >= sizeof(t->pbuf))
		return;
	memcpy(t->pbuf + t->plen, mb, n);
	t->plen += n;
	prompt_changed(t);
}

static void jump(struct tui *t, int level, int dir)
{
	if (kd_view_jump_level(t->v, level, dir) < 0)
		tui_set_msg(t, "%s", level <= 3 ? _("no further error") : _("no further warning"));
}

/* Keys of the filter, detail and help screens. */
void tui_screen_key(struct tui *t, int key)
{
	struct kd_vfilter *f = kd_view_filter(t->v);
	/* Rows: levels, records, the command line's filter (if any), the patterns. */
	size_t first = f->base ? 3 : 2;
	size_t n = t->mode == M_FILTERS ? first + f->n : 0;

	if (key == KD_KEY_F10) {
		t->quit = true;
		return;
	}
	if (key == KD_KEY_ESC || key == 'q' || (key == KD_KEY_ENTER && t->mode == M_DETAIL) ||
	    (key == 'f' && t->mode == M_FILTERS) ||
	    ((key == '?' || key == KD_KEY_F1) && t->mode == M_HELP)) {
		t->mode = M_LIST;
		return;
	}
	if (key == KD_KEY_WHEEL_UP)
		key = KD_KEY_UP;
	if (key == KD_KEY_WHEEL_DOWN)
		key = KD_KEY_DOWN;
	if (key == KD_KEY_UP || key == 'k') {
		if (t->mode == M_FILTERS && t->mode_sel > 0)
			t->mode_sel--;
		else if (t->mode != M_FILTERS && t->mode_top > 0)
			t->mode_top--;
	} else if (key == KD_KEY_DOWN || key == 'j') {
		if (t->mode == M_FILTERS && t->mode_sel + 1 < n)
			t->mode_sel++;
		else if (t->mode != M_FILTERS)
			t->mode_top++;
	} else if (t->mode != M_FILTERS) {
		return;
	} else if (key == '-' || key == '+') {
		change_level(t, key == '+' ? 1 : -1);
	} else if (key == ' ' && t->mode_sel == 0) {
		f->max_level = f->max_level == 7 ? 4 : f->max_level == 4 ? 3 : 7;
		refilter(t);
	} else if (key == ' ' && t->mode_sel == 1) {
		f->facility = (f->facility + 1) % 3;
		refilter(t);
	} else if (key == ' ' && f->base && t->mode_sel == 2) {
		f->base_enabled = !f->base_enabled;
		refilter(t);
	} else if (key == 'd' && f->base && t->mode_sel == 2) {
		/* Gone for this run: the records it hid are shown. */
		f->base = NULL;
		if (t->mode_sel >= 2 + f->n && t->mode_sel > 0)
			t->mode_sel--;
		refilter(t);
	} else if (key == ' ' && t->mode_sel >= first) {
		f->items[t->mode_sel - first].enabled = !f->items[t->mode_sel - first].enabled;
		refilter(t);
	} else if (key == 'd' && t->mode_sel >= first) {
		kd_vfilter_remove(f, t->mode_sel - first);
		if (t->mode_sel >= first + f->n)
			t->mode_sel--;
		refilter(t);
	}
}

void tui_list_key(struct tui *t, int key)
{
	enum kd_action a = kd_key_action(key);

	t->msg[0] = '\0';
	switch (a) {
	case KD_ACT_NONE:
		break;
	case KD_ACT_QUIT:
		t->quit = true;
		break;
	case KD_ACT_UP:
	case KD_ACT_DOWN:
		kd_view_move(t->v, a == KD_ACT_UP ? -1 : 1);
		break;
	case KD_ACT_WHEEL_UP:
	case KD_ACT_WHEEL_DOWN:
		kd_view_move(t->v, a == KD_ACT_WHEEL_UP ? -3 : 3);
		break;
	case KD_ACT_PAGE_UP:
	case KD_ACT_PAGE_DOWN:
		kd_view_page(t->v, a == KD_ACT_PAGE_UP ? -1 : 1);
		break;
	case KD_ACT_HOME:
		kd_view_home(t->v);
		break;
	case KD_ACT_END:
		kd_view_end(t->v);
		break;
	case KD_ACT_LEFT:
		t->hscroll = t->hscroll > 8 ? t->hscroll - 8 : 0;
		break;
	case KD_ACT_RIGHT:
		if (!t->wrap)
			t->hscroll += 8;
		break;
	case KD_ACT_WRAP:
		t->wrap = !t->wrap;
		t->hscroll = 0;
		break;
	case KD_ACT_SEARCH:
		start_prompt(t, P_SEARCH, KD_VF_TEXT_IN);
		break;
	case KD_ACT_SEARCH_NEXT:
	case KD_ACT_SEARCH_PREV:
		if (!kd_view_search_regex(t->v))
			tui_set_msg(t, "%s", _("no search pattern (type / first)"));
		kd_view_search(t->v, a == KD_ACT_SEARCH_NEXT ? 1 : -1, false);
		break;
	case KD_ACT_ERROR_NEXT:
	case KD_ACT_ERROR_PREV:
		jump(t, 3, a == KD_ACT_ERROR_NEXT ? 1 : -1);
		break;
	case KD_ACT_WARNING_NEXT:
	case KD_ACT_WARNING_PREV:
		jump(t, 4, a == KD_ACT_WARNING_NEXT ? 1 : -1);
		break;
	case KD_ACT_PAUSE:
		t->paused = !t->paused;
		break;
	case KD_ACT_DETAILS:
		open_details(t);
		break;
	case KD_ACT_FILTERS:
		t->mode = M_FILTERS;
		t->mode_sel = t->mode_top = 0;
		break;
	case KD_ACT_LEVEL_FEWER:
	case KD_ACT_LEVEL_MORE:
		change_level(t, a == KD_ACT_LEVEL_MORE ? 1 : -1);
		break;
	case KD_ACT_FILTER_TEXT:
	case KD_ACT_FILTER_NOT_TEXT:
	case KD_ACT_FILTER_FILE:
	case KD_ACT_FILTER_FUNC:
	case KD_ACT_FILTER_MODULE:
	case KD_ACT_FILTER_SUBSYSTEM:
		start_prompt(t, P_FILTER, (enum kd_vfilter_kind)(KD_VF_TEXT_IN +
								 (a - KD_ACT_FILTER_TEXT)));
		break;
	case KD_ACT_TIME_FORMAT:
		t->time_idx = (t->time_idx + 1) % NTIMES;
		if (tui_setup_format(t) < 0)
			tui_set_msg(t, "%s", strerror(ENOMEM));
		break;
	case KD_ACT_TRANSLATE:
		if (!kdmesg_translate_active())
			tui_set_msg(t, "%s", _("no kernel message catalogue for this language"));
		else
			t->translate = !t->translate;
		/* Search and text filters follow the text shown. */
		kd_view_set_text_key(t->v, t->translate ? KD_TRANSLATE_KEY : NULL);
		refilter(t);
		break;
	case KD_ACT_LOCATION:
		t->location = !t->location;
		if (tui_setup_format(t) < 0)
			tui_set_msg(t, "%s", strerror(ENOMEM));
		break;
	case KD_ACT_COLOR:
		t->color = !t->color && t->can_color;
		break;
	case KD_ACT_HELP:
		t->mode = M_HELP;
		t->mode_top = 0;
		break;
	case KD_ACT_REDRAW:
		t->redraw = true;
		break;
	}
}

