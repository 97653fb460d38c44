// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats-print.c - --stats' report, as a table or as JSON (stats.h).
 *
 * Table, one site per line, most records first:
 *
 *   COUNT  SHARE      FIRST       LAST LEVEL  SITE
 *       2  13.3%   3.000000   3.500000 err    drivers/nvme/host/pci.c:1402 nvme_timeout() [nvme] "I/O tag %d ..."
 *
 * SITE is file:line function() [module] "format" for sites with the
 * kprint fields (followed by "(recovered)" when lib/stage/recover.c read them
 * from the text; "?" for the file when only the format is known), else
 * the masked text in quotes.  COUNT and SHARE are of
 * messages: each line of a group counts at its own site (stats.h).  Kernel bytes (paths,
 * formats, texts) are escaped as the text output escapes them, and line
 * breaks and tabs as \xNN so that each site stays on one line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "shared/escape.h"
#include "sink/format.h"
#include "sink/json.h"
#include "shared/modinfo.h"
#include "record/priority.h"
#include "sink/stats.h"

/*
 * "S.UUUUUU" of @usec into @buf, as the text output shows the stamp
 * (format.h): a (crafted) negative one never has its sign in the
 * fraction, so the JSON stays a number.
 */
static const char *fmt_time(char *buf, size_t size, int64_t usec)
{
	int64_t sec, frac;

	kd_format_split_usec(usec, &sec, &frac);
	snprintf(buf, size, "%" PRId64 ".%06" PRId64, sec, frac);
	return buf;
}

static void put_time(FILE *out, int64_t usec)
{
	char buf[32];

	fprintf(out, " %10s", usec == KD_NO_TIME ? "-" : fmt_time(buf, sizeof(buf), usec));
}

/*
 * A table row is one line: white space that would break it (a call
 * trace's newlines in a stock kernel's masked text, a tab or carriage
 * return in a format) becomes \xNN like the other bytes the text output
 * escapes; the rest is escaped as the text output does.
 */
static void put_line(FILE *out, const char *s, size_t len)
{
	size_t i, start = 0;

	for (i = 0; i < len; i++) {
		if (!s[i] || !strchr("\n\r\t\v\f", s[i]))
			continue;
		kd_escape_write(out, s + start, i - start, 0, false);
		fprintf(out, "\\x%02x", (unsigned char)s[i]);
		start = i + 1;
	}
	kd_escape_write(out, s + start, len - start, 0, false);
}

static void put_str(FILE *out, const char *s)
{
	put_line(out, s, strlen(s));
}

/* The @top largest sites (0: all) into *@n; NULL (and *@n 0) when none. */
static const struct kd_stats_site *const *largest(struct kd_stats *s, size_t top,
						  size_t *n, int *rc)
{
	const struct kd_stats_site *const *v = kd_stats_sorted(s, n);

	*rc = !v && *n ? -ENOMEM : 0;
	if (top && top < *n)
		*n = top;
	return v;
}

