// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * colors.c - dmesg's colour scheme, read from terminal-colors.d(5) the way
 * util-linux reads it, so an existing dmesg.scheme applies to kdmesg.
 *
 * Which file: the directory is $XDG_CONFIG_HOME/terminal-colors.d, else
 * $HOME/.config/terminal-colors.d; only when that cannot be opened (absent,
 * no permission) is /etc/terminal-colors.d read.  Among regular files (or
 * links) named "[name][@term].scheme", not starting with '.', the one with
 * the best score wins: ".scheme" 1, "@term.scheme" 11, "name.scheme" 21,
 * "name@term.scheme" 31, where name must be the utility name and term must
 * equal $TERM; a later file with an equal score replaces an earlier one.
 *
 * What a scheme line holds: "<name> <sequence>", blank and '#' lines
 * ignored.  A sequence starting with a letter is a colour name (black,
 * blue, brown, cyan, darkgray, gray, green, lightblue, lightcyan, lightgray,
 * lightgreen, lightmagenta, lightred, magenta, red, yellow); anything else
 * is wrapped as ESC "[" sequence "m" with \a \b \e \f \n \r \t \v \\ \_
 * (space) \# \? decoded.  The attributes blink, bold, halfbright, reset
 * and reverse are names too.  An unknown name ends the reading of the
 * file, keeping the lines before it, as util-linux does.  Names the
 * scheme does not define keep dmesg's default.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink/colors.h"
#include "sink/terminal-colors-d.h"

struct kd_colors {
	char *seq[KD_COLOR__COUNT];	/* from the scheme file, or NULL */
};

static const struct {
	const char *name;
	const char *dflt;
} defaults[KD_COLOR__COUNT] = {
	[KD_COLOR_SUBSYS]	= { "subsys",    "\033[33m" },
	[KD_COLOR_TIME]		= { "time",      "\033[32m" },
	[KD_COLOR_TIMEBREAK]	= { "timebreak", "\033[32m\033[1m" },
	[KD_COLOR_ALERT]	= { "alert",     "\033[7m\033[31m" },
	[KD_COLOR_CRIT]		= { "crit",      "\033[1m\033[31m" },
	[KD_COLOR_ERR]		= { "err",       "\033[31m" },
	[KD_COLOR_WARN]		= { "warn",      "\033[1m" },
	[KD_COLOR_SEGFAULT]	= { "segfault",  "\033[2m\033[31m" },
};

/* util-linux 2.42's colour and attribute names, sorted. */
static const struct {
	const char *name;
	const char *seq;
} color_names[] = {
	{ "black",	"\033[30m" },
	{ "blink",	"\033[5m" },
	{ "blue",	"\033[34m" },
	{ "bold",	"\033[1m" },
	{ "brown",	"\033[33m" },
	{ "cyan",	"\033[36m" },
	{ "darkgray",	"\033[1;30m" },
	{ "gray",	"\033[37m" },
	{ "green",	"\033[32m" },
	{ "halfbright",	"\033[2m" },
	{ "lightblue",	"\033[1;34m" },
	{ "lightcyan",	"\033[1;36m" },
	{ "lightgray",	"\033[37m" },
	{ "lightgreen",	"\033[1;32m" },
	{ "lightmagenta", "\033[1;35m" },
	{ "lightred",	"\033[1;31m" },
	{ "magenta",	"\033[35m" },
	{ "red",	"\033[31m" },
	{ "reset",	"\033[0m" },
	{ "reverse",	"\033[7m" },
	{ "yellow",	"\033[1;33m" },
};

static const char *color_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(color_names) / sizeof(color_names[0]); i++)
		if (strcmp(color_names[i].name, name) == 0)
			return color_names[i].seq;
	return NULL;
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * The escape sequence for a scheme value, malloc'ed; NULL with *@err set
 * (-EINVAL for an unknown colour name, -ENOMEM).
 */
