// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-colors.c - dmesg's colour scheme (defaults, terminal-colors.d file
 * choice and parsing) and the colours the text writer puts around stamps,
 * subsystem prefixes and messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sink/colors.h"
#include "sink/output.h"
#include "record/record.h"
#include "tap.h"
#include "writer-run.h"

static char base[] = "/tmp/kdmesg-colors-XXXXXX";
static char dir[sizeof(base) + 32];

static void put_file(const char *name, const char *text)
{
	char path[sizeof(dir) + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		tap_diag("cannot create %s", path);
		return;
	}
	fputs(text, f);
	fclose(f);
}

static void rm_file(const char *name)
{
	char path[sizeof(dir) + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

/* The sequence for @id from a fresh scheme for "dmesg". */
static void check_seq(enum kd_color id, const char *want, const char *name)
{
	struct kd_colors *c = NULL;

	if (kd_colors_new(&c, "dmesg") != 0) {
		tap_ok(false, "%s: kd_colors_new", name);
		return;
	}
	tap_is_str(kd_colors_seq(c, id), want, name);
	kd_colors_free(c);
}

static void test_scheme(void)
{
	check_seq(KD_COLOR_TIME, "\033[32m", "default time is green");
	check_seq(KD_COLOR_TIMEBREAK, "\033[32m\033[1m", "default timebreak");
	check_seq(KD_COLOR_ALERT, "\033[7m\033[31m", "default alert");
	check_seq(KD_COLOR_SEGFAULT, "\033[2m\033[31m", "default segfault");
	check_seq(KD_COLOR_SUBSYS, "\033[33m", "default subsys is brown");
	tap_is_str(kd_color_name(KD_COLOR_TIMEBREAK), "timebreak", "scheme names");

	put_file("dmesg.scheme",
		 "# comment\n"
		 "\n"
		 "  time   blue\n"
		 "err 1;4;31\n"
		 "warn \\e[5m\\_x\n"
		 "crit 35\\\n"
		 "subsys lightgray\n"
		 "timebreak blink\n"
		 "segfault reverse\n"
		 "alert lightgray,\n"
		 "time red\n");
	check_seq(KD_COLOR_TIME, "\033[34m", "scheme: colour name; the line after the stop is not read");
	check_seq(KD_COLOR_ERR, "\033[1;4;31m", "scheme: numbers wrapped in ESC[..m");
	check_seq(KD_COLOR_WARN, "\033[\033[5m xm", "scheme: backslash escapes");
	check_seq(KD_COLOR_CRIT, "\033[35\\m", "scheme: trailing backslash kept");
	check_seq(KD_COLOR_SUBSYS, "\033[37m", "scheme: lightgray, as util-linux 2.42 spells it");
	check_seq(KD_COLOR_TIMEBREAK, "\033[5m", "scheme: blink is an attribute name");
	check_seq(KD_COLOR_SEGFAULT, "\033[7m", "scheme: reverse is an attribute name");
	check_seq(KD_COLOR_ALERT, "\033[7m\033[31m",
		  "scheme: reading stops at an unknown colour name");

	put_file("dmesg@kdmesg-test-term.scheme", "time red\n");
	put_file("other.scheme", "time cyan\n");
	put_file("scheme", "time yellow\n");
	check_seq(KD_COLOR_TIME, "\033[31m", "name@term beats name");
	rm_file("dmesg@kdmesg-test-term.scheme");
	rm_file("dmesg.scheme");
	check_seq(KD_COLOR_TIME, "\033[1;33m", "a file named scheme applies to every tool");
	put_file("@kdmesg-test-term.scheme", "time magenta\n");
	check_seq(KD_COLOR_TIME, "\033[35m", "@term beats a bare scheme file");
	rm_file("@kdmesg-test-term.scheme");
	rm_file("scheme");
	check_seq(KD_COLOR_TIME, "\033[32m", "another tool's scheme is ignored");
	rm_file("other.scheme");
}

static void test_writer(void)
{
	struct kd_output_opts o;
	struct kd_writer *w = NULL;
	struct kd_record r;
	struct kd_prev prev;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	static const struct {
		int lev;
		int64_t usec;
		const char *text;
	} in[] = {
		{ 3, 1000000, "usb 1-1: device descriptor read error" },
		{ 6, 2000000, "app[1]: segfault at 0 ip 0" },
		{ 0, 3000000, "emerg: not coloured" },
		{ 4, 70000000, "no:subsys here" },
	};
	size_t i;
	int rc;

	memset(&o, 0, sizeof(o));
	o.mode = KD_OUTPUT_TEXT;
	o.color = true;
	o.decode = true;
	o.boot_usec = 1234567890123456LL;
	o.ntime = 2;
	o.time[0] = KD_TIME_RELTIME;
	o.time[1] = KD_TIME_RAW;
	kd_prev_init(&prev);
	rc = kd_writer_new(&w, &o, out);
	for (i = 0; rc == 0 && i < sizeof(in) / sizeof(in[0]); i++) {
		kd_record_init(&r);
		r.facility = 0;
		r.level = in[i].lev;
		r.ts_usec = in[i].usec;
		kd_record_set_text(&r, in[i].text, strlen(in[i].text));
		rc = writer_show(w, &prev, &r);
		kd_record_free(&r);
	}
	kd_writer_finish(w);
	kd_writer_free(w);
	fclose(out);
	tap_is_int(rc, 0, "coloured writes succeed");
	tap_is_str(buf,
		   "kern  :err   : \033[32m\033[1m[Feb13 23:31] [    1.000000] \033[0m"
		   "\033[33musb 1-1: \033[0m\033[31mdevice descriptor read error\033[0m\n"
		   "kern  :info  : \033[32m[  +1.000000] [    2.000000] \033[0m"
		   "\033[33mapp[1]: \033[0m\033[2m\033[31msegfault at 0 ip 0\033[0m\n"
		   "kern  :emerg : \033[32m[  +1.000000] [    3.000000] \033[0m"
		   "\033[33memerg: \033[0mnot coloured\n"
		   "kern  :warn  : \033[32m\033[1m[Feb13 23:32] [   70.000000] \033[0m"
		   "\033[1mno:subsys here\033[0m\n",
		   "colours: timebreak, time, subsys, err, segfault, none for emerg, warn");
	free(buf);
}

int main(void)
{
	if (!mkdtemp(base)) {
		tap_ok(false, "mkdtemp");
		return tap_done();
	}
	snprintf(dir, sizeof(dir), "%s/terminal-colors.d", base);
	mkdir(dir, 0700);
	setenv("XDG_CONFIG_HOME", base, 1);
	setenv("TERM", "kdmesg-test-term", 1);
	setenv("TZ", "GMT", 1);
	tzset();

	test_scheme();
	test_writer();

	rmdir(dir);
	rmdir(base);
	return tap_done();
}
