// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats.c - per-call-site counters for --stats (stats.h): an open
 * addressing hash table of sites, keyed by the bytes that identify a
 * site, built in a fixed scratch buffer so that counting a record that
 * belongs to a known site allocates nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record/field.h"
#include "record/group.h"
#include "shared/hash.h"
#include "record/host.h"
#include "sink/stats.h"

struct kd_stats {
	struct kd_stats_site **slots;	/* open addressing, power of two */
	size_t nslots, nsites;
	struct kd_stats_site **sorted;	/* built by kd_stats_sorted() */
	uint64_t total, records;
	char key[KD_STATS_KEY_MAX];
	/* Two host names are enough to know a host breakdown is wanted. */
	char first_host[KD_HOSTNAME_MAX + 1];
	size_t nhosts;
};

/* The fields of a site, in this order (a site's file, line, ... members). */
enum { F_FILE, F_LINE, F_FUNC, F_MODULE, F_FORMAT, F_N };

/* The site's keys, in the order above (readers keep LINE<k>_ forms too), and GROUP. */
const char *const kd_stats_keys[] = {
	KD_KEY_CODE_FILE, KD_KEY_CODE_LINE, KD_KEY_CODE_FUNC, KD_KEY_MODULE,
	KD_KEY_FORMAT, KD_KEY_GROUP, NULL
};

/* One counted message: a record, or one line of a group. */
struct unit {
	const char *text;
	size_t text_len;
	const struct kd_dict_entry *f[F_N];	/* each may be NULL */
	/*
	 * A record's CODE_FUNC and MODULE are looked up only for a new
	 * site: two lookups fewer for every record of a known one.
	 */
	bool lazy;
};

int kd_stats_new(struct kd_stats **out)
{
	struct kd_stats *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->nslots = 1024;
	s->slots = calloc(s->nslots, sizeof(*s->slots));
	if (!s->slots) {
		free(s);
		return -ENOMEM;
	}
	*out = s;
	return 0;
}


static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

size_t kd_stats_mask(const char *text, size_t len, char *buf, size_t size)
{
	size_t i = 0, n = 0;

	if (!size)
		return 0;
	while (i < len && n + 1 < size) {
		size_t j = i;
		bool digit = false, hex = true;

		if (!is_alnum(text[i])) {
			buf[n++] = text[i++];
			continue;
		}
		/* One word: "0x1f" and all-hex words with a digit are numbers. */
		while (j < len && is_alnum(text[j])) {
			digit |= text[j] >= '0' && text[j] <= '9';
			hex &= is_hex(text[j]);
			j++;
		}
		if (j - i > 2 && text[i] == '0' && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
			hex = true;
			for (size_t k = i + 2; k < j; k++)
				hex &= is_hex(text[k]);
		}
		if (digit && hex) {
			buf[n++] = '#';
			i = j;
			continue;
		}
		/* Other words keep their letters; digit runs in them go. */
		for (; i < j && n + 1 < size; i++) {
			if (text[i] >= '0' && text[i] <= '9') {
				buf[n++] = '#';
				while (i + 1 < j && text[i + 1] >= '0' && text[i + 1] <= '9')
					i++;
			} else {
				buf[n++] = text[i];
			}
		}
	}
	buf[n] = '\0';
	return n;
}

/* Append @len bytes and a NUL to the key if they fit; false otherwise. */
static bool key_put(char *key, size_t *n, const char *p, size_t len)
{
	if (*n + len + 1 > KD_STATS_KEY_MAX)
		return false;
	memcpy(key + *n, p, len);
	*n += len;
	key[(*n)++] = '\0';
	return true;
}

/* The key of @u's site into s->key; returns its length. */
static size_t site_key(struct kd_stats *s, const struct unit *u, bool *structured)
{
	const struct kd_dict_entry *file = u->f[F_FILE], *line = u->f[F_LINE];
	const struct kd_dict_entry *fmt = u->f[F_FORMAT];
	size_t n = 0;

	/* A recovered FORMAT without a call site (its sites disagree) still names it. */
	if (file || (fmt && fmt->origin == KD_ORIGIN_RECOVERED)) {
		if (key_put(s->key, &n, "S", 1) &&
		    key_put(s->key, &n, file ? file->value : "", file ? file->value_len : 0) &&
		    key_put(s->key, &n, line ? line->value : "", line ? line->value_len : 0) &&
		    key_put(s->key, &n, fmt ? fmt->value : "", fmt ? fmt->value_len : 0)) {
			*structured = true;
			return n;
		}
		n = 0;
	}
	*structured = false;
	s->key[n++] = 'T';
	n += kd_stats_mask(u->text ? u->text : "", u->text ? u->text_len : 0,
			   s->key + n, sizeof(s->key) - n);
	return n;
}

