/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * match.h - one filter option's test on one field of a record: the
 * values it accepts (any may match) and how they are compared.  The
 * filter (filter.h) ANDs one of these per option and field.
 *
 * A record that lacks the field never matches.  Matching allocates
 * nothing: glob results are kept in a fixed-size cache keyed by the
 * field's value (a log repeats its call sites), regular expressions are
 * compiled once (glibc's regexec() itself takes and frees work buffers
 * on each call: constant memory, tests/unit/test-filter-alloc.c).
 */
#ifndef KDMESG_MATCH_H
#define KDMESG_MATCH_H

#include <stdbool.h>

#include "record/field.h"
#include "record/record.h"

enum kd_match_kind {
	KD_MATCH_EXACT,		/* the same bytes (FIELD=VALUE, --subsystem, --format) */
	KD_MATCH_GLOB,		/* fnmatch(3) (--function) */
	/*
	 * fnmatch(3) on the path or on any trailing part of it that starts
	 * after a '/', with FNM_LEADING_DIR so that a directory matches
	 * what is below it (--code-file 'drivers/net', --code-file pci.c);
	 * a trailing '/' is dropped ('drivers/' is the directory 'drivers').
	 */
	KD_MATCH_PATH,
	KD_MATCH_MODULE,	/* module names: '-' and '_' are the same (--module) */
	KD_MATCH_REGEX,		/* regcomp(3) extended (--grep) */
};

enum kd_match_flags {
	KD_MATCH_ICASE	= 1 << 0,	/* REGEX: ignore case (-i) */
};

struct kd_match;

/**
 * kd_match_new() - an empty test of @kind on @field (copied, the key too).
 * Returns 0, -ENOMEM or -EINVAL.
 */
int kd_match_new(struct kd_match **out, enum kd_match_kind kind,
		 const struct kd_field *field, unsigned int flags);

/**
 * kd_match_add() - accept @value too.  Returns 0, -ENOMEM, or -EINVAL for
 * a regular expression regcomp(3) refuses (kd_match_error() says why).
 */
int kd_match_add(struct kd_match *m, const char *value);

/** kd_match_error() - regerror(3)'s text for the last refused value. */
const char *kd_match_error(const struct kd_match *m);

/** kd_match_is(): whether @m tests @kind on the field named like @field. */
bool kd_match_is(const struct kd_match *m, enum kd_match_kind kind,
		 const struct kd_field *field, unsigned int flags);

/** kd_match_field() - the field @m tests. */
const struct kd_field *kd_match_field(const struct kd_match *m);

/** kd_match_test() - whether @rec has the field and a value matches. */
bool kd_match_test(struct kd_match *m, const struct kd_record *rec);

/** kd_match_free() - release @m; NULL is fine. */
void kd_match_free(struct kd_match *m);

#endif /* KDMESG_MATCH_H */
