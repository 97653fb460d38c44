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
#include <stdio.h>
#include <stdint.h>

#include "match/filter.h"
#include "sink/output.h"
#include "source/source.h"

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

/* --translate[=WHEN]: auto translates text output to a terminal. */
enum translate_when {
	TRANSLATE_AUTO,
	TRANSLATE_ALWAYS,
	TRANSLATE_NEVER,
};

/* --recover[=WHEN]: auto recovers when something shows or uses the fields. */
enum recover_when {
	RECOVER_AUTO,
	RECOVER_ALWAYS,
	RECOVER_NEVER,
};

#define CATALOG_DIRS_MAX	16

struct ctl {
	enum action action;
	int console_level;

	const char *kind;	/* the source's name (KD_SOURCE_KMSG, ...) */
	unsigned int caps;	/* kd_source_caps() once opened */
	const char *path;
	unsigned int src_flags;
	size_t bufsize;

	/* The journal (kdmesg-journal.c): --journal-file, --boot, --machine. */
	const char **journal_files;	/* NULL-terminated, or NULL */
	const char *boot;
	const char **machines;		/* NULL-terminated, or NULL */
	bool list_boots;		/* --list-boots */
	bool inputs_failed;		/* a journal file was left out: exit 1 */
	bool has_boot_time;		/* --boot-time TIME */
	int64_t boot_time;

	struct kd_filter filter;
	struct kd_output_opts out;

	int colormode;
	bool human, nopager, follow;

	enum translate_when translate;
	const char *catalog_dirs[CATALOG_DIRS_MAX];	/* --catalog-dir, in order */
	size_t ncatalog_dirs;
	bool verbose;		/* -v: summaries on stderr */
	enum recover_when recover;
	const char *formats;	/* --formats FILE */
	const char *sites;	/* --sites FILE */
	bool save_sites;	/* --save-sites */

	/* --grep patterns, compiled once -i is known; --module names. */
	const char **greps;
	size_t ngreps;
	const char **modules;
	size_t nmodules;
	bool ignore_case;

	bool stats;		/* --stats */
	long stats_top;		/* --top N; 0: all */
	bool tui;		/* --tui: the live viewer (src/tui.c) */
	const char *list_values;	/* hidden --list-values: for shell completion */
	char filter_desc[256];	/* the filter options as given ("--level warn+ --module e1000") */
};


/** kdmesg_kind_caps() - the capabilities of the source @c names (before opening). */
static inline unsigned int kdmesg_kind_caps(const struct ctl *c)
{
	const struct kd_source_type *t = kd_source_type_find(c->kind);

	return t ? t->caps : 0;
}

struct kd_pipeline;
struct kd_catalog;

/**
 * kdmesg_translate_setup() - add the translation stage to @p when
 * --translate and the output ask for it and a catalogue exists
 * (kdmesg-translate.c).  Call before the pipeline is opened.
 */
void kdmesg_translate_setup(struct ctl *c, struct kd_pipeline *p);

/**
 * kdmesg_translate_stats() - after the --stats table (text output): how
 * many records were translated and why translations were not used.
 */
void kdmesg_translate_stats(struct ctl *c, FILE *out);

struct kd_json;
/**
 * kdmesg_translate_stats_json() - in the --stats JSON object: a
 * "translation" object with the counts of kdmesg_translate_stats() and
 * every reason (kd_stats_json_fn; nothing when not translating).
 */
void kdmesg_translate_stats_json(void *data, struct kd_json *j);

/** kdmesg_translate_active() - whether kdmesg_translate_setup() added the stage. */
bool kdmesg_translate_active(void);

/**
 * kdmesg_translate_catalog() - the catalogues kdmesg_translate_setup()
 * loaded for the translation stage, or NULL when it added none.
 */
const struct kd_catalog *kdmesg_translate_catalog(void);

/** kdmesg_translate_finish() - the -v summary; releases the translator. */
void kdmesg_translate_finish(struct ctl *c);
/**
 * kdmesg_recover_setup() - add the recovery stage to @p when --recover
 * and the output ask for it (kdmesg-recover.c); before the translation
 * stage, which reads what it recovers.  Exits when --formats is unusable.
 */
void kdmesg_recover_setup(struct ctl *c, struct kd_pipeline *p);

/**
 * kdmesg_recover_add_catalogue() - the recovery's last format source:
 * the msgids of @cat (NULL: nothing), after every index, compiled at the
 * first plain record (@cat must live until then); when the recovery
 * stage is there.  Call after kdmesg_translate_setup().
 */
void kdmesg_recover_add_catalogue(const struct kd_catalog *cat);

/** kdmesg_recover_active() - whether the stage runs with an index. */
bool kdmesg_recover_active(void);

/** kdmesg_recover_finish() - the -v summary; releases the stage. */
void kdmesg_recover_finish(struct ctl *c);

/**
 * kdmesg_fields_wanted() - whether anything of this run shows or uses
 * the kprint fields (CODE_*, MODULE, FORMAT, ARGn): the output, a
 * filter, --stats, the viewer or the translation.
 */
bool kdmesg_fields_wanted(const struct ctl *c);

/**
 * kdmesg_sites_setup() - add the expansion of compact kprint records
 * (kdmesg-sites.c) to @p when the fields are wanted, with the site table
 * --sites, KDMESG_SITES or the source's kernel names; before the
 * recovery and translation stages, which read what it adds.  Exits when
 * --sites is unreadable.
 */
void kdmesg_sites_setup(struct ctl *c, struct kd_pipeline *p);

/** kdmesg_sites_finish() - remarks on records left compact; releases the stage. */
void kdmesg_sites_finish(struct ctl *c);

