// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg-complete.c - the values shell completion offers
 * (completion/kdmesg, completion/_kdmesg), listed by kdmesg itself
 * through the hidden option --list-values WHAT so that the lists never
 * drift from what the options accept: level, facility, time-format,
 * output-format and field names, the modules of the running kernel (its
 * modules directory), and the values a field takes in the input named
 * by -K/-F (CODE_FILE with each of its directories, CODE_FUNC, MODULE,
 * SUBSYSTEM, ...).  One value per line, sorted, each once.
 */
#include <err.h>
#include <errno.h>
#include <ftw.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "nls.h"
#include "pipeline.h"
#include "record/field.h"
#include "record/priority.h"
#include "kdmesg.h"

/* A completion list is for a person to choose from: more is noise. */
#define LIST_MAX	100000

static void *values;		/* tsearch(3) tree of strdup()ed strings */
static size_t nvalues;

static int cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void add_n(const char *s, size_t n)
{
	char *v;

	if (nvalues >= LIST_MAX || n == 0 || memchr(s, '\n', n))
		return;
	v = strndup(s, n);
	if (!v)
		err(EXIT_FAILURE, NULL);
	if (*(char **)tsearch(v, &values, cmp) != v)
		free(v);
	else
		nvalues++;
}

static void add(const char *s)
{
	add_n(s, strlen(s));
}

static void print_one(const void *node, VISIT which, int depth)
{
	(void)depth;
	if (which == postorder || which == leaf)
		puts(*(char *const *)node);
}

/* One field's values in the input; CODE_FILE also its directories ("drivers/"). */
struct collect {
	struct kd_field field;
	bool dirs;
};

static int collect_write(void *data, const struct kd_record *rec, const struct kd_prev *prev)
{
	struct collect *c = data;
	struct kd_field_value v;
	char buf[KD_FIELD_BUF];
	const char *slash;

	(void)prev;
	if (!kd_field_get(rec, &c->field, &v, buf))
		return 0;
	add_n(v.data, v.len);
	for (slash = v.data; c->dirs && (slash = memchr(slash, '/', v.len - (size_t)(slash - v.data)));
	     slash++)
		add_n(v.data, (size_t)(slash - v.data) + 1);
	return 0;
}

static void list_input(struct ctl *c, const char *name)
{
	struct collect col = { .dirs = false };
	struct kd_pipeline *p;
	struct kd_sink sink = {
		.needs = KD_NEED_DICT,
		.write = collect_write,
		.data = &col,
	};

	/* Only a saved log: completion must not wait on the live kernel. */
	if (!(kdmesg_kind_caps(c) & KD_SOURCE_CAN_FOLLOW_FILE))
		return;
	if (kd_field_lookup(name, &col.field) < 0)
		errx(EXIT_FAILURE, _("invalid field name '%s' (fields are upper case: CODE_FILE=..., SUBSYSTEM=...)"),
		     name);
	col.dirs = col.field.id == KD_FIELD_CODE_FILE;
	c->src_flags &= ~(KD_SOURCE_FOLLOW | KD_SOURCE_FOLLOW_NEW | KD_SOURCE_FOLLOW_FILE);
	if (kd_pipeline_new(&p) < 0 || kd_pipeline_add_sink(p, &sink) < 0)
		errx(EXIT_FAILURE, _("cannot set up the output"));
	/* A file that cannot be read completes to nothing, quietly. */
	if (kd_pipeline_open(p, c->kind, c->path, c->src_flags, 0) == 0)
		kd_pipeline_run(p, NULL);
	kd_pipeline_free(p);
}

static int add_module_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *base = path + ftw->base, *ko = strstr(base, ".ko");

	(void)st;
	/* foo.ko, foo.ko.xz, foo.ko.zst, foo.ko.gz */
	if (type == FTW_F && ko && (ko[3] == '\0' || ko[3] == '.'))
		add_n(base, (size_t)(ko - base));
	return 0;
}

/* The running kernel's modules (KDMESG_MODULES_DIR as libkmod's set-up reads it). */
static void list_modules(void)
{
	const char *dir = getenv("KDMESG_MODULES_DIR");
	char path[4096];
	struct utsname u;

	if (!dir || !*dir) {
		if (uname(&u) < 0)
			return;
		snprintf(path, sizeof(path), "/lib/modules/%s", u.release);
		dir = path;
	}
	nftw(dir, add_module_file, 16, FTW_PHYS);
}

void kdmesg_list_values(struct ctl *c, const char *what)
{
	static const char *const time_formats[] = {
		"notime", "ctime", "delta", "reltime", "iso", "raw",
	};
	static const char *const output_formats[] = {
		"text", "json", "jsonl", "export", "verbose",
	};

	if (strcmp(what, "levels") == 0) {
		for (int i = 0; kd_priority_level_name(i); i++)
			add(kd_priority_level_name(i));
	} else if (strcmp(what, "facilities") == 0) {
		for (int i = 0; kd_priority_facility_name(i); i++)
			add(kd_priority_facility_name(i));
	} else if (strcmp(what, "time-formats") == 0) {
		for (size_t i = 0; i < sizeof(time_formats) / sizeof(*time_formats); i++)
			add(time_formats[i]);
	} else if (strcmp(what, "output-formats") == 0) {
		for (size_t i = 0; i < sizeof(output_formats) / sizeof(*output_formats); i++)
			add(output_formats[i]);
	} else if (strcmp(what, "fields") == 0) {
		for (int i = 0; i < KD_FIELD_DICT; i++) {
			struct kd_field f = { .id = (enum kd_field_id)i };

			add(kd_field_name(&f));
		}
		add("ARG0");
	} else if (strcmp(what, "modules") == 0) {
		list_modules();
	} else {
		list_input(c, what);
	}
	twalk(values, print_one);
	exit(EXIT_SUCCESS);
}
