/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * recover.h - the recovery stage (a struct kd_stage, pipeline.h): for each
 * kernel record without FORMAT (a stock kernel, a dump from one), find
 * the format that produced its text in format indexes (fidx.h, matched by
 * fmatch.h) and add what that proves, each entry marked
 * KD_ORIGIN_RECOVERED.  The indexes are in two tiers: those of
 * kd_recover_add() (the kernel's own lists, a format index), and the
 * fallbacks of kd_recover_add_fallback() (the catalogues' msgids,
 * msgids.h), consulted only for a record the first tier claims nothing
 * of (no match, or formats without literal text only), so that a record
 * the kernel's lists explain keeps their format and call site.  It adds:
 *   FORMAT, ARG0..ARGn    the winner and what each conversion printed
 *                         (no ARGn when the text reads in two ways)
 *   CODE_FILE, CODE_LINE, CODE_FUNC, MODULE
 *                         each only when every matching site agrees
 *   FORMAT_PART=1         the format produced only the start of the text
 *                         (pr_cont() fragments or more lines follow)
 *   RECOVER_AMBIGUOUS=n   n sites could have printed the text (fmatch.h);
 *                         FORMAT is the one with the most literal bytes
 * Records that carry kprint fields, user-space records (a facility
 * other than kern) and empty texts are passed on untouched and not
 * counted.
 */
#ifndef KDMESG_RECOVER_H
#define KDMESG_RECOVER_H

#include <stdint.h>

#include "stage/fidx.h"
#include "record/record.h"

struct kd_recover_stats {
	uint64_t records;	/* kernel records without FORMAT, with text */
	uint64_t recovered;	/* a format for the whole text (ambiguous included) */
	uint64_t ambiguous;	/* of those, several sites could have printed it */
	uint64_t partial;	/* a format for the start of the text only */
	uint64_t nolit;		/* only formats without literal text fit */
	uint64_t unmatched;	/* no format fits */
	uint64_t no_args;	/* recovered, but the arguments are not proven */
	/* Of recovered and partial: by a fallback index (the catalogues' msgids). */
	uint64_t fallback;
	/* kernel records with a file and line but no function, named by an index */
	uint64_t func_named;
};

struct kd_recover;

/** kd_recover_new() - a stage with no index yet.  Returns 0 or -ENOMEM. */
int kd_recover_new(struct kd_recover **out);

/**
 * kd_recover_add() - consult @x (owned by the stage from now on, also on
 * failure) after the indexes added before it.  Returns 0, -ENOMEM or
 * -E2BIG past 8 indexes.
 */
int kd_recover_add(struct kd_recover *r, struct kd_fidx *x);

/**
 * kd_recover_add_fallback() - consult @x (owned by the stage from now on,
 * also on failure), after the fallbacks added before it, for the records
 * of which the indexes of kd_recover_add() claim nothing.  Returns as
 * kd_recover_add().
 */
int kd_recover_add_fallback(struct kd_recover *r, struct kd_fidx *x);

/**
 * kd_recover_set_chooser() - call @fn once, at the first record the stage
 * considers, with the kernel release of that record when it is the boot
 * banner ("Linux version RELEASE ...") or NULL, so that the front end
 * can add the index of the kernel that wrote a dump, and build what only
 * plain records need (kd_recover_add_fallback()).  @fn returns 0 or a
 * negative errno that ends the run.
 */
void kd_recover_set_chooser(struct kd_recover *r,
			    int (*fn)(void *data, struct kd_recover *r, const char *release),
			    void *data);

/** kd_recover_count() - the indexes added by kd_recover_add(). */
unsigned int kd_recover_count(const struct kd_recover *r);

/** kd_recover_fallbacks() - the indexes added by kd_recover_add_fallback(). */
unsigned int kd_recover_fallbacks(const struct kd_recover *r);

/**
 * kd_recover_apply() - struct kd_stage's @apply (KD_NEED_DICT, kd_recover_keys).
 * A record with kprint fields is left alone, except that one with
 * CODE_FILE and CODE_LINE but no CODE_FUNC gets the function an index
 * names at that line (fidx-lines.h), marked recovered.
 *
 * The recovered FORMAT, CODE_FILE, CODE_FUNC and MODULE values are lent
 * from the stage's indexes, not copied: free the stage only after the last
 * use of the records it filled.
 */
int kd_recover_apply(void *data, struct kd_record *rec);

/* The dictionary keys kd_recover_apply() reads. */
extern const char *const kd_recover_keys[];

/** kd_recover_stats() - what was recovered so far. */
const struct kd_recover_stats *kd_recover_stats(const struct kd_recover *r);

/**
 * kd_recover_free() - release @r and its indexes (NULL is fine); the values
 * kd_recover_apply() lent to records go with them.
 */
void kd_recover_free(struct kd_recover *r);

#endif /* KDMESG_RECOVER_H */
