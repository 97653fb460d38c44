// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * catalog.c - find and search the linux-kmsg catalogues of the user's
 * languages.  See catalog.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stage/catalog.h"
#include "stage/mo.h"

#define MAX_DIRS	32
#define MAX_MOS		16

struct kd_catalog {
	char *dir[MAX_DIRS];
	unsigned int ndirs;
	struct kd_mo *mo[MAX_MOS];
	unsigned int base[MAX_MOS];	/* first id of each catalogue's entries */
	unsigned int nmos;
	unsigned int entries;
};

static const char *env_nonempty(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

const char *kd_catalog_languages(void)
{
	const char *loc = env_nonempty("LC_ALL"), *lang;

	if (!loc)
		loc = env_nonempty("LC_MESSAGES");
	if (!loc)
		loc = env_nonempty("LANG");
	if (!loc || strcmp(loc, "C") == 0 || strcmp(loc, "POSIX") == 0)
		return "";
	lang = env_nonempty("LANGUAGE");
	return lang ? lang : loc;
}

int kd_catalog_new(struct kd_catalog **cat)
{
	*cat = calloc(1, sizeof(**cat));
	return *cat ? 0 : -ENOMEM;
}

int kd_catalog_add_dirs(struct kd_catalog *cat, const char *list)
{
	const char *p = list;

	while (p && *p) {
		const char *e = strchr(p, ':');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n) {
			if (cat->ndirs >= MAX_DIRS)
				return -E2BIG;
			cat->dir[cat->ndirs] = strndup(p, n);
			if (!cat->dir[cat->ndirs])
				return -ENOMEM;
			cat->ndirs++;
		}
		p = e ? e + 1 : NULL;
	}
	return 0;
}

/*
 * The names gettext tries for one locale name ll_CC.codeset@modifier,
 * most specific first, into @names (each < 64 bytes).  Returns how many.
 */
static unsigned int name_variants(const char *name, size_t n, char names[6][64])
{
	const char *mod = memchr(name, '@', n);
	size_t mod_len = mod ? n - (size_t)(mod - name) : 0, base = n - mod_len;
	const char *dot = memchr(name, '.', base);
	size_t cs_end = base, cc_end = dot ? (size_t)(dot - name) : base;
	const char *us = memchr(name, '_', cc_end);
	size_t ll_end = us ? (size_t)(us - name) : cc_end;
	/* Pieces: [0, ll_end) language, [ll_end, cc_end) _CC, [cc_end, cs_end) .cs */
	const size_t ends[3] = { cs_end, cc_end, ll_end };
	unsigned int k = 0;

	if (n == 0 || n >= 48)
		return 0;
	for (unsigned int i = 0; i < 3; i++) {
		for (int with_mod = 1; with_mod >= 0; with_mod--) {
			size_t l = ends[i];

			if (with_mod && !mod)
				continue;
			if (i > 0 && ends[i] == ends[i - 1])
				continue;
			memcpy(names[k], name, l);
			if (with_mod)
				memcpy(names[k] + l, mod, mod_len), l += mod_len;
			names[k][l] = '\0';
			k++;
		}
	}
	return k;
}

/* Load the first DIR/@name/LC_MESSAGES/linux-kmsg.mo.  1 loaded, 0 none, <0. */
static int load_name(struct kd_catalog *cat, const char *name,
		     void (*bad)(void *data, const char *path, int err), void *data)
{
	char path[4096];

	for (unsigned int d = 0; d < cat->ndirs; d++) {
		struct kd_mo *mo;
		int rc;

		if (snprintf(path, sizeof(path), "%s/%s/LC_MESSAGES/%s.mo", cat->dir[d],
			     name, KD_CATALOG_DOMAIN) >= (int)sizeof(path))
			continue;
		rc = kd_mo_open(path, &mo);
		if (rc == -ENOENT || rc == -ENOTDIR)
			continue;
		if (rc == -ENOMEM)
			return rc;
		if (rc < 0) {
			if (bad)
				bad(data, path, rc);
			continue;
		}
		if (cat->nmos >= MAX_MOS) {
			kd_mo_free(mo);
			return 0;
		}
		cat->base[cat->nmos] = cat->entries;
		cat->entries += kd_mo_count(mo);
		cat->mo[cat->nmos++] = mo;
		return 1;
	}
	return 0;
}

int kd_catalog_load(struct kd_catalog *cat, const char *languages,
		    void (*bad)(void *data, const char *path, int err), void *data)
{
	const char *p = languages;
	int loaded = 0;

	while (p && *p) {
		const char *e = strchr(p, ':');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char names[6][64];
		unsigned int k = name_variants(p, n, names);

		for (unsigned int i = 0; i < k; i++) {
			int rc;

			if (strcmp(names[i], "C") == 0 || strcmp(names[i], "POSIX") == 0)
				continue;
			rc = load_name(cat, names[i], bad, data);
			if (rc < 0)
				return rc;
			if (rc > 0) {
				loaded++;
				break;	/* one catalogue per language */
			}
		}
		p = e ? e + 1 : NULL;
	}
	return loaded;
}

const char *kd_catalog_lookup(const struct kd_catalog *cat, const char *ctx,
			      const char *msgid, size_t id_len, size_t *len,
			      unsigned int *id)
{
	uint32_t h = kd_mo_hash(msgid, id_len);

	for (unsigned int i = 0; i < cat->nmos; i++) {
		unsigned int idx;
		const char *s = NULL;

		if (ctx)
			s = kd_mo_lookup_hashed(cat->mo[i], ctx, msgid, id_len, h, len, &idx);
		if (!s)
			s = kd_mo_lookup_hashed(cat->mo[i], NULL, msgid, id_len, h, len, &idx);
		if (s) {
			if (id)
				*id = cat->base[i] + idx;
			return s;
		}
	}
	return NULL;
}

unsigned int kd_catalog_entries(const struct kd_catalog *cat)
{
	return cat->entries;
}

const char *kd_catalog_msgid(const struct kd_catalog *cat, unsigned int id, size_t *len)
{
	for (unsigned int i = cat->nmos; i-- > 0;)
		if (id >= cat->base[i])
			return kd_mo_msgid(cat->mo[i], id - cat->base[i], len);
	return NULL;
}

unsigned int kd_catalog_count(const struct kd_catalog *cat)
{
	return cat->nmos;
}

const char *kd_catalog_dir(const struct kd_catalog *cat, unsigned int i)
{
	return i < cat->ndirs ? cat->dir[i] : NULL;
}

void kd_catalog_free(struct kd_catalog *cat)
{
	if (!cat)
		return;
	for (unsigned int i = 0; i < cat->ndirs; i++)
		free(cat->dir[i]);
	for (unsigned int i = 0; i < cat->nmos; i++)
		kd_mo_free(cat->mo[i]);
	free(cat);
}
