// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ksites.c - the kernel's lists of message call sites, read into
 * format-index sites.  See ksites.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "po/csource.h"
#include "po/cstring.h"
#include "record/field.h"
#include "shared/decimal.h"
#include "source/source.h"
#include "stage/ksites.h"

/* The next line of [*@p, @end), NUL-terminated in place, or NULL at the end. */
static char *next_line(char **p, char *end, size_t *len)
{
	char *s = *p, *e;

	if (s >= end)
		return NULL;
	e = memchr(s, '\n', (size_t)(end - s));
	if (!e)
		e = end;
	*len = (size_t)(e - s);
	if (e < end)
		*e = '\0';
	*p = e + 1;
	return s;
}

/* A source line number, 1 to INT_MAX; anything else is no line at all. */
static unsigned int line_number(const char *s)
{
	return (unsigned int)kd_decimal_parse(s, INT_MAX);
}

/* "file:line" at @s (NUL-terminated): split at the last ':'. */
static unsigned int split_line(char *s)
{
	char *colon = strrchr(s, ':');

	if (!colon)
		return 0;
	*colon = '\0';
	return line_number(colon + 1);
}

/* Drop one trailing newline, as the extraction does. */
static void trim_newline(struct kd_fidx_site *s)
{
	if (s->fmt_len && s->fmt[s->fmt_len - 1] == '\n')
		s->fmt_len--;
}

long kd_ksites_printk_index(char *text, size_t len, const char *module,
			    kd_ksites_fn fn, void *data)
{
	char *p = text, *end = text + len, *l;
	size_t n;
	long skipped = 0;
	int rc;

	while ((l = next_line(&p, end, &n))) {
		char *sp1 = memchr(l, ' ', n), *sp2, *q1, *e = l + n;
		struct kd_fidx_site s = { .family = KD_FIDX_PLAIN };

		if (l[0] == '#' || !n)
			continue;
		sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(e - sp1 - 1)) : NULL;
		q1 = sp2 ? memchr(sp2 + 1, '"', (size_t)(e - sp2 - 1)) : NULL;
		if (l[0] != '<' || !q1 || e <= q1 + 1 || e[-1] != '"') {
			skipped++;
			continue;
		}
		s.level = l[1] >= '0' && l[1] <= '7' ? l[1] : 0;
		if (l[1] == 'c' || (sp1 - l >= 4 && memcmp(sp1 - 3, ",c>", 3) == 0))
			s.level = 'c';
		*sp1 = *sp2 = '\0';
		q1[-1] = '\0';
		s.fmt = q1 + 1;
		s.fmt_len = kd_cstring_unescape(q1 + 1, (size_t)(e - 1 - (q1 + 1)));
		/* dev_printk() formats come with the device prefix it adds. */
		if (s.fmt_len > 7 && memcmp(s.fmt, "%s %s: ", 7) == 0) {
			s.fmt += 7;
			s.fmt_len -= 7;
			s.family = KD_FIDX_DEV;
		}
		trim_newline(&s);
		/*
		 * ACPICA's messages (ACPI_ERROR() and the like with the
		 * kernel series) are listed without the "ACPI Error: " that
		 * comes before them; their format ends in ACPICA's suffix.
		 * ACPI_INFO()'s, without one, stay plain (and unmatched).
		 */
		if (s.family == KD_FIDX_PLAIN && s.fmt_len > sizeof(KD_ACPI_SUFFIX) - 1 &&
		    memcmp(s.fmt + s.fmt_len - (sizeof(KD_ACPI_SUFFIX) - 1), KD_ACPI_SUFFIX,
			   sizeof(KD_ACPI_SUFFIX) - 1) == 0)
			s.family = KD_FIDX_ACPI;
		s.line = split_line(sp1 + 1);
		s.file = sp1 + 1;
		s.func = sp2 + 1;
		s.module = module && strcmp(module, "vmlinux") ? module : NULL;
		if (s.fmt_len && (rc = fn(data, &s)) < 0)
			return rc;
	}
	return skipped;
}

long kd_ksites_dyndbg(char *text, size_t len, kd_ksites_fn fn, void *data)
{
	char *p = text, *end = text + len, *l;
	size_t n;
	long skipped = 0;
	int rc;

	while ((l = next_line(&p, end, &n))) {
		char *e = l + n, *sp = memchr(l, ' ', n), *lb, *rb, *sp2, *q;
		struct kd_fidx_site s = { .family = KD_FIDX_ANY, .level = '7' };

		if (!n || l[0] == '#')
			continue;
		lb = sp ? sp + 1 : NULL;
		rb = lb && *lb == '[' ? memchr(lb, ']', (size_t)(e - lb)) : NULL;
		sp2 = rb ? memchr(rb, ' ', (size_t)(e - rb)) : NULL;
		q = sp2 ? memchr(sp2 + 1, '"', (size_t)(e - sp2 - 1)) : NULL;
		if (!q || e <= q + 1 || e[-1] != '"') {
			skipped++;
			continue;
		}
		*sp = *rb = *sp2 = '\0';
		s.line = split_line(l);
		s.file = l;
		s.module = lb + 1;
		s.func = rb + 1;
		s.fmt = q + 1;
		s.fmt_len = kd_cstring_unescape(q + 1, (size_t)(e - 1 - (q + 1)));
		trim_newline(&s);
		if (s.fmt_len && (rc = fn(data, &s)) < 0)
			return rc;
	}
	return skipped;
}

