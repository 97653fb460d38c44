// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-view.c - lib/view/view.c, lib/view/view-filter.c and lib/view/view-keys.c: the
 * viewer's model driven without a screen - following, moving, paging,
 * jumps, search, live filters (also while re-filtering is unfinished),
 * scrollbar marks and the key table.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "view/store.h"
#include "tap.h"
#include "view/view.h"
#include "view/view-keys.h"

/* Record i: level i % 8, text "rec <i>", every 10th from pci (CODE_FILE). */
static void add(struct kd_store *st, unsigned int i)
{
	struct kd_record r;
	char text[32];

	kd_record_init(&r);
	r.seq = i;
	r.level = (int)(i % 8);
	r.facility = i % 100 == 7 ? 1 : 0;
	kd_record_set_text(&r, text, (size_t)snprintf(text, sizeof(text), "rec %u", i));
	if (i % 10 == 0) {
		kd_record_dict_add(&r, "SUBSYSTEM", 9, "pci", 3);
		kd_record_dict_add(&r, "CODE_FILE", 9, "drivers/pci/probe.c", 19);
		kd_record_dict_add(&r, "MODULE", 6, "snd_hda-intel", 13);
	}
	kd_store_append(st, &r);
	kd_record_free(&r);
}

static void finish(struct kd_view *v)
{
	while (kd_view_work(v, 1000))
		;
}

static long sel(const struct kd_view *v)
{
	size_t s = kd_view_selected(v);

	return s == KD_VIEW_NONE ? -1 : (long)s;
}

static long top(const struct kd_view *v)
{
	size_t idx[1];

	return kd_view_rows(v, idx, 1) ? (long)idx[0] : -1;
}

static void test_follow_and_move(void)
{
	struct kd_store *st;
	struct kd_view *v;
	size_t pos, shown;
	bool complete;

	kd_store_new(&st);
	for (unsigned int i = 0; i < 1000; i++)
		add(st, i);
	kd_view_new(&v, st);
	kd_view_set_height(v, 10);
	finish(v);
	kd_view_position(v, &pos, &shown, &complete);
	tap_ok(pos == 999 && shown == 1000 && complete, "opens at the end of the whole log");
	tap_ok(kd_view_following(v), "and follows");
	tap_is_int(top(v), 990, "the last record is on the last row");

	kd_view_move(v, -5);
	tap_is_int(sel(v), 994, "up 5");
	tap_ok(!kd_view_following(v), "moving up stops following");
	tap_is_int(top(v), 990, "the screen did not move");
	add(st, 1000);
	finish(v);
	tap_is_int(sel(v), 994, "a new record does not move the selection");
	kd_view_move(v, 100);
	tap_is_int(sel(v), 1000, "down past the end stops at the last record");
	tap_ok(kd_view_following(v), "which follows again");
	add(st, 1001);
	finish(v);
	tap_is_int(sel(v), 1001, "following selects the new record");
	tap_is_int(top(v), 992, "and scrolls");

	kd_view_home(v);
	tap_ok(sel(v) == 0 && top(v) == 0, "home");
	kd_view_page(v, 1);
	tap_ok(sel(v) == 9 && top(v) == 9, "page down keeps the row");
	kd_view_page(v, -1);
	tap_ok(sel(v) == 0 && top(v) == 0, "page up");
	kd_view_page(v, -1);
	tap_is_int(sel(v), 0, "page up at the top stays");
	kd_view_end(v);
	tap_ok(sel(v) == 1001 && kd_view_following(v), "end follows");

	tap_is_int(kd_view_jump_level(v, 3, -1), 0, "previous error");
	tap_is_int(sel(v), 1000, "is record 1000 (level 0)");
	tap_is_int(kd_view_jump_level(v, 4, -1), 0, "previous warning or worse");
	tap_is_int(sel(v), 996, "is 996 (level 4)");
	kd_view_home(v);
	tap_is_int(kd_view_jump_level(v, 0, -1), -ENOENT, "nothing before the first");
	tap_is_int(sel(v), 0, "the selection stays");
	tap_is_int(kd_view_jump_level(v, 0, 1), 0, "next emergency");
	tap_is_int(sel(v), 8, "is record 8");
	kd_view_scroll(v, 3);
	tap_ok(top(v) == 3 && sel(v) == 8, "scroll moves the top only");
	kd_view_scroll(v, 100);
	tap_is_int(top(v), 8, "never past the selection");
	kd_view_scroll(v, -100);
	tap_is_int(top(v), 0, "nor above the first record");
	kd_view_free(v);
	kd_store_free(st);
}

