// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-match.c - lib/match/match.c and lib/sink/stats.c: each kind of field test
 * (exact, glob, path with trailing parts and directories, module names
 * with '-'/'_', regular expressions on lent, unterminated text), the
 * glob cache giving the same answers, missing fields never matching, the
 * filter's OR/AND of them; --stats' masking, counting and order.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "match/filter.h"
#include "match/match.h"
#include "sink/stats.h"
#include "tap.h"

static void rec_file(struct kd_record *r, const char *file, const char *func,
		     const char *module)
{
	kd_record_reset(r);
	kd_record_set_text(r, "x", 1);
	if (file)
		kd_record_dict_add(r, "CODE_FILE", 9, file, strlen(file));
	if (func)
		kd_record_dict_add(r, "CODE_FUNC", 9, func, strlen(func));
	if (module)
		kd_record_dict_add(r, "MODULE", 6, module, strlen(module));
}

static bool test1(enum kd_match_kind kind, enum kd_field_id id, const char *want,
		  const struct kd_record *r)
{
	struct kd_field f = { .id = id };
	struct kd_match *m = NULL;
	bool a, b;

	f.key = kd_field_name(&f);
	if (kd_match_new(&m, kind, &f, 0) < 0 || kd_match_add(m, want) < 0)
		return false;
	a = kd_match_test(m, r);
	b = kd_match_test(m, r);	/* the second answer comes from the cache */
	kd_match_free(m);
	if (a != b)
		tap_diag("cached answer differs for %s", want);
	return a && b;
}

static void test_kinds(void)
{
	struct kd_record r;
	struct kd_field msg = { .id = KD_FIELD_MESSAGE, .key = "MESSAGE" };
	struct kd_field line = { .id = KD_FIELD_DICT, .key = "CODE_LINE" };
	struct kd_match *m = NULL;
	static const char input[] = "nvme nvme0: I/O timeout, aborting\nNEXT";

	kd_record_init(&r);
	rec_file(&r, "drivers/net/ethernet/intel/e1000/e1000_main.c", "e1000_probe",
		 "snd_hda_intel");
	tap_ok(test1(KD_MATCH_PATH, KD_FIELD_CODE_FILE, "e1000_main.c", &r),
	       "path: the file name alone");
	tap_ok(test1(KD_MATCH_PATH, KD_FIELD_CODE_FILE, "drivers/net", &r),
	       "path: a directory matches what is below it");
	tap_ok(test1(KD_MATCH_PATH, KD_FIELD_CODE_FILE, "drivers/", &r),
	       "path: a trailing slash (shell completion) is the directory");
	tap_ok(test1(KD_MATCH_PATH, KD_FIELD_CODE_FILE, "ethernet/intel//", &r),
	       "path: so are trailing slashes");
	tap_ok(!test1(KD_MATCH_PATH, KD_FIELD_CODE_FILE, "drivers/usb/", &r),
	       "path: another directory with its slash");
	tap_ok(test1(KD_MATCH_PATH, KD_FIELD_CODE_FILE, "intel/*/e1000_main.c", &r),
	       "path: a glob on a trailing part");
	tap_ok(!test1(KD_MATCH_PATH, KD_FIELD_CODE_FILE, "main.c", &r),
	       "path: not a part of a file name");
	tap_ok(!test1(KD_MATCH_PATH, KD_FIELD_CODE_FILE, "drivers/usb", &r),
	       "path: another directory");
	tap_ok(test1(KD_MATCH_GLOB, KD_FIELD_CODE_FUNC, "e1000_*", &r), "glob on the function");
	tap_ok(!test1(KD_MATCH_GLOB, KD_FIELD_CODE_FUNC, "e1000", &r), "a glob matches all of it");
	tap_ok(test1(KD_MATCH_MODULE, KD_FIELD_MODULE, "snd-hda-intel", &r),
	       "module: '-' is '_'");
	tap_ok(!test1(KD_MATCH_MODULE, KD_FIELD_MODULE, "snd-hda", &r), "module: whole name");
	tap_ok(!test1(KD_MATCH_EXACT, KD_FIELD_FORMAT, "x", &r), "a missing field never matches");
	tap_is_int(kd_match_new(&m, KD_MATCH_GLOB, &msg, 0), -EINVAL,
		   "globs only on dictionary fields");

	/* --grep on text lent by a reader: not terminated, newline after. */
	kd_record_reset(&r);
	kd_record_ref_text(&r, input, 33);
	tap_is_int(kd_match_new(&m, KD_MATCH_REGEX, &msg, KD_MATCH_ICASE), 0, "a regex");
	kd_match_add(m, "TIMEOUT, aborting$");
	tap_ok(kd_match_test(m, &r), "-i, anchored at the end of the lent text");
	kd_match_free(m);
	kd_match_new(&m, KD_MATCH_REGEX, &msg, 0);
	kd_match_add(m, "NEXT");
	tap_ok(!kd_match_test(m, &r), "nothing past the text is searched");
	tap_is_int(kd_match_add(m, "(x"), -EINVAL, "a bad regex is refused");
	tap_ok(strlen(kd_match_error(m)) > 0, "... with regerror's reason");
	kd_match_free(m);

	kd_record_reset(&r);
	kd_record_set_text(&r, "x", 1);
	kd_record_dict_add(&r, "CODE_LINE", 9, "12\0x", 4);
	kd_match_new(&m, KD_MATCH_GLOB, &line, 0);
	kd_match_add(m, "12*");
	tap_ok(!kd_match_test(m, &r), "a value with a NUL inside never matches a glob");
	kd_match_free(m);
	kd_record_free(&r);
}

