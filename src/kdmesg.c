// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg.c - the kdmesg program: carries out what kdmesg-options.c decided
 * from the command line.  It sets up a pipeline (lib/pipeline.h) from the
 * source through the filter into a writer, reports lost and malformed
 * records, and performs the clear and console actions; all parsing and
 * formatting lives in lib/.
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
#include "record/field.h"
#include "shared/boottime.h"
#include "shared/lost.h"
#include "record/host.h"
#include "match/filter.h"
#include "source/klogctl.h"
#include "record/priority.h"
#include "nls.h"
#include "sink/output.h"
#include "pager.h"
#include "pipeline.h"
#include "sink/rawdump.h"
#include "record/record.h"
#include "source/source.h"
#include "sink/stats.h"
#include "sink/terminal.h"
#include "sink/timefmt.h"
#include "match/timeparse.h"
#include "kdmesg.h"
#include "tui.h"

static volatile sig_atomic_t stop_requested;

/* --- reading ---------------------------------------------------------- */

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* Ctrl-C or a closed pipe ends a follow run like the end of a file does. */
static void setup_signals(bool follow)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	if (!follow)
		return;
	sa.sa_handler = on_stop_signal;	/* no SA_RESTART: wake blocked reads */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void __attribute__((__noreturn__)) kernel_read_failed(int rc)
{
	errno = -rc;
	warn(_("read kernel buffer failed"));
	if (rc == -EPERM || rc == -EACCES)
		/* TRANSLATORS: kernel.dmesg_restrict is a sysctl name, keep it. */
		fprintf(stderr, _("%s: reading the kernel log needs root or the CAP_SYSLOG capability (kernel.dmesg_restrict is set)\n"),
			program_invocation_short_name);
	exit(EXIT_FAILURE);
}

static void __attribute__((__noreturn__))
file_open_failed(const char *kind, const char *path, int rc)
{
	if (rc == -EMEDIUMTYPE && strcmp(kind, KD_SOURCE_SYSLOG_FILE) == 0)
		errx(EXIT_FAILURE, _("%s: a /dev/kmsg dump, not a syslog(2) buffer: read it with -K (--kmsg-file)"),
		     path);
	if (rc == -EMEDIUMTYPE)
		errx(EXIT_FAILURE, _("%s: a syslog(2) buffer, not a /dev/kmsg dump: read it with -F (--file)"),
		     path);
	if (rc == -ENODATA)
		errx(EXIT_FAILURE, _("%s: file is empty"), path);
	if (rc == -ENODEV)
		errx(EXIT_FAILURE, _("%s: is a device, not a saved log (read the live log without -F or -K)"),
		     path);
	if (rc == -EINVAL || rc == -EILSEQ || rc == -EBADMSG)
		errx(EXIT_FAILURE, _("%s: not a kernel log (binary or unrecognised data)"),
		     path);
	errno = -rc;
	err(EXIT_FAILURE, _("cannot open %s"), path);
}

/*
 * Open what -K/-F/-S or the default names; the source falls back from
 * /dev/kmsg to syslog(2) once, as dmesg does, and reports the /dev/kmsg
 * error when both fail (so dmesg_restrict gets its hint).
 */
void kdmesg_open_source(struct ctl *c, struct kd_pipeline *p)
{
	static struct kd_host local;
	struct kd_source_args args;
	int rc;

	/* dmesg reads a bad "<pri>" differently when it decodes priorities. */
	if (c->filter.levels || c->filter.facilities || c->out.decode ||
	    c->out.color || (kd_output_flags(&c->out) & KD_OUTPUT_DECODED_PRI))
		c->src_flags |= KD_SOURCE_DECODED_PRI;
	kd_pipeline_set_filter(p, &c->filter);
	if (c->stats)
		kd_pipeline_need_keys(p, kd_stats_keys);
	else if (kd_output_keys(&c->out))
		kd_pipeline_need_keys(p, kd_output_keys(&c->out));
	else
		kd_pipeline_need(p, kd_output_needs(&c->out));
	args = kdmesg_source_args(c);
	rc = kd_pipeline_open_args(p, c->kind, &args);
	if (rc < 0) {
		const struct kd_source_type *type = kd_source_type_find(c->kind);

		if (strcmp(c->kind, KD_SOURCE_JOURNAL) == 0)
			kdmesg_journal_open_failed(c, rc);
		if (type && (type->caps & KD_SOURCE_NAMED_INPUT))
			file_open_failed(c->kind, c->path, rc);
		kernel_read_failed(rc);
	}
	c->kind = kd_pipeline_kind(p);
	c->caps = kd_pipeline_caps(p);
	kdmesg_report_inputs(c, kd_pipeline_source(p));
	/* Records of this boot carry this machine's IDs in -o export/json. */
	if ((c->caps & KD_SOURCE_THIS_BOOT) && !c->has_boot_time &&
	    kd_host_local(&local, c->out.boot_usec) == 0) {
		c->out.host = &local;
	} else if (!(c->caps & (KD_SOURCE_THIS_BOOT | KD_SOURCE_HAS_HOST)) &&
		   c->out.mode == KD_OUTPUT_EXPORT && c->out.boot_usec > 0) {
		/* A dump: journalctl -b needs a boot ID (kd_host_dump()). */
		kd_host_dump(&local, c->out.boot_usec);
		c->out.host = &local;
	}
	c->out.host_column = c->caps & KD_SOURCE_HAS_HOST;
}