/**
 * kdmesg_env_or() - the environment variable @name, or @def when it is
 * unset or empty (the site-table paths and their test hooks).
 */
const char *kdmesg_env_or(const char *name, const char *def);

/** kdmesg_save_sites() - --save-sites (kdmesg-save-sites.c); the exit status. */
int kdmesg_save_sites(struct ctl *c);

/**
 * kdmesg_sites_option() - take --sites or --save-sites (@ch, its
 * argument @arg); false for other options.
 */
bool kdmesg_sites_option(struct ctl *c, int ch, const char *arg);

struct kd_source_stats;

/**
 * kdmesg_open_source() - open what @c names in @p (declare needs first);
 * exits with the user-facing message when that fails.
 */
void kdmesg_open_source(struct ctl *c, struct kd_pipeline *p);

/**
 * kdmesg_report_stats() - warn about malformed, truncated and lost
 * records (lost ones above @lost_reported) on standard error.
 */
void kdmesg_report_stats(const struct kd_source_stats *st, uint64_t lost_reported);

struct kd_modinfo;
struct kd_modinfo_facts;

/**
 * kdmesg_modinfo_log_to() - send libkmod's messages to @fn instead of
 * standard error (the viewer, whose screen is curses').
 */
void kdmesg_modinfo_log_to(void (*fn)(void *data, int level, const char *msg), void *data);

/**
 * kdmesg_modinfo_open() - kdmesg's one libkmod context in *@out, set up on
 * first use; 0, or the negative errno of the set-up (-ENOSYS: built
 * without libkmod) with *@out NULL.
 */
int kdmesg_modinfo_open(struct kd_modinfo **out);

/**
 * kdmesg_modinfo() - kdmesg_modinfo_open() without the error; NULL when
 * libkmod cannot read the modules (silently: its users say why, once).
 */
struct kd_modinfo *kdmesg_modinfo(void);

/**
 * kdmesg_modinfo_for_module() - kdmesg_modinfo() for --module's aliases;
 * NULL after a note (once per run) that names are matched as given.
 */
struct kd_modinfo *kdmesg_modinfo_for_module(void);

/** kdmesg_modinfo_free() - release the context (at exit). */
void kdmesg_modinfo_free(void);

/**
 * kdmesg_module_facts() - kd_output_opts.module_facts for kdmesg: called
 * only for a record with MODULE, so the note that there are no facts
 * (once per run) comes only when the output would have shown them.
 */
const struct kd_modinfo_facts *kdmesg_module_facts(void *data, const char *name);


/**
 * kdmesg_list_values() - print what shell completion offers for @what
 * (kdmesg-complete.c) and exit.
 */
void kdmesg_list_values(struct ctl *c, const char *what) __attribute__((__noreturn__));

/*
 * The journal's options (kdmesg-journal.c); their getopt codes, and the
 * long options for the table of kdmesg-options.c.
 */
enum {
	OPT_JOURNAL = 0x1000,
	OPT_JOURNAL_DIRECTORY,
	OPT_JOURNAL_FILE,
	OPT_BOOT,
	OPT_LIST_BOOTS,
	OPT_MACHINE,
	OPT_BOOT_TIME,
	OPT_SITES = 0x1100,
	OPT_SAVE_SITES,
};
#define KDMESG_SITES_LONGOPTS \
	{ "sites",             required_argument, NULL, OPT_SITES }, \
	{ "save-sites",        no_argument,       NULL, OPT_SAVE_SITES },
#define KDMESG_JOURNAL_LONGOPTS \
	{ "journal",           no_argument,       NULL, OPT_JOURNAL }, \
	{ "journal-directory", required_argument, NULL, OPT_JOURNAL_DIRECTORY }, \
	{ "journal-file",      required_argument, NULL, OPT_JOURNAL_FILE }, \
	{ "boot",              optional_argument, NULL, OPT_BOOT }, \
	{ "list-boots",        no_argument,       NULL, OPT_LIST_BOOTS }, \
	{ "machine",           required_argument, NULL, OPT_MACHINE }, \
	{ "boot-time",         required_argument, NULL, OPT_BOOT_TIME },

/**
 * kdmesg_journal_option() - take option @ch (its argument @arg) when it
 * is one of the journal's; false when it is not.  --boot without "=" may
 * take the next argument as journalctl -b does (advances optind).
 */
bool kdmesg_journal_option(struct ctl *c, int ch, const char *arg, int argc, char **argv);

/** kdmesg_journal_check() - after parsing: refuse what does not combine. */
void kdmesg_journal_check(struct ctl *c);

/** kdmesg_source_args() - what kdmesg_open_source() opens, for @c. */
struct kd_source_args kdmesg_source_args(const struct ctl *c);

/**
 * kdmesg_report_inputs() - one line on standard error per input the
 * source left out (a corrupt journal file); sets c->inputs_failed.
 */
void kdmesg_report_inputs(struct ctl *c, struct kd_source *src);

/** kdmesg_journal_open_failed() - the user-facing error of a journal that did not open. */
void __attribute__((__noreturn__)) kdmesg_journal_open_failed(struct ctl *c, int rc);

/** kdmesg_list_boots() - --list-boots: print the table; the exit status. */
int kdmesg_list_boots(struct ctl *c);

/** kdmesg_parse_options() - fill @c from the command line; exits on errors. */
void kdmesg_parse_options(struct ctl *c, int argc, char **argv);

/** kdmesg_usage() - print --help on standard output and exit 0. */
void kdmesg_usage(void) __attribute__((__noreturn__));

#endif /* KDMESG_KDMESG_H */
