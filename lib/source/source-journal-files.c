// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source-journal-files.c - which journal files are opened: this
 * machine's journal, the journal files of a directory (and of its
 * per-machine subdirectories), or the files named.  A journal file that
 * cannot be read (corrupt, truncated, not a journal) is checked alone
 * before the others are opened, left out, and reported through
 * kd_source_input_error(); the others are read.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <systemd/sd-journal.h>

#include "source/source-journal-internal.h"

/* A journal file name: *.journal, or *.journal~ (renamed after a crash). */
#define JOURNAL_SUFFIX	".journal"

/* Does @path open and give its first entry?  (sd-journal's own checks.) */
static int check_file(const char *path)
{
	const char *one[] = { path, NULL };
	sd_journal *j;
	int r;

	r = sd_journal_open_files(&j, one, 0);
	if (r < 0)
		return r;
	r = sd_journal_seek_head(j);
	if (r >= 0)
		r = sd_journal_next(j);
	if (r >= 0)
		r = sd_journal_seek_tail(j);
	if (r >= 0)
		r = sd_journal_previous(j);
	sd_journal_close(j);
	/* A file with no entry at all is a journal all the same. */
	return r < 0 ? r : 0;
}

bool kd_journal_name(const char *name)
{
	const char *s = strstr(name, JOURNAL_SUFFIX);

	return s && (strcmp(s, JOURNAL_SUFFIX) == 0 || strcmp(s, JOURNAL_SUFFIX "~") == 0);
}

struct paths {
	char **v;
	size_t n;
};

/* Append @path (malloc'd, taken; NULL is -ENOMEM) to @p, NULL-terminated. */
static int paths_push(struct paths *p, char *path)
{
	char **v = path ? realloc(p->v, (p->n + 2) * sizeof(*v)) : NULL;

	if (!v) {
		free(path);
		return -ENOMEM;
	}
	p->v = v;
	v[p->n++] = path;
	v[p->n] = NULL;
	return 0;
}

static int paths_add(struct paths *p, const char *dir, const char *name)
{
	char *path;

	return paths_push(p, asprintf(&path, "%s/%s", dir, name) < 0 ? NULL : path);
}

static void paths_free(struct paths *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
}

/*
 * The journal files of @dir and of its subdirectories one level down
 * (journald and systemd-journal-remote keep one per machine ID), as
 * sd_journal_open_directory() finds them.
 */
static int list_dir(struct paths *p, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return -errno;
	while (rc == 0 && (e = readdir(d))) {
		struct stat st;
		char *sub;

		if (e->d_name[0] == '.')
			continue;
		if (kd_journal_name(e->d_name)) {
			rc = paths_add(p, dir, e->d_name);
			continue;
		}
		if (depth > 0 || asprintf(&sub, "%s/%s", dir, e->d_name) < 0)
			continue;
		if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			rc = list_dir(p, sub, depth + 1);
		free(sub);
	}
	closedir(d);
	return rc;
}

/* Check each of @all; the readable ones go to @good, the others to errors. */
static int keep_readable(struct journal_source *js, char *const *all, size_t n,
			 struct paths *good)
{
	for (size_t i = 0; i < n; i++) {
		int r = check_file(all[i]);

		if (r < 0)
			r = kd_journal_add_error(js, all[i], r);
		else
			r = paths_push(good, strdup(all[i]));
		if (r < 0)
			return r;
	}
	return 0;
}

/* Open what @a names: this machine's journal, a directory, or files. */
int kd_journal_open_files(struct journal_source *js, const struct kd_source_args *a)
{
	struct paths all = { 0 }, good = { 0 };
	struct stat st;
	int r;

	if (!a->path && !a->paths)
		return sd_journal_open(&js->j, SD_JOURNAL_LOCAL_ONLY);

	if (a->paths) {
		for (size_t i = 0; a->paths[i]; i++)
			if (paths_push(&all, strdup(a->paths[i])) < 0) {
				paths_free(&all);
				return -ENOMEM;
			}
	} else if (stat(a->path, &st) < 0) {
		return -errno;
	} else if (S_ISDIR(st.st_mode)) {
		r = list_dir(&all, a->path, 0);
		if (r < 0) {
			paths_free(&all);
			return r;
		}
		/* Following, new files of the directory must be seen too. */
		if (a->flags & (KD_SOURCE_FOLLOW | KD_SOURCE_FOLLOW_NEW)) {
			r = keep_readable(js, all.v, all.n, &good);
			paths_free(&good);
			paths_free(&all);
			return r < 0 ? r : sd_journal_open_directory(&js->j, a->path, 0);
		}
	} else if (paths_push(&all, strdup(a->path)) < 0) {
		return -ENOMEM;
	}

	r = keep_readable(js, all.v, all.n, &good);
	if (r == 0 && good.n == 0)
		/* Nothing readable: the first file's own error, or none there. */
		r = js->nerrors ? js->errors[0].err : -ENODATA;
	if (r == 0)
		r = sd_journal_open_files(&js->j, (const char **)good.v, 0);
	paths_free(&good);
	paths_free(&all);
	return r;
}