static void report_lost(uint64_t n)
{
	warnx(ngettext("%" PRIu64 " record lost (overwritten before it was read)",
		       "%" PRIu64 " records lost (overwritten before they were read)",
		       n), n);
}

/* Lost records: said at most once a second (lib/shared/lost.h). */
static struct kd_lost lost;

static void add_lost(uint64_t n)
{
	uint64_t now = kd_lost_add(&lost, n);

	if (now)
		report_lost(now);
}

static void finish_lost(void)
{
	uint64_t total, n = kd_lost_finish(&lost, &total);

	if (n)
		report_lost(n);
	if (total)
		warnx(ngettext("%" PRIu64 " record lost in all",
			       "%" PRIu64 " records lost in all",
			       total), total);
}

void kdmesg_report_stats(const struct kd_source_stats *st, uint64_t lost_reported)
{
	if (st->malformed)
		warnx(ngettext("skipped %" PRIu64 " malformed record",
			       "skipped %" PRIu64 " malformed records",
			       st->malformed), st->malformed);
	if (st->truncated)
		warnx(ngettext("%" PRIu64 " record was truncated",
			       "%" PRIu64 " records were truncated",
			       st->truncated), st->truncated);
	if (st->lost > lost_reported)
		add_lost(st->lost - lost_reported);
	finish_lost();
}

/*
 * True once a write found the reader gone.  errno says EPIPE only right
 * after the failing write (the escaper's mbrtowc() may overwrite it with
 * EILSEQ), so also ask the pipe itself: its write end polls POLLERR once
 * the reader has closed.  Latched for close_stdout().
 */
static bool stdout_epipe;

static bool output_broken(void)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = 0 };

	if (stdout_epipe || !ferror(stdout))
		return stdout_epipe;
	if (errno == EPIPE || (poll(&p, 1, 0) == 1 && (p.revents & POLLERR)))
		stdout_epipe = true;
	return stdout_epipe;
}

/*
 * dmesg -r on a syslog-format source prints the buffer itself, escaped,
 * not records rebuilt from it.  Returns the exit status.
 */
