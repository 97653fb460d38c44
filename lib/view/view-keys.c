// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * view-keys.c - the viewer's key table (see view-keys.h).  The keys are
 * less's and journalctl's where those have one (j/k, Space/b, g/G, /, n/N),
 * lnav's for jumps between errors and warnings (e/E, w/W), htop's and mc's
 * function keys (F1 help, F10 quit) and the mouse wheel.
 */
#include "nls.h"
#include "view/view-keys.h"

static const struct kd_key_binding bindings[] = {
	{ KD_KEY_DOWN, KD_ACT_DOWN, "Down j", N_("next record") },
	{ 'j', KD_ACT_DOWN, NULL, NULL },
	{ KD_KEY_UP, KD_ACT_UP, "Up k", N_("previous record (stops following)") },
	{ 'k', KD_ACT_UP, NULL, NULL },
	{ KD_KEY_PGDN, KD_ACT_PAGE_DOWN, "PgDn Space", N_("page down") },
	{ ' ', KD_ACT_PAGE_DOWN, NULL, NULL },
	{ KD_KEY_PGUP, KD_ACT_PAGE_UP, "PgUp b", N_("page up") },
	{ 'b', KD_ACT_PAGE_UP, NULL, NULL },
	{ KD_KEY_HOME, KD_ACT_HOME, "Home g", N_("first record") },
	{ 'g', KD_ACT_HOME, NULL, NULL },
	{ KD_KEY_END, KD_ACT_END, "End G", N_("last record, follow new ones") },
	{ 'G', KD_ACT_END, NULL, NULL },
	{ KD_KEY_LEFT, KD_ACT_LEFT, "Left Right", N_("scroll sideways") },
	{ KD_KEY_RIGHT, KD_ACT_RIGHT, NULL, NULL },
	{ 'S', KD_ACT_WRAP, "S", N_("wrap long lines or cut them") },
	{ '/', KD_ACT_SEARCH, "/", N_("search (regular expression)") },
	{ 'n', KD_ACT_SEARCH_NEXT, "n N", N_("next / previous match") },
	{ 'N', KD_ACT_SEARCH_PREV, NULL, NULL },
	{ 'e', KD_ACT_ERROR_NEXT, "e E", N_("next / previous error or worse") },
	{ 'E', KD_ACT_ERROR_PREV, NULL, NULL },
	{ 'w', KD_ACT_WARNING_NEXT, "w W", N_("next / previous warning or worse") },
	{ 'W', KD_ACT_WARNING_PREV, NULL, NULL },
	{ '=', KD_ACT_PAUSE, "=", N_("pause / resume reading new records") },
	{ KD_KEY_ENTER, KD_ACT_DETAILS, "Enter", N_("every field of the record") },
	{ 'f', KD_ACT_FILTERS, "f", N_("filter panel: list, switch, remove filters") },
	{ '-', KD_ACT_LEVEL_FEWER, "- +", N_("show fewer / more levels") },
	{ '+', KD_ACT_LEVEL_MORE, NULL, NULL },
	{ 'i', KD_ACT_FILTER_TEXT, "i x", N_("keep / drop records whose text matches") },
	{ 'x', KD_ACT_FILTER_NOT_TEXT, NULL, NULL },
	{ 'F', KD_ACT_FILTER_FILE, "F u", N_("filter by source file / function") },
	{ 'u', KD_ACT_FILTER_FUNC, NULL, NULL },
	{ 'm', KD_ACT_FILTER_MODULE, "m s", N_("filter by module / subsystem") },
	{ 's', KD_ACT_FILTER_SUBSYSTEM, NULL, NULL },
	{ 't', KD_ACT_TIME_FORMAT, "t", N_("next time format") },
	{ 'T', KD_ACT_TRANSLATE, "T", N_("translation on / off") },
	{ 'o', KD_ACT_LOCATION, "o", N_("location column on / off") },
	{ 'c', KD_ACT_COLOR, "c", N_("colours on / off") },
	{ KD_KEY_WHEEL_DOWN, KD_ACT_WHEEL_DOWN, "wheel", N_("mouse wheel: three records down / up") },
	{ KD_KEY_WHEEL_UP, KD_ACT_WHEEL_UP, NULL, NULL },
	{ '?', KD_ACT_HELP, "? F1", N_("this help") },
	{ KD_KEY_F1, KD_ACT_HELP, NULL, NULL },
	{ 'L' - 64, KD_ACT_REDRAW, "Ctrl-L", N_("redraw the screen") },
	{ 'q', KD_ACT_QUIT, "q F10", N_("quit") },
	{ KD_KEY_F10, KD_ACT_QUIT, NULL, NULL },
};

enum kd_action kd_key_action(int key)
{
	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++)
		if (bindings[i].key == key)
			return bindings[i].action;
	return KD_ACT_NONE;
}

const struct kd_key_binding *kd_key_bindings(size_t *n)
{
	*n = sizeof(bindings) / sizeof(bindings[0]);
	return bindings;
}
