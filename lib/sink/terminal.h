/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * terminal.h - what kdmesg decides when its output is a terminal: whether
 * to colour (-L/--color, -H, terminal-colors.d enable/disable files),
 * resolved the way util-linux does.  The pager is the program's
 * (src/pager.h).
 */
#ifndef KDMESG_TERMINAL_H
#define KDMESG_TERMINAL_H

#include <stdbool.h>

enum kd_colormode {
	KD_COLORMODE_UNDEF,	/* no -L: defaults, then terminal-colors.d */
	KD_COLORMODE_AUTO,	/* -L, -L=auto, -H: colour a capable terminal */
	KD_COLORMODE_NEVER,
	KD_COLORMODE_ALWAYS,
};

/**
 * kd_colormode_parse() - "auto", "never" or "always" (case-insensitive,
 * a leading '=' as in "-L=always" is skipped).  Returns the mode or
 * -EINVAL.
 */
int kd_colormode_parse(const char *when);

/**
 * kd_terminal_want_color() - resolve @mode for standard output.
 * @utilname: the name terminal-colors.d files are matched against
 *            ("dmesg", so existing configurations apply to kdmesg too).
 *
 * ALWAYS colours, NEVER does not; otherwise standard output must be a
 * terminal whose terminfo entry has colours.  With no -L at all a
 * "<utilname>.disable" (or "disable", "@TERM.disable"...) file in
 * $XDG_CONFIG_HOME/terminal-colors.d, ~/.config/terminal-colors.d or
 * /etc/terminal-colors.d that outscores the matching ".enable" file turns
 * colours off, and so does a non-empty NO_COLOR.
 */
bool kd_terminal_want_color(enum kd_colormode mode, const char *utilname);

#endif /* KDMESG_TERMINAL_H */
