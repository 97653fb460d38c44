/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view-keys.h - the viewer's key table: which key does what.  Keys are
 * characters (Ctrl-X as 0x18) or the KD_KEY_* codes for keys without one;
 * the curses front end maps its key codes to these, so the table, its
 * help text and its tests know nothing of curses.
 */
#ifndef KDMESG_VIEW_KEYS_H
#define KDMESG_VIEW_KEYS_H

#include <stddef.h>

enum kd_key {
	KD_KEY_UP = 0x110000,	/* past every Unicode character */
	KD_KEY_DOWN,
	KD_KEY_LEFT,
	KD_KEY_RIGHT,
	KD_KEY_PGUP,
	KD_KEY_PGDN,
	KD_KEY_HOME,
	KD_KEY_END,
	KD_KEY_ENTER,
	KD_KEY_ESC,
	KD_KEY_BACKSPACE,
	KD_KEY_RESIZE,
	KD_KEY_F1,		/* help, as in htop and mc */
	KD_KEY_F10,		/* quit, as in htop and mc */
	KD_KEY_WHEEL_UP,	/* the mouse wheel */
	KD_KEY_WHEEL_DOWN,
};

enum kd_action {
	KD_ACT_NONE,
	KD_ACT_QUIT,
	KD_ACT_UP,
	KD_ACT_DOWN,
	KD_ACT_PAGE_UP,
	KD_ACT_PAGE_DOWN,
	KD_ACT_HOME,
	KD_ACT_END,
	KD_ACT_LEFT,
	KD_ACT_RIGHT,
	KD_ACT_WRAP,
	KD_ACT_SEARCH,
	KD_ACT_SEARCH_NEXT,
	KD_ACT_SEARCH_PREV,
	KD_ACT_ERROR_NEXT,
	KD_ACT_ERROR_PREV,
	KD_ACT_WARNING_NEXT,
	KD_ACT_WARNING_PREV,
	KD_ACT_PAUSE,
	KD_ACT_DETAILS,
	KD_ACT_FILTERS,
	KD_ACT_LEVEL_FEWER,
	KD_ACT_LEVEL_MORE,
	KD_ACT_FILTER_TEXT,
	KD_ACT_FILTER_NOT_TEXT,
	KD_ACT_FILTER_FILE,
	KD_ACT_FILTER_FUNC,
	KD_ACT_FILTER_MODULE,
	KD_ACT_FILTER_SUBSYSTEM,
	KD_ACT_TIME_FORMAT,
	KD_ACT_TRANSLATE,
	KD_ACT_LOCATION,
	KD_ACT_COLOR,
	KD_ACT_HELP,
	KD_ACT_REDRAW,
	KD_ACT_WHEEL_UP,	/* three records up (stops following) */
	KD_ACT_WHEEL_DOWN,
};

struct kd_key_binding {
	int key;
	enum kd_action action;
	const char *keyname;	/* as the help shows it; NULL: shown with the one above */
	const char *help;	/* N_() marked, for the front end to translate */
};

/** kd_key_action() - what @key does in the list, KD_ACT_NONE for nothing. */
enum kd_action kd_key_action(int key);

/** kd_key_bindings() - the table, for the help screen; *@n entries. */
const struct kd_key_binding *kd_key_bindings(size_t *n);

#endif /* KDMESG_VIEW_KEYS_H */
