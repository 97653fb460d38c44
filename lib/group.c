// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * group.c - the keys of a kprint group stored as one record (group.h).
 */
#include <stdlib.h>
#include <string.h>

#include "group.h"

bool kd_group_is(const struct kd_record *rec)
{
	const struct kd_dict_entry *g = rec->dict_len ? kd_record_dict_get(rec, "GROUP") : NULL;

	if (!g || !g->value_len)
		return false;
	for (size_t i = 0; i < g->value_len; i++)
		if (g->value[i] < '0' || g->value[i] > '9')
			return false;
	return true;
}

void kd_group_keys(struct kd_group *g, const struct kd_record *rec)
{
	g->n = 0;
	g->last = 0;
	for (size_t i = 0; i < rec->dict_len && g->n < KD_DICT_MAX; i++) {
		const struct kd_dict_entry *e = &rec->dict[i];
		size_t pre = kd_dict_line_prefix(e->key, strlen(e->key));
		struct kd_group_key *k = &g->keys[g->n];

		if (!pre)
			continue;
		/* Digits only up to the '_': strtoul() stops there. */
		k->line = strtoul(e->key + 4, NULL, 10);
		k->name = e->key + pre;
		k->entry = e;
		if (k->line > g->last)
			g->last = k->line;
		g->n++;
	}
}
