/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view.h - the viewer's model, free of curses: which records of a store
 * pass the live filter (the filtered list), which one is selected, which
 * is at the top of the screen, whether the view follows new records, and
 * the search.  The front end only turns keys into these calls and draws
 * what kd_view_rows() says (tmux's split of model and tty).
 *
 * Re-filtering never blocks: kd_view_refilter() only starts over, and
 * kd_view_work() checks a bounded number of records per call, first the
 * ones around the selection (so the visible page is right at once), then
 * the rest of the log.  The same call takes records appended to the store
 * since the last call, and continues a pending search.
 */
#ifndef KDMESG_VIEW_H
#define KDMESG_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "view/store.h"
#include "view/view-filter.h"

#define KD_VIEW_NONE	SIZE_MAX

struct kd_view;

/** kd_view_new() - a view of @st, following its end.  0 or -ENOMEM. */
int kd_view_new(struct kd_view **out, const struct kd_store *st);

/** kd_view_free() - release @v; NULL is fine. */
void kd_view_free(struct kd_view *v);

/**
 * kd_view_filter() - the live filter, to change in place; call
 * kd_view_refilter() afterwards.
 */
struct kd_vfilter *kd_view_filter(struct kd_view *v);

/**
 * kd_view_set_text_key() - search and text filters match the value of
 * dictionary key @key (not copied; NULL: the record's text) where a
 * record has it: the translated text while the viewer shows it.  Call
 * kd_view_refilter() afterwards.
 */
void kd_view_set_text_key(struct kd_view *v, const char *key);

/** kd_view_refilter() - start filtering over, keeping the selection near. */
void kd_view_refilter(struct kd_view *v);

/**
 * kd_view_work() - check up to @budget records (new ones, re-filtering,
 * searching).  Returns true while work is left, so the caller calls it
 * again once its input is handled.
 */
bool kd_view_work(struct kd_view *v, size_t budget);

/** kd_view_set_height() - rows the list has on screen (at least 1). */
void kd_view_set_height(struct kd_view *v, size_t rows);

/**
 * kd_view_rows() - up to @max store indices of the records shown from
 * the top of the screen down.  Returns how many.
 */
size_t kd_view_rows(const struct kd_view *v, size_t *idx, size_t max);

/** kd_view_selected() - the selected record's store index, or KD_VIEW_NONE. */
size_t kd_view_selected(const struct kd_view *v);

/** kd_view_following() - whether new records move the selection along. */
bool kd_view_following(const struct kd_view *v);

/**
 * kd_view_position() - the selection's place in the filtered list
 * (0-based, KD_VIEW_NONE without one), the records in the list, and
 * whether the list is complete (re-filtering done).
 */
void kd_view_position(const struct kd_view *v, size_t *pos, size_t *shown,
		      bool *complete);

/** kd_view_move() - move the selection by @delta records (clamped). */
void kd_view_move(struct kd_view *v, long delta);

/** kd_view_page() - a page down (@dir > 0) or up; the screen scrolls with it. */
void kd_view_page(struct kd_view *v, int dir);

/**
 * kd_view_scroll() - move the top of the screen by @delta records, never
 * past the selection nor above the first record (for a front end whose
 * records take more than one row each).
 */
void kd_view_scroll(struct kd_view *v, long delta);

/** kd_view_home() - select the first record. */
void kd_view_home(struct kd_view *v);

/** kd_view_end() - select the last record and follow new ones. */
void kd_view_end(struct kd_view *v);

/**
 * kd_view_jump_level() - select the next (@dir > 0) or previous record
 * whose level is @max_level or more severe.  Returns 0, or -ENOENT when
 * there is none (the selection stays).
 */
int kd_view_jump_level(struct kd_view *v, int max_level, int dir);

/**
 * kd_view_search_set() - the search pattern (kd_regex_compile()), or
 * NULL/"" for none.  Returns 0 or -EINVAL (the previous one stays).
 */
int kd_view_search_set(struct kd_view *v, const char *pattern);

/** kd_view_search_regex() - the compiled pattern for highlighting, or NULL. */
const void *kd_view_search_regex(const struct kd_view *v);

/**
 * kd_view_search() - look for the next (@dir > 0) or previous record
 * whose text matches, from the selection (@here: the selection itself
 * counts).  The search runs in kd_view_work(); kd_view_search_result()
 * says how it ended.
 */
void kd_view_search(struct kd_view *v, int dir, bool here);

/**
 * kd_view_search_result() - 1 while a search runs, 0 after it found a
 * record (once), -ENOENT after it found none (once), -EINVAL without a
 * pattern, 2 when there is nothing to report.
 */
int kd_view_search_result(struct kd_view *v);

/**
 * kd_view_marks() - for a scrollbar of @rows cells over the filtered
 * list: in marks[i], the most severe level of the records under cell i
 * (8 for none).  Returns the cell the selection is in, KD_VIEW_NONE
 * without a selection.
 */
size_t kd_view_marks(struct kd_view *v, uint8_t *marks, size_t rows);

#endif /* KDMESG_VIEW_H */
