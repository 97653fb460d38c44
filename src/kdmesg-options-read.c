// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg-options-read.c - kdmesg's options of what is read and what is
 * done with the records: the source (-F -K -S, the buffer size,
 * following), the stages records pass (translation, recovery of call
 * sites) and the modes that replace the listing (--stats, --top, --tui),
 * with --help and --version.  See kdmesg-options.c for the table.
 */
#include <err.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nls.h"
#include "source/source.h"
#include "kdmesg.h"
#include "kdmesg-options-internal.h"

/* util-linux strtou32_or_err(): decimal only, no sign, no trailing bytes. */
static size_t parse_buffer_size(const char *arg)
{
	const char *msg = _("invalid buffer size argument");
	unsigned long long v = 0;
	char *end = NULL;

	errno = 0;
	if (*arg == '-')
		errno = ERANGE;
	else
		v = strtoull(arg, &end, 10);
	if (!errno && (end == arg || *end))
		errno = EINVAL;
	if (!errno && v > UINT32_MAX)
		errno = ERANGE;
	if (errno == ERANGE)
		err(EXIT_FAILURE, "%s: '%s'", msg, arg);
	if (errno)
		errx(EXIT_FAILURE, "%s: '%s'", msg, arg);
	return v < 4096 ? 4096 : (size_t)v;
}

/* --top: a count of call sites, decimal; 0 shows them all. */
static long parse_top(const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 0 || *arg == '-' || *arg == '+')
		errx(EXIT_FAILURE, _("invalid number of call sites: '%s'"), arg);
	return v;
}

/* What is read and how: -F -K -S, the buffer size, following. */
bool kdmesg_source_option(struct ctl *c, int ch, const char *arg)
{
	switch (ch) {
	case 'F':
		c->kind = KD_SOURCE_SYSLOG_FILE;
		c->path = arg;
		return true;
	case 'K':
		c->kind = KD_SOURCE_KMSG_FILE;
		c->path = arg;
		return true;
	case 'S':
		c->kind = KD_SOURCE_SYSLOG;
		c->path = NULL;
		return true;
	case 's':
		c->bufsize = parse_buffer_size(arg);
		return true;
	case 'w':
		c->follow = true;
		c->src_flags |= KD_SOURCE_FOLLOW;
		return true;
	case 'W':
		c->follow = true;
		c->src_flags |= KD_SOURCE_FOLLOW | KD_SOURCE_FOLLOW_NEW;
		return true;
	}
	return false;
}

/*
 * WHEN of --translate[=WHEN] and --recover[=WHEN], one rule for both:
 * "auto", "never" or "always", and always without a WHEN.  The values
 * are the option's own (@when_auto, @when_never, @when_always); @bad
 * words the error.
 */
static int parse_when(const char *arg, const char *bad, int when_auto, int when_never,
		      int when_always)
{
	if (arg && strcmp(arg, "auto") == 0)
		return when_auto;
	if (arg && strcmp(arg, "never") == 0)
		return when_never;
	if (arg && strcmp(arg, "always") != 0)
		errx(EXIT_FAILURE, "%s: '%s'", bad, arg);
	return when_always;
}

/* The stages records pass: translation, recovery of call sites. */
bool kdmesg_stage_option(struct ctl *c, int ch, const char *arg)
{
	switch (ch) {
	case OPT_TRANSLATE:
		c->translate = (enum translate_when)parse_when(arg, _("unsupported translate mode"),
							       TRANSLATE_AUTO, TRANSLATE_NEVER,
							       TRANSLATE_ALWAYS);
		return true;
	case OPT_NO_TRANSLATE:
		c->translate = TRANSLATE_NEVER;
		return true;
	case OPT_CATALOG_DIR:
		if (c->ncatalog_dirs >= CATALOG_DIRS_MAX)
			errx(EXIT_FAILURE, _("too many catalogue directories"));
		c->catalog_dirs[c->ncatalog_dirs++] = arg;
		return true;
	case OPT_RECOVER:
		c->recover = (enum recover_when)parse_when(arg, _("unsupported recover mode"),
							   RECOVER_AUTO, RECOVER_NEVER, RECOVER_ALWAYS);
		return true;
	case OPT_FORMATS:
		c->formats = arg;
		return true;
	case 'v':
		c->verbose = true;
		return true;
	}
	return false;
}

/* What kdmesg does with the records instead of listing them, or --help. */
bool kdmesg_mode_option(struct ctl *c, int ch, const char *arg)
{
	switch (ch) {
	case OPT_STATS:
		c->stats = true;
		return true;
	case OPT_TOP:
		c->stats = true;
		c->stats_top = parse_top(arg);
		return true;
	case OPT_TUI:
		c->tui = true;
		return true;
	case OPT_LIST_VALUES:
		c->list_values = arg;
		return true;
	case 'h':
		kdmesg_usage();
	case 'V':
		/* TRANSLATORS: "kdmesg from kdmesg 0.1.0", as util-linux prints it. */
		printf(_("%s from %s\n"), program_invocation_short_name, PACKAGE_STRING);
		exit(EXIT_SUCCESS);
	}
	return false;
}
