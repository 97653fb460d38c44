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
#include "record/host.h"
#include "sink/sink.h"

/*
 * "    NAME=value": each line of a multi-line value on its own line,
 * indented to the column where the value began, as journalctl -o verbose
 * shows them; like journalctl, a newline that ends the value adds no
 * empty line, and an empty value is an empty line.
 */
static void put_spaces(struct kd_escape_buf *out, size_t n)
{
	static const char spaces[] = "                                ";

	while (n > sizeof(spaces) - 1) {
		kd_escape_buf_put(out, spaces, sizeof(spaces) - 1);
		n -= sizeof(spaces) - 1;
	}
	kd_escape_buf_put(out, spaces, n);
}

static void field_line(struct kd_escape_buf *out, const char *name, const char *value,
		       size_t len, unsigned int origin)
{
	const char *o = kd_output_origin_name(origin);
	size_t col = 4 + 1, before, nlen = kd_output_plain_key_len(name);

	kd_escape_buf_put(out, "    ", 4);
	/*
	 * Keys are kernel bytes too (" X\033]52;...=v"): escaped like values,
	 * but for the common key with nothing to escape.  Room for the
	 * longest escape first (4 bytes a byte), so that the buffer does not
	 * reach the stream within the name and its growth is the name's width.
	 */
	if (nlen) {
		kd_escape_buf_put_short(out, name, nlen);
		col += nlen;
	} else if (4 * (nlen = strlen(name)) + 16 <= out->cap) {
		kd_escape_buf_reserve(out, 4 * nlen + 16);
		before = out->len;
		kd_escape_append(out, name, nlen, 0, false);
		col += out->len - before;
	} else {
		struct kd_escape_buf b = { 0 };

		kd_escape_append(&b, name, nlen, 0, false);
		kd_escape_buf_put(out, b.data, b.len);
		col += b.len;
		free(b.data);
	}
	if (o) {
		kd_escape_buf_putc(out, '[');
		kd_escape_buf_puts(out, o);
		kd_escape_buf_putc(out, ']');
		col += strlen(o) + 2;
	}
	kd_escape_buf_putc(out, '=');
	for (;;) {
		const char *nl = memchr(value, '\n', len);
		size_t n = nl ? (size_t)(nl - value) : len;

		kd_escape_append(out, value, n, 0, false);
		kd_escape_buf_putc(out, '\n');
		if (!nl || n + 1 == len)
			return;
		value += n + 1;
		len -= n + 1;
		put_spaces(out, col);
	}
}

/* "%06lld" of @v, 0..999999. */
static void put_usec6(struct kd_escape_buf *out, int64_t v)
{
	char d[6];

	for (int i = 5; i >= 0; i--, v /= 10)
		d[i] = (char)('0' + v % 10);
	kd_escape_buf_put(out, d, 6);
}

/*
 * The wall-clock date of @wsec ("%a %Y-%m-%d %H:%M:%S" and " %Z") into
 * the writer's cache, unless it holds that second already.
 */
static void wall_date(struct kd_writer *w, int64_t wsec)
{
	time_t t = (time_t)wsec;
	struct tm tm;

	if (w->wall_cache.valid && w->wall_cache.sec == wsec)
		return;
	w->wall_cache.valid = true;
	w->wall_cache.sec = wsec;
	w->wall_cache.date[0] = w->wall_cache.zone[0] = '\0';
	w->wall_cache.wall = localtime_r(&t, &tm);
	if (!w->wall_cache.wall)
		return;
	if (!strftime(w->wall_cache.date, sizeof(w->wall_cache.date),
		      "%a %Y-%m-%d %H:%M:%S", &tm))
		w->wall_cache.date[0] = '\0';
	if (!strftime(w->wall_cache.zone, sizeof(w->wall_cache.zone), " %Z", &tm))
		w->wall_cache.zone[0] = '\0';
}

static void header_line(struct kd_writer *w, const struct kd_record *rec)
{
	struct kd_escape_buf *out = &w->line;
	int64_t boot_usec = kd_record_boot_usec(rec, w->opts.boot_usec);
	int64_t usec = rec->ts_usec == KD_NO_TIME ? 0 : rec->ts_usec;
	int64_t all, sec, frac, wsec, wfrac;
	char buf[KD_FORMAT_STAMP_MAX];
	bool wall = false;

	/* A crafted stamp near INT64_MAX saturates, never wraps. */
	if (__builtin_add_overflow(boot_usec, usec, &all))
		all = usec > 0 ? INT64_MAX : INT64_MIN;
	/* Seconds and microseconds as the text output shows them (format.h). */
	kd_format_split_usec(all, &wsec, &wfrac);
	kd_format_split_usec(usec, &sec, &frac);
	if (boot_usec) {
		wall_date(w, wsec);
		wall = w->wall_cache.wall;
	}
	if (wall && w->wall_cache.date[0]) {
		kd_escape_buf_puts(out, w->wall_cache.date);
		kd_escape_buf_putc(out, '.');
		put_usec6(out, wfrac);
	} else {
		kd_escape_buf_putc(out, '[');
		kd_escape_buf_put(out, buf, kd_format_sec_usec(buf, sec, frac));
		kd_escape_buf_putc(out, ']');
	}
	if (wall)
		kd_escape_buf_puts(out, w->wall_cache.zone);
	kd_escape_buf_put(out, " [", 2);
	if (kd_record_has_seq(rec)) {
		kd_escape_buf_put(out, "seq=", 4);
		kd_escape_buf_put_u64(out, rec->seq);
		kd_escape_buf_putc(out, ' ');
	}
	if (rec->ts_usec != KD_NO_TIME) {
		kd_escape_buf_put(out, "time=", 5);
		kd_escape_buf_put_i64(out, sec);
		kd_escape_buf_putc(out, '.');
		put_usec6(out, frac);
	} else {
		kd_escape_buf_put(out, "time=none", 9);
	}
	kd_escape_buf_put(out, "]\n", 2);
}

static int verbose_write(struct kd_writer *w, const struct kd_record *rec,
			 const struct kd_prev *prev)
{
	static const enum kd_field_id header[] = {
		KD_FIELD_LEVEL, KD_FIELD_FACILITY, KD_FIELD_CALLER, KD_FIELD_MESSAGE,
	};
	const struct kd_modinfo_facts *facts = kd_output_facts(&w->opts, rec);
	struct kd_escape_buf *out = &w->line;
	char buf[KD_FIELD_BUF];
	size_t i;

	(void)prev;
	header_line(w, rec);
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
	kd_escape_buf_putc(out, '\n');
	return 0;
}

const struct kd_writer_ops kd_writer_verbose = {
	.name = "verbose",
	.flags = KD_OUTPUT_WALL_CLOCK | KD_OUTPUT_MODULE_FACTS,
	.write = verbose_write,
};
