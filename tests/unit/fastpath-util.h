/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fastpath-util.h - helpers the fast-path tests share (fastpath-util.c).
 */
#ifndef KDMESG_FASTPATH_UTIL_H
#define KDMESG_FASTPATH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/record.h"
#include "source/source.h"

struct buf {
	char *p;
	size_t len, cap;
};

struct recs {
	struct kd_record *r;
	size_t n, cap;
	struct kd_source_stats stats;
	int rc;
	size_t lent;	/* records whose text pointed into the input */
	size_t pre;	/* ... and said the stamp before it is dmesg's */
	size_t promise_bad;	/* text_nl or text_pre that did not hold */
};

/* A number below @n from a fixed-seed generator: failures reproduce. */
unsigned int rnd(unsigned int n);

/* Append @n bytes (or a string) to @b, keeping it NUL-terminated. */
void put(struct buf *b, const void *s, size_t n);
void puts_(struct buf *b, const char *s);

/* Whether [@s, @s + @n) is all printable ASCII. */
bool all_plain(const char *s, size_t n);

/* Message text of every kind (see fastpath-util.c); @nl: newlines too. */
void gen_text(struct buf *b, bool nl);

/* @ndig decimal digits, the first one not 0. */
void gen_digits(struct buf *b, unsigned int ndig);

/* Same header, text and dictionary. */

struct kd_record *recs_add(struct recs *rs);
void recs_free(struct recs *rs);

/* Every record of @path (NULL: standard input) through a source. */
void read_source(struct recs *rs, const char *kind, const char *path,
		 unsigned int flags);

/* When set, read_source() asks the source for only these keys (kd_source_keep_keys()). */
extern const char *const *read_keep_keys;

/* The same input through a pipe, so the reader works in windows. */
void read_pipe(struct recs *rs, const char *kind, const struct buf *b,
	       unsigned int flags);

/* @b in a temporary file; returns its path (one at a time). */
const char *write_temp(const struct buf *b);

/* @got against @want, as TAP results; *@nplain: records flagged plain. */
void compare(const struct recs *got, const struct recs *want,
	     const char *what, size_t *nplain);

#endif /* KDMESG_FASTPATH_UTIL_H */
