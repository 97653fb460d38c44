// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg-options.c - kdmesg's command line: util-linux dmesg's options,
 * spellings, mutual exclusions, help text and error messages, plus the
 * --subsystem/--device filters and -o/--output formats.  It only fills in
 * struct ctl (kdmesg.h); kdmesg.c carries it out.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "shared/boottime.h"
#include "match/filter.h"
#include "source/klogctl.h"
#include "shared/modinfo.h"
#include "record/priority.h"
#include "nls.h"
#include "sink/output.h"
#include "sink/rawdump.h"
#include "record/record.h"
#include "source/source.h"
#include "sink/terminal.h"
#include "sink/timefmt.h"
#include "match/timeparse.h"
#include "kdmesg.h"


static void __attribute__((__noreturn__)) try_help(void)
{
	fprintf(stderr, _("Try '%s --help' for more information.\n"),
		program_invocation_short_name);
	exit(EXIT_FAILURE);
}

/*
 * Options that cannot be combined, rows and columns in ASCII order as
 * util-linux's err_exclusive_options() wants them.  As dmesg 2.42, the
 * message names the option seen first and the one that clashes with it,
 * in the order given.
 */
static const int excl[][7] = {
	{ 'C', 'D', 'E', 'c', 'n', 'r' },
	{ 'F', 'K' },
	{ 'H', 'r' },
	{ 'L', 'r' },
	{ 'S', 'w' },
	{ 'T', 'r' },
	{ 'd', 'r' },
	{ 'e', 'r' },
	{ 'r', 'x' },
	{ 'r', 't' },
};

/* "--name" of option @c into @buf, or "-c" for a short-only option. */
static const char *option_name(int c, const struct option *opts,
			       char *buf, size_t size)
{
	for (; opts->name; opts++)
		if (opts->val == c)
			break;
	if (opts->name)
		snprintf(buf, size, "--%s", opts->name);
	else
		snprintf(buf, size, "-%c", c);
	return buf;
}

static void check_exclusive(int c, const struct option *opts, int status[])
{
	size_t row;

	for (row = 0; row < sizeof(excl) / sizeof(excl[0]); row++) {
		const int *op;

		for (op = excl[row]; *op; op++) {
			if (*op != c)
				continue;
			if (status[row] == 0)
				status[row] = c;
			else if (status[row] != c) {
				char a[32], b[32];

				errx(EXIT_FAILURE,
				     _("options %s and %s cannot be combined"),
				     option_name(status[row], opts, a, sizeof(a)),
				     option_name(c, opts, b, sizeof(b)));
			}
			break;
		}
	}
}

static bool needs_wall_clock(const struct ctl *c)
{
	return kd_timefmt_needs_boot_time(&c->out) ||
	       c->filter.has_since || c->filter.has_until ||
	       (kd_output_flags(&c->out) & KD_OUTPUT_WALL_CLOCK);
}

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

/* --- option values -------------------------------------------------- */

static void parse_levels(const char *arg, uint32_t *mask)
{
	const char *bad = arg;
	int rc = kd_filter_parse_list(arg, kd_priority_level_parse, KD_LEVEL_COUNT,
				      mask, &bad);

	if (rc == -ERANGE)
		errx(EXIT_FAILURE, _("failed to parse level '%s': %s"), bad,
		     strerror(ERANGE));
	if (rc < 0)
		errx(EXIT_FAILURE, _("unknown level '%s'"), bad);
}

static void parse_facilities(const char *arg, uint32_t *mask)
{
	const char *bad = arg;
	int rc = kd_filter_parse_list(arg, kd_priority_facility_parse, 0, mask, &bad);

	if (rc == -ERANGE)
		errx(EXIT_FAILURE, _("failed to parse facility '%s': %s"), bad,
		     strerror(ERANGE));
	if (rc < 0)
		errx(EXIT_FAILURE, _("unknown facility '%s'"), bad);
}

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

/* As in dmesg 2.42, a time of 0 (the epoch, "@0") leaves the end open. */
static void parse_time_option(const char *arg, bool *has, uint64_t *usec)
{
	uint64_t v;

	if (kd_timeparse(arg, time(NULL), &v) < 0)
		errx(EXIT_FAILURE, _("invalid time value \"%s\""), arg);
	*has = v != 0;
	*usec = v;
}

