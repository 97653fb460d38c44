// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * view-filter.c - the viewer's live filters (see view-filter.h): regex
 * matching on text through regexec(3) with REG_STARTEND (record text is
 * not NUL-terminated and may hold NUL bytes), globs on fields through
 * fnmatch(3).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "nls.h"
#include "view-filter.h"

static const char *const kind_names[KD_VF__COUNT] = {
	[KD_VF_TEXT_IN] = N_("text"),
	[KD_VF_TEXT_OUT] = N_("not text"),
	[KD_VF_FILE] = N_("file"),
	[KD_VF_FUNC] = N_("function"),
	[KD_VF_MODULE] = N_("module"),
	[KD_VF_SUBSYSTEM] = N_("subsystem"),
};

const char *kd_vfilter_kind_name(enum kd_vfilter_kind kind)
{
	return kind < KD_VF__COUNT ? kind_names[kind] : "?";
}

void kd_vfilter_init(struct kd_vfilter *f)
{
	memset(f, 0, sizeof(*f));
	f->max_level = 7;
}

static void item_free(struct kd_vfilter_item *it)
{
	if (it->kind == KD_VF_TEXT_IN || it->kind == KD_VF_TEXT_OUT)
		regfree(&it->re);
	free(it->pattern);
}

void kd_vfilter_free(struct kd_vfilter *f)
{
	for (size_t i = 0; i < f->n; i++)
		item_free(&f->items[i]);
	kd_vfilter_init(f);
}

int kd_regex_compile(regex_t *re, const char *pattern, bool nosub)
{
	int flags = REG_EXTENDED | (nosub ? REG_NOSUB : 0);
	bool upper = false;

	for (const char *p = pattern; *p; p++)
		if (isupper((unsigned char)*p))
			upper = true;
	if (!upper)
		flags |= REG_ICASE;
	return regcomp(re, pattern, flags) == 0 ? 0 : -EINVAL;
}

bool kd_regex_find(const regex_t *re, const char *s, size_t len, size_t from,
		   size_t *so, size_t *eo)
{
	regmatch_t m = { .rm_so = (regoff_t)from, .rm_eo = (regoff_t)len };

	if (from > len || regexec(re, s, 1, &m, REG_STARTEND | (from ? REG_NOTBOL : 0)))
		return false;
	*so = (size_t)m.rm_so;
	*eo = (size_t)m.rm_eo;
	return true;
}

int kd_vfilter_add(struct kd_vfilter *f, enum kd_vfilter_kind kind,
		   const char *pattern)
{
	struct kd_vfilter_item *it;

	if (kind >= KD_VF__COUNT)
		return -EINVAL;
	if (f->n == KD_VFILTER_MAX)
		return -ENOSPC;
	it = &f->items[f->n];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	if ((kind == KD_VF_TEXT_IN || kind == KD_VF_TEXT_OUT) &&
	    kd_regex_compile(&it->re, pattern, true) < 0)
		return -EINVAL;
	it->pattern = strdup(pattern);
	if (!it->pattern) {
		if (kind == KD_VF_TEXT_IN || kind == KD_VF_TEXT_OUT)
			regfree(&it->re);
		return -ENOMEM;
	}
	it->enabled = true;
	f->n++;
	return 0;
}

void kd_vfilter_remove(struct kd_vfilter *f, size_t i)
{
	if (i >= f->n)
		return;
	item_free(&f->items[i]);
	memmove(&f->items[i], &f->items[i + 1], (f->n - i - 1) * sizeof(f->items[0]));
	f->n--;
}

bool kd_vfilter_needs_record(const struct kd_vfilter *f)
{
	if (f->facility != KD_VF_FAC_ALL)
		return true;
	for (size_t i = 0; i < f->n; i++)
		if (f->items[i].enabled)
			return true;
	return false;
}

bool kd_vfilter_is_empty(const struct kd_vfilter *f)
{
	return f->max_level >= 7 && !kd_vfilter_needs_record(f);
}

/* CODE_FILE: the whole path or any part after a '/' (--file pci.c). */
static bool file_match(const char *pat, const char *path)
{
	for (const char *p = path; p; p = strchr(p, '/'), p = p ? p + 1 : NULL)
		if (fnmatch(pat, p, 0) == 0)
			return true;
	return false;
}

/* Module names as modprobe treats them: '-' and '_' are the same. */
static bool module_match(const char *pat, const char *name)
{
	char p[256], n[256];
	size_t i;

	for (i = 0; pat[i] && i < sizeof(p) - 1; i++)
		p[i] = pat[i] == '-' ? '_' : pat[i];
	p[i] = '\0';
	for (i = 0; name[i] && i < sizeof(n) - 1; i++)
		n[i] = name[i] == '-' ? '_' : name[i];
	n[i] = '\0';
	return fnmatch(p, n, 0) == 0;
}

static bool item_match(const struct kd_vfilter_item *it, const struct kd_record *rec)
{
	static const char *const keys[KD_VF__COUNT] = {
		[KD_VF_FILE] = "CODE_FILE", [KD_VF_FUNC] = "CODE_FUNC",
		[KD_VF_MODULE] = "MODULE", [KD_VF_SUBSYSTEM] = "SUBSYSTEM",
	};
	const struct kd_dict_entry *e;
	size_t so, eo;

	switch (it->kind) {
	case KD_VF_TEXT_IN:
	case KD_VF_TEXT_OUT:
		return kd_regex_find(&it->re, rec->text, rec->text_len, 0, &so, &eo);
	case KD_VF_FILE:
	case KD_VF_FUNC:
	case KD_VF_MODULE:
	case KD_VF_SUBSYSTEM:
		e = kd_record_dict_get(rec, keys[it->kind]);
		if (!e)
			return false;
		if (it->kind == KD_VF_FILE)
			return file_match(it->pattern, e->value);
		if (it->kind == KD_VF_MODULE)
			return module_match(it->pattern, e->value);
		return fnmatch(it->pattern, e->value, 0) == 0;
	case KD_VF__COUNT:
		break;
	}
	return false;
}

bool kd_vfilter_match(const struct kd_vfilter *f, const struct kd_record *rec)
{
	unsigned int seen = 0, hit = 0;

	if (!kd_vfilter_level_ok(f, rec->level))
		return false;
	if (f->facility == KD_VF_FAC_KERNEL && rec->facility != 0)
		return false;
	if (f->facility == KD_VF_FAC_USER && rec->facility <= 0)
		return false;
	for (size_t i = 0; i < f->n; i++) {
		const struct kd_vfilter_item *it = &f->items[i];

		if (!it->enabled)
			continue;
		if (it->kind == KD_VF_TEXT_OUT) {
			if (item_match(it, rec))
				return false;
			continue;
		}
		seen |= 1u << it->kind;
		if (!(hit & 1u << it->kind) && item_match(it, rec))
			hit |= 1u << it->kind;
	}
	return seen == hit;
}
