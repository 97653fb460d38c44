// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg-sites.c - kdmesg's wiring of the expansion of compact kprint
 * records (lib/stage/expand.h): which site table, in this order --
 * --sites FILE or KDMESG_SITES; for the live log the kernel's debugfs
 * table, else the table saved for the running kernel's build id; for
 * journal records the table saved for the record's boot (the boots
 * map); for -F/-K dumps the saved table whose version line is the
 * dump's boot banner -- the remarks on records left compact, and
 * --save-sites, which keeps the running kernel's table for later.
 *
 * Test hooks (documented in kdmesg(1) as such): KDMESG_DEBUGFS (the
 * debugfs mount point), KDMESG_NOTES (/sys/kernel/notes), KDMESG_PROC
 * (/proc, for version and sys/kernel/random/boot_id).
 */
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "nls.h"
#include "pipeline.h"
#include "record/host.h"
#include "shared/buildid.h"
#include "shared/readfile.h"
#include "sink/rawdump.h"
#include "stage/expand.h"
#include "stage/sites-saved.h"
#include "stage/sites.h"
#include "kdmesg.h"

#ifndef SITESDIR
#define SITESDIR	"/var/lib/kdmesg/sites"
#endif

/* Saved tables a run keeps loaded (journal records of several boots). */
#define CACHE_MAX	16

enum where { W_NONE, W_FIXED, W_DUMP, W_JOURNAL };

static struct {
	enum where where;
	struct kd_expand *x;
	const struct kd_sites *fixed;	/* W_FIXED, W_DUMP once chosen */
	bool first_seen;
	struct {
		char boot_id[KD_ID128_LEN + 1];
		struct kd_sites *t;	/* NULL: none for that boot */
	} cache[CACHE_MAX];
	size_t ncache;
	struct kd_sites *owned[CACHE_MAX + 2];
	size_t nowned;
	char live_boot[KD_ID128_LEN + 1];
	const struct kd_sites *live;	/* the running kernel's, for its boot's journal records */
	char what[4200];		/* the table used, for -v */
	bool from_debugfs;		/* S.fixed is the live kernel's debugfs table */
	struct timespec reloaded;	/* when it was last read */
} S;

/* Reading the live table again after a miss: at most this often. */
#define RELOAD_MS	1000

static void __attribute__((__noreturn__)) oom(void)
{
	errx(EXIT_FAILURE, _("out of memory"));
}

const char *kdmesg_env_or(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v && *v ? v : def;
}

static const char *sites_dir(void)
{
	return kdmesg_env_or("KDMESG_SITES_DIR", SITESDIR);
}

/* A table from @path, or NULL with errno set. */
static struct kd_sites *load(const char *path)
{
	struct kd_sites *t;
	size_t len;
	char *text = kd_read_file(path, &len);
	int rc;

	if (!text)
		return NULL;
	if ((rc = kd_sites_load(&t, text, len)) < 0) {
		if (rc == -ENOMEM)
			oom();
		errno = -rc;
		return NULL;
	}
	if (S.nowned == sizeof(S.owned) / sizeof(*S.owned)) {
		kd_sites_free(t);
		errno = EMFILE;
		return NULL;
	}
	S.owned[S.nowned++] = t;
	snprintf(S.what, sizeof(S.what), "%s", path);
	return t;
}

/* The saved table of build @id, or NULL. */
static struct kd_sites *load_saved(const char *id)
{
	char path[4200];

	if (!kd_buildid_valid(id))
		return NULL;
	snprintf(path, sizeof(path), "%s/%s%s", sites_dir(), id, KD_SITES_SUFFIX);
	return load(path);
}

/* The running kernel's build id (KDMESG_NOTES or /sys/kernel/notes). */
static int running_build_id(char *hex)
{
	size_t len;
	char *notes = kd_read_file(kdmesg_env_or("KDMESG_NOTES", "/sys/kernel/notes"), &len);
	int rc;

	if (!notes)
		return -errno;
	rc = kd_buildid_from_notes((const unsigned char *)notes, len, hex);
	free(notes);
	return rc;
}

static void proc_path(char *out, size_t cap, const char *rel)
{
	snprintf(out, cap, "%s/%s", kdmesg_env_or("KDMESG_PROC", "/proc"), rel);
}

/* The running boot's id as 32 hex digits, or "". */
static void running_boot_id(char out[KD_ID128_LEN + 1])
{
	char path[4200], *raw;
	size_t len;

	out[0] = '\0';
	proc_path(path, sizeof(path), "sys/kernel/random/boot_id");
	if ((raw = kd_read_file(path, &len))) {
		if (!kd_sites_boot_id(raw, out))
			out[0] = '\0';
		free(raw);
	}
}

