// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * output-verbose.c - -o verbose: every field of each record, one per
 * line, as journalctl -o verbose shows journal entries:
 *
 *   Fri 2009-02-13 23:31:31.123456 GMT [seq=200 time=1.000000]
 *       PRIORITY=6
 *       SYSLOG_FACILITY=0
 *       CALLER=T1
 *       MESSAGE=Linux version ...
 *       CODE_FILE=init/main.c
 *       ...
 *
 * The header fields first (field.h names), then the dictionary in the
 * kernel's order, then libkmod's facts about the record's module
 * ("MODULE_INFO[libkmod]=live, version ..., /lib/modules/...").  A field
 * kdmesg derived rather than the kernel sent
 * has its origin after the name ("CODE_FILE[recovered]=...").  Keys and
 * values are kernel bytes: escaped as the text output escapes them, the lines of a
 * multi-line value (a kprint group's MESSAGE) aligned under its first.
 */
#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shared/escape.h"
#include "record/field.h"
#include "shared/modinfo.h"
#include "sink/output-internal.h"

/*
 * "    NAME=value": each line of a multi-line value on its own line,
 * indented to the column where the value began, as journalctl -o verbose
 * shows them; like journalctl, a newline that ends the value adds no
 * empty line, and an empty value is an empty line.
 */
static void field_line(FILE *out, const char *name, const char *value,
		       size_t len, unsigned int origin)
{
	const char *o = kd_output_origin_name(origin);
	struct kd_escape_buf b = { 0 };
	int col = 4;

	/* Keys are kernel bytes too (" X\033]52;...=v"): escaped like values. */
	fputs("    ", out);
	kd_escape_append(&b, name, strlen(name), 0, false);
	if (b.failed) {
		kd_escape_write(out, name, strlen(name), 0, false);
		col += (int)strlen(name);
	} else if (b.len) {
		fwrite(b.data, 1, b.len, out);
		col += (int)b.len;
	}
	free(b.data);

	if (o)
		col += fprintf(out, "[%s]", o);
	putc('=', out);
	col++;
	for (;;) {
		const char *nl = memchr(value, '\n', len);
		size_t n = nl ? (size_t)(nl - value) : len;

		kd_escape_write(out, value, n, 0, false);
		putc('\n', out);
		if (!nl || n + 1 == len)
			return;
		value += n + 1;
		len -= n + 1;
		fprintf(out, "%*s", col, "");
	}
}

static void header_line(FILE *out, const struct kd_record *rec, int64_t boot_usec)
{
	int64_t usec = rec->ts_usec == KD_NO_TIME ? 0 : rec->ts_usec;
	int64_t all, sec, frac, wsec, wfrac;
	time_t t;
	struct tm tm;
	char buf[64];
	bool wall;

	/* A crafted stamp near INT64_MAX saturates, never wraps. */
	if (__builtin_add_overflow(boot_usec, usec, &all))
		all = usec > 0 ? INT64_MAX : INT64_MIN;
	/* Seconds and microseconds as the text output shows them (format.h). */
	kd_format_split_usec(all, &wsec, &wfrac);
	kd_format_split_usec(usec, &sec, &frac);
	t = (time_t)wsec;
	wall = boot_usec && localtime_r(&t, &tm);
	if (wall && strftime(buf, sizeof(buf), "%a %Y-%m-%d %H:%M:%S", &tm))
		fprintf(out, "%s.%06" PRId64, buf, wfrac);
	else
		fprintf(out, "[%5" PRId64 ".%06" PRId64 "]", sec, frac);
	if (wall && strftime(buf, sizeof(buf), " %Z", &tm))
		fputs(buf, out);
	fputs(" [", out);
	if (kd_record_has_seq(rec))
		fprintf(out, "seq=%" PRIu64 " ", rec->seq);
	if (rec->ts_usec != KD_NO_TIME)
		fprintf(out, "time=%" PRId64 ".%06" PRId64, sec, frac);
	else
		fputs("time=none", out);
	fputs("]\n", out);
}

int kd_output_verbose_record(FILE *out, const struct kd_record *rec,
			     int64_t boot_usec, const struct kd_modinfo_facts *facts)
{
	static const enum kd_field_id header[] = {
		KD_FIELD_LEVEL, KD_FIELD_FACILITY, KD_FIELD_CALLER, KD_FIELD_MESSAGE,
	};
	char buf[KD_FIELD_BUF];
	size_t i;

	header_line(out, rec, boot_usec);
	for (i = 0; i < sizeof(header) / sizeof(header[0]); i++) {
		struct kd_field f = { .id = header[i] };
		struct kd_field_value v;

		if (kd_field_get(rec, &f, &v, buf))
			field_line(out, kd_field_name(&f), v.data, v.len, v.origin);
	}
	if (rec->flags & KD_REC_CONT)
		field_line(out, "FLAGS", "c", 1, KD_ORIGIN_KERNEL);
	for (i = 0; i < rec->dict_len; i++) {
		const struct kd_dict_entry *e = &rec->dict[i];

		field_line(out, e->key, e->value, e->value_len, e->origin);
	}
	/* Not the kernel's: marked like a derived field. */
	if (facts && facts->summary)
		field_line(out, "MODULE_INFO[libkmod]", facts->summary,
			   strlen(facts->summary), KD_ORIGIN_KERNEL);
	putc('\n', out);
	return ferror(out) ? -EIO : 0;
}
