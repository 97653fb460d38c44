// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-filter.c - dmesg's -l/-f list grammar, the level/facility sets,
 * the exclusive --since/--until window and journalctl-style field matches
 * (repeats of one field OR, different fields AND).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "match/filter.h"
#include "tap.h"

/* A stand-in for the level table so the grammar is tested on its own. */
static int level_lookup(const char *name, size_t len)
{
	static const char *const names[] = {
		"emerg", "alert", "crit", "err", "warn", "notice", "info", "debug"
	};
	size_t i;

	if (len == 1 && name[0] >= '0' && name[0] <= '7')
		return name[0] - '0';
	for (i = 0; i < 8; i++)
		if (strlen(names[i]) == len && strncasecmp(name, names[i], len) == 0)
			return (int)i;
	return -EINVAL;
}

static void check_list(const char *list, unsigned int range, int want_rc,
		       uint32_t want_mask, const char *want_bad)
{
	uint32_t mask = 0;
	const char *bad = NULL;
	int rc = kd_filter_parse_list(list, level_lookup, range, &mask, &bad);

	if (want_rc == 0) {
		if (!tap_ok(rc == 0 && mask == want_mask, "list \"%s\"", list))
			tap_diag("rc=%d mask=0x%x want 0x%x", rc, mask, want_mask);
	} else {
		if (!tap_ok(rc == want_rc && bad && strcmp(bad, want_bad) == 0,
			    "list \"%s\" fails at \"%s\"", list, want_bad))
			tap_diag("rc=%d bad=%s", rc, bad ? bad : "(null)");
	}
}

static void test_lists(void)
{
	check_list("err", 8, 0, 0x08, NULL);
	check_list("err,warn", 8, 0, 0x18, NULL);
	check_list("ERR", 8, 0, 0x08, NULL);
	check_list("err+", 8, 0, 0x0f, NULL);		/* err and more severe */
	check_list("+err", 8, 0, 0xf8, NULL);		/* err and less severe */
	check_list("+debug,emerg+", 8, 0, 0x81, NULL);
	check_list("3,6", 8, 0, 0x48, NULL);
	check_list("foo,bar", 8, -EINVAL, 0, "foo,bar");
	check_list("err,bar", 8, -EINVAL, 0, "bar");
	check_list("err,", 8, -EINVAL, 0, "err,");
	check_list(",err", 8, -EINVAL, 0, ",err");
	check_list("err,,warn", 8, -EINVAL, 0, ",warn");
	check_list("+", 8, -EINVAL, 0, "+");
	check_list("", 8, -EINVAL, 0, "");
	/* Without ranges (facilities) a '+' is part of the name. */
	check_list("err+", 0, -EINVAL, 0, "err+");
}

static void rec_with(struct kd_record *r, int fac, int lvl, int64_t ts)
{
	kd_record_init(r);
	r->facility = fac;
	r->level = lvl;
	r->ts_usec = ts;
	kd_record_set_text(r, "x", 1);
}

static void test_sets(void)
{
	struct kd_filter f;
	struct kd_record r;

	kd_filter_init(&f);
	rec_with(&r, 0, 6, 1000);
	tap_ok(kd_filter_match(&f, &r), "empty filter passes everything");

	f.levels = 1u << 3;
	tap_ok(!kd_filter_match(&f, &r), "info record fails -l err");
	r.level = 3;
	tap_ok(kd_filter_match(&f, &r), "err record passes -l err");

	f.facilities = 1u << 0;
	tap_ok(kd_filter_match(&f, &r), "kern record passes -k");
	r.facility = 1;
	tap_ok(!kd_filter_match(&f, &r), "user record fails -k");

	f.levels = 0;
	f.facilities = 0xfffffe;	/* -u */
	tap_ok(kd_filter_match(&f, &r), "user record passes -u");
	r.facility = 40;
	tap_ok(!kd_filter_match(&f, &r), "out-of-table facility fails -u");
	r.facility = KD_NO_FACILITY;
	tap_ok(!kd_filter_match(&f, &r), "record without priority fails -u");
	f.facilities = 0;
	f.levels = 0xff;
	tap_ok(!kd_filter_match(&f, &r), "record without priority fails -l");
	f.levels = 0;
	tap_ok(kd_filter_match(&f, &r), "record without priority passes no filter");
	kd_record_free(&r);
	kd_filter_free(&f);
}

static void test_window(void)
{
	struct kd_filter f;
	struct kd_record r;

	kd_filter_init(&f);
	f.boot_usec = 1000000000;
	f.has_since = true;
	f.since_usec = 1000000000 + 5000000;
	rec_with(&r, 0, 6, 5000000);
	tap_ok(!kd_filter_match(&f, &r), "--since is exclusive");
	r.ts_usec = 5000001;
	tap_ok(kd_filter_match(&f, &r), "record after --since passes");

	f.has_until = true;
	f.until_usec = 1000000000 + 6000000;
	r.ts_usec = 6000000;
	tap_ok(!kd_filter_match(&f, &r), "--until is exclusive");
	r.ts_usec = 5999999;
	tap_ok(kd_filter_match(&f, &r), "record before --until passes");

	f.has_since = false;
	r.ts_usec = KD_NO_TIME;
	tap_ok(kd_filter_match(&f, &r), "record without time counts as boot time (until)");
	f.has_since = true;
	f.since_usec = 1000000000;
	tap_ok(!kd_filter_match(&f, &r), "record without time counts as boot time (since)");
	kd_record_free(&r);
	kd_filter_free(&f);
}

static void test_fields(void)
{
	struct kd_filter f;
	struct kd_record a, b, c;

	rec_with(&a, 0, 6, 1);
	kd_record_dict_add(&a, "SUBSYSTEM", 9, "pci", 3);
	kd_record_dict_add(&a, "DEVICE", 6, "+pci:0000:00:1f.3", 17);
	rec_with(&b, 0, 6, 2);
	kd_record_dict_add(&b, "SUBSYSTEM", 9, "usb", 3);
	kd_record_dict_add(&b, "DEVICE", 6, "c189:1", 6);
	rec_with(&c, 0, 6, 3);

	kd_filter_init(&f);
	tap_is_int(kd_filter_add_value(&f, KD_FIELD_SUBSYSTEM, "pci"), 0, "add subsystem");
	tap_ok(kd_filter_match(&f, &a), "--subsystem pci matches pci");
	tap_ok(!kd_filter_match(&f, &b), "--subsystem pci rejects usb");
	tap_ok(!kd_filter_match(&f, &c), "--subsystem rejects a record without one");

	kd_filter_add_value(&f, KD_FIELD_SUBSYSTEM, "usb");
	tap_ok(kd_filter_match(&f, &a) && kd_filter_match(&f, &b),
	       "two --subsystem values OR");

	kd_filter_add_value(&f, KD_FIELD_DEVICE, "c189:1");
	tap_ok(!kd_filter_match(&f, &a) && kd_filter_match(&f, &b),
	       "--subsystem and --device AND");
	tap_ok(!kd_filter_match(&f, &c), "no dictionary fails both");

	kd_filter_free(&f);
	tap_ok(f.nmatches == 0, "free empties the lists");
	tap_is_int(kd_filter_add_value(&f, KD_FIELD__COUNT, "x"), -EINVAL,
		   "unknown field is refused");
	kd_filter_free(&f);
	kd_record_free(&a);
	kd_record_free(&b);
	kd_record_free(&c);
}

int main(void)
{
	test_lists();
	test_sets();
	test_window();
	test_fields();
	return tap_done();
}