static void add_match(struct ctl *c, enum kd_match_kind kind,
		      enum kd_field_id id, const char *value)
{
	struct kd_field f = { .id = id };
	int rc;

	f.key = kd_field_name(&f);
	rc = kd_filter_add(&c->filter, kind, &f, 0, value, NULL);
	if (rc == -E2BIG)
		errx(EXIT_FAILURE, _("too many different filters"));
	if (rc < 0)
		err(EXIT_FAILURE, NULL);
}

/* FIELD=VALUE: journalctl's exact match on any field. */
static void add_field_match(struct ctl *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct kd_field f;
	char *name;
	int rc;

	if (!eq || eq == arg) {
		/* dmesg says only "bad usage": name the argument and what it may be. */
		warnx(_("bad usage: '%s' is not an option; an argument must be a FIELD=VALUE match, such as SUBSYSTEM=pci"),
		      arg);
		try_help();
	}
	name = strndup(arg, (size_t)(eq - arg));
	if (!name)
		err(EXIT_FAILURE, NULL);
	if (kd_field_lookup(name, &f) < 0)
		errx(EXIT_FAILURE, _("invalid field name '%s' (fields are upper case: CODE_FILE=..., SUBSYSTEM=...)"),
		     name);
	rc = kd_filter_add(&c->filter, KD_MATCH_EXACT, &f, 0, eq + 1, NULL);
	free(name);	/* kd_filter_add() keeps its own copy of the key */
	if (rc == -E2BIG)
		errx(EXIT_FAILURE, _("too many different filters"));
	if (rc < 0)
		err(EXIT_FAILURE, NULL);
}

static void add_module_name(void *data, const char *name)
{
	add_match(data, KD_MATCH_MODULE, KD_FIELD_MODULE, name);
}

/* --module: the name as given, and what it stands for as modprobe sees it. */
static void add_module(struct ctl *c, const char *name)
{
	struct kd_modinfo *m = kdmesg_modinfo_for_module();

	add_module_name(c, name);
	/* A module loaded from outside the tree is known, though no alias. */
	if (m && kd_modinfo_resolve(m, name, add_module_name, c) <= 0 &&
	    !kd_modinfo_get(m, name))
		warnx(_("note: libkmod knows no module or alias '%s': matching MODULE=%s as given"),
		      name, name);
}

static void add_grep(struct ctl *c, const char *re)
{
	const struct kd_field f = { .id = KD_FIELD_MESSAGE, .key = KD_KEY_MESSAGE };
	const char *why = NULL;
	int rc = kd_filter_add(&c->filter, KD_MATCH_REGEX, &f,
			       c->ignore_case ? KD_MATCH_ICASE : 0, re, &why);

	if (rc == -EINVAL)
		errx(EXIT_FAILURE, _("invalid regular expression '%s': %s"), re,
		     why ? why : "?");
	if (rc == -E2BIG)
		errx(EXIT_FAILURE, _("too many different filters"));
	if (rc < 0)
		err(EXIT_FAILURE, NULL);
}

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

/*
 * What acts on the live kernel (-C -c -D -E -n), what names a file or
 * journal to read instead (-F -K --journal*), and what only makes sense when reading
 * (kdmesg's -o, --stats, --top, --tui): the first option of each kind.
 */
static void remember_option(int ch, int *action_opt, int *file_opt, int *read_opt)
{
	int *slot = NULL;

	if (ch > 0 && ch < CHAR_MAX && strchr("CcDEn", ch))
		slot = action_opt;
	else if (ch == 'F' || ch == 'K' || ch == OPT_JOURNAL ||
		 ch == OPT_JOURNAL_DIRECTORY || ch == OPT_JOURNAL_FILE)
		slot = file_opt;
	else if (ch == 'o' || ch == OPT_STATS || ch == OPT_TOP || ch == OPT_TUI)
		slot = read_opt;
	if (slot && !*slot)
		*slot = ch;
}

