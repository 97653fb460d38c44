// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * view-filter.c - the viewer's live filters (see view-filter.h), made of
 * the command line's field tests (lib/match/match.h), each one switchable; and
 * the search's regular expressions, matched with REG_STARTEND as record
 * text is not NUL-terminated and may hold NUL bytes.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record/field.h"
#include "nls.h"
#include "match/filter.h"
#include "view/view-filter.h"

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

void kd_vfilter_free(struct kd_vfilter *f)
{
	for (size_t i = 0; i < f->n; i++) {
		kd_match_free(f->items[i].match);
		free(f->items[i].pattern);
	}
	kd_vfilter_init(f);
}

/* journalctl's "smart case": a pattern without upper case ignores case. */
static bool smart_icase(const char *pattern)
{
	for (const char *p = pattern; *p; p++)
		if (isupper((unsigned char)*p))
			return false;
	return true;
}

int kd_regex_compile(regex_t *re, const char *pattern, bool nosub)
{
	int flags = REG_EXTENDED | (nosub ? REG_NOSUB : 0);

	if (smart_icase(pattern))
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

/*
 * Each kind is one of the command line's tests (lib/match/match.h), so that
 * --code-file and F, --module and m ... match the same records.
 */
static int item_match_new(struct kd_match **m, enum kd_vfilter_kind kind,
			  const char *pattern)
{
	static const struct {
		enum kd_match_kind kind;
		struct kd_field field;
	} tests[KD_VF__COUNT] = {
		[KD_VF_TEXT_IN] = { KD_MATCH_REGEX, { KD_FIELD_MESSAGE, KD_KEY_MESSAGE } },
		[KD_VF_TEXT_OUT] = { KD_MATCH_REGEX, { KD_FIELD_MESSAGE, KD_KEY_MESSAGE } },
		[KD_VF_FILE] = { KD_MATCH_PATH, { KD_FIELD_CODE_FILE, KD_KEY_CODE_FILE } },
		[KD_VF_FUNC] = { KD_MATCH_GLOB, { KD_FIELD_CODE_FUNC, KD_KEY_CODE_FUNC } },
		[KD_VF_MODULE] = { KD_MATCH_MODULE, { KD_FIELD_MODULE, KD_KEY_MODULE } },
		[KD_VF_SUBSYSTEM] = { KD_MATCH_GLOB, { KD_FIELD_SUBSYSTEM, KD_KEY_SUBSYSTEM } },
	};
	unsigned int flags = tests[kind].kind == KD_MATCH_REGEX && smart_icase(pattern) ?
			     KD_MATCH_ICASE : 0;
	int rc = kd_match_new(m, tests[kind].kind, &tests[kind].field, flags);

	if (rc == 0 && (rc = kd_match_add(*m, pattern)) < 0) {
		kd_match_free(*m);
		*m = NULL;
	}
	return rc;
}

int kd_vfilter_add(struct kd_vfilter *f, enum kd_vfilter_kind kind,
		   const char *pattern)
{
	struct kd_vfilter_item *it;
	int rc;

	if (kind >= KD_VF__COUNT)
		return -EINVAL;
	if (f->n == KD_VFILTER_MAX)
		return -ENOSPC;
	it = &f->items[f->n];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	rc = item_match_new(&it->match, kind, pattern);
	if (rc < 0)
		return rc;
	it->pattern = strdup(pattern);
	if (!it->pattern) {
		kd_match_free(it->match);
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
	kd_match_free(f->items[i].match);
	free(f->items[i].pattern);
	memmove(&f->items[i], &f->items[i + 1], (f->n - i - 1) * sizeof(f->items[0]));
	f->n--;
}

bool kd_vfilter_needs_record(const struct kd_vfilter *f)
{
	if (f->facility != KD_VF_FAC_ALL || (f->base && f->base_enabled))
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

bool kd_vfilter_match(const struct kd_vfilter *f, const struct kd_record *rec)
{
	unsigned int seen = 0, hit = 0;

	if (!kd_vfilter_level_ok(f, rec->level))
		return false;
	if (f->facility == KD_VF_FAC_KERNEL && rec->facility != 0)
		return false;
	if (f->facility == KD_VF_FAC_USER && rec->facility <= 0)
		return false;
	if (f->base && f->base_enabled && !kd_filter_match(f->base, rec))
		return false;
	for (size_t i = 0; i < f->n; i++) {
		const struct kd_vfilter_item *it = &f->items[i];

		if (!it->enabled)
			continue;
		if (it->kind == KD_VF_TEXT_OUT) {
			if (kd_match_test(it->match, rec))
				return false;
			continue;
		}
		seen |= 1u << it->kind;
		if (!(hit & 1u << it->kind) && kd_match_test(it->match, rec))
			hit |= 1u << it->kind;
	}
	return seen == hit;
}