/* The running kernel's table: debugfs, else the one saved for its build id. */
static const struct kd_sites *load_live(void)
{
	char path[4200], id[KD_BUILDID_HEX_MAX + 1];
	const struct kd_sites *t;

	snprintf(path, sizeof(path), "%s/kprint/sites", kdmesg_env_or("KDMESG_DEBUGFS", "/sys/kernel/debug"));
	if (access(path, R_OK) == 0 && (t = load(path))) {
		S.from_debugfs = true;
		clock_gettime(CLOCK_MONOTONIC, &S.reloaded);
		return t;
	}
	return running_build_id(id) == 0 ? load_saved(id) : NULL;
}

/*
 * A site the live table lacks: a module loaded since it was read (kdmesg
 * -w, the viewer).  Read debugfs again, at most once every RELOAD_MS,
 * in place of the table read before.
 */
static const struct kd_sites *refresh(void *data, const struct kd_record *rec)
{
	struct timespec now;
	const struct kd_sites *t;
	long ms;

	(void)data;
	(void)rec;
	if (!S.from_debugfs || S.where != W_FIXED)
		return NULL;
	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (now.tv_sec - S.reloaded.tv_sec) * 1000 + (now.tv_nsec - S.reloaded.tv_nsec) / 1000000;
	if (ms < RELOAD_MS)
		return NULL;
	S.from_debugfs = false;
	S.reloaded = now;
	if (!(t = load_live()))
		return NULL;
	/* The old table is done with: the stage looks every block up again in @t. */
	for (size_t i = 0; i + 1 < S.nowned; i++)
		if (S.owned[i] == S.fixed) {
			kd_sites_free(S.owned[i]);
			S.owned[i] = S.owned[--S.nowned];
			break;
		}
	S.fixed = t;
	return t;
}

/* --- choosing per record ------------------------------------------------ */

static const struct kd_sites *for_boot(const char *boot_id)
{
	char path[4200], id[KD_BUILDID_HEX_MAX + 1], *text;
	struct kd_sites *t = NULL;
	size_t len;

	for (size_t i = 0; i < S.ncache; i++)
		if (strcmp(S.cache[i].boot_id, boot_id) == 0)
			return S.cache[i].t;
	if (S.live_boot[0] && strcmp(boot_id, S.live_boot) == 0) {
		if (!S.live)
			S.live = load_live();
		return S.live;
	}
	snprintf(path, sizeof(path), "%s/%s", sites_dir(), KD_SITES_BOOTS);
	if ((text = kd_read_file(path, &len))) {
		if (kd_sites_boots_find(text, len, boot_id, id) == 0)
			t = load_saved(id);
		free(text);
	}
	if (S.ncache < CACHE_MAX) {
		snprintf(S.cache[S.ncache].boot_id, sizeof(S.cache[0].boot_id), "%s", boot_id);
		S.cache[S.ncache++].t = t;
	}
	return t;
}

static const struct kd_sites *choose(void *data, const struct kd_record *rec)
{
	(void)data;
	if (S.where == W_JOURNAL && rec->host && rec->host->boot_id[0])
		return for_boot(rec->host->boot_id);
	return S.fixed;
}

/*
 * The saved table whose "# version" line is @text (@n bytes), the boot
 * banner "Linux version ..." of a dump: the kernel prints the text of
 * /proc/version as its banner.
 */
static void choose_by_banner(const char *text, size_t n)
{
	static const char banner[] = "Linux version ";
	const char *dir = sites_dir();
	struct dirent *de;
	DIR *d;

	while (n && (text[n - 1] == '\n' || text[n - 1] == ' ' || text[n - 1] == '\r'))
		n--;
	if (n < sizeof(banner) - 1 || memcmp(text, banner, sizeof(banner) - 1) ||
	    !(d = opendir(dir)))
		return;
	while (!S.fixed && (de = readdir(d))) {
		size_t l = strlen(de->d_name), hl;
		struct kd_sites_header h;
		char path[4200], head[2048];
		ssize_t got;
		int fd;

		if (l <= strlen(KD_SITES_SUFFIX) || de->d_name[0] == '.' ||
		    strcmp(de->d_name + l - strlen(KD_SITES_SUFFIX), KD_SITES_SUFFIX))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		got = read(fd, head, sizeof(head));
		close(fd);
		if (got <= 0 || kd_sites_header_read(head, (size_t)got, &h) < 0)
			continue;
		hl = strlen(h.version);
		while (hl && h.version[hl - 1] == ' ')
			hl--;
		if (hl == n && memcmp(h.version, text, n) == 0)
			S.fixed = load(path);
	}
	closedir(d);
}

