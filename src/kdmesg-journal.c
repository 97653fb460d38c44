// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg-journal.c - kdmesg's side of the journal source: its options
 * (--journal, --journal-directory, --journal-file, --boot, --list-boots,
 * --machine, --boot-time), their errors, the files it had to leave out,
 * and the --list-boots table.  The reading itself is
 * lib/source/source-journal.c.
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kdmesg.h"
#include "match/timeparse.h"
#include "nls.h"
#include "record/host.h"
#include "shared/escape.h"

/*
 * @s escaped for the terminal (a file or host name is anyone's bytes),
 * malloc'd; NULL without memory.
 */
static char *escaped(const char *s)
{
	struct kd_escape_buf b = { .cap = 64 };

	b.data = malloc(b.cap);
	if (!b.data)
		return NULL;
	kd_escape_append(&b, s, strlen(s), 0, false);
	kd_escape_buf_put(&b, "", 1);
	if (b.failed) {
		free(b.data);
		return NULL;
	}
	return b.data;
}

/* "all", "ID", "ID+N", "ID-N", "+N", "-N", "N": what -b takes in journalctl. */
static bool boot_spec_valid(const char *s)
{
	size_t i = 0;

	if (strcmp(s, "all") == 0)
		return true;
	while (i < KD_ID128_LEN && ((s[i] >= '0' && s[i] <= '9') ||
				    (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')))
		i++;
	if (i == KD_ID128_LEN) {
		s += i;
		if (!*s)
			return true;
		if (*s != '+' && *s != '-')
			return false;
	}
	if (*s == '+' || *s == '-')
		s++;
	if (!*s || strlen(s) > 7)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Append @v to the NULL-terminated @list, sized for every argument at once. */
static void push(const char ***list, const char *v, int argc)
{
	size_t n = 0;

	if (!*list && !(*list = calloc((size_t)argc + 1, sizeof(**list))))
		err(EXIT_FAILURE, NULL);
	while ((*list)[n])
		n++;
	(*list)[n] = v;
}

static void use_journal(struct ctl *c, const char *path)
{
	c->kind = KD_SOURCE_JOURNAL;
	c->path = path;
}

bool kdmesg_journal_option(struct ctl *c, int ch, const char *arg, int argc, char **argv)
{
	uint64_t usec;

	switch (ch) {
	case OPT_JOURNAL:
		use_journal(c, NULL);
		break;
	case OPT_JOURNAL_DIRECTORY:
		use_journal(c, arg);
		break;
	case OPT_JOURNAL_FILE:
		use_journal(c, NULL);
		push(&c->journal_files, arg, argc);
		break;
	case OPT_BOOT:
		/*
		 * As journalctl -b: without "=", the next argument is the
		 * boot when it reads as one (an ID or an offset).
		 */
		if (!arg && optind < argc && boot_spec_valid(argv[optind]))
			arg = argv[optind++];
		if (arg && !boot_spec_valid(arg))
			errx(EXIT_FAILURE, _("invalid boot: '%s' (an ID, ID±N, ±N or all)"), arg);
		c->boot = arg ? arg : "0";
		break;
	case OPT_LIST_BOOTS:
		c->list_boots = true;
		break;
	case OPT_MACHINE:
		if (!*arg || strlen(arg) > KD_HOSTNAME_MAX)
			errx(EXIT_FAILURE, _("invalid machine: '%s'"), arg);
		push(&c->machines, arg, argc);
		break;
	case OPT_BOOT_TIME:
		if (kd_timeparse(arg, time(NULL), &usec) < 0 || usec == 0 || usec > INT64_MAX)
			errx(EXIT_FAILURE, _("invalid time value \"%s\""), arg);
		c->has_boot_time = true;
		c->boot_time = (int64_t)usec;
		break;
	default:
		return false;
	}
	return true;
}

void kdmesg_journal_check(struct ctl *c)
{
	bool journal = strcmp(c->kind, KD_SOURCE_JOURNAL) == 0;

	/* Past boots and other machines live in the journal: read it. */
	if (!journal && (c->boot || c->machines || c->list_boots)) {
		if (c->path)
			errx(EXIT_FAILURE, _("--boot, --list-boots and --machine read the journal, not %s"),
			     c->path);
		use_journal(c, NULL);
		journal = true;
	}
	if (journal && !kd_source_type_find(KD_SOURCE_JOURNAL))
		errx(EXIT_FAILURE, _("this kdmesg was built without libsystemd: it cannot read the journal"));
	if (journal && c->out.raw)
		errx(EXIT_FAILURE, _("--raw prints the kernel's buffer; the journal holds records"));
}

struct kd_source_args kdmesg_source_args(const struct ctl *c)
{
	return (struct kd_source_args){
		.path = c->path,
		.paths = c->journal_files,
		.fd = -1,
		.flags = c->src_flags,
		.size = c->bufsize,
		.boot = c->boot,
		.machines = c->machines,
	};
}

void kdmesg_report_inputs(struct ctl *c, struct kd_source *src)
{
	const char *path;
	int e;

	for (size_t i = 0; (path = kd_source_input_error(src, i, &e)); i++) {
		char *safe = escaped(path);
		/* sd-journal's errno values, said as what they mean here. */
		const char *why = e == -ENODATA ? _("truncated") :
				  e == -EBADMSG ? _("corrupt, or not a journal file") :
				  e == -EPROTONOSUPPORT ? _("a journal format this libsystemd does not read") :
				  strerror(-e);

		warnx(_("%s: cannot read this journal file, left out: %s"),
		      safe ? safe : "?", why);
		free(safe);
		c->inputs_failed = true;
	}
}

void kdmesg_journal_open_failed(struct ctl *c, int rc)
{
	const char *what = c->path ? c->path : c->journal_files ? c->journal_files[0] : NULL;
	char *safe = what ? escaped(what) : NULL;

	if (rc == -ESRCH)
		errx(EXIT_FAILURE, _("boot %s: not in the journal"), c->boot);
	if (rc == -ENODATA && what)
		errx(EXIT_FAILURE, _("%s: no journal files"), safe ? safe : "?");
	errno = -rc;
	if (what)
		err(EXIT_FAILURE, _("cannot read the journal %s"), safe ? safe : "?");
	err(EXIT_FAILURE, _("cannot read the journal"));
}

static void fmt_time(char *buf, size_t size, int64_t usec)
{
	time_t t = (time_t)(usec / 1000000);
	struct tm tm;

	if (usec <= 0 || !localtime_r(&t, &tm) ||
	    !strftime(buf, size, "%a %Y-%m-%d %H:%M:%S %Z", &tm))
		snprintf(buf, size, "-");
}

/*
 * --list-boots, laid out as journalctl 252 lays it out (IDX, BOOT ID,
 * FIRST ENTRY, LAST ENTRY; 0 the newest), with a HOST column after the
 * boot ID when the boots are of several machines.
 */
int kdmesg_list_boots(struct ctl *c)
{
	struct kd_source_args a = kdmesg_source_args(c);
	struct kd_source_boot *v;
	struct kd_source *src;
	char first[64], last[64];
	size_t n, i;
	int w_idx = 3, w_first = 11, w_host = 4, rc;
	bool hosts = false;

	a.boot = NULL;
	a.flags = 0;
	rc = kd_source_open_args(&src, KD_SOURCE_JOURNAL, &a);
	if (rc < 0)
		kdmesg_journal_open_failed(c, rc);
	kdmesg_report_inputs(c, src);
	rc = kd_source_boots(src, &v, &n);
	if (rc < 0) {
		errno = -rc;
		err(EXIT_FAILURE, _("cannot list the boots"));
	}
	for (i = 0; i < n; i++) {
		int k = snprintf(first, sizeof(first), "%lld", (long long)i - (long long)(n - 1));

		w_idx = k > w_idx ? k : w_idx;
		fmt_time(first, sizeof(first), v[i].first_usec);
		k = (int)strlen(first);
		w_first = k > w_first ? k : w_first;
		k = (int)strlen(v[i].host->hostname);
		w_host = k > w_host ? k : w_host;
		hosts |= i && strcmp(v[i].host->machine_id, v[0].host->machine_id) != 0;
	}
	printf("%*s %-32s ", w_idx, "IDX", "BOOT ID");
	if (hosts)
		printf("%-*s ", w_host, "HOST");
	printf("%-*s %s\n", w_first, "FIRST ENTRY", "LAST ENTRY");
	for (i = 0; i < n; i++) {
		fmt_time(first, sizeof(first), v[i].first_usec);
		fmt_time(last, sizeof(last), v[i].last_usec);
		printf("%*lld %-32s ", w_idx, (long long)i - (long long)(n - 1), v[i].host->boot_id);
		if (hosts) {
			char *safe = escaped(v[i].host->hostname);

			printf("%-*s ", w_host, safe ? safe : "?");
			free(safe);
		}
		printf("%-*s %s\n", w_first, first, last);
	}
	free(v);
	kd_source_close(src);
	return c->inputs_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