/*
 * -C, -c, -D, -E and -n act on the live kernel whatever is read: with a
 * file they would clear the ring buffer or change the console of the
 * machine behind the user's back (dmesg 2.42 does), and kdmesg's
 * reading options show that the user wants messages, not an action.
 */
static void check_live_action(const struct option *opts, int action_opt,
			      int file_opt, int read_opt, int stats_opt)
{
	char a[32], b[32];

	if (!action_opt)
		return;
	if (file_opt)
		errx(EXIT_FAILURE,
		     _("options %s and %s cannot be combined: %s acts on the live kernel, not on the file"),
		     option_name(action_opt, opts, a, sizeof(a)),
		     option_name(file_opt, opts, b, sizeof(b)), a);
	/* "--stats -n 10" meant the ten largest sites before --top. */
	if (action_opt == 'n' && stats_opt)
		errx(EXIT_FAILURE,
		     _("options %s and %s cannot be combined: %s sets the console level; the number of call sites is --top N"),
		     option_name(action_opt, opts, a, sizeof(a)),
		     option_name(stats_opt, opts, b, sizeof(b)), a);
	if (read_opt && action_opt != 'c')
		errx(EXIT_FAILURE,
		     _("options %s and %s cannot be combined: %s changes the live kernel and prints no messages"),
		     option_name(action_opt, opts, a, sizeof(a)),
		     option_name(read_opt, opts, b, sizeof(b)), a);
}

/*
 * The filter options as given (@opt 0: a FIELD=VALUE argument), named by
 * their long names, in c->filter_desc: the viewer shows them, since the
 * records they hide are still there to bring back.
 */
static void note_filter(struct ctl *c, int opt, const char *arg,
			const struct option *longopts)
{
	static const char *const filters[] = {
		"level", "facility", "kernel", "userspace", "ignore-case", "since", "until",
		"subsystem", "device", "code-file", "function", "module", "format", "grep",
	};
	size_t len = strlen(c->filter_desc);
	const char *name = NULL;

	for (const struct option *o = longopts; opt && o->name; o++)
		if (o->val == opt) {
			name = o->name;
			break;
		}
	for (size_t i = 0; name && i < sizeof(filters) / sizeof(*filters); i++)
		if (strcmp(name, filters[i]) == 0) {
			snprintf(c->filter_desc + len, sizeof(c->filter_desc) - len, "%s--%s%s%s",
				 len ? " " : "", name, arg ? " " : "", arg ? arg : "");
			return;
		}
	if (!opt)
		snprintf(c->filter_desc + len, sizeof(c->filter_desc) - len, "%s%s",
			 len ? " " : "", arg);
}

