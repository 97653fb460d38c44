/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * filter.h - which records to show: level and facility sets (dmesg -l/-f/-k/-u),
 * a time window (--since/--until) and journalctl-style field matches
 * (--subsystem, --device, --code-file, --function, --module, --format,
 * --grep, FIELD=VALUE; lib/match/match.h).  Repeats of one option on one field
 * OR, different ones AND, as journalctl does; a record without the field
 * never matches.
 */
#ifndef KDMESG_FILTER_H
#define KDMESG_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/field.h"
#include "match/match.h"
#include "record/record.h"

/* Different options a filter can AND; more is refused with -E2BIG. */
#define KD_FILTER_MATCHES_MAX	32

struct kd_filter {
	uint32_t levels;	/* bit n set: level n shown; 0 means all */
	uint32_t facilities;	/* bit n set: facility n shown; 0 means all */

	/* Time window on the record's wall-clock time (boot time + ts). */
	bool has_since, has_until;
	/* µs since the Unix epoch, unsigned as dmesg compares them */
	uint64_t since_usec, until_usec;
	int64_t boot_usec;		/* wall-clock boot time in µs */

	/* Field matches: all must pass (AND); each ORs its own values. */
	struct kd_match *matches[KD_FILTER_MATCHES_MAX];
	size_t nmatches;
};

/** kd_filter_init() - a filter that lets everything through. */
void kd_filter_init(struct kd_filter *f);

/** kd_filter_free() - release the field matches; @f is then empty. */
void kd_filter_free(struct kd_filter *f);

/**
 * kd_filter_add() - accept @value for @field compared as @kind: joins the
 * match of an earlier call with the same kind, field and flags (OR),
 * else ANDs a new one.  Returns 0, -ENOMEM, -E2BIG, or -EINVAL (a
 * regular expression regcomp(3) refuses: *@error, if given, says why;
 * a glob on a header field).
 */
int kd_filter_add(struct kd_filter *f, enum kd_match_kind kind,
		  const struct kd_field *field, unsigned int flags,
		  const char *value, const char **error);

/**
 * kd_filter_add_value() - kd_filter_add() of an exact value for the
 * field @field (a known id, not KD_FIELD_DICT).  Returns as it.
 */
int kd_filter_add_value(struct kd_filter *f, enum kd_field_id field,
			const char *value);

/**
 * kd_filter_uses_kprint() - true when @f matches a field only a kernel
 * with the kprint patch sends (CODE_*, MODULE, FORMAT, GROUP, ARGn).
 */
bool kd_filter_uses_kprint(const struct kd_filter *f);

/**
 * kd_filter_is_empty() - true when @f lets every record through, so a
 * caller can skip kd_filter_match() for the whole run.
 */
bool kd_filter_is_empty(const struct kd_filter *f);

/** kd_filter_uses_dict() - true when @f matches dictionary fields. */
bool kd_filter_uses_dict(const struct kd_filter *f);

/** kd_filter_match() - true when @rec passes every part of @f. */
bool kd_filter_match(const struct kd_filter *f, const struct kd_record *rec);

/**
 * kd_filter_parse_list() - parse a dmesg -l/-f list into a bit mask.
 * @list:   "err,warn", "err+" (err and every lower number, i.e. more
 *          severe), "+err" (err and every higher number); numbers work too.
 * @lookup: name or number of @len bytes -> 0..31, or a negative errno
 *          (-EINVAL unknown, -ERANGE number overflow).
 * @range:  0 to refuse "+" ranges (facilities), else one past the highest
 *          value a range may reach (8 for levels).
 * @mask:   bits are ORed in.
 * @bad:    on failure, where the offending item starts (dmesg quotes the
 *          list from there on).
 *
 * Returns 0, or the negative errno of the item that failed (-EINVAL also
 * for an empty item, as in ",err").
 */
int kd_filter_parse_list(const char *list,
			 int (*lookup)(const char *name, size_t len),
			 unsigned int range, uint32_t *mask, const char **bad);

#endif /* KDMESG_FILTER_H */
