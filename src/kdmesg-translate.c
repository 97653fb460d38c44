// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg-translate.c - kdmesg's wiring of the translation of kernel
 * messages (lib/stage/translate.h): when to translate (--translate), where the
 * catalogues are (--catalog-dir, KDMESG_CATALOG_PATH, the locale
 * directory), and the -v summary of what was translated and why some
 * translations were not used.
 */
#include <err.h>
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stage/catalog.h"
#include "sink/json.h"
#include "nls.h"
#include "pipeline.h"
#include "stage/translate.h"
#include "kdmesg.h"

static struct kd_catalog *catalog;
static struct kd_translate *translator;

static void bad_catalog(void *data, const char *path, int err)
{
	(void)data;
	if (err == -ENODEV) {
		warnx(_("ignoring the catalogue %s: not a regular file"), path);
		return;
	}
	errno = -err;
	warn(_("ignoring the catalogue %s"), path);
}

/*
 * A kdmesg run from the tree it was built in (build/src/kdmesg, as the
 * README's commands and the tests run it) also reads the catalogues
 * built beside it, before the installed ones.  Only the binary in that
 * very directory does: an installed copy is elsewhere and never looks
 * into a build tree.
 */
static void add_build_tree(struct kd_catalog *cat)
{
	char exe[PATH_MAX], src[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0 || strchr(KDMESG_BUILDDIR, ':'))
		return;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash || !realpath(KDMESG_BUILDDIR "/src", src))
		return;
	*slash = '\0';
	if (strcmp(exe, src) == 0)
		kd_catalog_add_dirs(cat, KDMESG_BUILDDIR "/po-kmsg");
}

/* -v: no catalogue, and every file that was looked for. */
static void no_catalogue(const char *langs)
{
	char where[2048];
	size_t len = 0;
	const char *d;

	where[0] = '\0';
	for (unsigned int i = 0; (d = kd_catalog_dir(catalog, i)); i++) {
		int w = snprintf(where + len, sizeof(where) - len, "%s%s", i ? ", " : "", d);

		if (w < 0 || (size_t)w >= sizeof(where) - len)
			break;
		len += (size_t)w;
	}
	/* TRANSLATORS: "no kernel message catalogue for de (looked for LL/LC_MESSAGES/linux-kmsg.mo in /a, /b)" */
	warnx(_("no kernel message catalogue for %s (looked for LL/LC_MESSAGES/%s.mo in %s)"),
	      langs, KD_CATALOG_DOMAIN, where);
}

void kdmesg_translate_setup(struct ctl *c, struct kd_pipeline *p)
{
	const char *langs = kd_catalog_languages(), *env;
	struct kd_stage stage;
	bool text = kd_output_flags(&c->out) & KD_OUTPUT_TEXT_OPTIONS;
	int rc;

	if (c->translate == TRANSLATE_NEVER || c->out.raw || !*langs)
		return;
	/* auto: people read a terminal; scripts parse pipes and files. */
	if (c->translate == TRANSLATE_AUTO && (!text || !isatty(STDOUT_FILENO)))
		return;
	if (kd_catalog_new(&catalog) < 0)
		errx(EXIT_FAILURE, _("out of memory"));
	for (size_t i = 0; i < c->ncatalog_dirs; i++)
		if (kd_catalog_add_dirs(catalog, c->catalog_dirs[i]) < 0)
			errx(EXIT_FAILURE, _("too many catalogue directories"));
	if ((env = getenv("KDMESG_CATALOG_PATH")) && kd_catalog_add_dirs(catalog, env) < 0)
		errx(EXIT_FAILURE, _("too many catalogue directories"));
	add_build_tree(catalog);
	kd_catalog_add_dirs(catalog, LOCALEDIR);
	rc = kd_catalog_load(catalog, langs, bad_catalog, NULL);
	if (rc < 0)
		errx(EXIT_FAILURE, _("out of memory"));
	if (rc == 0) {
		if (c->verbose)
			no_catalogue(langs);
		kd_catalog_free(catalog);
		catalog = NULL;
		return;
	}
	/* JSON and the journal are UTF-8 whatever the terminal is. */
	rc = kd_translate_new(&translator, catalog, text ? nl_langinfo(CODESET) : "UTF-8");
	if (rc == -EINVAL)
		rc = kd_translate_new(&translator, catalog, "UTF-8");
	if (rc < 0)
		errx(EXIT_FAILURE, _("out of memory"));
	/* The viewer keeps both texts: its T key switches between them. */
	kd_translate_set_keep_text(translator, !text || c->tui);
	stage = (struct kd_stage){
		.needs = KD_NEED_DICT,
		.apply = kd_translate_apply,
		.data = translator,
	};
	if (kd_pipeline_add_stage(p, &stage) < 0)
		errx(EXIT_FAILURE, _("out of memory"));
}

