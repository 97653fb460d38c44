// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * view-detail.c - the lines of the viewer's detail pane (see
 * view-detail.h).  Every value goes through the escaper, so a record
 * cannot move the cursor or change colours on the user's terminal.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "record/field.h"
#include "shared/escape.h"
#include "nls.h"
#include "record/priority.h"
#include "record/host.h"
#include "view/view-detail.h"

void kd_detail_release(struct kd_detail *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].value);
		free(d->v[i].own_label);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}

/* @s escaped and NUL-terminated, in a new string; NULL without memory. */
static char *escape_dup(const char *s, size_t len)
{
	struct kd_escape_buf b = { .cap = 64 };

	b.data = malloc(b.cap);
	if (!b.data)
		return NULL;
	kd_escape_append(&b, s, len, 0, false);
	kd_escape_buf_put(&b, "", 1);
	if (b.failed) {
		free(b.data);
		return NULL;
	}
	return b.data;
}

/* Append one line; @value (@len bytes) is escaped, split at newlines. */
static int add_line(struct kd_detail *d, const char *label, bool is_key,
		    bool note, const char *value, size_t len)
{
	const char *p = value, *end = value + len;
	char *own = NULL;

	/* A key is kernel bytes: escaped as its value is. */
	if (is_key && !(label = own = escape_dup(label, strlen(label))))
		return -ENOMEM;

	do {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;
		struct kd_detail_line *l;
		char *v;

		if (d->n == d->cap) {
			size_t cap = d->cap ? d->cap * 2 : 32;

			l = realloc(d->v, cap * sizeof(*l));
			if (!l) {
				free(own);
				return -ENOMEM;
			}
			d->v = l;
			d->cap = cap;
		}
		v = escape_dup(p, (size_t)(stop - p));
		if (!v) {
			free(own);
			return -ENOMEM;
		}
		l = &d->v[d->n++];
		l->label = p == value ? label : NULL;
		l->label_is_key = is_key;
		l->own_label = own;	/* the first line's; then none */
		own = NULL;
		l->note = note;
		l->value = v;
		p = nl ? nl + 1 : end;
	} while (p < end);
	return 0;
}

static int add(struct kd_detail *d, const char *label, bool is_key,
	       const char *value, size_t len)
{
	return add_line(d, label, is_key, false, value, len);
}

/* A line that is only a remark about the line above (translated label). */
static int add_note(struct kd_detail *d, const char *note)
{
	return add_line(d, note, false, true, "", 0);
}

