// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * filter.c - decides which records are shown: dmesg's level and facility
 * sets and --since/--until window, plus journalctl-style field matches
 * (lib/match/match.c does each).  Also parses dmesg's -l/-f list grammar, so the
 * program stays a thin layer of option handling.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "match/filter.h"
#include "record/host.h"
#include "record/priority.h"

void kd_filter_init(struct kd_filter *f)
{
	memset(f, 0, sizeof(*f));
}

void kd_filter_free(struct kd_filter *f)
{
	for (size_t i = 0; i < f->nmatches; i++)
		kd_match_free(f->matches[i]);
	f->nmatches = 0;
}

int kd_filter_add(struct kd_filter *f, enum kd_match_kind kind,
		  const struct kd_field *field, unsigned int flags,
		  const char *value, const char **error)
{
	struct kd_match *m = NULL;
	size_t i;
	int rc;

	if (!field || !value)
		return -EINVAL;
	for (i = 0; i < f->nmatches && !m; i++)
		if (kd_match_is(f->matches[i], kind, field, flags))
			m = f->matches[i];
	if (!m) {
		if (f->nmatches == KD_FILTER_MATCHES_MAX)
			return -E2BIG;
		rc = kd_match_new(&m, kind, field, flags);
		if (rc < 0)
			return rc;
		f->matches[f->nmatches++] = m;
	}
	rc = kd_match_add(m, value);
	if (rc == -EINVAL && error)
		*error = kd_match_error(m);
	return rc;
}

int kd_filter_add_value(struct kd_filter *f, enum kd_field_id field,
			const char *value)
{
	struct kd_field fld = { .id = field };

	if ((unsigned int)field >= KD_FIELD_DICT)
		return -EINVAL;
	fld.key = kd_field_name(&fld);
	return kd_filter_add(f, KD_MATCH_EXACT, &fld, 0, value, NULL);
}

static bool in_mask(uint32_t mask, int n)
{
	return n >= 0 && n < 32 && (mask & (UINT32_C(1) << n));
}

bool kd_filter_uses_dict(const struct kd_filter *f)
{
	for (size_t i = 0; i < f->nmatches; i++)
		if (kd_field_dict_key(kd_match_field(f->matches[i])))
			return true;
	return false;
}

bool kd_filter_uses_kprint(const struct kd_filter *f)
{
	for (size_t i = 0; i < f->nmatches; i++) {
		enum kd_field_id id = kd_match_field(f->matches[i])->id;

		/* Any key beyond the two stock kernels send (ARGn, ...). */
		if (id >= KD_FIELD_CODE_FILE)
			return true;
	}
	return false;
}

bool kd_filter_is_empty(const struct kd_filter *f)
{
	return !f->levels && !f->facilities && !f->has_since && !f->has_until &&
	       !f->nmatches;
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
		uint64_t t = (uint64_t)kd_record_boot_usec(rec, f->boot_usec) +
			     (uint64_t)(rec->ts_usec == KD_NO_TIME ? 0 : rec->ts_usec);

		if (f->has_since && f->since_usec >= t)
			return false;
		if (f->has_until && f->until_usec <= t)
			return false;
	}

	for (i = 0; i < f->nmatches; i++)
		if (!kd_match_test(f->matches[i], rec))
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
