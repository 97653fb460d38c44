// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-klogctl.c - dmesg -n argument parsing (numbers 1..8, names meaning
 * "this level and more severe") and the -L/--color argument, which need
 * no privileges; the syslog(2) calls themselves are exercised by the CLI
 * tests.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "source/klogctl.h"
#include "sink/terminal.h"
#include "tap.h"

static void level(const char *in, int want_rc, int want)
{
	int got = -100;
	int rc = kd_klogctl_parse_console_level(in, &got);

	if (!tap_ok(rc == want_rc && (rc < 0 || got == want), "-n '%s'", in))
		tap_diag("rc=%d level=%d", rc, got);
}

int main(void)
{
	level("1", 0, 1);
	level("8", 0, 8);
	level("emerg", 0, 1);
	level("err", 0, 4);
	level("DEBUG", 0, 8);
	level("0", -EINVAL, 0);
	level("9", -EINVAL, 0);
	level("3x", -EINVAL, 0);
	level("", -EINVAL, 0);
	level("warning", -EINVAL, 0);
	level("99999999999999999999", -ERANGE, 0);
	tap_is_int(kd_klogctl_console_level(0), -EINVAL, "level 0 is refused before syslog(2)");
	tap_is_int(kd_klogctl_console_level(9), -EINVAL, "level 9 is refused before syslog(2)");

	tap_is_int(kd_colormode_parse("auto"), KD_COLORMODE_AUTO, "color auto");
	tap_is_int(kd_colormode_parse("=always"), KD_COLORMODE_ALWAYS, "color =always (-L=always)");
	tap_is_int(kd_colormode_parse("Never"), KD_COLORMODE_NEVER, "color names ignore case");
	tap_is_int(kd_colormode_parse("foo"), -EINVAL, "unknown color mode");
	/* The test harness's standard output is a pipe, never a terminal. */
	tap_ok(kd_terminal_want_color(KD_COLORMODE_ALWAYS, "dmesg"), "always colours a pipe");
	tap_ok(!kd_terminal_want_color(KD_COLORMODE_AUTO, "dmesg"), "auto does not colour a pipe");
	tap_ok(!kd_terminal_want_color(KD_COLORMODE_UNDEF, "dmesg"), "default does not colour a pipe");
	return tap_done();
}
