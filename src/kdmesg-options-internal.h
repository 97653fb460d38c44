/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kdmesg-options-internal.h - what the pieces of kdmesg's command line
 * share: the getopt codes of the long-only options, and the parser of
 * each group of options that the table (kdmesg-options.c) dispatches to.
 * Only for src/kdmesg-options*.c.
 */
#ifndef KDMESG_OPTIONS_INTERNAL_H
#define KDMESG_OPTIONS_INTERNAL_H

#include <getopt.h>
#include <limits.h>
#include <stdbool.h>

#include "kdmesg.h"

/* kdmesg's long options without a short form. */
enum {
	OPT_TIME_FORMAT = CHAR_MAX + 1,
	OPT_NOESC,
	OPT_SINCE,
	OPT_UNTIL,
	OPT_SUBSYSTEM,
	OPT_DEVICE,
	OPT_TRANSLATE,
	OPT_NO_TRANSLATE,
	OPT_CATALOG_DIR,
	OPT_CODE_FILE,
	OPT_FUNCTION,
	OPT_MODULE,
	OPT_FORMAT,
	OPT_GREP,
	OPT_LOCATION,
	OPT_STATS,
	OPT_TOP,
	OPT_TUI,
	OPT_FORMATS,
	OPT_RECOVER,
	OPT_LIST_VALUES,
};

/** kdmesg_try_help() - point at --help on standard error and exit 1. */
void kdmesg_try_help(void) __attribute__((__noreturn__));

/*
 * The parsers of each group: take option @ch (its argument @arg, NULL
 * when it has none) into @c and return true, or false when it is not
 * one of the group's.  Bad values end the program with dmesg's message.
 */

/** kdmesg_source_option() - what is read and how: -F -K -S -s -w -W. */
bool kdmesg_source_option(struct ctl *c, int ch, const char *arg);

/** kdmesg_stage_option() - the stages: --translate, --catalog-dir, --recover, --formats, -v. */
bool kdmesg_stage_option(struct ctl *c, int ch, const char *arg);

/** kdmesg_mode_option() - --stats, --top, --tui, --list-values, --help, --version. */
bool kdmesg_mode_option(struct ctl *c, int ch, const char *arg);

/** kdmesg_look_option() - how each line looks: stamps, colours, prefixes, escaping, -o. */
bool kdmesg_look_option(struct ctl *c, int ch, const char *arg);

/** kdmesg_filter_option() - which records are shown. */
bool kdmesg_filter_option(struct ctl *c, int ch, const char *arg);

/**
 * kdmesg_note_filter() - add filter option @opt (0: a FIELD=VALUE
 * argument @arg) to c->filter_desc, by its name in @longopts.
 */
void kdmesg_note_filter(struct ctl *c, int opt, const char *arg,
			const struct option *longopts);

/**
 * kdmesg_compile_matches() - the FIELD=VALUE arguments left after the
 * options, then --module and --grep, into the filter.
 */
void kdmesg_compile_matches(struct ctl *c, int argc, char **argv);

#endif /* KDMESG_OPTIONS_INTERNAL_H */