static int addf(struct kd_detail *d, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int addf(struct kd_detail *d, const char *label, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	return add(d, label, false, buf, strlen(buf));
}

/* Wall-clock forms of @usec (µs since the epoch), as dmesg -T and iso. */
static int add_wall(struct kd_detail *d, int64_t usec)
{
	time_t t = (time_t)(usec / 1000000);
	char ctm[64], iso[64], off[8];
	struct tm tm;
	int rc;

	if (!localtime_r(&t, &tm))
		return 0;
	strftime(ctm, sizeof(ctm), "%a %b %e %H:%M:%S %Y", &tm);
	strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(off, sizeof(off), "%z", &tm);
	rc = add(d, N_("wall clock"), false, ctm, strlen(ctm));
	if (rc == 0)
		rc = addf(d, N_("ISO 8601"), "%s,%06ld%.3s:%s", iso,
			  (long)(usec % 1000000), off, off + 3);
	return rc;
}

static const char *origin_note(unsigned char origin)
{
	switch (origin) {
	case KD_ORIGIN_RECOVERED:
		return N_("recovered by kdmesg");
	case KD_ORIGIN_TRANSLATED:
		return N_("translated");
	}
	return NULL;
}

/* After MODULE: what libkmod knows about it, or why nothing. */
static int add_module(struct kd_detail *d, const struct kd_detail_ctx *ctx)
{
	const struct kd_modinfo_facts *m = ctx->module;
	const struct {
		const char *label, *value;
	} facts[] = {
		{ N_("module state"), m ? m->state : NULL },
		{ N_("module version"), m ? m->version : NULL },
		{ N_("srcversion"), m ? m->srcversion : NULL },
		{ N_("description"), m ? m->description : NULL },
		{ N_("module file"), m ? m->path : NULL },
	};
	int rc = 0;

	if (!m && ctx->module_note)
		return add(d, N_("module facts"), false, ctx->module_note,
			   strlen(ctx->module_note));
	for (size_t i = 0; !rc && i < sizeof(facts) / sizeof(facts[0]); i++)
		if (facts[i].value)
			rc = add(d, facts[i].label, false, facts[i].value,
				 strlen(facts[i].value));
	return rc;
}

int kd_detail_build(struct kd_detail *d, const struct kd_record *rec,
		    const struct kd_detail_ctx *ctx)
{
	const char *name;
	int rc = 0;

	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].value);
		free(d->v[i].own_label);
	}
	d->n = 0;

	name = kd_priority_level_name(rec->level);
	if (name)
		rc = addf(d, N_("level"), "%s (%d)", name, rec->level);
	name = kd_priority_facility_name(rec->facility);
	if (!rc && rec->facility != KD_NO_FACILITY)
		rc = addf(d, N_("facility"), "%s (%d)", name ? name : "?", rec->facility);
	if (!rc && rec->seq != KD_NO_SEQ)
		rc = addf(d, N_("sequence"), "%" PRIu64, rec->seq);
	if (!rc && rec->ts_usec != KD_NO_TIME) {
		int64_t t = rec->ts_usec;

		rc = addf(d, N_("since boot"), "%" PRId64 ".%06" PRId64 " s",
			  t / 1000000, t % 1000000);
		if (!rc && ctx->prev_usec != KD_NO_TIME) {
			int64_t dt = t - ctx->prev_usec;

			rc = addf(d, N_("since previous"), "%s%" PRId64 ".%06" PRId64 " s",
				  dt < 0 ? "-" : "+", (dt < 0 ? -dt : dt) / 1000000,
				  (dt < 0 ? -dt : dt) % 1000000);
		}
		if (!rc && kd_record_boot_usec(rec, ctx->boot_usec))
			rc = add_wall(d, kd_record_boot_usec(rec, ctx->boot_usec) + t);
	}
	/* A record of the journal: its machine and boot, as the journal names them. */
	if (!rc && rec->host && rec->host->hostname[0])
		rc = add(d, "_HOSTNAME", true, rec->host->hostname, strlen(rec->host->hostname));
	if (!rc && rec->host && rec->host->machine_id[0])
		rc = add(d, "_MACHINE_ID", true, rec->host->machine_id, KD_ID128_LEN);
	if (!rc && rec->host && rec->host->boot_id[0])
		rc = add(d, "_BOOT_ID", true, rec->host->boot_id, KD_ID128_LEN);
	if (!rc && rec->caller[0])
		rc = add(d, N_("caller"), false, rec->caller, strlen(rec->caller));
	if (!rc && (rec->flags & KD_REC_CONT))
		rc = add_note(d, N_("continues the previous record"));
	if (!rc)
		rc = add(d, rec->text_origin == KD_ORIGIN_TRANSLATED ? N_("text (translated)") :
			 N_("text"), false, rec->text, rec->text_len);
	if (!rc && ctx->translated)
		rc = add(d, N_("translated text"), false, ctx->translated, ctx->translated_len);
	for (size_t i = 0; !rc && i < rec->dict_len; i++) {
		const struct kd_dict_entry *e = &rec->dict[i];

		rc = add(d, e->key, true, e->value, e->value_len);
		if (!rc && origin_note(e->origin))
			rc = add_note(d, origin_note(e->origin));
		if (!rc && strcmp(e->key, KD_KEY_MODULE) == 0)
			rc = add_module(d, ctx);
	}
	return rc;
}