static int cmp_host(const void *a, const void *b)
{
	const struct kd_stats_host *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Most first (the site is the writer's to order: counting is done). */
static void sort_hosts(const struct kd_stats_site *site)
{
	if (site->nhosts > 1)
		qsort(site->hosts, site->nhosts, sizeof(*site->hosts), cmp_host);
}

int kd_stats_write_text(struct kd_stats *s, FILE *out, size_t top,
			kd_stats_facts_fn facts, void *data)
{
	uint64_t total = kd_stats_total(s);
	size_t n, i;
	int rc;
	const struct kd_stats_site *const *v = largest(s, top, &n, &rc);

	if (rc < 0)
		return rc;
	fprintf(out, "%7s %6s %10s %10s %-6s %s\n", "COUNT", "SHARE", "FIRST",
		"LAST", "LEVEL", "SITE");
	for (i = 0; i < n; i++) {
		const struct kd_stats_site *site = v[i];
		const char *lvl = kd_priority_level_name(site->level);

		fprintf(out, "%7" PRIu64 " %5.1f%%", site->count,
			total ? 100.0 * (double)site->count / (double)total : 0.0);
		put_time(out, site->first_usec);
		put_time(out, site->last_usec);
		fprintf(out, " %-6s ", lvl ? lvl : "-");
		if (site->structured) {
			put_str(out, site->file ? site->file : "?");
			if (site->line) {
				putc(':', out);
				put_str(out, site->line);
			}
			if (site->func) {
				putc(' ', out);
				put_str(out, site->func);
				fputs("()", out);
			}
			if (site->module) {
				fputs(" [", out);
				put_str(out, site->module);
				if (facts) {
					const struct kd_modinfo_facts *f =
						facts(data, site->module);

					if (f && f->summary && *f->summary) {
						fputs(": ", out);
						put_str(out, f->summary);
					}
				}
				putc(']', out);
			}
			if (site->format) {
				fputs(" \"", out);
				put_str(out, site->format);
				putc('"', out);
			}
			if (site->recovered)
				fputs(" (recovered)", out);
		} else {
			putc('"', out);
			put_line(out, site->text, site->text_len);
			putc('"', out);
		}
		putc('\n', out);
		if (kd_stats_hosts(s) > 1 && site->nhosts) {
			/* Which hosts log it most, under the site. */
			sort_hosts(site);
			fputs("        hosts:", out);
			for (size_t k = 0; k < site->nhosts; k++) {
				fputs(k ? ", " : " ", out);
				put_str(out, site->hosts[k].name);
				fprintf(out, " %" PRIu64, site->hosts[k].count);
			}
			putc('\n', out);
		}
	}
	return ferror(out) ? -EIO : 0;
}

/* A kernel-supplied number goes out bare only if it is one. */
static bool digits(const char *s)
{
	if (!*s || strlen(s) > 18)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static void json_str(struct kd_json *j, const char *name, const char *s)
{
	if (s)
		kd_json_value_str(j, name, s, strlen(s));
}

int kd_stats_write_json(struct kd_stats *s, FILE *out, size_t top,
			kd_stats_facts_fn facts, void *data, kd_stats_json_fn more)
{
	uint64_t total = kd_stats_total(s);
	char data_buf[4096];
	struct kd_escape_buf b = { .data = data_buf, .cap = sizeof(data_buf), .out = out };
	struct kd_json j;
	char buf[64];
	size_t n, i;
	int rc;
	const struct kd_stats_site *const *v = largest(s, top, &n, &rc);

	if (rc < 0)
		return rc;
	kd_json_init(&j, &b);
	kd_json_open(&j, NULL, KD_JSON_OBJECT);
	kd_json_value_u64(&j, "records", kd_stats_records(s));
	kd_json_value_u64(&j, "messages", total);
	kd_json_open(&j, "sites", KD_JSON_ARRAY);
	for (i = 0; i < n; i++) {
		const struct kd_stats_site *site = v[i];
		const char *lvl = kd_priority_level_name(site->level);

		kd_json_open(&j, NULL, KD_JSON_OBJECT);
		kd_json_value_u64(&j, "count", site->count);
		snprintf(buf, sizeof(buf), "%.4f",
			 total ? (double)site->count / (double)total : 0.0);
		kd_json_value_raw(&j, "share", buf);
		if (site->first_usec != KD_NO_TIME) {
			kd_json_value_raw(&j, "first", fmt_time(buf, sizeof(buf),
								 site->first_usec));
			kd_json_value_raw(&j, "last", fmt_time(buf, sizeof(buf),
								site->last_usec));
		}
		json_str(&j, "level", lvl);
		if (site->structured) {
			json_str(&j, "file", site->file);
			if (site->line && digits(site->line))
				kd_json_value_raw(&j, "line", site->line);
			else
				json_str(&j, "line", site->line);
			json_str(&j, "function", site->func);
			json_str(&j, "module", site->module);
			if (site->module && facts) {
				const struct kd_modinfo_facts *f = facts(data, site->module);

				if (f)
					kd_modinfo_json(&j, "module_info", f);
			}
			json_str(&j, "format", site->format);
			if (site->recovered)
				kd_json_value_raw(&j, "recovered", "true");
		} else {
			kd_json_value_str(&j, "text", site->text, site->text_len);
		}
		if (kd_stats_hosts(s) > 1 && site->nhosts) {
			sort_hosts(site);
			kd_json_open(&j, "hosts", KD_JSON_ARRAY);
			for (size_t k = 0; k < site->nhosts; k++) {
				kd_json_open(&j, NULL, KD_JSON_OBJECT);
				json_str(&j, "host", site->hosts[k].name);
				kd_json_value_u64(&j, "count", site->hosts[k].count);
				kd_json_close(&j, KD_JSON_OBJECT);
			}
			kd_json_close(&j, KD_JSON_ARRAY);
		}
		kd_json_close(&j, KD_JSON_OBJECT);
	}
	kd_json_close(&j, KD_JSON_ARRAY);
	if (more)
		more(data, &j);
	kd_json_close(&j, KD_JSON_OBJECT);
	kd_escape_buf_flush(&b);
	return ferror(out) ? -EIO : 0;
}
