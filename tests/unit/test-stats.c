// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-stats.c - --stats' counters and report (lib/sink/stats.c,
 * lib/sink/stats-print.c): numbers masked in stock-kernel texts, one site per
 * call site whatever the arguments, first/last time and the most severe
 * level, the order and -n, memory that grows with the sites and not the
 * records, JSON that stays valid for crafted stamps, and the lines of a
 * kprint group counted each at its own site.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/record.h"
#include "sink/stats.h"
#include "tap.h"

static void mask_is(const char *text, const char *want)
{
	char buf[64];

	kd_stats_mask(text, strlen(text), buf, sizeof(buf));
	tap_is_str(buf, want, text);
}

/* A kprint record of site FILE:LINE with FORMAT, or a stock one (file NULL). */
static void add(struct kd_stats *s, struct kd_record *r, const char *file,
		const char *line, const char *text, int level, int64_t usec)
{
	kd_record_reset(r);
	r->level = level;
	r->facility = 0;
	r->ts_usec = usec;
	kd_record_set_text(r, text, strlen(text));
	if (file) {
		kd_record_dict_add(r, "CODE_FILE", 9, file, strlen(file));
		kd_record_dict_add(r, "CODE_LINE", 9, line, strlen(line));
		kd_record_dict_add(r, "CODE_FUNC", 9, "fn", 2);
		kd_record_dict_add(r, "MODULE", 6, "mod", 3);
		kd_record_dict_add(r, "FORMAT", 6, "x=%d", 4);
	}
	if (kd_stats_add(s, r) != 0)
		tap_diag("kd_stats_add failed");
}

static void dict(struct kd_record *r, const char *key, const char *value)
{
	kd_record_dict_add(r, key, strlen(key), value, strlen(value));
}

/*
 * A group stored as one record (man/kprint.7): lines 1 and 3 from
 * a.c:7, line 2 from b.c:9, line 4 without a call site.
 */
static void add_group(struct kd_stats *s, struct kd_record *r)
{
	static const char text[] = "a 1\nb 2\na 3\nkprint: group overflowed, 5 line(s) dropped";

	kd_record_reset(r);
	r->level = 4;
	r->ts_usec = 7000000;
	kd_record_set_text(r, text, strlen(text));
	dict(r, "GROUP", "4");
	for (int k = 1; k <= 3; k++) {
		char key[32];

		snprintf(key, sizeof(key), "LINE%d_CODE_FILE", k);
		dict(r, key, k == 2 ? "b.c" : "a.c");
		snprintf(key, sizeof(key), "LINE%d_CODE_LINE", k);
		dict(r, key, k == 2 ? "9" : "7");
		snprintf(key, sizeof(key), "LINE%d_FORMAT", k);
		dict(r, key, k == 2 ? "b %d" : "a %d");
	}
	dict(r, "LINE2_CODE_FUNC", "fb");
	if (kd_stats_add(s, r) != 0)
		tap_diag("kd_stats_add failed");
}

static char *report(struct kd_stats *s, bool json, size_t top)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	if (json)
		kd_stats_write_json(s, out, top, NULL, NULL, NULL);
	else
		kd_stats_write_text(s, out, top, NULL, NULL);
	fclose(out);
	return buf;
}

