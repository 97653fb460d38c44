// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg-recover.c - kdmesg's wiring of the recovery of call sites on
 * stock kernels (lib/stage/recover.h): which format indexes, most exact
 * first -- the running kernel's printk index and dynamic-debug sites in
 * debugfs (when reading the live log and they are readable), then
 * --formats FILE or KDMESG_FORMATS, else the installed index of the
 * kernel release (the running kernel's, or the one a dump's boot banner
 * names) under KDMESG_FORMATS_DIR or DATADIR/kdmesg/formats -- and last,
 * for the records none of those explains, the msgids of the catalogues
 * the translation loaded; whether to recover at all (--recover), and the
 * -v summary.
 */
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "stage/fidx.h"
#include "stage/ksites.h"
#include "stage/msgids.h"
#include "nls.h"
#include "shared/readfile.h"
#include "pipeline.h"
#include "sink/rawdump.h"
#include "stage/recover.h"
#include "kdmesg.h"

#ifndef FORMATSDIR
#define FORMATSDIR	"/usr/share/kdmesg/formats"
#endif

static struct kd_recover *recover;
static struct kd_msgids_stats msgids;	/* the catalogues' source, for -v */
static bool msgids_read;
static const struct kd_catalog *pending_catalogue;	/* until the first plain record */
static bool choose_pending;	/* the installed index, by the dump's release */
static char chosen_path[4200];	/* the installed index picked, for -v */

static void __attribute__((__noreturn__)) oom(void)
{
	errx(EXIT_FAILURE, _("out of memory"));
}

static void load_or_die(const char *path)
{
	struct kd_fidx *x;
	const char *why = NULL;
	int rc = kd_fidx_open(&x, path, &why);

	if (rc == -EBADMSG)
		errx(EXIT_FAILURE, _("%s: not a usable format index: %s"), path, _(why));
	if (rc < 0) {
		errno = -rc;
		err(EXIT_FAILURE, _("cannot read the format index %s"), path);
	}
	if (kd_recover_add(recover, x) < 0)
		oom();
}

/* --- the running kernel's debugfs --------------------------------------- */

static struct kd_fidx_builder *live;

static int live_site(void *data, const struct kd_fidx_site *s)
{
	(void)data;
	return kd_fidx_builder_add(live, s) < 0 ? -ENOMEM : 0;
}

/* printk/index/ and dynamic_debug/control under @debugfs, as one index. */
static void add_live(const char *debugfs)
{
	char path[4200];
	struct dirent *de;
	DIR *d;
	size_t len;
	char *text;
	void *image;
	struct kd_fidx *x;

	if (kd_fidx_builder_new(&live) < 0)
		oom();
	snprintf(path, sizeof(path), "%s/printk/index", debugfs);
	if ((d = opendir(path))) {
		while ((de = readdir(d))) {
			char file[4500];

			if (de->d_name[0] == '.')
				continue;
			snprintf(file, sizeof(file), "%s/%s", path, de->d_name);
			if ((text = kd_read_file(file, &len))) {
				if (kd_ksites_printk_index(text, len, de->d_name, live_site, NULL) < 0)
					oom();
				free(text);
			}
		}
		closedir(d);
	}
	snprintf(path, sizeof(path), "%s/dynamic_debug/control", debugfs);
	if ((text = kd_read_file(path, &len))) {
		if (kd_ksites_dyndbg(text, len, live_site, NULL) < 0)
			oom();
		free(text);
	}
	if (kd_fidx_builder_count(live)) {
		struct utsname u;

		if (kd_fidx_builder_image(live, uname(&u) == 0 ? u.release : "", &image, &len) < 0 ||
		    kd_fidx_from_image(&x, image, len, NULL) < 0 || kd_recover_add(recover, x) < 0)
			oom();
	}
	kd_fidx_builder_free(live);
	live = NULL;
}

/* --- installed indexes -------------------------------------------------- */

/*
 * DIR/RELEASE.kdfi, else the release cut at its last '-' or '+' again
 * and again ("6.12.38+deb12-amd64", "6.12.38+deb12", "6.12.38"), then
 * its major.minor ("6.12"): an index built from Debian's linux-source
 * serves each flavour and every stable update of that kernel.
 */
static bool find_installed(const char *dir, const char *release, char *out, size_t cap)
{
	char rel[256];
	size_t n;

	snprintf(rel, sizeof(rel), "%s", release);
	for (;;) {
		snprintf(out, cap, "%s/%s%s", dir, rel, KD_FIDX_SUFFIX);
		if (access(out, R_OK) == 0)
			return true;
		n = strcspn(rel, "-+");
		if (rel[n]) {
			char *cut = strrchr(rel, '-'), *plus = strrchr(rel, '+');

			if (!cut || (plus && plus > cut))
				cut = plus;
			*cut = '\0';
			continue;
		}
		break;
	}
	/* major.minor */
	n = strspn(rel, "0123456789");
	if (rel[n] == '.') {
		size_t m = strspn(rel + n + 1, "0123456789");

		if (m && rel[n + 1 + m]) {
			rel[n + 1 + m] = '\0';
			snprintf(out, cap, "%s/%s%s", dir, rel, KD_FIDX_SUFFIX);
			return access(out, R_OK) == 0;
		}
	}
	return false;
}