static int print_raw_buffer(struct ctl *c)
{
	char *buf = NULL;
	size_t len = 0;
	int rc, fd = STDIN_FILENO;

	if (!c->path) {
		/* syslog(2): the only syslog-format source without a path */
		rc = kd_klogctl_read_all(&buf, &len, c->bufsize, false);
		if (rc < 0)
			kernel_read_failed(rc);
	} else {
		if (strcmp(c->path, "-") != 0 &&
		    (fd = open(c->path, O_RDONLY | O_CLOEXEC)) < 0)
			file_open_failed(c->kind, c->path, -errno);
		rc = kd_rawdump_read(fd, &buf, &len);
		if (fd != STDIN_FILENO)
			close(fd);
		if (rc < 0) {
			errno = -rc;
			err(EXIT_FAILURE, _("read of %s failed"), c->path);
		}
		if (len == 0)
			file_open_failed(c->kind, c->path, -ENODATA);
	}
	rc = kd_rawdump_write(stdout, buf, len,
			      !c->path ? 0 : KD_RAWDUMP_FILE_CHUNK,
			      c->out.noescape);
	if (rc < 0 && output_broken())
		rc = 0;
	free(buf);
	return rc < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

/*
 * A filter on kprint fields meets input without any (a stock kernel, a
 * dump from one): say so once instead of printing nothing silently.  A
 * stage, so it sees every record read, shown or not.
 */
struct kprint_seen {
	bool seen, noted;
	/*
	 * The kprint keys the filter reads (the reader keeps only those),
	 * and two that every kprint record has when it reads only others.
	 */
	const char *keys[KD_FILTER_MATCHES_MAX + 3];
};

static int kprint_seen_apply(void *data, struct kd_record *rec)
{
	struct kprint_seen *k = data;

	if (k->seen || !rec->dict_len)
		return 1;
	for (const char *const *key = k->keys; *key; key++)
		if (kd_record_dict_get(rec, *key)) {
			k->seen = true;
			return 1;
		}
	/* A group stored as one record has its lines' LINE<k>_ keys instead. */
	for (size_t i = 0; i < rec->dict_len; i++)
		if (kd_dict_line_prefix(rec->dict[i].key, strlen(rec->dict[i].key))) {
			k->seen = true;
			break;
		}
	return 1;
}

/*
 * The keys of @f's matches on kprint fields, into @k->keys.  A filter on
 * ARGn or GROUP alone meets kprint records that lack them (a message
 * without arguments): whether the input has kprint fields at all is then
 * told by CODE_FILE and FORMAT.
 */
static void kprint_seen_keys(struct kprint_seen *k, const struct kd_filter *f)
{
	bool site = false;
	size_t n = 0;

	for (size_t i = 0; i < f->nmatches; i++) {
		const struct kd_field *fld = kd_match_field(f->matches[i]);

		if (fld->id >= KD_FIELD_CODE_FILE)
			k->keys[n++] = kd_field_dict_key(fld);
		site |= fld->id >= KD_FIELD_CODE_FILE && fld->id <= KD_FIELD_FORMAT;
	}
	if (!site) {
		k->keys[n++] = KD_KEY_CODE_FILE;
		k->keys[n++] = KD_KEY_FORMAT;
	}
	k->keys[n] = NULL;
}

static void kprint_seen_note(struct kprint_seen *k)
{
	if (k->seen || k->noted)
		return;
	k->noted = true;
	warnx(_("note: no record has structured fields (CODE_FILE, CODE_FUNC, MODULE, FORMAT): the kernel lacks the kprint patches or the dump comes from a stock kernel, so filters on them match nothing"));
}

/* What the follow hooks of one print_records() run share. */
struct follow_ctx {
	struct ctl *c;
	struct kprint_seen *seen;	/* NULL: no note wanted */
	struct kd_stats *stats;		/* --stats -w: redrawn when idle */
	bool stats_dirty;
};

static void on_caught_up(void *data)
{
	struct follow_ctx *f = data;

	if (f->seen)
		kprint_seen_note(f->seen);
}

static void on_lost(void *data, uint64_t n)
{
	(void)data;
	add_lost(n);
}

/* -w on a file, as `tail -F` tells of it. */
static void on_file_changed(void *data, bool replaced)
{
	struct follow_ctx *f = data;
	const char *name = strcmp(f->c->path, "-") == 0 ? _("standard input") : f->c->path;

	if (replaced)
		warnx(_("%s: file replaced; following the new file from its start"), name);
	else
		warnx(_("%s: file truncated; reading it again from its start"), name);
}

static int write_stats_table(struct ctl *c, struct kd_stats *stats)
{
	int rc = kd_output_flags(&c->out) & KD_OUTPUT_TEXT_OPTIONS ?
		kd_stats_write_text(stats, stdout, (size_t)c->stats_top,
				    kdmesg_module_facts, NULL) :
		kd_stats_write_json(stats, stdout, (size_t)c->stats_top,
				    kdmesg_module_facts, NULL, kdmesg_translate_stats_json);

	if (rc == -ENOMEM)
		errx(EXIT_FAILURE, _("cannot set up the output"));
	kdmesg_translate_stats(c, stdout);
	return rc;
}

/* --stats -w: the table again, on a cleared terminal, once new records came. */
static void on_idle(void *data)
{
	struct follow_ctx *f = data;

	if (!f->stats || !f->stats_dirty)
		return;
	f->stats_dirty = false;
	fputs("\033[H\033[2J", stdout);
	write_stats_table(f->c, f->stats);
	fflush(stdout);
}

static int stats_follow_write(void *data, const struct kd_record *rec,
			      const struct kd_prev *prev)
{
	struct follow_ctx *f = data;

	f->stats_dirty = true;
	return kd_stats_sink_write(f->stats, rec, prev);
}

/* The writer's sink, giving a waiting lost-records line its turn. */
static int write_record(void *data, const struct kd_record *rec,
			const struct kd_prev *prev)
{
	if (kd_lost_pending(&lost))
		add_lost(0);
	return kd_writer_sink_write(data, rec, prev);
}

/* Records of @c's source come as syslog(2)-format text (its type says). */
static bool syslog_text(const struct ctl *c)
{
	const struct kd_source_type *t = kd_source_type_find(c->kind);

	return t && (t->caps & KD_SOURCE_SYSLOG_TEXT);
}

/* dmesg's usage errors for what a syslog(2)-format source cannot do. */
static void check_source_usage(const struct ctl *c)
{
	if (c->out.raw && syslog_text(c) &&
	    (c->filter.levels || c->filter.facilities))
		errx(EXIT_FAILURE, _("--raw can be used together with --level or --facility only when reading messages from /dev/kmsg"));
	if (c->out.force_prefix && syslog_text(c))
		errx(EXIT_FAILURE, _("only kmsg supports multi-line messages"));
}

/* Returns the exit status. */
static int print_records(struct ctl *c)
{
	struct kd_pipeline *p;
	struct kd_writer *w = NULL;
	struct kd_stats *stats = NULL;
	struct kd_sink sink;
	struct kprint_seen seen = { .seen = false };
	struct follow_ctx fctx = { .c = c };
	struct kd_pipeline_hooks hooks = {
		.lost = on_lost,
		.file_changed = on_file_changed,
		.data = &fctx,
		.caught_up = on_caught_up,
		.idle = on_idle,
		.caught_up_data = &fctx,
		.stop = &stop_requested,
	};
	bool want_note = kd_filter_uses_kprint(&c->filter);
	int status = EXIT_SUCCESS, rc;
	bool paged;

	/* A -F file's kind is known: its usage errors come first, as dmesg's. */
	if (strcmp(c->kind, KD_SOURCE_SYSLOG_FILE) == 0)
		check_source_usage(c);
	/* Standard input can be read only once: no check before -r -F -. */
	if (c->out.raw && strcmp(c->kind, KD_SOURCE_SYSLOG_FILE) == 0 &&
	    strcmp(c->path, "-") == 0)
		return print_raw_buffer(c);
	rc = kd_pipeline_new(&p);
	if (rc < 0) {
		errno = -rc;
		err(EXIT_FAILURE, _("cannot set up the output"));
	}
	kdmesg_sites_setup(c, p);
	kdmesg_recover_setup(c, p);
	kdmesg_translate_setup(c, p);
	kdmesg_recover_add_catalogue(kdmesg_translate_catalog());
	if (want_note) {
		const struct kd_stage stage = {
			.needs = KD_NEED_DICT,
			.keys = seen.keys,
			.apply = kprint_seen_apply,
			.data = &seen,
		};

		kprint_seen_keys(&seen, &c->filter);
		kd_pipeline_add_stage(p, &stage);
		fctx.seen = &seen;
	}
	kdmesg_open_source(c, p);
	/* The live log may have fallen back to syslog(2). */
	check_source_usage(c);
	c->out.source_syslog = c->caps & KD_SOURCE_SYSLOG_TEXT;
	if (c->out.raw && c->out.source_syslog) {
		/* The source only vetted the input (empty, binary, access). */
		kd_pipeline_free(p);
		return print_raw_buffer(c);
	}

	if (c->stats) {
		rc = kd_stats_new(&stats);
		sink = (struct kd_sink){
			.needs = KD_NEED_DICT,
			.keys = kd_stats_keys,
			.write = kd_stats_sink_write,
			.data = stats,
		};
		if (c->follow) {
			/* -w: a table kept up to date, redrawn when the input is idle. */
			fctx.stats = stats;
			sink.write = stats_follow_write;
			sink.data = &fctx;
		}
	} else {
		rc = kd_writer_new(&w, &c->out, stdout);
		sink = (struct kd_sink){
			.needs = kd_output_needs(&c->out),
			.keys = kd_output_keys(&c->out),
			/*
			 * Only a follow run waits long enough between records
			 * for a held-back lost line to need its turn; a
			 * one-shot run prints it at the end.  A call less per
			 * record (bench/README.md).
			 */
			.write = c->follow ? write_record : kd_writer_sink_write,
			.data = w,
		};
	}
	if (rc < 0) {
		errno = -rc;
		err(EXIT_FAILURE, _("cannot set up the output"));
	}
	rc = kd_pipeline_add_sink(p, &sink);
	if (rc < 0) {
		errno = -rc;
		err(EXIT_FAILURE, _("cannot set up the output"));
	}
	if (c->human && !c->nopager && kd_pager_open() == 0)
		atexit(kd_pager_close);	/* an error exit still waits for it */
	paged = kd_pager_active();

	rc = kd_pipeline_run(p, &hooks);
	if (rc < 0 && kd_pipeline_failure(p) == KD_PIPELINE_READ) {
		errno = -rc;
		if (c->path)
			warn(_("read of %s failed"), c->path);
		else
			warn(_("read kernel buffer failed"));
		status = EXIT_FAILURE;
	}

	if (stats && status == EXIT_SUCCESS) {
		if (fctx.stats)
			fputs("\033[H\033[2J", stdout);
		write_stats_table(c, stats);
	}
	kd_stats_free(stats);
	if (w && !output_broken())
		kd_writer_finish(w);
	/* A pager that quit early: status 1, as in dmesg (not for | head). */
	if (paged) {
		fflush(stdout);
		if (output_broken())
			status = EXIT_FAILURE;
	}
	kd_writer_free(w);
	kd_pager_close();
	kdmesg_translate_finish(c);
	kdmesg_recover_finish(c);
	kdmesg_sites_finish(c);
	if (want_note && status == EXIT_SUCCESS)
		kprint_seen_note(&seen);
	kdmesg_report_stats(kd_pipeline_stats(p), kd_pipeline_lost_reported(p));
	kd_pipeline_free(p);
	/* A journal file left out: the others were shown, still an error. */
	return c->inputs_failed ? EXIT_FAILURE : status;
}

/*
 * The standard output is checked at exit, as util-linux programs do, so
 * that a full disk fails --help and --version too; a reader that went
 * away is not an error.
 */
static void close_stdout(void)
{
	/* A reader that went away early is no error, as for dmesg | head. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (output_broken())
			return;
	} else if (fclose(stdout) == 0 || errno == EPIPE) {
		return;
	}
	warn(_("write error"));
	_exit(EXIT_FAILURE);
}

int main(int argc, char **argv)
{
	struct ctl c = {
		.action = ACT_READ,
		.kind = KD_SOURCE_KMSG,
		.colormode = KD_COLORMODE_UNDEF,
	};
	int status = EXIT_SUCCESS, rc = 0;
	const char *localedir;

	setlocale(LC_ALL, "");
	/* Tests point at a catalogue built in the build tree (not installed). */
	localedir = getenv("KDMESG_TEST_LOCALEDIR");
	bindtextdomain(PACKAGE, localedir && *localedir ? localedir : LOCALEDIR);
	textdomain(PACKAGE);
	atexit(close_stdout);

	/* getopt's own messages start with argv[0]: make it the basename. */
	if (argc > 0)
		argv[0] = program_invocation_short_name;

	kd_filter_init(&c.filter);
	c.out.mode = KD_OUTPUT_TEXT;
	kdmesg_parse_options(&c, argc, argv);
	if (c.list_values)
		kdmesg_list_values(&c, c.list_values);
	if (c.save_sites)
		return kdmesg_save_sites(&c);

	switch (c.action) {
	case ACT_READ:
	case ACT_READ_CLEAR:
		if (c.list_boots) {
			status = kdmesg_list_boots(&c);
			break;
		}
		if (c.tui) {
			status = kdmesg_tui(&c);
			break;
		}
		setup_signals(c.follow);
		status = print_records(&c);
		if (status == EXIT_SUCCESS && c.action == ACT_READ_CLEAR &&
		    (rc = kd_klogctl_clear()) < 0) {
			errno = -rc;
			err(EXIT_FAILURE, _("clear kernel buffer failed"));
		}
		break;
	case ACT_CLEAR:
		rc = kd_klogctl_clear();
		if (rc < 0) {
			errno = -rc;
			err(EXIT_FAILURE, _("clear kernel buffer failed"));
		}
		break;
	case ACT_CONSOLE_OFF:
		rc = kd_klogctl_console_off();
		break;
	case ACT_CONSOLE_ON:
		rc = kd_klogctl_console_on();
		break;
	case ACT_CONSOLE_LEVEL:
		rc = kd_klogctl_console_level(c.console_level);
		break;
	}
	if (rc < 0) {
		errno = -rc;
		err(EXIT_FAILURE, _("klogctl failed"));
	}

	kd_filter_free(&c.filter);
	free(c.journal_files);
	free(c.machines);
	return status;
}
