// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg-options.c - kdmesg's command line: util-linux dmesg's options,
 * spellings, mutual exclusions, help text and error messages, plus the
 * --subsystem/--device filters and -o/--output formats.  It only fills in
 * struct ctl (kdmesg.h); kdmesg.c carries it out.
 *
 * This file holds the option table, the checks of what cannot be
 * combined, the actions on the live kernel (-C -c -D -E -n) and what is
 * settled once every option is known.  Each group of options is parsed
 * in a file of its own: what is read and done with it
 * (kdmesg-options-read.c), how lines look (kdmesg-options-look.c), which
 * records are shown (kdmesg-options-filter.c).
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
#include "kdmesg-options-internal.h"

void __attribute__((__noreturn__)) kdmesg_try_help(void)
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

/* One option @ch with its argument @arg (NULL when it has none). */
static void parse_option(struct ctl *c, int ch, char *arg, struct seen *s,
			 int argc, char **argv)
{
	check_exclusive(ch, longopts, s->excl_status);
	kdmesg_note_filter(c, ch, arg, longopts);
	remember_option(ch, &s->action_opt, &s->file_opt, &s->read_opt);
	if ((ch == OPT_STATS || ch == OPT_TOP) && !s->stats_opt)
		s->stats_opt = ch;

	if (parse_action_option(c, ch, arg, s) || kdmesg_source_option(c, ch, arg) ||
	    kdmesg_look_option(c, ch, arg) || kdmesg_filter_option(c, ch, arg) ||
	    kdmesg_stage_option(c, ch, arg) || kdmesg_mode_option(c, ch, arg))
		return;
	if (!kdmesg_journal_option(c, ch, arg, argc, argv) && !kdmesg_sites_option(c, ch, arg))
		kdmesg_try_help();
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

	kdmesg_compile_matches(c, argc, argv);
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