static void choose(const char *release)
{
	const char *dir = getenv("KDMESG_FORMATS_DIR");
	struct utsname u;

	if (!dir || !*dir)
		dir = FORMATSDIR;
	/* A dump without its banner: the running kernel's release, as for the live log. */
	if (!release && uname(&u) == 0)
		release = u.release;
	if (release && find_installed(dir, release, chosen_path, sizeof(chosen_path)))
		load_or_die(chosen_path);
	else
		chosen_path[0] = '\0';
}

static void add_msgids(void)
{
	struct kd_fidx *x;

	if (kd_msgids_index(pending_catalogue, &x, &msgids) < 0)
		oom();
	msgids_read = true;
	if (x && kd_recover_add_fallback(recover, x) < 0)
		oom();
}

/* At the first record the stage considers: what waited for it. */
static int first_record(void *data, struct kd_recover *r, const char *release)
{
	(void)data;
	(void)r;
	if (choose_pending)
		choose(release);
	if (pending_catalogue)
		add_msgids();
	return 0;
}

/* Whether anything of this run shows or uses what recovery adds. */
bool kdmesg_fields_wanted(const struct ctl *c)
{
	if (c->out.raw)
		return false;
	return c->out.mode != KD_OUTPUT_TEXT || c->out.location || c->stats || c->tui ||
	       kd_filter_uses_kprint(&c->filter) || c->translate == TRANSLATE_ALWAYS ||
	       (c->translate == TRANSLATE_AUTO && isatty(STDOUT_FILENO));
}

void kdmesg_recover_setup(struct ctl *c, struct kd_pipeline *p)
{
	const char *file = c->formats ? c->formats : getenv("KDMESG_FORMATS");
	bool is_live = !c->path && (kdmesg_kind_caps(c) & KD_SOURCE_THIS_BOOT);
	struct kd_stage stage = {
		.needs = KD_NEED_DICT,
		.keys = kd_recover_keys,
		.apply = kd_recover_apply,
	};

	if (c->recover == RECOVER_NEVER || (c->recover == RECOVER_AUTO && !kdmesg_fields_wanted(c)))
		return;
	if (kd_recover_new(&recover) < 0)
		oom();
	if (is_live) {
		const char *dbg = getenv("KDMESG_DEBUGFS");

		add_live(dbg && *dbg ? dbg : "/sys/kernel/debug");
	}
	if (file && *file)
		load_or_die(file);
	else if (is_live)
		choose(NULL);
	else
		choose_pending = true;	/* by the release of the dump's banner */
	kd_recover_set_chooser(recover, first_record, NULL);
	stage.data = recover;
	if (kd_pipeline_add_stage(p, &stage) < 0)
		oom();
}

/*
 * The catalogues are loaded only when kdmesg translates (--translate=always,
 * or auto on a terminal, with a language set): their msgids then serve
 * the recovery too, so that a stock kernel's messages whose format a
 * translator translated are translated without any index.  Output into a
 * pipe or a file is not translated and so never depends on the
 * user's language.  The msgids are compiled at the first plain record:
 * a CONFIG_KPRINT kernel's log never pays for it.
 */
void kdmesg_recover_add_catalogue(const struct kd_catalog *cat)
{
	if (recover)
		pending_catalogue = cat;
}

bool kdmesg_recover_active(void)
{
	return recover && (kd_recover_count(recover) || kd_recover_fallbacks(recover));
}

void kdmesg_recover_finish(struct ctl *c)
{
	const struct kd_recover_stats *st;

	if (!recover)
		return;
	st = kd_recover_stats(recover);
	fflush(stdout);	/* the summary after the records it sums up */
	if (!kd_recover_count(recover) && !kd_recover_fallbacks(recover)) {
		/* auto: an uninstalled index is the normal case, said only when asked for */
		if (c->recover == RECOVER_ALWAYS)
			warnx(_("no format index for this kernel: nothing recovered (see --formats)"));
	} else if (c->verbose && (kd_recover_count(recover) || st->records)) {
		/* Only the catalogues and no plain record (a CONFIG_KPRINT kernel): nothing to say. */
		fprintf(stderr, _("%s: recovered %llu of %llu records (ambiguous %llu, unmatched %llu, no literal text %llu)\n"),
			program_invocation_short_name,
			(unsigned long long)st->recovered, (unsigned long long)st->records,
			(unsigned long long)st->ambiguous, (unsigned long long)st->unmatched,
			(unsigned long long)st->nolit);
		if (st->partial || st->no_args)
			fprintf(stderr, _("%s: recovery: %llu more records only in part (the start of a continued or multi-line text); %llu recovered without their arguments (the text reads in more than one way)\n"),
				program_invocation_short_name,
				(unsigned long long)st->partial, (unsigned long long)st->no_args);
		if (st->func_named)
			fprintf(stderr, _("%s: named the function of %llu records by their file and line (a kernel without function names)\n"),
				program_invocation_short_name, (unsigned long long)st->func_named);
		if (msgids_read)
			/* TRANSLATORS: "recovery by the catalogues' msgids: 3 records (6 msgids: 5 formats, 1 skipped as no kernel format)" */
			fprintf(stderr, _("%s: recovery by the catalogues' msgids: %llu records (%lu msgids: %lu formats, %lu skipped as no kernel format)\n"),
				program_invocation_short_name, (unsigned long long)st->fallback,
				msgids.msgids, msgids.formats, msgids.skipped);
	}
	kd_recover_free(recover);
	recover = NULL;
	msgids_read = choose_pending = false;
	pending_catalogue = NULL;
}
