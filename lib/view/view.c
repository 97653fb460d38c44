// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * view.c - the viewer's curses-free model (see view.h).
 *
 * The filtered list lives in one array of store indices, @slots, grown
 * from the middle: re-filtering starts at the selected record's store
 * index A and writes the matches below A downwards from slot A and the
 * matches from A on upwards, so the list is always slots[base, end), in
 * store order, and a slot never moves while one filtering lasts.  The
 * selection and the top of the screen are slot numbers.  There are never
 * more matches below A than A, nor above than the records above, so the
 * array needs one slot per stored record.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "view/view.h"

/* Records the cheap filters (none, or the level alone) check per unit of budget. */
#define CHEAP_PER_UNIT	64

enum search_state { S_IDLE, S_RUNNING, S_FOUND, S_NOT_FOUND };

struct kd_view {
	const struct kd_store *st;
	struct kd_vfilter f;
	bool needs_record;	/* the filter looks at more than the level */

	uint32_t *slots;
	size_t cap;
	size_t base, end;	/* the list: slots[base, end) */
	size_t anchor;		/* slot (= store index) filtering started at */
	size_t lo, hi;		/* store indices checked: [lo, hi) */

	size_t sel, top;	/* slots, KD_VIEW_NONE while the list is empty */
	size_t sel_row;		/* the selection's screen row, kept over re-filtering */
	bool placing;		/* re-filtering: the selection is placed once a page is known */
	size_t height;
	bool follow;

	regex_t search;
	bool has_search;
	enum search_state sstate;
	int sdir;
	size_t spos, sstart;	/* where the search is, where it began */
	bool swrapped;

	uint8_t *marks;		/* kd_view_marks() cache */
	size_t marks_rows, marks_base, marks_end;

	struct kd_record rec;
	/* kd_view_set_text_key(): the dictionary entry shown as the text. */
	const char *text_key;
};

int kd_view_new(struct kd_view **out, const struct kd_store *st)
{
	struct kd_view *v = calloc(1, sizeof(*v));

	*out = NULL;
	if (!v)
		return -ENOMEM;
	v->st = st;
	kd_vfilter_init(&v->f);
	kd_record_init(&v->rec);
	v->height = 1;
	v->follow = true;
	v->sel = v->top = KD_VIEW_NONE;
	kd_view_refilter(v);
	*out = v;
	return 0;
}

void kd_view_free(struct kd_view *v)
{
	if (!v)
		return;
	kd_vfilter_free(&v->f);
	if (v->has_search)
		regfree(&v->search);
	kd_record_free(&v->rec);
	free(v->slots);
	free(v->marks);
	free(v);
}

struct kd_vfilter *kd_view_filter(struct kd_view *v)
{
	return &v->f;
}

void kd_view_set_text_key(struct kd_view *v, const char *key)
{
	v->text_key = key;
}

/*
 * Record @idx into v->rec with the text the user sees: the entry
 * kd_view_set_text_key() names when the record has it (a translation),
 * so that search and text filters match what is on the screen.
 */
static bool get_shown(struct kd_view *v, size_t idx)
{
	const struct kd_dict_entry *e;

	if (kd_store_get(v->st, idx, &v->rec) < 0)
		return false;
	if (v->text_key && (e = kd_record_dict_get(&v->rec, v->text_key)))
		kd_record_ref_text(&v->rec, e->value, e->value_len);
	return true;
}

static bool matches(struct kd_view *v, size_t idx)
{
	if (!kd_vfilter_level_ok(&v->f, kd_store_level(v->st, idx)))
		return false;
	if (!v->needs_record)
		return true;
	return get_shown(v, idx) && kd_vfilter_match(&v->f, &v->rec);
}

