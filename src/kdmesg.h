/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kdmesg.h - what the kdmesg front end decided from its command line: the
 * action, the source, the filter and the writer options.  Filled in by
 * kdmesg-options.c, carried out by kdmesg.c.
 */
#ifndef KDMESG_KDMESG_H
#define KDMESG_KDMESG_H

#include <stdbool.h>
#include <stddef.h>

#include "filter.h"
#include "output.h"
#include "source.h"

/* terminal-colors.d files are matched against dmesg's name, so an admin's
 * existing dmesg colour configuration applies unchanged. */
#define COLORS_UTILNAME	"dmesg"

enum action {
	ACT_READ,		/* default: print the buffer */
	ACT_READ_CLEAR,		/* -c */
	ACT_CLEAR,		/* -C */
	ACT_CONSOLE_OFF,	/* -D */
	ACT_CONSOLE_ON,		/* -E */
	ACT_CONSOLE_LEVEL,	/* -n */
};

struct ctl {
	enum action action;
	int console_level;

	enum kd_source_kind kind;
	const char *path;
	unsigned int src_flags;
	size_t bufsize;

	struct kd_filter filter;
	struct kd_output_opts out;

	int colormode;
	bool human, nopager, follow;
};


/** kdmesg_parse_options() - fill @c from the command line; exits on errors. */
void kdmesg_parse_options(struct ctl *c, int argc, char **argv);

#endif /* KDMESG_KDMESG_H */