/*
 * "object" or "object:index" (the first field of a table line): split in
 * place.  *@index is -1 for the old form, else 0..KD_KSITES_INDEX_MAX.
 * Returns false for an index that is not one.
 */
static bool split_object(char *f, long *index)
{
	char *colon = strchr(f, ':');
	unsigned long v = 0;

	*index = -1;
	if (!colon)
		return *f != '\0';
	*colon = '\0';
	if (!*f || !colon[1])
		return false;
	for (const char *d = colon + 1; *d; d++) {
		if (*d < '0' || *d > '9')
			return false;
		v = v * 10 + (unsigned long)(*d - '0');
		if (v > KD_KSITES_INDEX_MAX)
			return false;
	}
	*index = (long)v;
	return true;
}

long kd_ksites_table_lines(char *text, size_t len, kd_ksites_line_fn fn, void *data)
{
	char *p = text, *end = text + len, *l;
	size_t n;
	long skipped = 0;
	int rc;

	while ((l = next_line(&p, end, &n))) {
		struct kd_ksite_line kl;
		char *f[6];
		int k = 0;

		/* Comments: the header of a table kdmesg --save-sites wrote. */
		if (!n || l[0] == '#')
			continue;
		if (memchr(l, '\0', n)) {
			skipped++;
			continue;
		}
		for (char *q = l; k < 5 && q; k++) {
			f[k] = q;
			q = strchr(q, ' ');
			if (q)
				*q++ = '\0';
			f[k + 1] = q;
		}
		/* Six fields, the last (the format) possibly empty. */
		if (k != 5 || !f[5] || !*f[2] || !*f[3] || !*f[4] || !split_object(f[0], &kl.index)) {
			skipped++;
			continue;
		}
		kl.object = f[0];
		kl.site = (struct kd_fidx_site){
			/* "-": a kernel built without CONFIG_KPRINT_FUNC_NAMES */
			.family = KD_FIDX_ANY, .file = f[2], .func = strcmp(f[3], "-") ? f[3] : NULL,
			.module = strcmp(f[4], "-") ? f[4] : NULL, .fmt = f[5],
			.level = (f[1][0] >= '0' && f[1][0] <= '7') || f[1][0] == 'c' ?
				 f[1][0] : 0,
		};
		kl.site.fmt_len = kd_cstring_unescape(f[5], strlen(f[5]));
		trim_newline(&kl.site);
		kl.line = strrchr(f[2], ':');
		kl.site.line = split_line(f[2]);
		kl.line = kl.line ? kl.line + 1 : "";
		if ((rc = fn(data, &kl)) < 0)
			return rc;
	}
	return skipped;
}

/* kd_ksites_table(): the lines with a format, as format-index sites. */
struct table_fmt {
	kd_ksites_fn fn;
	void *data;
	long empty;
};

static int table_fmt_line(void *data, const struct kd_ksite_line *l)
{
	struct table_fmt *t = data;

	if (!l->site.fmt_len) {
		t->empty++;
		return 0;
	}
	return t->fn(t->data, &l->site);
}

long kd_ksites_table(char *text, size_t len, kd_ksites_fn fn, void *data)
{
	struct table_fmt t = { .fn = fn, .data = data };
	long skipped = kd_ksites_table_lines(text, len, table_fmt_line, &t);

	return skipped < 0 ? skipped : skipped + t.empty;
}

/* The value of dictionary key @key of @rec, or NULL. */
static const char *dict_value(const struct kd_record *rec, const char *key)
{
	const struct kd_dict_entry *d = kd_record_dict_get(rec, key);

	return d ? d->value : NULL;
}

int kd_ksites_dump(struct kd_source *src, kd_ksites_stage_fn stage, void *stage_data,
		   kd_ksites_record_fn fn, void *data,
		   unsigned long *total, unsigned long *with)
{
	struct kd_record rec;
	int rc;

	*total = *with = 0;
	kd_record_init(&rec);
	/* -EPIPE: records were lost (overwritten) before these; read on. */
	while ((rc = kd_source_next(src, &rec)) == 1 || rc == -EPIPE) {
		const struct kd_dict_entry *f;
		struct kd_fidx_site s = { .family = KD_FIDX_ANY };
		const char *line;

		if (rc != 1)
			continue;
		if (stage && (rc = stage(stage_data, &rec)) < 0)
			break;
		++*total;
		if (!(f = kd_record_dict_get(&rec, KD_KEY_FORMAT)) || !f->value_len) {
			if ((rc = fn(data, &rec, NULL)) < 0)
				break;
			continue;
		}
		++*with;
		s.fmt = f->value;
		s.fmt_len = f->value_len;
		s.file = dict_value(&rec, KD_KEY_CODE_FILE);
		s.line = (line = dict_value(&rec, KD_KEY_CODE_LINE)) ? line_number(line) : 0;
		s.func = dict_value(&rec, KD_KEY_CODE_FUNC);
		s.module = dict_value(&rec, KD_KEY_MODULE);
		s.level = rec.level >= 0 && rec.level <= 7 ? (char)('0' + rec.level) : 0;
		if ((rc = fn(data, &rec, &s)) < 0)
			break;
	}
	kd_record_free(&rec);
	return rc < 0 ? rc : 0;
}