static char *dup_value(const struct kd_dict_entry *e)
{
	return e ? strndup(e->value, e->value_len) : NULL;
}

static struct kd_stats_site *new_site(const struct kd_record *rec, const struct unit *u,
				      const char *key, size_t len, uint32_t h,
				      bool structured)
{
	struct kd_stats_site *site = calloc(1, sizeof(*site));

	/* NUL-terminated too: site->text, the key's tail, is a string. */
	if (!site || !(site->key = malloc(len + 1))) {
		free(site);
		return NULL;
	}
	memcpy(site->key, key, len);
	site->key[len] = '\0';
	site->key_len = len;
	site->hash = h;
	site->level = KD_NO_LEVEL;
	site->first_usec = rec->ts_usec;
	site->last_usec = rec->ts_usec;
	site->structured = structured;
	if (structured) {
		site->recovered = (u->f[F_FILE] && u->f[F_FILE]->origin == KD_ORIGIN_RECOVERED) ||
				  (u->f[F_FORMAT] && u->f[F_FORMAT]->origin == KD_ORIGIN_RECOVERED);
		site->file = dup_value(u->f[F_FILE]);
		site->line = dup_value(u->f[F_LINE]);
		site->func = dup_value(u->lazy ? kd_record_dict_get(rec, KD_KEY_CODE_FUNC) : u->f[F_FUNC]);
		site->module = dup_value(u->lazy ? kd_record_dict_get(rec, KD_KEY_MODULE) : u->f[F_MODULE]);
		site->format = dup_value(u->f[F_FORMAT]);
	} else {
		/* The masked text is the key after its 'T'. */
		site->text = site->key + 1;
		site->text_len = len - 1;
	}
	return site;
}

static void free_site(struct kd_stats_site *site)
{
	for (size_t i = 0; i < site->nhosts; i++)
		free(site->hosts[i].name);
	free(site->hosts);
	free(site->file);
	free(site->line);
	free(site->func);
	free(site->module);
	free(site->format);
	free(site->key);
	free(site);
}