/* dmesg's table first: mutual-exclusion messages name its entries. */
static const struct option longopts[] = {
	{ "buffer-size",   required_argument, NULL, 's' },
	{ "clear",         no_argument,       NULL, 'C' },
	{ "color",         optional_argument, NULL, 'L' },
	{ "console-level", required_argument, NULL, 'n' },
	{ "console-off",   no_argument,       NULL, 'D' },
	{ "console-on",    no_argument,       NULL, 'E' },
	{ "decode",        no_argument,       NULL, 'x' },
	{ "file",          required_argument, NULL, 'F' },
	{ "facility",      required_argument, NULL, 'f' },
	{ "follow",        no_argument,       NULL, 'w' },
	{ "follow-new",    no_argument,       NULL, 'W' },
	{ "human",         no_argument,       NULL, 'H' },
	{ "help",          no_argument,       NULL, 'h' },
	{ "json",          no_argument,       NULL, 'J' },
	{ "kernel",        no_argument,       NULL, 'k' },
	{ "kmsg-file",     required_argument, NULL, 'K' },
	{ "level",         required_argument, NULL, 'l' },
	{ "since",         required_argument, NULL, OPT_SINCE },
	{ "syslog",        no_argument,       NULL, 'S' },
	{ "raw",           no_argument,       NULL, 'r' },
	{ "read-clear",    no_argument,       NULL, 'c' },
	{ "reltime",       no_argument,       NULL, 'e' },
	{ "show-delta",    no_argument,       NULL, 'd' },
	{ "ctime",         no_argument,       NULL, 'T' },
	{ "noescape",      no_argument,       NULL, OPT_NOESC },
	{ "notime",        no_argument,       NULL, 't' },
	{ "nopager",       no_argument,       NULL, 'P' },
	{ "until",         required_argument, NULL, OPT_UNTIL },
	{ "userspace",     no_argument,       NULL, 'u' },
	{ "version",       no_argument,       NULL, 'V' },
	{ "time-format",   required_argument, NULL, OPT_TIME_FORMAT },
	{ "force-prefix",  no_argument,       NULL, 'p' },
	{ "output",        required_argument, NULL, 'o' },
	{ "subsystem",     required_argument, NULL, OPT_SUBSYSTEM },
	{ "device",        required_argument, NULL, OPT_DEVICE },
	{ "translate",     optional_argument, NULL, OPT_TRANSLATE },
	{ "no-translate",  no_argument,       NULL, OPT_NO_TRANSLATE },
	{ "catalog-dir",   required_argument, NULL, OPT_CATALOG_DIR },
	{ "verbose",       no_argument,       NULL, 'v' },
	{ "code-file",     required_argument, NULL, OPT_CODE_FILE },
	{ "function",      required_argument, NULL, OPT_FUNCTION },
	{ "module",        required_argument, NULL, OPT_MODULE },
	{ "format",        required_argument, NULL, OPT_FORMAT },
	{ "grep",          required_argument, NULL, OPT_GREP },
	{ "ignore-case",   no_argument,       NULL, 'i' },
	{ "location",      no_argument,       NULL, OPT_LOCATION },
	{ "stats",         no_argument,       NULL, OPT_STATS },
	{ "top",           required_argument, NULL, OPT_TOP },
	{ "tui",           no_argument,       NULL, OPT_TUI },
	{ "formats",       required_argument, NULL, OPT_FORMATS },
	{ "recover",       optional_argument, NULL, OPT_RECOVER },
	/* Not in --help: for shell completion (kdmesg-complete.c). */
	{ "list-values",   required_argument, NULL, OPT_LIST_VALUES },
	KDMESG_JOURNAL_LONGOPTS
	KDMESG_SITES_LONGOPTS
	{ NULL, 0, NULL, 0 }
};

/* What the options seen so far ask, for the checks after the last one. */
struct seen {
	int excl_status[sizeof(excl) / sizeof(excl[0])];
	const char *n_arg;	/* -n: set once every option is known */
	int action_opt, file_opt, read_opt, stats_opt;
};

/* -C -c -D -E -n: what to do to the live kernel instead of reading it. */
static bool parse_action_option(struct ctl *c, int ch, const char *arg, struct seen *s)
{
	switch (ch) {
	case 'C':
		c->action = ACT_CLEAR;
		return true;
	case 'c':
		c->action = ACT_READ_CLEAR;
		return true;
	case 'D':
		c->action = ACT_CONSOLE_OFF;
		return true;
	case 'E':
		c->action = ACT_CONSOLE_ON;
		return true;
	case 'n':
		s->n_arg = arg;
		return true;
	}
	return false;
}

/* What is read and how: -F -K -S, the buffer size, following. */
static bool parse_source_option(struct ctl *c, int ch, const char *arg)
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
static bool parse_look_option(struct ctl *c, int ch, const char *arg)
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

/*
 * Which records are shown.  --module and --grep are compiled once every
 * option is known (-i may come after them): kept in lists until then.
 */
