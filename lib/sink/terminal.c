// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * terminal.c - the colour decision for terminal output.  It follows
 * util-linux (lib/sink/colors.c colors_init()) so that an admin's
 * terminal-colors.d files act on kdmesg exactly as on dmesg.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

/* configure requires terminfo (tinfo); it tells whether a terminal has colours. */
#include <curses.h>
#include <term.h>

#include "sink/terminal-colors-d.h"
#include "sink/terminal.h"

int kd_colormode_parse(const char *when)
{
	if (!when)
		return -EINVAL;
	if (*when == '=')
		when++;
	if (strcasecmp(when, "auto") == 0)
		return KD_COLORMODE_AUTO;
	if (strcasecmp(when, "never") == 0)
		return KD_COLORMODE_NEVER;
	if (strcasecmp(when, "always") == 0)
		return KD_COLORMODE_ALWAYS;
	return -EINVAL;
}

/* util-linux asks terminfo: a terminal counts when it has 2+ colours. */
static bool terminal_has_colors(void)
{
	int err = 0, colors;

	if (setupterm(NULL, STDOUT_FILENO, &err) != 0 || err != 1)
		return false;
	colors = tigetnum("colors");
	/* Asked once: free the description instead of keeping it (LeakSanitizer). */
	del_curterm(cur_term);
	return colors > 1;
}

struct switch_scores {
	const char *util, *term;
	int disable, enable;	/* best score of each type, 0 for none */
};

static void score_switch(const char *dir, const char *name, void *arg)
{
	struct switch_scores *s = arg;
	int d = kd_tcd_score(name, "disable", s->util, s->term);
	int e = kd_tcd_score(name, "enable", s->util, s->term);

	(void)dir;
	if (d > s->disable)
		s->disable = d;
	if (e > s->enable)
		s->enable = e;
}

/* "util.disable" beats "disable", and so on; the better score wins. */
static bool colors_disabled_by_config(const char *util)
{
	struct switch_scores s = { util, getenv("TERM"), 0, 0 };

	if (kd_tcd_foreach(score_switch, &s) < 0)
		return false;
	return s.disable > s.enable;
}

bool kd_terminal_want_color(enum kd_colormode mode, const char *utilname)
{
	const char *no_color;

	if (mode == KD_COLORMODE_ALWAYS)
		return true;
	if (mode == KD_COLORMODE_NEVER || !isatty(STDOUT_FILENO))
		return false;
	if (mode == KD_COLORMODE_UNDEF) {
		/* https://no-color.org: only the default yields to it. */
		no_color = getenv("NO_COLOR");
		if (no_color && *no_color)
			return false;
		if (!terminal_has_colors())
			return false;
		return !colors_disabled_by_config(utilname);
	}
	return terminal_has_colors();
}