int main(void)
{
	struct kd_stats *s = NULL;
	struct kd_record r;
	size_t n;
	char *out;
	int i;

	mask_is("usb 1-1: new device number 12", "usb #-#: new device number #");
	mask_is("at 0xffff8881 and ffff8881 cafe", "at # and # cafe");
	mask_is("eth0 link up", "eth# link up");

	kd_record_init(&r);
	tap_is_int(kd_stats_new(&s), 0, "kd_stats_new");
	/* 10,000 records of three sites: two kprint ones, one stock text. */
	for (i = 0; i < 10000; i++) {
		char text[32];

		snprintf(text, sizeof(text), "x=%d", i);
		if (i % 4 == 0)
			add(s, &r, NULL, NULL, text, 6, 2000000 + i);
		else
			add(s, &r, "drivers/a.c", i % 4 == 1 ? "10" : "20", text,
			    i == 5 ? 3 : 6, 1000000 + i);
	}
	tap_is_int((long long)kd_stats_total(s), 10000, "every record counted");
	{
		const struct kd_stats_site *const *v = kd_stats_sorted(s, &n);

		tap_is_int((long long)n, 3, "three sites, whatever the arguments");
		tap_ok(n == 3 && v[0]->count == 5000 && strcmp(v[0]->line, "20") == 0 &&
		       v[1]->count == 2500 && v[1]->structured &&
		       strcmp(v[1]->line, "10") == 0 && v[1]->level == 3 &&
		       v[1]->first_usec == 1000001 && v[1]->last_usec == 1009997,
		       "largest first (ties: earliest); first, last, most severe level");
		tap_ok(n == 3 && !v[2]->structured && strcmp(v[2]->text, "x=#") == 0,
		       "a stock record's site is its masked text");
	}
	out = report(s, false, 2);
	tap_is_str(out,
		   "  COUNT  SHARE      FIRST       LAST LEVEL  SITE\n"
		   "   5000  50.0%   1.000002   1.009999 info   drivers/a.c:20 fn() [mod] \"x=%d\"\n"
		   "   2500  25.0%   1.000001   1.009997 err    drivers/a.c:10 fn() [mod] \"x=%d\"\n",
		   "-n 2: the table of the two largest sites");
	free(out);
	kd_stats_free(s);

	/* A group: one record, one message per line, each at its site. */
	kd_stats_new(&s);
	add_group(s, &r);
	add(s, &r, "a.c", "7", "a 4", 6, 8000000);
	/* The older form (one record per line, GROUP=first:index/count). */
	dict(&r, "GROUP", "1:1/2");
	kd_stats_add(s, &r);
	tap_is_int((long long)kd_stats_records(s), 3, "group: three records");
	tap_is_int((long long)kd_stats_total(s), 6, "group: six messages (4 lines, 2 records)");
	out = report(s, false, 0);
	tap_is_str(out,
		   "  COUNT  SHARE      FIRST       LAST LEVEL  SITE\n"
		   "      2  33.3%   7.000000   7.000000 warn   a.c:7 \"a %d\"\n"
		   "      2  33.3%   8.000000   8.000000 info   a.c:7 fn() [mod] \"x=%d\"\n"
		   "      1  16.7%   7.000000   7.000000 warn   b.c:9 fb() \"b %d\"\n"
		   "      1  16.7%   7.000000   7.000000 warn   \"kprint: group overflowed, # line(s) dropped\"\n",
		   "group: each line at the call site of its LINE<k>_ keys, the rest by text");
	free(out);
	out = report(s, true, 1);
	tap_ok(out && strstr(out, "\"records\": 3,\n   \"messages\": 6,") &&
	       strstr(out, "\"share\": 0.3333"), "group: JSON records, messages, share of messages");
	free(out);
	kd_stats_free(s);

	/* Crafted stamps: the JSON numbers keep their sign in front. */
	kd_stats_new(&s);
	add(s, &r, NULL, NULL, "neg", 6, -500000);
	add(s, &r, NULL, NULL, "none", 6, KD_NO_TIME);
	out = report(s, true, 0);
	tap_ok(out && strstr(out, "\"first\": -1.500000,") && !strstr(out, ".-"),
	       "-500000 us is -1.500000 in JSON, as the text output and dmesg show it");
	tap_ok(out && strstr(out, "\"text\": \"none\"") &&
	       !strstr(strstr(out, "\"text\": \"neg\""), "\"first\""),
	       "a site without a stamp has no first/last members");
	free(out);
	out = report(s, false, 0);
	tap_ok(out && strstr(out, "  -1.500000  -1.500000 info   \"neg\"") &&
	       strstr(out, "          -          - info   \"none\""),
	       "the table: -1.500000, and '-' without a stamp");
	free(out);
	kd_stats_free(s);
	kd_record_free(&r);
	return tap_done();
}