static bool parse_filter_option(struct ctl *c, int ch, const char *arg)
{
	switch (ch) {
	case 'f':
		parse_facilities(arg, &c->filter.facilities);
		return true;
	case 'k':
		c->filter.facilities |= 1u << 0;
		return true;
	case 'u':
		for (unsigned int i = 1; i < KD_FACILITY_COUNT; i++)
			c->filter.facilities |= 1u << i;
		return true;
	case 'l':
		parse_levels(arg, &c->filter.levels);
		return true;
	case OPT_SINCE:
		parse_time_option(arg, &c->filter.has_since, &c->filter.since_usec);
		return true;
	case OPT_UNTIL:
		parse_time_option(arg, &c->filter.has_until, &c->filter.until_usec);
		return true;
	case OPT_SUBSYSTEM:
	case OPT_DEVICE:
		if (kd_filter_add_value(&c->filter, ch == OPT_SUBSYSTEM ?
					KD_FIELD_SUBSYSTEM : KD_FIELD_DEVICE, arg) < 0)
			err(EXIT_FAILURE, NULL);
		return true;
	case OPT_CODE_FILE:
		add_match(c, KD_MATCH_PATH, KD_FIELD_CODE_FILE, arg);
		return true;
	case OPT_FUNCTION:
		add_match(c, KD_MATCH_GLOB, KD_FIELD_CODE_FUNC, arg);
		return true;
	case OPT_FORMAT:
		add_match(c, KD_MATCH_EXACT, KD_FIELD_FORMAT, arg);
		return true;
	case OPT_MODULE:
		c->modules[c->nmodules++] = arg;
		return true;
	case OPT_GREP:
		c->greps[c->ngreps++] = arg;
		return true;
	case 'i':
		c->ignore_case = true;
		return true;
	}
	return false;
}

/* --translate[=WHEN]: always without a WHEN. */
static enum translate_when parse_translate_option(const char *arg)
{
	if (arg && strcmp(arg, "auto") == 0)
		return TRANSLATE_AUTO;
	if (arg && strcmp(arg, "never") == 0)
		return TRANSLATE_NEVER;
	if (arg && strcmp(arg, "always") != 0)
		errx(EXIT_FAILURE, "%s: '%s'", _("unsupported translate mode"), arg);
	return TRANSLATE_ALWAYS;
}

/* --recover[=WHEN]: always without a WHEN. */
static enum recover_when parse_recover_option(const char *arg)
{
	if (arg && strcmp(arg, "auto") == 0)
		return RECOVER_AUTO;
	if (arg && strcmp(arg, "never") == 0)
		return RECOVER_NEVER;
	if (arg && strcmp(arg, "always") != 0)
		errx(EXIT_FAILURE, "%s: '%s'", _("unsupported recover mode"), arg);
	return RECOVER_ALWAYS;
}