static int grow(struct kd_stats *s)
{
	size_t n = s->nslots * 2, i;
	struct kd_stats_site **v = calloc(n, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (i = 0; i < s->nslots; i++) {
		struct kd_stats_site *site = s->slots[i];
		size_t j;

		if (!site)
			continue;
		for (j = site->hash & (n - 1); v[j]; j = (j + 1) & (n - 1))
			;
		v[j] = site;
	}
	free(s->slots);
	s->slots = v;
	s->nslots = n;
	return 0;
}

/* One more message of @site from host @name. */
static int count_host(struct kd_stats *s, struct kd_stats_site *site, const char *name)
{
	struct kd_stats_host *v;
	size_t i;

	if (s->nhosts == 0) {
		snprintf(s->first_host, sizeof(s->first_host), "%s", name);
		s->nhosts = 1;
	} else if (s->nhosts == 1 && strcmp(s->first_host, name) != 0) {
		s->nhosts = 2;
	}
	/* A handful of machines: a short list, the last one found first. */
	for (i = site->nhosts; i-- > 0;)
		if (strcmp(site->hosts[i].name, name) == 0) {
			site->hosts[i].count++;
			return 0;
		}
	v = realloc(site->hosts, (site->nhosts + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	site->hosts = v;
	v[site->nhosts].name = strdup(name);
	if (!v[site->nhosts].name)
		return -ENOMEM;
	v[site->nhosts++].count = 1;
	return 0;
}

size_t kd_stats_hosts(const struct kd_stats *s)
{
	return s->nhosts;
}

/* Count @u, a message of @rec, under its site. */
static int add_unit(struct kd_stats *s, const struct kd_record *rec, const struct unit *u)
{
	struct kd_stats_site *site;
	bool structured;
	size_t len = site_key(s, u, &structured), i;
	uint32_t h = kd_hash_bytes(s->key, len);

	for (i = h & (s->nslots - 1); (site = s->slots[i]); i = (i + 1) & (s->nslots - 1))
		if (site->hash == h && site->key_len == len &&
		    memcmp(site->key, s->key, len) == 0)
			break;
	if (!site) {
		site = new_site(rec, u, s->key, len, h, structured);
		if (!site)
			return -ENOMEM;
		s->slots[i] = site;
		s->nsites++;
		free(s->sorted);
		s->sorted = NULL;
		/* At most half full, so that probes stay short. */
		if (2 * s->nsites > s->nslots && grow(s) < 0)
			return -ENOMEM;
	}
	site->count++;
	s->total++;
	if (rec->host && rec->host->hostname[0] && count_host(s, site, rec->host->hostname) < 0)
		return -ENOMEM;
	if (rec->ts_usec != KD_NO_TIME) {
		if (site->first_usec == KD_NO_TIME)
			site->first_usec = rec->ts_usec;
		site->last_usec = rec->ts_usec;
	}
	if (rec->level != KD_NO_LEVEL &&
	    (site->level == KD_NO_LEVEL || rec->level < site->level))
		site->level = rec->level;
	return 0;
}

/* Which of a site's fields @name (a key without its LINE<k>_ prefix) is, or F_N. */
static int field_of(const char *name)
{
	for (int f = 0; f < F_N; f++)
		if (strcmp(name, kd_stats_keys[f]) == 0)
			return f;
	return F_N;
}

/*
 * A group stored as one record (GROUP=, man/kprint.7): each line of its
 * text is counted under its own call site, from its LINE<k>_ keys; a
 * line without them (an overflow note, a line cut by the record limit)
 * under its masked text.
 */
static int add_group(struct kd_stats *s, const struct kd_record *rec)
{
	const char *p = rec->text, *end = rec->text + rec->text_len;
	struct kd_group g;
	int rc;

	kd_group_keys(&g, rec);
	for (unsigned long k = 1;; k++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct unit u = { .text = p, .text_len = (size_t)((nl ? nl : end) - p) };

		for (size_t i = 0; k <= g.last && i < g.n; i++) {
			int f = g.keys[i].line == k ? field_of(g.keys[i].name) : F_N;

			if (f != F_N && !u.f[f])
				u.f[f] = g.keys[i].entry;
		}
		rc = add_unit(s, rec, &u);
		if (rc < 0 || !nl)
			return rc;
		p = nl + 1;
	}
}

int kd_stats_add(struct kd_stats *s, const struct kd_record *rec)
{
	struct unit u = { .text = rec->text, .text_len = rec->text_len, .lazy = true };

	s->records++;
	if (rec->dict_len) {
		u.f[F_FILE] = kd_record_dict_get(rec, KD_KEY_CODE_FILE);
		u.f[F_LINE] = u.f[F_FILE] ? kd_record_dict_get(rec, KD_KEY_CODE_LINE) : NULL;
		u.f[F_FORMAT] = kd_record_dict_get(rec, KD_KEY_FORMAT);
	}
	/* A group has no CODE_FILE of its own: only then look for GROUP. */
	if (!u.f[F_FILE] && rec->text_len && kd_group_is(rec))
		return add_group(s, rec);
	return add_unit(s, rec, &u);
}

int kd_stats_sink_write(void *data, const struct kd_record *rec,
			const struct kd_prev *prev)
{
	(void)prev;
	return kd_stats_add(data, rec);
}

uint64_t kd_stats_total(const struct kd_stats *s)
{
	return s->total;
}

uint64_t kd_stats_records(const struct kd_stats *s)
{
	return s->records;
}

static int by_count(const void *a, const void *b)
{
	const struct kd_stats_site *x = *(struct kd_stats_site *const *)a;
	const struct kd_stats_site *y = *(struct kd_stats_site *const *)b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->first_usec != y->first_usec)
		return x->first_usec < y->first_usec ? -1 : 1;
	if (x->key_len != y->key_len)
		return x->key_len < y->key_len ? -1 : 1;
	return memcmp(x->key, y->key, x->key_len);
}

const struct kd_stats_site *const *kd_stats_sorted(struct kd_stats *s, size_t *n)
{
	size_t i, k = 0;

	*n = 0;
	if (!s->sorted) {
		s->sorted = malloc((s->nsites ? s->nsites : 1) * sizeof(*s->sorted));
		if (!s->sorted)
			return NULL;
		for (i = 0; i < s->nslots; i++)
			if (s->slots[i])
				s->sorted[k++] = s->slots[i];
		qsort(s->sorted, k, sizeof(*s->sorted), by_count);
	}
	*n = s->nsites;
	return (const struct kd_stats_site *const *)s->sorted;
}

void kd_stats_free(struct kd_stats *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nslots; i++)
		if (s->slots[i])
			free_site(s->slots[i]);
	free(s->slots);
	free(s->sorted);
	free(s);
}
