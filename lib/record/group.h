/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * group.h - a kprint group stored as one record (man/kprint.7): its text
 * is the group's lines joined by newlines, GROUP=<count> says so, and
 * each line's call site, format and arguments are LINE<k>_CODE_FILE,
 * LINE<k>_FORMAT, LINE<k>_ARG<n>... (k from 1).  --stats and translation
 * go through the lines with these keys.  The later parts of a record
 * continued by pr_cont() are keyed the same way (PART<k>_FORMAT,
 * PART<k>_ARG<n>, k from 2).
 */
#ifndef KDMESG_GROUP_H
#define KDMESG_GROUP_H

#include <stdbool.h>
#include <stddef.h>

#include "record/record.h"

/* One LINE<k>_ key of a group (or PART<k>_ key of a record). */
struct kd_group_key {
	unsigned long line;		/* k */
	const char *name;		/* the key after "LINE<k>_" */
	const struct kd_dict_entry *entry;
};

/* A group's LINE<k>_ keys, in the record's order. */
struct kd_group {
	size_t n;
	unsigned long last;		/* the highest k with a key, 0 for none */
	struct kd_group_key keys[KD_DICT_MAX];
};

/**
 * kd_group_is() - whether @rec is a group stored as one record:
 * GROUP=<count> in decimal.  The form of older kprint kernels,
 * GROUP=<first>:<index>/<count> on each line's own record, is not.
 */
bool kd_group_is(const struct kd_record *rec);

/**
 * kd_group_keys() - the LINE<k>_ keys of @rec into @g (which borrows the
 * record's entries: valid while the record is unchanged).
 */
void kd_group_keys(struct kd_group *g, const struct kd_record *rec);

/**
 * kd_group_part_keys() - the PART<k>_ keys of @rec into @g, as
 * kd_group_keys() does; @g->last is the highest k.
 */
void kd_group_part_keys(struct kd_group *g, const struct kd_record *rec);

#endif /* KDMESG_GROUP_H */