/* The stages records pass: translation, recovery of call sites. */
static bool parse_stage_option(struct ctl *c, int ch, const char *arg)
{
	switch (ch) {
	case OPT_TRANSLATE:
		c->translate = parse_translate_option(arg);
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
		c->recover = parse_recover_option(arg);
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
static bool parse_mode_option(struct ctl *c, int ch, const char *arg)
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

/* One option @ch with its argument @arg (NULL when it has none). */
static void parse_option(struct ctl *c, int ch, char *arg, struct seen *s,
			 int argc, char **argv)
{
	check_exclusive(ch, longopts, s->excl_status);
	note_filter(c, ch, arg, longopts);
	remember_option(ch, &s->action_opt, &s->file_opt, &s->read_opt);
	if ((ch == OPT_STATS || ch == OPT_TOP) && !s->stats_opt)
		s->stats_opt = ch;

	if (parse_action_option(c, ch, arg, s) || parse_source_option(c, ch, arg) ||
	    parse_look_option(c, ch, arg) || parse_filter_option(c, ch, arg) ||
	    parse_stage_option(c, ch, arg) || parse_mode_option(c, ch, arg))
		return;
	if (!kdmesg_journal_option(c, ch, arg, argc, argv) && !kdmesg_sites_option(c, ch, arg))
		try_help();
}

/* FIELD=VALUE arguments, then the --module and --grep lists, into the filter. */
static void compile_matches(struct ctl *c, int argc, char **argv)
{
	for (; optind < argc; optind++) {
		note_filter(c, 0, argv[optind], NULL);
		add_field_match(c, argv[optind]);
	}
	for (size_t i = 0; i < c->nmodules; i++)
		add_module(c, c->modules[i]);
	for (size_t i = 0; i < c->ngreps; i++)
		add_grep(c, c->greps[i]);
	/* Compiled into the filter: the lists are done with. */
	free(c->greps);
	free(c->modules);
	c->greps = c->modules = NULL;
	c->ngreps = c->nmodules = 0;
}

static void parse_args(struct ctl *c, int argc, char **argv)
{
	struct seen s = { .n_arg = NULL };
	int ch;

	/* At most one of each per argument: no reallocation while parsing. */
	c->greps = calloc((size_t)argc + 1, sizeof(*c->greps));
	c->modules = calloc((size_t)argc + 1, sizeof(*c->modules));
	if (!c->greps || !c->modules)
		err(EXIT_FAILURE, NULL);

	while ((ch = getopt_long(argc, argv, "CcDdEeF:f:HhiJK:kL::l:n:o:PprSs:TtuVvWwx",
				 longopts, NULL)) != -1)
		parse_option(c, ch, optarg, &s, argc, argv);

	compile_matches(c, argc, argv);
	check_live_action(longopts, s.action_opt, s.file_opt, s.read_opt, s.stats_opt);
	if (s.n_arg) {
		c->action = ACT_CONSOLE_LEVEL;
		if (kd_klogctl_parse_console_level(s.n_arg, &c->console_level) < 0)
			errx(EXIT_FAILURE, _("unknown level '%s'"), s.n_arg);
	}
}

/* Fill the writer options from what the command line asked for. */
static void finish_options(struct ctl *c)
{
	unsigned int flags = kd_output_flags(&c->out);
	const char *env;

	/*
	 * The export format carries values with control bytes as they are
	 * (binary fields): like gzip, not onto a terminal, which would take
	 * a kernel's ESC or OSC bytes for commands.
	 */
	if ((flags & KD_OUTPUT_BINARY) && !c->stats && !c->tui &&
	    isatty(STDOUT_FILENO))
		errx(EXIT_FAILURE, _("the export format is binary and not written to a terminal: redirect it to a file or a pipe"));
	if (!(flags & KD_OUTPUT_TEXT_OPTIONS)) {
		/* As dmesg -J: the stamp is always sec.usec, no text tweaks. */
		c->out.ntime = 0;
		c->out.force_prefix = false;
		c->out.raw = false;
		c->out.noescape = true;
		c->nopager = true;
	}
	kd_timefmt_resolve(&c->out);

	if (needs_wall_clock(c)) {
		int64_t boot = 0;

		/* --boot-time: a dump from another machine or boot. */
		if (c->has_boot_time)
			boot = c->boot_time;
		else if (kd_boottime_get(&boot) < 0)
			warnx(_("failed to determine boot time, timestamps will be inaccurate"));
		c->out.boot_usec = boot;
		c->filter.boot_usec = boot;
	}

	/* Test hook: the caller-id column follows this machine's pid_max. */
	if ((env = getenv("KDMESG_TEST_CALLER_WIDTH")))
		c->out.caller_width = atoi(env);

	if (flags & KD_OUTPUT_TEXT_OPTIONS)
		c->out.color = kd_terminal_want_color(c->colormode, COLORS_UTILNAME);
	if (flags & KD_OUTPUT_MODULE_FACTS)
		c->out.module_facts = kdmesg_module_facts;
	if (c->follow)
		c->nopager = true;
	/* -w on a saved log follows it as `tail -F` does (lib/source/source.h). */
	if (c->follow && (kdmesg_kind_caps(c) & KD_SOURCE_CAN_FOLLOW_FILE))
		c->src_flags |= KD_SOURCE_FOLLOW_FILE;
	/* --stats -w redraws its table in place: that needs a terminal. */
	if (c->follow && c->stats && !c->tui && !isatty(STDOUT_FILENO))
		errx(EXIT_FAILURE, _("--stats with --follow redraws its table on a terminal, and standard output is not one: leave out --follow to print the table once"));
	/*
	 * A follow run shows each record as it comes; a one-shot run lets the
	 * writer gather lines across records (about a tenth of the CPU time
	 * of a large -F/-K file, bench/README.md).
	 */
	c->out.follow = c->follow;
	c->out.batch = !c->follow;
}


void kdmesg_parse_options(struct ctl *c, int argc, char **argv)
{
	parse_args(c, argc, argv);
	kdmesg_journal_check(c);
	finish_options(c);
}
