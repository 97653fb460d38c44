// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-terminal-colors-d.c - the terminal-colors.d(5) file name scores
 * that both the colour switch and the scheme lookup rely on.
 */
#include <stdio.h>

#include "tap.h"
#include "sink/terminal-colors-d.h"

int main(void)
{
	static const struct {
		const char *name, *type;
		int score;
	} t[] = {
		{ "scheme", "scheme", 1 },
		{ "@xterm.scheme", "scheme", 11 },
		{ "dmesg.scheme", "scheme", 21 },
		{ "dmesg@xterm.scheme", "scheme", 31 },
		{ "dmesg@.scheme", "scheme", 31 },
		{ "dmesg@vt100.scheme", "scheme", -1 },
		{ "lsblk.scheme", "scheme", -1 },
		{ "dmesgx.scheme", "scheme", -1 },
		{ "dmesg.disable", "scheme", -1 },
		{ "dmesg.disable", "disable", 21 },
		{ "disable", "disable", 1 },
		{ "@xterm.enable", "enable", 11 },
		{ "dmesg.schemes", "scheme", -1 },
	};
	char name[128];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
	{
		snprintf(name, sizeof(name), "%s as %s", t[i].name, t[i].type);
		tap_is_int(kd_tcd_score(t[i].name, t[i].type, "dmesg", "xterm"),
			   t[i].score, name);
	}
	tap_is_int(kd_tcd_score("dmesg@xterm.scheme", "scheme", "dmesg", NULL),
		   -1, "a terminal-specific file does not apply without $TERM");
	return tap_done();
}
