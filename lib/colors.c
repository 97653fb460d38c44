// SPDX-License-Identifier: GPL-2.0-or-later
/* colors.c - dmesg's colour scheme (defaults; scheme files to come). */
#include <errno.h>
#include <stdlib.h>

#include "colors.h"

struct kd_colors {
	const char *seq[KD_COLOR__COUNT];
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

int kd_colors_new(struct kd_colors **out, const char *utilname)
{
	struct kd_colors *c = calloc(1, sizeof(*c));
	int i;

	(void)utilname;
	if (!c)
		return -ENOMEM;
	for (i = 0; i < KD_COLOR__COUNT; i++)
		c->seq[i] = defaults[i].dflt;
	*out = c;
	return 0;
}

void kd_colors_free(struct kd_colors *c)
{
	free(c);
}

const char *kd_colors_seq(const struct kd_colors *c, enum kd_color id)
{
	return c->seq[id];
}

const char *kd_color_name(enum kd_color id)
{
	return defaults[id].name;
}
