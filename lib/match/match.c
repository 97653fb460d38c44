// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * match.c - the tests behind --code-file, --function, --module, --format,
 * --grep, --subsystem, --device and FIELD=VALUE (see match.h).  Globs and
 * regular expressions are the C library's (fnmatch(3), regcomp(3)); what
 * is here is choosing the bytes to test and not testing them twice.
 */
#include <errno.h>
#include <fnmatch.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shared/hash.h"
#include "shared/modname.h"
#include "match/match.h"

/*
 * Glob results remembered per value; values longer than KEY_MAX are not.
 * Two ways per set: with one, two frequent values that hash to the same
 * slot evicted each other on every record (7% misses, each an fnmatch()
 * of a thousand instructions, on bench/run-structured.sh's dump).
 */
#define CACHE_SETS	256
#define CACHE_WAYS	2
#define KEY_MAX		62

struct cache_slot {
	uint32_t hash;
	unsigned char len;	/* 0: empty */
	bool result;
	/* Way 0 of a set: which way a miss replaces next (round robin). */
	unsigned char next;
	char key[KEY_MAX];
};

struct value {
	char *s;
	size_t len;
	regex_t re;		/* KD_MATCH_REGEX */
};

struct kd_match {
	enum kd_match_kind kind;
	unsigned int flags;
	struct kd_field field;
	char *key;			/* owned copy of field.key */
	struct value *v;
	size_t n;
	char error[128];
	struct cache_slot *cache;	/* GLOB and PATH */
	/*
	 * REGEX: the tested text, NUL-terminated.  Lent message text is not,
	 * and not every regexec() honours REG_STARTEND's bounds (sanitizer
	 * interceptors read up to a NUL): one copy into a buffer made once.
	 */
	char *text;
};

int kd_match_new(struct kd_match **out, enum kd_match_kind kind,
		 const struct kd_field *field, unsigned int flags)
{
	struct kd_match *m;

	if ((unsigned int)kind > KD_MATCH_REGEX || !field)
		return -EINVAL;
	/* Globs read dictionary values, which are always NUL-terminated. */
	if ((kind == KD_MATCH_GLOB || kind == KD_MATCH_PATH) &&
	    !kd_field_dict_key(field))
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->kind = kind;
	m->flags = flags;
	m->field = *field;
	if (field->key && !(m->key = strdup(field->key))) {
		free(m);
		return -ENOMEM;
	}
	m->field.key = m->key;
	if ((kind == KD_MATCH_GLOB || kind == KD_MATCH_PATH) &&
	    !(m->cache = calloc(CACHE_SETS * CACHE_WAYS, sizeof(*m->cache)))) {
		kd_match_free(m);
		return -ENOMEM;
	}
	if (kind == KD_MATCH_REGEX && !(m->text = malloc(KD_RECORD_MAX + 1))) {
		kd_match_free(m);
		return -ENOMEM;
	}
	*out = m;
	return 0;
}

int kd_match_add(struct kd_match *m, const char *value)
{
	struct value *v = realloc(m->v, (m->n + 1) * sizeof(*v));
	struct value *nv;
	int rc;

	if (!v)
		return -ENOMEM;
	m->v = v;
	nv = &v[m->n];
	memset(nv, 0, sizeof(*nv));
	nv->s = strdup(value);
	if (!nv->s)
		return -ENOMEM;
	nv->len = strlen(value);
	/* "drivers/" (what a shell completes) is the directory "drivers". */
	while (m->kind == KD_MATCH_PATH && nv->len > 1 && nv->s[nv->len - 1] == '/')
		nv->s[--nv->len] = '\0';
	if (m->kind == KD_MATCH_MODULE)
		kd_modname_fold(nv->s);
	if (m->kind == KD_MATCH_REGEX) {
		rc = regcomp(&nv->re, value, REG_EXTENDED | REG_NOSUB |
			     (m->flags & KD_MATCH_ICASE ? REG_ICASE : 0));
		if (rc) {
			regerror(rc, &nv->re, m->error, sizeof(m->error));
			free(nv->s);
			return -EINVAL;
		}
	}
	m->n++;
	return 0;
}

const char *kd_match_error(const struct kd_match *m)
{
	return m->error;
}

bool kd_match_is(const struct kd_match *m, enum kd_match_kind kind,
		 const struct kd_field *field, unsigned int flags)
{
	return m->kind == kind && m->flags == flags && m->field.id == field->id &&
	       (field->id != KD_FIELD_DICT || strcmp(m->key, field->key) == 0);
}