void kd_view_refilter(struct kd_view *v)
{
	size_t count = kd_store_count(v->st);

	if (v->sel != KD_VIEW_NONE && !v->follow) {
		v->anchor = v->slots[v->sel];
		v->sel_row = v->sel - v->top;
	} else {
		v->anchor = count;
		v->sel_row = v->height - 1;
	}
	v->needs_record = kd_vfilter_needs_record(&v->f);
	v->base = v->end = v->lo = v->hi = v->anchor;
	v->sel = v->top = KD_VIEW_NONE;
	v->placing = true;
	v->marks_rows = 0;
	if (v->sstate == S_RUNNING)
		v->sstate = S_IDLE;
}

static int ensure_cap(struct kd_view *v)
{
	size_t count = kd_store_count(v->st);
	uint32_t *s;
	size_t cap;

	if (count <= v->cap)
		return 0;
	cap = v->cap ? v->cap : 1024;
	while (cap < count)
		cap *= 2;
	s = realloc(v->slots, cap * sizeof(*s));
	if (!s)
		return -ENOMEM;
	v->slots = s;
	v->cap = cap;
	return 0;
}

/* Check one record below / above what was checked.  Returns its cost. */
static size_t scan_down(struct kd_view *v)
{
	v->lo--;
	if (matches(v, v->lo))
		v->slots[--v->base] = (uint32_t)v->lo;
	return v->needs_record ? CHEAP_PER_UNIT : 1;
}

static size_t scan_up(struct kd_view *v)
{
	if (matches(v, v->hi))
		v->slots[v->end++] = (uint32_t)v->hi;
	v->hi++;
	return v->needs_record ? CHEAP_PER_UNIT : 1;
}

static void ensure_visible(struct kd_view *v)
{
	if (v->sel == KD_VIEW_NONE)
		return;
	if (v->top == KD_VIEW_NONE || v->sel < v->top)
		v->top = v->sel;
	if (v->sel >= v->top + v->height)
		v->top = v->sel - v->height + 1;
	/* Near the end, the last record sits on the last row. */
	if (v->end - v->top < v->height)
		v->top = v->end - v->base > v->height ? v->end - v->height : v->base;
	if (v->top < v->base)
		v->top = v->base;
}

static void select_slot(struct kd_view *v, size_t pos);

static void place_selection(struct kd_view *v)
{
	size_t pos;

	v->placing = false;
	if (v->end == v->base)
		return;
	if (v->follow) {
		v->sel = v->end - 1;
		v->top = KD_VIEW_NONE;
		ensure_visible(v);
		return;
	}
	pos = v->anchor == v->end ? v->end - 1 : v->anchor;
	v->top = pos - (v->sel_row < pos - v->base ? v->sel_row : pos - v->base);
	/* The last record selected: following, as after End. */
	select_slot(v, pos);
}

static bool page_known(const struct kd_view *v)
{
	/* Following: the page is the last one, known once all is checked above. */
	if (v->follow)
		return v->hi == kd_store_count(v->st) &&
		       (v->end - v->base >= v->height || v->lo == 0);
	return (v->anchor - v->base >= v->height || v->lo == 0) &&
	       (v->end - v->anchor >= v->height || v->hi == kd_store_count(v->st));
}

static void search_step(struct kd_view *v, size_t *units);

static void spend(size_t *units, size_t cost)
{
	*units = cost >= *units ? 0 : *units - cost;
}

bool kd_view_work(struct kd_view *v, size_t budget)
{
	size_t count = kd_store_count(v->st), units = budget * CHEAP_PER_UNIT;
	size_t old_end = v->end;

	if (ensure_cap(v) < 0)
		return false;
	while (units > 0) {
		if (v->placing && page_known(v))
			place_selection(v);
		if (v->placing && v->anchor - v->base < v->height && v->lo > 0)
			spend(&units, scan_down(v));
		else if (v->hi < count)
			spend(&units, scan_up(v));
		else if (v->lo > 0)
			spend(&units, scan_down(v));
		else if (v->sstate == S_RUNNING && !v->placing)
			search_step(v, &units);
		else
			break;
	}
	if (v->placing && page_known(v))
		place_selection(v);
	if (!v->placing && v->end != old_end) {
		if (v->sel == KD_VIEW_NONE || v->follow)
			v->sel = v->end - 1;
		ensure_visible(v);
	}
	return v->placing || v->hi < count || v->lo > 0 || v->sstate == S_RUNNING;
}

