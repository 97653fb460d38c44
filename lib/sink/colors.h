/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * colors.h - dmesg's colour scheme: the escape sequence for each thing
 * dmesg colours, from its defaults or from a terminal-colors.d(5)
 * "dmesg.scheme" file, as util-linux reads them.
 */
#ifndef KDMESG_COLORS_H
#define KDMESG_COLORS_H

/* What dmesg colours, in dmesg's order; scheme names in kd_color_name(). */
enum kd_color {
	KD_COLOR_SUBSYS,	/* "subsys": the "name: " prefix of a message */
	KD_COLOR_TIME,		/* "time": the time stamp */
	KD_COLOR_TIMEBREAK,	/* "timebreak": reltime's minute breaks */
	KD_COLOR_ALERT,		/* "alert" */
	KD_COLOR_CRIT,		/* "crit" */
	KD_COLOR_ERR,		/* "err" */
	KD_COLOR_WARN,		/* "warn" */
	KD_COLOR_SEGFAULT,	/* "segfault": "segfault at" in other levels */
	KD_COLOR__COUNT
};

/* What ends every coloured span. */
#define KD_COLOR_RESET	"\033[0m"

struct kd_colors;

/**
 * kd_colors_new() - the scheme for @utilname ("dmesg"): defaults,
 * overridden by the best-scoring "<utilname>[@TERM].scheme" or
 * "[@TERM].scheme" file in $XDG_CONFIG_HOME/terminal-colors.d,
 * ~/.config/terminal-colors.d or /etc/terminal-colors.d.  An unreadable or
 * malformed scheme file is ignored, as util-linux does.
 * Returns 0 or -ENOMEM.
 */
int kd_colors_new(struct kd_colors **out, const char *utilname);

/** kd_colors_free() - release @c; NULL is fine. */
void kd_colors_free(struct kd_colors *c);

/** kd_colors_seq() - the escape sequence that starts @id (never NULL). */
const char *kd_colors_seq(const struct kd_colors *c, enum kd_color id);

/** kd_color_name() - @id's scheme name ("subsys", "time", ...). */
const char *kd_color_name(enum kd_color id);

#endif /* KDMESG_COLORS_H */
