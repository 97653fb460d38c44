/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * terminal-colors-d.h - which terminal-colors.d(5) files apply to a
 * utility, found the way util-linux finds them.  Used for the colour
 * on/off decision (terminal.c: "*.enable", "*.disable") and for the colour
 * scheme (colors.c: "*.scheme").
 */
#ifndef KDMESG_TERMINAL_COLORS_D_H
#define KDMESG_TERMINAL_COLORS_D_H

/** Called with the directory and the name of each candidate file. */
typedef void kd_tcd_fn(const char *dir, const char *name, void *arg);

/**
 * kd_tcd_foreach() - call @fn for each regular file or link, not starting
 * with '.', of $XDG_CONFIG_HOME/terminal-colors.d, else of
 * $HOME/.config/terminal-colors.d; when that directory is missing or not
 * readable (ENOENT, EACCES, EPERM), of /etc/terminal-colors.d.
 * Returns 0 or the negative errno of the directory that was tried last.
 */
int kd_tcd_foreach(kd_tcd_fn *fn, void *arg);

/**
 * kd_tcd_score() - how well file @name, "[util][@term].type", applies to
 * @util on terminal @term for @type: 1 for the type alone, +20 when it
 * names the utility, +10 when it names the terminal; -1 when it is another
 * type or names another utility or terminal.  An empty term after '@'
 * matches any terminal.
 */
int kd_tcd_score(const char *name, const char *type, const char *util,
		 const char *term);

#endif /* KDMESG_TERMINAL_COLORS_D_H */