/*
 * The slot after @pos in direction @dir, checking more of the log when
 * the list ends there before the log does; KD_VIEW_NONE past either end.
 */
static size_t step(struct kd_view *v, size_t pos, int dir)
{
	if (dir > 0) {
		while (pos + 1 >= v->end && v->hi < kd_store_count(v->st))
			scan_up(v);
		return pos + 1 < v->end ? pos + 1 : KD_VIEW_NONE;
	}
	while (pos <= v->base && v->lo > 0)
		scan_down(v);
	return pos > v->base ? pos - 1 : KD_VIEW_NONE;
}

static void select_slot(struct kd_view *v, size_t pos)
{
	v->sel = pos;
	v->follow = pos + 1 == v->end && v->hi == kd_store_count(v->st);
	ensure_visible(v);
}

void kd_view_set_height(struct kd_view *v, size_t rows)
{
	v->height = rows ? rows : 1;
	ensure_visible(v);
}

size_t kd_view_rows(const struct kd_view *v, size_t *idx, size_t max)
{
	size_t n = 0;

	if (v->top == KD_VIEW_NONE)
		return 0;
	for (size_t p = v->top; p < v->end && n < max; p++)
		idx[n++] = v->slots[p];
	return n;
}

size_t kd_view_selected(const struct kd_view *v)
{
	return v->sel == KD_VIEW_NONE ? KD_VIEW_NONE : v->slots[v->sel];
}

bool kd_view_following(const struct kd_view *v)
{
	return v->follow;
}

void kd_view_position(const struct kd_view *v, size_t *pos, size_t *shown,
		      bool *complete)
{
	*pos = v->sel == KD_VIEW_NONE ? KD_VIEW_NONE : v->sel - v->base;
	*shown = v->end - v->base;
	*complete = !v->placing && v->lo == 0 && v->hi == kd_store_count(v->st);
}

void kd_view_move(struct kd_view *v, long delta)
{
	size_t pos = v->sel, next;

	if (pos == KD_VIEW_NONE)
		return;
	for (; delta > 0 && (next = step(v, pos, 1)) != KD_VIEW_NONE; delta--)
		pos = next;
	for (; delta < 0 && (next = step(v, pos, -1)) != KD_VIEW_NONE; delta++)
		pos = next;
	select_slot(v, pos);
}

void kd_view_page(struct kd_view *v, int dir)
{
	size_t n = v->height > 1 ? v->height - 1 : 1, row;

	if (v->sel == KD_VIEW_NONE)
		return;
	row = v->sel - v->top;
	kd_view_move(v, dir > 0 ? (long)n : -(long)n);
	/* The screen moves a page too: the selection keeps its row. */
	v->top = v->sel - (row < v->sel - v->base ? row : v->sel - v->base);
	ensure_visible(v);
}

void kd_view_scroll(struct kd_view *v, long delta)
{
	if (v->top == KD_VIEW_NONE)
		return;
	if (delta > 0)
		v->top = v->sel - v->top > (size_t)delta ? v->top + (size_t)delta : v->sel;
	else
		v->top = v->top - v->base > (size_t)-delta ? v->top - (size_t)-delta : v->base;
}

void kd_view_home(struct kd_view *v)
{
	while (v->lo > 0)
		scan_down(v);
	if (v->end > v->base)
		select_slot(v, v->base);
}

void kd_view_end(struct kd_view *v)
{
	size_t count = kd_store_count(v->st);

	while (v->hi < count)
		scan_up(v);
	v->follow = true;
	if (v->end > v->base) {
		v->sel = v->end - 1;
		ensure_visible(v);
	}
}