const struct kd_field *kd_match_field(const struct kd_match *m)
{
	return &m->field;
}

/* fnmatch(3) needs a terminated string; dictionary values are. */
static bool glob_one(const struct kd_match *m, const char *s)
{
	const char *p;
	size_t i;

	for (i = 0; i < m->n; i++) {
		if (m->kind == KD_MATCH_GLOB) {
			if (fnmatch(m->v[i].s, s, 0) == 0)
				return true;
			continue;
		}
		/* The path, then what follows each '/'. */
		for (p = s; p; p = strchr(p, '/'), p = p ? p + 1 : NULL)
			if (fnmatch(m->v[i].s, p, FNM_LEADING_DIR) == 0)
				return true;
	}
	return false;
}

static bool glob_cached(struct kd_match *m, const char *s, size_t len)
{
	struct cache_slot *set, *slot;
	uint32_t h;
	size_t i;

	if (len == 0 || len > KEY_MAX)
		return glob_one(m, s);
	h = kd_hash_ends(s, len);
	set = &m->cache[(h % CACHE_SETS) * CACHE_WAYS];
	for (i = 0; i < CACHE_WAYS; i++) {
		slot = &set[i];
		if (slot->len == len && slot->hash == h && memcmp(slot->key, s, len) == 0)
			return slot->result;
	}
	slot = &set[set->next];
	set->next = (unsigned char)((set->next + 1) % CACHE_WAYS);
	slot->result = glob_one(m, s);
	slot->hash = h;
	slot->len = (unsigned char)len;
	memcpy(slot->key, s, len);
	return slot->result;
}

static bool test_value(struct kd_match *m, const struct kd_field_value *v);

/* Whether @key is "LINE<k>_" followed by @name (man/kprint.7). */
static bool line_key(const char *key, const char *name)
{
	size_t d = kd_dict_line_prefix(key, strlen(key));

	return d && strcmp(key + d, name) == 0;
}

bool kd_match_test(struct kd_match *m, const struct kd_record *rec)
{
	struct kd_field_value fv;
	char buf[KD_FIELD_BUF];
	const char *name;

	if (kd_field_get(rec, &m->field, &fv, buf))
		return test_value(m, &fv);
	/* A group matches when one of its lines does. */
	name = m->field.id >= KD_FIELD_DICT_FIRST ? kd_field_dict_key(&m->field) : NULL;
	if (!name || m->field.id == KD_FIELD_GROUP)
		return false;
	for (size_t i = 0; i < rec->dict_len; i++) {
		const struct kd_dict_entry *e = &rec->dict[i];

		if (!line_key(e->key, name))
			continue;
		fv.data = e->value;
		fv.len = e->value_len;
		fv.origin = (enum kd_origin)e->origin;
		if (test_value(m, &fv))
			return true;
	}
	return false;
}

static bool test_value(struct kd_match *m, const struct kd_field_value *v)
{
	struct kd_field_value fv = *v;
	size_t i;

	switch (m->kind) {
	case KD_MATCH_EXACT:
		for (i = 0; i < m->n; i++)
			if (m->v[i].len == fv.len && memcmp(m->v[i].s, fv.data, fv.len) == 0)
				return true;
		return false;
	case KD_MATCH_MODULE:
		for (i = 0; i < m->n; i++)
			if (kd_modname_eq(m->v[i].s, m->v[i].len, fv.data, fv.len))
				return true;
		return false;
	case KD_MATCH_GLOB:
	case KD_MATCH_PATH:
		/* fnmatch(3) would stop at a NUL inside: such a value never matches. */
		if (memchr(fv.data, '\0', fv.len))
			return false;
		return glob_cached(m, fv.data, fv.len);
	case KD_MATCH_REGEX: {
		size_t len = fv.len > KD_RECORD_MAX ? KD_RECORD_MAX : fv.len;

		memcpy(m->text, fv.data, len);
		m->text[len] = '\0';
		for (i = 0; i < m->n; i++)
			if (regexec(&m->v[i].re, m->text, 0, NULL, 0) == 0)
				return true;
		return false;
	}
	}
	return false;
}

void kd_match_free(struct kd_match *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++) {
		if (m->kind == KD_MATCH_REGEX)
			regfree(&m->v[i].re);
		free(m->v[i].s);
	}
	free(m->v);
	free(m->cache);
	free(m->text);
	free(m->key);
	free(m);
}
