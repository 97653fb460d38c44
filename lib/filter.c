// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * filter.c - decides which records are shown: dmesg's level and facility
 * sets and --since/--until window, plus journalctl-style field matches
 * (--subsystem, --device).  Also parses dmesg's -l/-f list grammar, so the
 * program stays a thin layer of option handling.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "priority.h"

void kd_filter_init(struct kd_filter *f)
{
	memset(f, 0, sizeof(*f));
}

void kd_filter_free(struct kd_filter *f)
{
	size_t i, j;

	for (i = 0; i < KD_FIELD__COUNT; i++) {
		for (j = 0; j < f->nvalues[i]; j++)
			free(f->values[i][j]);
		free(f->values[i]);
		f->values[i] = NULL;
		f->nvalues[i] = 0;
	}
}

int kd_filter_add_value(struct kd_filter *f, enum kd_field_id field,
			const char *value)
{
	char **v;
	char *copy;

	if (field < KD_FIELD_DICT_FIRST || field >= KD_FIELD_DICT || !value)
		return -EINVAL;
	copy = strdup(value);
	if (!copy)
		return -ENOMEM;
	v = realloc(f->values[field], (f->nvalues[field] + 1) * sizeof(*v));
	if (!v) {
		free(copy);
		return -ENOMEM;
	}
	v[f->nvalues[field]++] = copy;
	f->values[field] = v;
	return 0;
}

static bool in_mask(uint32_t mask, int n)
{
	return n >= 0 && n < 32 && (mask & (UINT32_C(1) << n));
}

/* One field: any of its values may match (OR); no values means no test. */
static bool field_matches(const struct kd_filter *f, enum kd_field_id field,
			  const struct kd_record *rec)
{
	const struct kd_field fld = { .id = field };
	const struct kd_dict_entry *e;
	size_t i;

	if (f->nvalues[field] == 0)
		return true;
	e = kd_record_dict_get(rec, kd_field_dict_key(&fld));
	if (!e)
		return false;
	for (i = 0; i < f->nvalues[field]; i++) {
		const char *want = f->values[field][i];

		/* Exact bytes: a value with an escaped NUL never matches text. */
		if (strlen(want) == e->value_len &&
		    memcmp(want, e->value, e->value_len) == 0)
			return true;
	}
	return false;
}

bool kd_filter_uses_dict(const struct kd_filter *f)
{
	for (size_t i = 0; i < KD_FIELD__COUNT; i++)
		if (f->nvalues[i])
			return true;
	return false;
}

bool kd_filter_is_empty(const struct kd_filter *f)
{
	return !f->levels && !f->facilities && !f->has_since && !f->has_until &&
	       !kd_filter_uses_dict(f);
}

bool kd_filter_match(const struct kd_filter *f, const struct kd_record *rec)
{
	size_t i;

	/*
	 * dmesg tests the facility for both sets: a record whose priority
	 * could not be read (a syslog line without "<N>") fails either.
	 */
	if (f->levels && (kd_priority_dmesg_facility(rec) < 0 ||
			  !in_mask(f->levels, rec->level)))
		return false;
	if (f->facilities && (kd_priority_dmesg_facility(rec) < 0 ||
			      !in_mask(f->facilities, rec->facility)))
		return false;

	if (f->has_since || f->has_until) {
		/*
		 * Wall-clock time as dmesg computes it: boot time plus the
		 * stamp; a record without a stamp counts as the boot instant.
		 * Both ends are exclusive, as in dmesg.
		 */
		uint64_t t = (uint64_t)f->boot_usec +
			     (uint64_t)(rec->ts_usec == KD_NO_TIME ? 0 : rec->ts_usec);

		if (f->has_since && f->since_usec >= t)
			return false;
		if (f->has_until && f->until_usec <= t)
			return false;
	}

	for (i = 0; i < KD_FIELD__COUNT; i++)
		if (!field_matches(f, i, rec))
			return false;
	return true;
}

int kd_filter_parse_list(const char *list,
			 int (*lookup)(const char *name, size_t len),
			 unsigned int range, uint32_t *mask, const char **bad)
{
	const char *item = list;

	if (!list || !lookup || !mask)
		return -EINVAL;
	if (!*list) {
		/* dmesg silently shows nothing; say why instead. */
		if (bad)
			*bad = list;
		return -EINVAL;
	}

	while (*item) {
		const char *comma = strchr(item, ',');
		const char *end, *name = item;
		bool lower = false, higher = false;
		int n;

		/*
		 * As in dmesg, a comma that ends the whole list belongs to
		 * the last item ("err," is the unknown level "err,").
		 */
		end = (comma && comma[1]) ? comma : item + strlen(item);
		if (end == item) {
			if (bad)
				*bad = item;
			return -EINVAL;
		}
		if (range) {
			if (end[-1] == '+') {
				end--;
				lower = true;
			} else if (*name == '+') {
				name++;
				higher = true;
			}
		}

		n = lookup(name, end - name);
		if (n < 0 || n > 31) {
			if (bad)
				*bad = name;
			return n < 0 ? n : -EINVAL;
		}
		*mask |= UINT32_C(1) << n;
		if (lower)
			while (--n >= 0)
				*mask |= UINT32_C(1) << n;
		else if (higher)
			while (++n < (int)range && n < 32)
				*mask |= UINT32_C(1) << n;

		if (!(comma && comma[1]))
			break;
		item = comma + 1;
	}
	return 0;
}