static char *parse_sequence(const char *str, int *err)
{
	const char *in;
	char *seq, *out;

	if (*str != '\\' && is_alpha(*str)) {
		const char *s = color_by_name(str);

		if (!s) {
			*err = -EINVAL;
			return NULL;
		}
		seq = strdup(s);
		*err = seq ? 0 : -ENOMEM;
		return seq;
	}

	/*
	 * Wrap first, then decode in place, as util-linux does: a trailing
	 * backslash then pairs with the closing 'm' and both are kept.
	 */
	if (asprintf(&seq, "\033[%sm", str) < 0) {
		*err = -ENOMEM;
		return NULL;
	}
	for (in = out = seq; *in; in++) {
		char c;

		if (*in != '\\') {
			*out++ = *in;
			continue;
		}
		switch (in[1]) {
		case 'a': c = '\a'; break;
		case 'b': c = '\b'; break;
		case 'e': c = '\033'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		case 'v': c = '\v'; break;
		case '\\': c = '\\'; break;
		case '_': c = ' '; break;
		case '#': c = '#'; break;
		case '?': c = '?'; break;
		default:
			/* Unknown escapes stay as written. */
			*out++ = in[0];
			*out++ = in[1];
			in++;
			continue;
		}
		*out++ = c;
		in++;
	}
	*out = '\0';
	*err = 0;
	return seq;
}

struct scheme_pick {
	const char *util, *term;
	int score;		/* of the file in path, 0 for none */
	char *path;		/* malloc'ed */
};

/* A later file with an equal score replaces an earlier one (util-linux). */
static void pick_scheme(const char *dir, const char *name, void *arg)
{
	struct scheme_pick *p = arg;
	int score = kd_tcd_score(name, "scheme", p->util, p->term);
	char *path;

	if (score < 0 || score < p->score)
		return;
	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return;
	free(p->path);
	p->path = path;
	p->score = score;
}

static char *find_scheme_file(const char *util)
{
	struct scheme_pick p = { util, getenv("TERM"), 0, NULL };

	kd_tcd_foreach(pick_scheme, &p);
	return p.path;
}

static void skip_blank(char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
}

/* Read @path into @c; stops quietly at the first bad line. */
static void read_scheme(struct kd_colors *c, const char *path)
{
	char line[BUFSIZ];
	FILE *f = fopen(path, "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char cn[129], val[129], *p = strchr(line, '\n'), *seq;
		int i, err;

		if (!p) {
			if (!feof(f))
				break;		/* over-long line */
			p = strchr(line, '\0');
		}
		*p = '\0';
		p = line;
		skip_blank(&p);
		if (*p == '\0' || *p == '#')
			continue;
		if (sscanf(p, "%128[^ ] %128[^\n ]", cn, val) != 2 || !*cn || !*val)
			continue;
		seq = parse_sequence(val, &err);
		if (!seq)
			break;
		for (i = 0; i < KD_COLOR__COUNT; i++) {
			if (strcmp(cn, defaults[i].name) != 0)
				continue;
			/* util-linux bsearches; with duplicates keep the first. */
			if (!c->seq[i]) {
				c->seq[i] = seq;
				seq = NULL;
			}
			break;
		}
		free(seq);
	}
	fclose(f);
}

int kd_colors_new(struct kd_colors **out, const char *utilname)
{
	struct kd_colors *c = calloc(1, sizeof(*c));
	char *path;

	if (!c)
		return -ENOMEM;
	path = utilname && *utilname ? find_scheme_file(utilname) : NULL;
	if (path)
		read_scheme(c, path);
	free(path);
	*out = c;
	return 0;
}

void kd_colors_free(struct kd_colors *c)
{
	int i;

	if (!c)
		return;
	for (i = 0; i < KD_COLOR__COUNT; i++)
		free(c->seq[i]);
	free(c);
}

const char *kd_colors_seq(const struct kd_colors *c, enum kd_color id)
{
	return c->seq[id] ? c->seq[id] : defaults[id].dflt;
}

const char *kd_color_name(enum kd_color id)
{
	return defaults[id].name;
}
