/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * expand.h - the expansion stage (a struct kd_stage, pipeline.h): a
 * record of a kernel in the compact kprint mode carries, per call-site
 * block, one SITE=<object>:<index> <s>-<e>,... instead of the full keys
 * (kprint(7)).  With the kernel's site table (sites.h) the stage puts
 * back, in place of each <pfx>SITE entry, what full
 * mode writes there: <pfx>CODE_FILE, CODE_LINE, CODE_FUNC, MODULE
 * (unless "-"), FORMAT (unless empty), ARG0..ARGn (text[s, e) of each
 * span); for PART<k>_ blocks only FORMAT and ARGn.  The other entries
 * keep their order, so the dictionary is the one full mode writes.
 *
 * Only what the record proves is applied, to the whole record or not at
 * all.  Every block's site must be in the table, every span within the
 * text (a LINE<k>_ block's: within line k) and, for a format with
 * conversions, one span per conversion; and the format rendered with
 * those argument texts must be the text: a record's text, line k of a
 * group, or the parts of a pr_cont() record one after the other.  The
 * rendering may follow a device prefix that ends in ": " (dev_printk(),
 * netdev_printk(), ext4_msg()) or in ": [name] " (SCSI's sdev_printk()
 * family), or DRM's "[drm:<function>] " (with "*ERROR* " for
 * DRM_ERROR(); alone or after a device prefix); not for PART<k>_ blocks; with FORMAT_PART=1 it may
 * end before the text does (more parts follow); with ARGS_CUT=n only
 * the rendering up to argument n is compared, as far as the text goes
 * (the text was cut there).  These are full mode's own promises
 * (kprint(7)).  A format with %pV is checked less: spans in range, and
 * its text before the first conversion where the block starts.
 * A record that fails is left as it came (SITE) and counted.
 *
 * The entries added are marked KD_ORIGIN_KERNEL: they are the kernel's
 * own descriptor strings and the record's own bytes, checked against the
 * text, not a guess (kdmesg(1) explains which table is used).
 */
#ifndef KDMESG_EXPAND_H
#define KDMESG_EXPAND_H

#include <stdint.h>

#include "record/record.h"
#include "stage/sites.h"

struct kd_expand_stats {
	uint64_t records;	/* records with a SITE key */
	uint64_t expanded;	/* put back into full form */
	uint64_t no_table;	/* no site table for the record's kernel */
	uint64_t unresolved;	/* a SITE the table does not have */
	uint64_t inconsistent;	/* spans or text do not fit the table's site */
	uint64_t too_big;	/* full form past KD_DICT_MAX entries */
};

/*
 * The table for @rec's kernel, or NULL when there is none.  Called for
 * each record with a SITE key.
 */
typedef const struct kd_sites *(*kd_expand_table_fn)(void *data, const struct kd_record *rec);

struct kd_expand;

/** kd_expand_new() - a stage whose tables come from @fn.  Returns 0 or -ENOMEM. */
int kd_expand_new(struct kd_expand **out, kd_expand_table_fn fn, void *data);

/**
 * kd_expand_set_refresh() - when a record names a site its table lacks,
 * ask @fn (with the stage's data) once for a newer table of the same
 * kernel (the live kernel's, after a module was loaded) and look again;
 * @fn returns NULL when there is none.
 */
void kd_expand_set_refresh(struct kd_expand *x, kd_expand_table_fn fn);

/** kd_expand_apply() - struct kd_stage's @apply (KD_NEED_DICT, kd_expand_keys). */
int kd_expand_apply(void *data, struct kd_record *rec);

/*
 * The dictionary keys kd_expand_apply() reads (readers keep their
 * LINE<k>_ forms too; PART<k>_ blocks are seen when a consumer reads
 * every key, as only such a consumer reads PART<k>_ keys).
 */
extern const char *const kd_expand_keys[];

/** kd_expand_stats() - the counts so far. */
const struct kd_expand_stats *kd_expand_stats(const struct kd_expand *x);

/** kd_expand_free() - release @x (not the tables); NULL is fine. */
void kd_expand_free(struct kd_expand *x);

#endif /* KDMESG_EXPAND_H */