static void test_search(void)
{
	struct kd_store *st;
	struct kd_view *v;

	kd_store_new(&st);
	for (unsigned int i = 0; i < 300; i++)
		add(st, i);
	kd_view_new(&v, st);
	kd_view_set_height(v, 5);
	finish(v);
	tap_is_int(kd_view_search_set(v, "("), -EINVAL, "a bad regex is refused");
	tap_is_int(kd_view_search_result(v), -EINVAL, "no pattern yet");
	tap_is_int(kd_view_search_set(v, "REC 1[0-9]$"), 0, "smart case: upper case is exact");
	kd_view_search(v, -1, true);
	finish(v);
	tap_is_int(kd_view_search_result(v), -ENOENT, "so it finds nothing");
	tap_is_int(kd_view_search_set(v, "rec 1[0-9]$"), 0, "a pattern");
	kd_view_search(v, -1, true);
	tap_is_int(kd_view_search_result(v), 1, "the search runs in kd_view_work()");
	finish(v);
	tap_is_int(kd_view_search_result(v), 0, "found backwards");
	tap_is_int(sel(v), 19, "record 19");
	tap_is_int(kd_view_search_result(v), 2, "reported once");
	kd_view_search(v, -1, false);
	finish(v);
	kd_view_search_result(v);
	tap_is_int(sel(v), 18, "previous match");
	kd_view_search(v, 1, false);
	finish(v);
	tap_is_int(sel(v), 19, "next match");
	kd_view_search(v, 1, false);
	finish(v);
	tap_is_int(kd_view_search_result(v), 0, "after the last match, the search wraps");
	tap_is_int(sel(v), 10, "to the first");
	tap_is_int(kd_view_search_set(v, "^rec 150$"), 0, "a pattern with one match");
	kd_view_search(v, 1, true);
	finish(v);
	kd_view_search_result(v);
	tap_is_int(sel(v), 150, "found");
	kd_view_search(v, 1, false);
	finish(v);
	tap_is_int(kd_view_search_result(v), -ENOENT, "n: no other match, all the way round");
	tap_is_int(sel(v), 150, "the selection stays");
	tap_ok(kd_view_search_regex(v) != NULL, "the pattern is there to highlight");
	kd_view_free(v);
	kd_store_free(st);
}

