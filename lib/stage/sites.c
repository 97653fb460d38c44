// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sites.c - a kprint site table, looked up by (object, index).  See
 * sites.h.  The table's text is parsed in place (ksites.c) and kept: the
 * sites point into it.  Each object has an array indexed by descriptor
 * index; objects are found through a small hash of their names.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stage/ksites.h"
#include "stage/sites.h"

#define OBJ_SLOTS	256

struct object {
	char *name;		/* in the table's text */
	size_t name_len;
	struct kd_site **site;	/* [index], NULL where the table has none */
	size_t cap;
	unsigned long next;	/* the next index of an old-form line */
	struct object *chain;
};

struct kd_sites {
	char *text;
	struct object *slot[OBJ_SLOTS];
	struct kd_site *pool;	/* blocks of sites, chained through their first */
	size_t count, skipped;
	size_t slots;		/* the array entries of all objects, bounded */
};

/* Array entries of all objects together: a crafted index costs at most this. */
#define MAX_SLOTS	(4 * KD_SITES_MAX_SITES)

/* FNV-1a of the object name. */
static unsigned int name_hash(const char *s, size_t n)
{
	unsigned int h = 2166136261u;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h % OBJ_SLOTS;
}

static struct object *find_object(const struct kd_sites *t, const char *name, size_t n)
{
	for (struct object *o = t->slot[name_hash(name, n)]; o; o = o->chain)
		if (o->name_len == n && memcmp(o->name, name, n) == 0)
			return o;
	return NULL;
}

static struct object *get_object(struct kd_sites *t, const char *name)
{
	size_t n = strlen(name);
	struct object *o = find_object(t, name, n);
	unsigned int h;

	if (o)
		return o;
	if (!(o = calloc(1, sizeof(*o))))
		return NULL;
	h = name_hash(name, n);
	o->name = (char *)name;
	o->name_len = n;
	o->chain = t->slot[h];
	t->slot[h] = o;
	return o;
}

/* Room for index @i in @o's array. */
static int grow(struct kd_sites *t, struct object *o, unsigned long i)
{
	size_t cap = o->cap ? o->cap : 64;
	struct kd_site **s;

	while (cap <= i)
		cap *= 2;
	if (cap == o->cap)
		return 0;
	if (t->slots - o->cap + cap > MAX_SLOTS)
		return -EFBIG;
	if (!(s = realloc(o->site, cap * sizeof(*s))))
		return -ENOMEM;
	memset(s + o->cap, 0, (cap - o->cap) * sizeof(*s));
	o->site = s;
	t->slots += cap - o->cap;
	o->cap = cap;
	return 0;
}

/* Sites are allocated in blocks; the first slot of each block links to the previous. */
#define POOL_BLOCK	1024

static struct kd_site *new_site(struct kd_sites *t)
{
	static const size_t per = POOL_BLOCK;

	if (!t->pool || t->count % (per - 1) == 0) {
		struct kd_site *b = calloc(per, sizeof(*b));

		if (!b)
			return NULL;
		b[0].fmt = (const char *)t->pool;	/* the chain */
		t->pool = b;
	}
	return &t->pool[1 + t->count % (per - 1)];
}

static int add_line(void *data, const struct kd_ksite_line *l)
{
	struct kd_sites *t = data;
	struct object *o = get_object(t, l->object);
	unsigned long i;
	struct kd_site *s;
	int rc;

	if (!o)
		return -ENOMEM;
	i = l->index < 0 ? o->next : (unsigned long)l->index;
	o->next = i + 1;
	if (i > KD_KSITES_INDEX_MAX) {
		t->skipped++;
		return 0;
	}
	/* Past the bounds: left out and counted, as malformed lines are. */
	if (t->count == KD_SITES_MAX_SITES || (rc = grow(t, o, i)) == -EFBIG) {
		t->skipped++;
		return 0;
	}
	if (rc < 0)
		return rc;
	if (o->site[i]) {	/* a duplicate: the first stands */
		t->skipped++;
		return 0;
	}
	if (!(s = new_site(t)))
		return -ENOMEM;
	*s = (struct kd_site){
		.file = l->site.file, .line = l->line, .func = l->site.func,
		.module = l->site.module, .fmt = l->site.fmt, .fmt_len = l->site.fmt_len,
	};
	o->site[i] = s;
	t->count++;
	return 0;
}

int kd_sites_load(struct kd_sites **out, char *text, size_t len)
{
	struct kd_sites *t;
	long skipped;

	*out = NULL;
	if (len > KD_SITES_MAX_BYTES) {
		free(text);
		return -EFBIG;
	}
	if (!(t = calloc(1, sizeof(*t)))) {
		free(text);
		return -ENOMEM;
	}
	t->text = text;
	skipped = kd_ksites_table_lines(text, len, add_line, t);
	if (skipped < 0) {
		kd_sites_free(t);
		return (int)skipped;
	}
	t->skipped += (size_t)skipped;
	*out = t;
	return 0;
}

const struct kd_site *kd_sites_get(const struct kd_sites *t, const char *object,
				   size_t object_len, unsigned long index)
{
	const struct object *o = find_object(t, object, object_len);

	return o && index < o->cap ? o->site[index] : NULL;
}

size_t kd_sites_count(const struct kd_sites *t)
{
	return t->count;
}

size_t kd_sites_skipped(const struct kd_sites *t)
{
	return t->skipped;
}

void kd_sites_free(struct kd_sites *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < OBJ_SLOTS; i++)
		for (struct object *o = t->slot[i], *next; o; o = next) {
			next = o->chain;
			free(o->site);
			free(o);
		}
	for (struct kd_site *b = t->pool, *prev; b; b = prev) {
		prev = (struct kd_site *)(uintptr_t)b[0].fmt;
		free(b);
	}
	free(t->text);
	free(t);
}