static void test_filter(void)
{
	struct kd_filter f;
	struct kd_record a, b;
	struct kd_field func = { .id = KD_FIELD_CODE_FUNC, .key = "CODE_FUNC" };
	struct kd_field file = { .id = KD_FIELD_CODE_FILE, .key = "CODE_FILE" };

	kd_record_init(&a);
	kd_record_init(&b);
	rec_file(&a, "drivers/net/x.c", "probe_a", NULL);
	rec_file(&b, "drivers/usb/y.c", "probe_b", NULL);
	kd_filter_init(&f);
	kd_filter_add(&f, KD_MATCH_GLOB, &func, 0, "probe_a", NULL);
	kd_filter_add(&f, KD_MATCH_GLOB, &func, 0, "probe_b", NULL);
	tap_is_int((long long)f.nmatches, 1, "repeats of one filter share one match");
	tap_ok(kd_filter_match(&f, &a) && kd_filter_match(&f, &b), "... and OR");
	kd_filter_add(&f, KD_MATCH_PATH, &file, 0, "drivers/usb", NULL);
	tap_ok(!kd_filter_match(&f, &a) && kd_filter_match(&f, &b), "different filters AND");
	tap_ok(kd_filter_uses_kprint(&f) && kd_filter_uses_dict(&f), "they need the kprint fields");
	kd_filter_free(&f);
	kd_record_free(&a);
	kd_record_free(&b);
}

static void test_stats(void)
{
	char buf[64];
	struct kd_stats *s = NULL;
	struct kd_record r;
	const struct kd_stats_site *const *v;
	size_t n;

	kd_stats_mask("usb 1-1: device 0x1f at ffff8881 eth0", 38, buf, sizeof(buf));
	tap_is_str(buf, "usb #-#: device # at # eth#", "numbers and hex masked");
	kd_stats_mask("0123456789", 10, buf, 5);
	tap_is_str(buf, "#", "a number is one #");
	kd_stats_mask("abcdefabcdef", 12, buf, 5);
	tap_is_str(buf, "abcd", "cut at the buffer, words without digits kept");

	tap_is_int(kd_stats_new(&s), 0, "new counters");
	kd_record_init(&r);
	for (int i = 0; i < 3000; i++) {
		char t[32];
		int k = snprintf(t, sizeof(t), "site %d of many", i % 700);

		kd_record_reset(&r);
		r.level = i % 7 == 0 ? 2 : 6;
		r.ts_usec = i;
		kd_record_set_text(&r, t, (size_t)k);
		if (i % 3 == 0)
			kd_record_dict_add(&r, "CODE_FILE", 9, "a.c", 3);
		kd_stats_add(s, &r);
	}
	v = kd_stats_sorted(s, &n);
	tap_is_int((long long)kd_stats_total(s), 3000, "every record counted");
	tap_is_int((long long)n, 2, "two sites: one file, one masked text");
	tap_ok(n == 2 && v[0]->count == 2000 && !v[0]->structured &&
	       strcmp(v[0]->text, "site # of many") == 0, "the larger first");
	tap_ok(n == 2 && v[1]->structured && v[1]->count == 1000 &&
	       strcmp(v[1]->file, "a.c") == 0 && v[1]->first_usec == 0 &&
	       v[1]->last_usec == 2997 && v[1]->level == 2,
	       "first and last time, the most severe level");
	kd_stats_free(s);
	kd_record_free(&r);
}

int main(void)
{
	test_kinds();
	test_filter();
	test_stats();
	return tap_done();
}