/*
 * A dump file: its banner from its first 64 KiB (the kernel prints it
 * first, after at most a few records of a patched kernel's own), so that
 * the table is there for the first record already.  Returns whether it
 * was looked for (a regular file: one that can be read twice).
 */
static bool prescan_banner(const char *path)
{
	static const char banner[] = "Linux version ";
	char *buf, *hit, *end;
	struct stat st;
	ssize_t got;
	int fd;

	/* Only a regular file can be read twice (a FIFO would lose what is read here). */
	if (!path || strcmp(path, "-") == 0 || stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return false;
	if (!(buf = malloc(65536)))
		oom();
	got = read(fd, buf, 65535);
	close(fd);
	if (got > 0) {
		buf[got] = '\0';
		if ((hit = memmem(buf, (size_t)got, banner, sizeof(banner) - 1))) {
			end = memchr(hit, '\n', (size_t)(buf + got - hit));
			choose_by_banner(hit, (size_t)((end ? end : buf + got) - hit));
		}
	}
	free(buf);
	return got >= 0;
}

static int sites_apply(void *data, struct kd_record *rec)
{
	if (!S.first_seen) {
		S.first_seen = true;
		if (S.where == W_DUMP && !S.fixed)
			choose_by_banner(rec->text, rec->text_len);
	}
	return kd_expand_apply(data, rec);
}

void kdmesg_sites_setup(struct ctl *c, struct kd_pipeline *p)
{
	const char *file = c->sites ? c->sites : getenv("KDMESG_SITES");
	unsigned int caps = kdmesg_kind_caps(c);
	struct kd_stage stage = {
		.needs = KD_NEED_DICT,
		.keys = kd_expand_keys,
		.apply = sites_apply,
	};

	if (!kdmesg_fields_wanted(c)) {
		/* Not used, but asked for: a wrong name is still an error. */
		if (c->sites && access(c->sites, R_OK) < 0)
			err(EXIT_FAILURE, _("cannot read the site table %s"), c->sites);
		return;
	}
	memset(&S, 0, sizeof(S));
	if (file && *file) {
		if (!(S.fixed = load(file)))
			err(EXIT_FAILURE, _("cannot read the site table %s"), file);
		S.where = W_FIXED;
	} else if (strcmp(c->kind, KD_SOURCE_JOURNAL) == 0) {
		S.where = W_JOURNAL;
		running_boot_id(S.live_boot);
	} else if (!c->path && (caps & KD_SOURCE_THIS_BOOT)) {
		S.fixed = load_live();
		S.where = W_FIXED;
	} else {
		S.where = W_DUMP;
		/* Otherwise the first record (standard input): when it is the banner. */
		S.first_seen = prescan_banner(c->path);
	}
	if (kd_expand_new(&S.x, choose, NULL) < 0)
		oom();
	kd_expand_set_refresh(S.x, refresh);
	stage.data = S.x;
	if (kd_pipeline_add_stage(p, &stage) < 0)
		oom();
}

void kdmesg_sites_finish(struct ctl *c)
{
	const struct kd_expand_stats *st;
	unsigned long long left;

	if (!S.x)
		return;
	st = kd_expand_stats(S.x);
	left = (unsigned long long)(st->records - st->expanded);
	fflush(stdout);
	if (c->verbose && st->records)
		fprintf(stderr, _("%s: expanded %llu of %llu records with compact call sites (site table: %s)\n"),
			program_invocation_short_name, (unsigned long long)st->expanded,
			(unsigned long long)st->records, S.what[0] ? S.what : _("none"));
	if (st->no_table == st->records && st->records)
		warnx(_("%llu records carry compact call sites (SITE) and no site table of their kernel was found: their CODE_*, MODULE, FORMAT and ARGn fields are missing (see --sites and --save-sites)"),
		      left);
	else if (left)
		warnx(_("%llu of %llu records with compact call sites kept them unexpanded: %llu without a site table, %llu not in the table, %llu inconsistent with it, %llu too large"),
		      left, (unsigned long long)st->records, (unsigned long long)st->no_table,
		      (unsigned long long)st->unresolved, (unsigned long long)st->inconsistent,
		      (unsigned long long)st->too_big);
	kd_expand_free(S.x);
	for (size_t i = 0; i < S.nowned; i++)
		kd_sites_free(S.owned[i]);
	memset(&S, 0, sizeof(S));
}

bool kdmesg_sites_option(struct ctl *c, int ch, const char *arg)
{
	switch (ch) {
	case OPT_SITES:
		c->sites = arg;
		return true;
	case OPT_SAVE_SITES:
		c->save_sites = true;
		return true;
	}
	return false;
}
