// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-view-detail.c - lib/view/view-detail.c: the lines of the viewer's detail
 * pane for a record with every field, libkmod's facts after MODULE (or the
 * note saying why there are none), and every value - the text, dictionary
 * values, module facts - escaped for the terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "view/view-detail.h"

/* The pane as "label|value" lines ("+label" for a note, "|value" for a
 * further line of the value above), for one comparison per case. */
static char *dump(const struct kd_detail *d)
{
	size_t cap = 4096, n = 0;
	char *s = malloc(cap);

	for (size_t i = 0; s && i < d->n; i++) {
		const struct kd_detail_line *l = &d->v[i];

		n += (size_t)snprintf(s + n, cap - n, "%s%s|%s\n", l->note ? "+" : "",
				      l->label ? l->label : "", l->value);
		if (n >= cap) {
			free(s);
			return NULL;
		}
	}
	if (s && n == 0)
		s[0] = '\0';
	return s;
}

static void record(struct kd_record *r)
{
	static const char text[] = "e1000e eth0: \x1b[31mred\x1b[0m\nsecond line";

	kd_record_init(r);
	r->level = 3;
	r->facility = 0;
	r->seq = 42;
	r->ts_usec = 2500000;
	snprintf(r->caller, sizeof(r->caller), "T7");
	kd_record_set_text(r, text, sizeof(text) - 1);
	kd_record_dict_add(r, "SUBSYSTEM", 9, "pci", 3);
	kd_record_dict_add(r, "MODULE", 6, "e1000e", 6);
	kd_record_dict_add(r, "FORMAT", 6, "%s: \x07" "bell", 9);
	kd_record_dict_add(r, "ARG0", 4, "eth0", 4);
}

static void test_every_field(void)
{
	struct kd_modinfo_facts facts = {
		.state = "builtin", .version = "3.8.7",
		.description = "Intel(R) \x1b]0;title\x07 driver",
	};
	struct kd_detail_ctx ctx = {
		.prev_usec = 2000000, .boot_usec = 1234567890000000,
		.module = &facts,
	};
	struct kd_detail d = { 0 };
	struct kd_record r;
	char *got;

	record(&r);
	tap_is_int(kd_detail_build(&d, &r, &ctx), 0, "a record with every field");
	got = dump(&d);
	tap_is_str(got,
		   "level|err (3)\n"
		   "facility|kern (0)\n"
		   "sequence|42\n"
		   "since boot|2.500000 s\n"
		   "since previous|+0.500000 s\n"
		   "wall clock|Fri Feb 13 23:31:32 2009\n"
		   "ISO 8601|2009-02-13T23:31:32,500000+00:00\n"
		   "caller|T7\n"
		   "text|e1000e eth0: \\x1b[31mred\\x1b[0m\n"
		   "|second line\n"
		   "SUBSYSTEM|pci\n"
		   "MODULE|e1000e\n"
		   "module state|builtin\n"
		   "module version|3.8.7\n"
		   "description|Intel(R) \\x1b]0;title\\x07 driver\n"
		   "FORMAT|%s: \\x07bell\n"
		   "ARG0|eth0\n",
		   "every field in order, control bytes escaped, the text's lines split, "
		   "libkmod's facts after MODULE");
	free(got);

	/* Built again for another record: the old lines go. */
	ctx.module = NULL;
	ctx.module_note = "none: kdmesg was built without libkmod";
	ctx.prev_usec = 3000000;
	ctx.boot_usec = 0;
	r.caller[0] = '\0';
	r.flags |= KD_REC_CONT;
	tap_is_int(kd_detail_build(&d, &r, &ctx), 0, "built again");
	got = dump(&d);
	tap_ok(got && strstr(got, "since previous|-0.500000 s\n") && !strstr(got, "wall clock") &&
	       !strstr(got, "caller|") && strstr(got, "+continues the previous record|\n") &&
	       strstr(got, "MODULE|e1000e\nmodule facts|none: kdmesg was built without libkmod\n") &&
	       !strstr(got, "module state"),
	       "a negative delta, no wall clock without a boot time, no caller, the "
	       "continuation note, the reason for no module facts");
	if (got && !strstr(got, "module facts"))
		tap_diag("%s", got);
	free(got);
	kd_detail_release(&d);
	tap_ok(d.n == 0 && d.v == NULL, "released");
	kd_record_free(&r);
}

/* Issue 19: keys are kernel bytes too, escaped as the values are. */
static void test_hostile_keys(void)
{
	static const struct {
		const char *key, *want;
	} keys[] = {
		{ "X\x1b]52;c;SGk\x1b\\", "X\\x1b]52;c;SGk\\x1b\\|v\n" },	/* OSC 52 */
		{ "\x1b[31mRED", "\\x1b[31mRED|v\n" },		/* CSI */
		{ "C1\x9b" "31m", "C1\\x9b31m|v\n" },		/* a lone C1 byte */
		{ "SOH\x01", "SOH\\x01|v\n" },
		{ "DEL\x7f", "DEL\\x7f|v\n" },
	};
	struct kd_detail_ctx ctx = { .prev_usec = -1, .module_note = "n" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct kd_detail d = { 0 };
		struct kd_record r;
		char *got, *line;

		kd_record_init(&r);
		r.level = 6;
		kd_record_set_text(&r, "t", 1);
		kd_record_dict_add(&r, keys[i].key, strlen(keys[i].key), "v", 1);
		tap_is_int(kd_detail_build(&d, &r, &ctx), 0, "a record with a hostile key");
		got = dump(&d);
		line = got ? strstr(got, "text|t\n") : NULL;
		tap_is_str(line ? line + strlen("text|t\n") : got, keys[i].want,
			   "the key is escaped in the detail pane");
		free(got);
		kd_detail_release(&d);
		kd_record_free(&r);
	}
}

int main(void)
{
	setenv("TZ", "GMT", 1);
	test_every_field();
	test_hostile_keys();
	return tap_done();
}
