// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg-options-look.c - kdmesg's options of how each line looks: time
 * formats, colours (-L), prefixes (-x, -p, -r), escaping, --location and
 * the output format (-J, -o).  See kdmesg-options.c for the table.
 */
#include <err.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nls.h"
#include "sink/output.h"
#include "sink/terminal.h"
#include "sink/timefmt.h"
#include "kdmesg.h"
#include "kdmesg-options-internal.h"

static enum kd_time_format parse_time_format(const char *s)
{
	int f = kd_timefmt_from_name(s);

	if (f < 0)
		errx(EXIT_FAILURE, _("unknown time format: %s"), s);
	return f;
}

/* The -o names, as --help, -o help and the shell completion list them. */
static const char output_formats[] = "text json jsonl export verbose";

static enum kd_output_mode parse_output_format(const char *s)
{
	int m;

	if (strcmp(s, "help") == 0) {
		printf(_("Output formats: %s\n"), output_formats);
		exit(EXIT_SUCCESS);
	}
	m = kd_output_mode_from_name(s);
	if (m < 0)
		errx(EXIT_FAILURE, _("unknown output format: %s (the formats are: %s)"), s, output_formats);
	return (enum kd_output_mode)m;
}

/* -L's argument, as dmesg words its error. */
static int parse_color_option(const char *arg)
{
	int m;

	if (!arg)
		return KD_COLORMODE_AUTO;
	m = kd_colormode_parse(arg);
	if (m < 0)
		errx(EXIT_FAILURE, "%s: '%s'", _("unsupported color mode"),
		     arg + (*arg == '='));
	return m;
}

/* How each line looks: time stamps, colours, prefixes, escaping, -o. */
bool kdmesg_look_option(struct ctl *c, int ch, const char *arg)
{
	switch (ch) {
	case 'd':
		kd_timefmt_add(&c->out, KD_TIME_RAW_DELTA);
		return true;
	case 'e':
		kd_timefmt_add(&c->out, KD_TIME_RELTIME);
		return true;
	case 'T':
		kd_timefmt_add(&c->out, KD_TIME_CTIME);
		return true;
	case 't':
		kd_timefmt_add(&c->out, KD_TIME_NONE);
		return true;
	case OPT_TIME_FORMAT:
		kd_timefmt_add(&c->out, parse_time_format(arg));
		return true;
	case 'H':
		kd_timefmt_add(&c->out, KD_TIME_RELTIME);
		c->colormode = KD_COLORMODE_AUTO;
		c->human = true;
		return true;
	case 'L':
		c->colormode = parse_color_option(arg);
		return true;
	case 'J':
		c->out.mode = KD_OUTPUT_JSON;
		c->out.json_dict = false;	/* dmesg's members only */
		return true;
	case 'o':
		c->out.mode = parse_output_format(arg);
		c->out.json_dict = true;
		return true;
	case 'P':
		c->nopager = true;
		return true;
	case 'p':
		c->out.force_prefix = true;
		return true;
	case 'r':
		c->out.raw = true;
		return true;
	case 'x':
		c->out.decode = true;
		return true;
	case OPT_NOESC:
		c->out.noescape = true;
		return true;
	case OPT_LOCATION:
		c->out.location = true;
		return true;
	}
	return false;
}
