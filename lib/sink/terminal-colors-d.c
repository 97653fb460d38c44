// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * terminal-colors-d.c - the terminal-colors.d(5) directory walk and file
 * name scoring shared by the colour switch and the colour scheme, so both
 * pick files exactly as util-linux does.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink/terminal-colors-d.h"

static int walk(const char *dir, kd_tcd_fn *fn, void *arg)
{
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (!dp)
		return -errno;
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		if (d->d_type != DT_UNKNOWN && d->d_type != DT_REG &&
		    d->d_type != DT_LNK)
			continue;
		fn(dir, d->d_name, arg);
	}
	closedir(dp);
	return 0;
}

int kd_tcd_foreach(kd_tcd_fn *fn, void *arg)
{
	char path[PATH_MAX];
	const char *base;
	int rc = -ENOENT;

	if ((base = getenv("XDG_CONFIG_HOME")))
		snprintf(path, sizeof(path), "%s/terminal-colors.d", base);
	else if ((base = getenv("HOME")))
		snprintf(path, sizeof(path), "%s/.config/terminal-colors.d", base);
	if (base)
		rc = walk(path, fn, arg);
	/* The user's directory wins; /etc counts only when it is unusable. */
	if (rc == -ENOENT || rc == -EACCES || rc == -EPERM)
		rc = walk("/etc/terminal-colors.d", fn, arg);
	return rc;
}

static int same(const char *s, size_t len, const char *want)
{
	return want && strlen(want) == len && strncmp(s, want, len) == 0;
}

int kd_tcd_score(const char *name, const char *type, const char *util,
		 const char *term)
{
	const char *dot = strrchr(name, '.');
	const char *kind = dot ? dot + 1 : name;
	const char *at;
	int score = 1;

	if (strlen(name) > PATH_MAX || strcmp(kind, type) != 0)
		return -1;
	if (kind == name)
		return score;
	at = memchr(name, '@', (size_t)(dot - name));
	if (at) {
		size_t len = (size_t)(dot - at - 1);

		if (len && !same(at + 1, len, term))
			return -1;
		score += 10;
	}
	if ((at ? at : dot) > name) {
		if (!same(name, (size_t)((at ? at : dot) - name), util))
			return -1;
		score += 20;
	}
	return score;
}