int kd_view_jump_level(struct kd_view *v, int max_level, int dir)
{
	size_t pos = v->sel;

	if (pos == KD_VIEW_NONE)
		return -ENOENT;
	while ((pos = step(v, pos, dir)) != KD_VIEW_NONE) {
		int l = kd_store_level(v->st, v->slots[pos]);

		if (l >= 0 && l <= max_level) {
			select_slot(v, pos);
			return 0;
		}
	}
	return -ENOENT;
}

int kd_view_search_set(struct kd_view *v, const char *pattern)
{
	regex_t re;

	if (pattern && *pattern && kd_regex_compile(&re, pattern, false) < 0)
		return -EINVAL;
	if (v->has_search)
		regfree(&v->search);
	v->has_search = pattern && *pattern;
	if (v->has_search)
		v->search = re;
	return 0;
}

const void *kd_view_search_regex(const struct kd_view *v)
{
	return v->has_search ? &v->search : NULL;
}

static bool search_advance(struct kd_view *v);

void kd_view_search(struct kd_view *v, int dir, bool here)
{
	if (!v->has_search)
		return;
	v->sdir = dir > 0 ? 1 : -1;
	v->sstart = v->spos = v->sel;
	v->swrapped = false;
	v->sstate = v->sel == KD_VIEW_NONE ? S_NOT_FOUND : S_RUNNING;
	if (v->sel != KD_VIEW_NONE && !here)
		search_advance(v);
}

/*
 * The next slot to look at, wrapping around at the end of the list once,
 * as less and lnav do; false (and S_NOT_FOUND) when the search is back
 * where it started.
 */
static bool search_advance(struct kd_view *v)
{
	size_t next = step(v, v->spos, v->sdir);

	if (next == KD_VIEW_NONE && !v->swrapped) {
		v->swrapped = true;
		if (v->sdir > 0) {
			while (v->lo > 0)
				scan_down(v);
			next = v->base;
		} else {
			while (v->hi < kd_store_count(v->st))
				scan_up(v);
			next = v->end - 1;
		}
	}
	if (next == KD_VIEW_NONE || (v->swrapped && next == v->sstart) ||
	    (v->swrapped && (v->sdir > 0 ? next > v->sstart : next < v->sstart))) {
		v->sstate = S_NOT_FOUND;
		return false;
	}
	v->spos = next;
	return true;
}

static void search_step(struct kd_view *v, size_t *units)
{
	size_t so, eo;

	for (; *units > 0; spend(units, CHEAP_PER_UNIT)) {
		if (get_shown(v, v->slots[v->spos]) &&
		    kd_regex_find(&v->search, v->rec.text, v->rec.text_len, 0, &so, &eo)) {
			v->sstate = S_FOUND;
			select_slot(v, v->spos);
			return;
		}
		if (!search_advance(v))
			return;
	}
}

int kd_view_search_result(struct kd_view *v)
{
	enum search_state s = v->sstate;

	if (s == S_RUNNING)
		return 1;
	if (s == S_IDLE)
		return v->has_search ? 2 : -EINVAL;
	v->sstate = S_IDLE;
	return s == S_FOUND ? 0 : -ENOENT;
}

size_t kd_view_marks(struct kd_view *v, uint8_t *marks, size_t rows)
{
	size_t shown = v->end - v->base;

	if (!rows)
		return 0;
	if (rows != v->marks_rows || v->base != v->marks_base || v->end != v->marks_end) {
		uint8_t *m = realloc(v->marks, rows);

		if (!m)
			return 0;
		v->marks = m;
		memset(m, 8, rows);
		for (size_t i = 0; i < shown; i++) {
			int l = kd_store_level(v->st, v->slots[v->base + i]);
			size_t cell = shown > rows ? i * rows / shown : i;

			if (l >= 0 && l < m[cell])
				m[cell] = (uint8_t)l;
		}
		v->marks_rows = rows;
		v->marks_base = v->base;
		v->marks_end = v->end;
	}
	memcpy(marks, v->marks, rows);
	if (v->sel == KD_VIEW_NONE || !shown)
		return KD_VIEW_NONE;
	return shown > rows ? (v->sel - v->base) * rows / shown : v->sel - v->base;
}
