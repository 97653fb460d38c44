// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * group.c - the keys of a kprint group stored as one record (group.h).
 */
#include <stdlib.h>
#include <string.h>

#include "record/field.h"
#include "record/group.h"

bool kd_group_is(const struct kd_record *rec)
{
	const struct kd_dict_entry *g = rec->dict_len ? kd_record_dict_get(rec, KD_KEY_GROUP) : NULL;

	if (!g || !g->value_len)
		return false;
	for (size_t i = 0; i < g->value_len; i++)
		if (g->value[i] < '0' || g->value[i] > '9')
			return false;
	return true;
}

/* The keys of @rec that start with "<word><k>_", by k. */
static void indexed_keys(struct kd_group *g, const struct kd_record *rec,
			 const char *word, size_t wlen)
{
	g->n = 0;
	g->last = 0;
	for (size_t i = 0; i < rec->dict_len && g->n < KD_DICT_MAX; i++) {
		const struct kd_dict_entry *e = &rec->dict[i];
		size_t pre = kd_dict_index_prefix(e->key, strlen(e->key), word, wlen);
		struct kd_group_key *k = &g->keys[g->n];

		if (!pre)
			continue;
		/* Digits only up to the '_': strtoul() stops there. */
		k->line = strtoul(e->key + wlen, NULL, 10);
		k->name = e->key + pre;
		k->entry = e;
		if (k->line > g->last)
			g->last = k->line;
		g->n++;
	}
}

void kd_group_keys(struct kd_group *g, const struct kd_record *rec)
{
	indexed_keys(g, rec, "LINE", 4);
}

void kd_group_part_keys(struct kd_group *g, const struct kd_record *rec)
{
	indexed_keys(g, rec, "PART", 4);
}