static void test_filters(void)
{
	struct kd_store *st;
	struct kd_view *v;
	struct kd_vfilter *f;
	size_t idx[8], n, pos, shown;
	bool complete;

	kd_store_new(&st);
	for (unsigned int i = 0; i < 2000; i++)
		add(st, i);
	kd_view_new(&v, st);
	kd_view_set_height(v, 4);
	finish(v);
	kd_view_move(v, -1003);
	kd_view_move(v, 3);			/* record 999 (debug), row 3 */
	f = kd_view_filter(v);
	f->max_level = 3;
	kd_vfilter_add(f, KD_VF_TEXT_OUT, "^x");	/* every record is read */
	kd_view_refilter(v);
	/* One record per call: the page is right long before the end. */
	for (int i = 0; i < 20; i++)
		kd_view_work(v, 1);
	kd_view_position(v, &pos, &shown, &complete);
	tap_ok(!complete, "re-filtering is not finished after 20 small steps");
	n = kd_view_rows(v, idx, 4);
	tap_ok(n == 4 && idx[0] == 993 && idx[1] == 994 && idx[2] == 995 && idx[3] == 1000,
	       "but the page around the selection is shown (%zu rows, %zu..)", n, n ? idx[0] : 0);
	tap_is_int(sel(v), 1000, "the next matching record is selected, on its old row");
	finish(v);
	kd_view_position(v, &pos, &shown, &complete);
	tap_ok(complete && shown == 1000 && pos == 500, "then the whole list: 1000 records, at 500");
	f->max_level = 7;
	kd_vfilter_remove(f, 0);

	tap_is_int(kd_vfilter_add(f, KD_VF_TEXT_IN, "("), -EINVAL, "bad regex refused");
	tap_is_int(kd_vfilter_add(f, KD_VF_FILE, "probe.c"), 0, "file: a trailing part of the path");
	kd_view_refilter(v);
	finish(v);
	kd_view_position(v, &pos, &shown, &complete);
	tap_is_int((long long)shown, 200, "file: 200 records");
	tap_is_int(kd_vfilter_add(f, KD_VF_FILE, "drivers/usb/*"), 0, "a second file glob");
	kd_view_refilter(v);
	finish(v);
	kd_view_position(v, &pos, &shown, &complete);
	tap_is_int((long long)shown, 200, "ORs with the first");
	f->items[0].enabled = false;
	kd_view_refilter(v);
	finish(v);
	kd_view_position(v, &pos, &shown, &complete);
	tap_ok(shown == 0 && sel(v) == -1, "the first switched off: nothing matches, nothing selected");
	kd_vfilter_remove(f, 0);
	kd_vfilter_remove(f, 0);
	tap_is_int(kd_vfilter_add(f, KD_VF_MODULE, "snd-hda_intel"), 0, "module: - and _ alike");
	tap_is_int(kd_vfilter_add(f, KD_VF_TEXT_OUT, "^rec 1"), 0, "not text");
	kd_view_refilter(v);
	finish(v);
	kd_view_position(v, &pos, &shown, &complete);
	tap_is_int((long long)shown, 89, "module AND not text");
	tap_is_int(sel(v), 990, "the last one is selected, as the list was empty");
	kd_vfilter_free(f);
	kd_vfilter_add(f, KD_VF_SUBSYSTEM, "p?i");
	kd_vfilter_add(f, KD_VF_FUNC, "*");
	kd_view_refilter(v);
	finish(v);
	kd_view_position(v, &pos, &shown, &complete);
	tap_is_int((long long)shown, 0, "a record without CODE_FUNC never matches a filter on it");
	kd_vfilter_free(f);
	f->facility = KD_VF_FAC_USER;
	kd_view_refilter(v);
	finish(v);
	kd_view_position(v, &pos, &shown, &complete);
	tap_is_int((long long)shown, 20, "user-space records only");
	add(st, 2007);
	finish(v);
	kd_view_position(v, &pos, &shown, &complete);
	tap_ok(shown == 21 && sel(v) == 2000, "a new matching record (store index 2000) is taken and, following, selected (%zu, %ld)", shown, sel(v));
	kd_view_free(v);
	kd_store_free(st);
}

static void test_marks(void)
{
	struct kd_store *st;
	struct kd_view *v;
	uint8_t m[4];

	kd_store_new(&st);
	kd_view_new(&v, st);
	finish(v);
	tap_ok(kd_view_marks(v, m, 4) == KD_VIEW_NONE && m[0] == 8 && m[3] == 8,
	       "an empty log: no marks, no selection cell");
	kd_view_free(v);
	for (unsigned int i = 1; i <= 16; i++)
		add(st, i == 5 ? 3 : i == 14 ? 4 : 6);
	kd_view_new(&v, st);
	finish(v);
	tap_is_int((long long)kd_view_marks(v, m, 4), 3, "the selection is in the last cell");
	tap_ok(m[0] == 6 && m[1] == 3 && m[2] == 6 && m[3] == 4,
	       "marks: error in cell 1, warning in cell 3 (%u %u %u %u)", m[0], m[1], m[2], m[3]);
	kd_view_free(v);
	kd_store_free(st);
}

static void test_keys(void)
{
	const struct kd_key_binding *b;
	size_t n, bad = 0;

	tap_is_int(kd_key_action('j'), KD_ACT_DOWN, "j moves down");
	tap_is_int(kd_key_action(KD_KEY_END), KD_ACT_END, "End follows");
	tap_is_int(kd_key_action('G'), KD_ACT_END, "so does G");
	tap_is_int(kd_key_action('='), KD_ACT_PAUSE, "= pauses");
	tap_is_int(kd_key_action('Z'), KD_ACT_NONE, "an unbound key does nothing");
	b = kd_key_bindings(&n);
	for (size_t i = 0; i < n; i++) {
		if (!b[i].keyname != !b[i].help || (i == 0 && !b[i].help))
			bad++;
		for (size_t j = 0; j < i; j++)
			if (b[j].key == b[i].key)
				bad++;
	}
	tap_is_int((long long)bad, 0, "every key bound once, every group has help");
}

int main(void)
{
	test_follow_and_move();
	test_search();
	test_filters();
	test_marks();
	test_keys();
	return tap_done();
}