/* "conversion 1, continuation 11": the counts of each reason, into @buf. */
static uint64_t reasons(const struct kd_translate_stats *st, char *buf, size_t size)
{
	uint64_t untrusted = 0;
	size_t at = 0;

	buf[0] = '\0';
	for (int r = 1; r < KD_KFMT_NREASONS; r++) {
		if (!st->untrusted[r])
			continue;
		untrusted += st->untrusted[r];
		at += (size_t)snprintf(buf + at, size - at, "%s%s %llu", at ? ", " : "",
				       kd_kfmt_reason_name(r),
				       (unsigned long long)st->untrusted[r]);
		if (at >= size)
			at = size - 1;
	}
	return untrusted;
}

void kdmesg_translate_stats(struct ctl *c, FILE *out)
{
	const struct kd_translate_stats *st;
	char why[512];

	if (!translator || !(kd_output_flags(&c->out) & KD_OUTPUT_TEXT_OPTIONS))
		return;
	st = kd_translate_stats(translator);
	reasons(st, why, sizeof(why));
	fprintf(out, _("\nTranslation: %llu of %llu messages with a format translated, %llu not in the catalogues\n"),
		(unsigned long long)st->translated, (unsigned long long)st->records,
		(unsigned long long)st->missing);
	if (*why)
		fprintf(out, _("Translation not used: %s\n"), why);
}

void kdmesg_translate_stats_json(void *data, struct kd_json *j)
{
	const struct kd_translate_stats *st;

	(void)data;
	if (!translator)
		return;
	st = kd_translate_stats(translator);
	kd_json_open(j, "translation", KD_JSON_OBJECT);
	kd_json_value_u64(j, "records", st->records);
	kd_json_value_u64(j, "translated", st->translated);
	kd_json_value_u64(j, "missing", st->missing);
	/* Every reason, also at 0: scripts read a fixed set of names. */
	kd_json_open(j, "not_used", KD_JSON_OBJECT);
	for (int r = 1; r < KD_KFMT_NREASONS; r++)
		kd_json_value_u64(j, kd_kfmt_reason_name(r), st->untrusted[r]);
	kd_json_close(j, KD_JSON_OBJECT);
	kd_json_close(j, KD_JSON_OBJECT);
}

const struct kd_catalog *kdmesg_translate_catalog(void)
{
	return translator ? catalog : NULL;
}

bool kdmesg_translate_active(void)
{
	return translator != NULL;
}

void kdmesg_translate_finish(struct ctl *c)
{
	const struct kd_translate_stats *st;

	if (translator && c->verbose) {
		char why[512];
		uint64_t untrusted;

		fflush(stdout);	/* the summary after the records it sums up */
		st = kd_translate_stats(translator);
		untrusted = reasons(st, why, sizeof(why));
		/* TRANSLATORS: "translated 5 of 7 kernel messages with a format (1 not in the catalogues, 1 shown in English: continuation 1)" */
		warnx(_("translated %llu of %llu kernel messages with a format (%llu not in the catalogues, %llu shown in English%s%s)"),
		      (unsigned long long)st->translated, (unsigned long long)st->records,
		      (unsigned long long)st->missing, (unsigned long long)untrusted,
		      *why ? ": " : "", why);
	}
	kd_translate_free(translator);
	kd_catalog_free(catalog);
	translator = NULL;
	catalog = NULL;
}
